//! Lifecycle requests from each supported Cluster API, decoded by the SDK into the one view
//! handlers see, against Cluster API's own conversion.
//!
//! `hook-shapes-<version> corpus` (built by `cargo xtask testenv` from `interop/hook-shapes/`)
//! encodes each of the nine lifecycle requests around each Cluster of
//! `interop/hook-shapes/corpus/` with that version's own Go types, as its manager sends them:
//! v1.12.5 embeds a `cluster.x-k8s.io/v1beta1` Cluster, v1.13.6 and v1.14.2 a v1beta2 one. Beside
//! each body it gives the Cluster as v1beta2, converted by Cluster API's own `ConvertTo` (the
//! oracle) or, for v1beta2, as the request carries it.
//!
//! For each request the SDK's `decode_request` must: say which shape arrived; give a request
//! whose every JSON leaf (the Cluster's and the other fields') is the leaf Go's conversion
//! has, at the same path, and no other; and list as unconverted exactly the leaves of a v1beta1
//! Cluster whose value Go's conversion does not carry (a reference's namespace, a topology's
//! `rolloutAfter`, a variable's `definitionFrom`, the fraction of a second of a timeout).
//! Whether Go carries a leaf is told by its value, so the corpus gives every string leaf a
//! value of its own.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use capi_runtime::hooks::v1alpha1::{self as hooks, Arrival, ClusterApiShape, decode_request};
use capi_runtime_oracle::program;
use serde_json::Value;

const VERSIONS: &[(&str, ClusterApiShape)] = &[
    ("v1.12.5", ClusterApiShape::V1Beta1),
    ("v1.13.6", ClusterApiShape::V1Beta2),
    ("v1.14.2", ClusterApiShape::V1Beta2),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One encoded request of the corpus.
struct Encoded {
    hook: String,
    file: String,
    shape: String,
    body: Value,
    cluster: Value,
}

fn corpus(version: &str) -> Vec<Encoded> {
    let path = program(&format!("hook-shapes-{version}")).unwrap_or_else(|e| panic!("{e}"));
    let out = std::process::Command::new(&path)
        .arg("corpus")
        .arg(root().join("interop/hook-shapes/corpus"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["requests"]
        .as_array()
        .unwrap_or_else(|| {
            panic!(
                "{} has no corpus mode: built from older sources, run `cargo xtask testenv`",
                path.display()
            )
        })
        .iter()
        .map(|r| Encoded {
            hook: r["hook"].as_str().unwrap().to_string(),
            file: r["file"].as_str().unwrap().to_string(),
            shape: r["shape"].as_str().unwrap().to_string(),
            body: r["body"].clone(),
            cluster: r["cluster"].clone(),
        })
        .collect()
}

/// Decodes `body` as a request of the hook named `hook`; the request as the SDK writes it.
fn decode(hook: &str, body: &[u8]) -> (Value, Arrival) {
    macro_rules! by_name {
        ($($h:ident),*) => {
            match hook {
                $(stringify!($h) => {
                    let (request, arrival) = decode_request::<hooks::$h>(body)
                        .unwrap_or_else(|e| panic!("{hook}: {e}"));
                    (serde_json::to_value(&request).unwrap(), arrival)
                })*
                other => panic!("not a lifecycle hook: {other}"),
            }
        };
    }
    by_name!(
        BeforeClusterCreate,
        AfterControlPlaneInitialized,
        BeforeClusterUpgrade,
        BeforeControlPlaneUpgrade,
        AfterControlPlaneUpgrade,
        BeforeWorkersUpgrade,
        AfterWorkersUpgrade,
        AfterClusterUpgrade,
        BeforeClusterDelete
    )
}

/// The leaves of a JSON value by path (`cluster.spec.topology.variables[0].name`); empty
/// strings, empty containers and nulls are no leaves (either side may leave them out).
fn leaves(v: &Value, at: &str, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                leaves(v, &path, out);
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                leaves(v, &format!("{at}[{i}]"), out);
            }
        }
        Value::Null => {}
        Value::String(s) if s.is_empty() => {}
        other => {
            out.insert(at.to_string(), other.clone());
        }
    }
}

/// Seconds of a Go duration as the corpus writes them (`1m30.5s`, `45s`): whole seconds and
/// whether there is a fraction; `None` for other strings.
fn duration(text: &str) -> Option<(i64, bool)> {
    let mut rest = text;
    let mut nanos: i128 = 0;
    let mut any = false;
    while !rest.is_empty() {
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        let (number, tail) = rest.split_at(end);
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_end);
        let scale: i128 = match unit {
            "h" => 3_600_000_000_000,
            "m" => 60_000_000_000,
            "s" => 1_000_000_000,
            _ => return None,
        };
        let value: f64 = number.parse().ok()?;
        nanos += (value * scale as f64) as i128;
        any = true;
        rest = tail;
    }
    any.then_some(((nanos / 1_000_000_000) as i64, nanos % 1_000_000_000 != 0))
}

/// The string leaves of the sent v1beta1 Cluster that Go's conversion does not carry: the
/// value appears nowhere among the converted leaves (a duration: as its whole seconds, and
/// without a fraction).
fn lost_by_go(
    sent: &BTreeMap<String, Value>,
    converted: &BTreeMap<String, Value>,
) -> BTreeSet<String> {
    let values: BTreeSet<String> = converted.values().map(|v| v.to_string()).collect();
    sent.iter()
        .filter(|(path, _)| path.as_str() != "cluster.apiVersion")
        .filter_map(|(path, v)| {
            let text = v.as_str()?;
            let carried = match duration(text) {
                Some((seconds, fraction)) => !fraction && values.contains(&seconds.to_string()),
                None => values.contains(&v.to_string()),
            };
            (!carried).then(|| path.clone())
        })
        .collect()
}

#[test]
fn lifecycle_requests_of_every_supported_cluster_api_decode_into_the_v1beta2_view() {
    let mut failures = Vec::new();
    let (mut requests, mut compared, mut reported) = (0, 0, 0);
    for &(version, shape) in VERSIONS {
        let corpus = corpus(version);
        assert!(!corpus.is_empty(), "{version}: an empty corpus");
        for e in corpus {
            requests += 1;
            let label = format!("{version} {} with {}", e.hook, e.file);
            let body = serde_json::to_vec(&e.body).unwrap();
            let (decoded, arrival) = decode(&e.hook, &body);
            if arrival.shape() != Some(shape) || e.shape != format!("{shape:?}").to_lowercase() {
                failures.push(format!(
                    "{label}: arrived as {:?}, Go sent {}",
                    arrival.shape(),
                    e.shape
                ));
            }
            // What Go's conversion makes of the request: the body, its Cluster converted.
            let mut expected_request = e.body.clone();
            expected_request["cluster"] = e.cluster.clone();
            let mut expected = BTreeMap::new();
            leaves(&expected_request, "", &mut expected);
            let mut got = BTreeMap::new();
            leaves(&decoded, "", &mut got);
            compared += expected.len();
            for (path, want) in &expected {
                match got.get(path) {
                    Some(have) if have == want => {}
                    have => {
                        failures.push(format!("{label}: {path}: Go has {want}, the SDK {have:?}"))
                    }
                }
            }
            for (path, have) in &got {
                if !expected.contains_key(path) {
                    failures.push(format!("{label}: {path}: only the SDK has {have}"));
                }
            }
            // What the view cannot hold is reported, and only that.
            let mut sent = BTreeMap::new();
            leaves(
                &serde_json::json!({"cluster": e.body["cluster"]}),
                "",
                &mut sent,
            );
            let lost = if e.shape == "v1beta1" {
                lost_by_go(&sent, &expected)
            } else {
                BTreeSet::new()
            };
            let said: BTreeSet<String> = arrival
                .unconverted()
                .iter()
                .map(|u| u.path().to_string())
                .collect();
            reported += said.len();
            for path in lost.difference(&said) {
                failures.push(format!("{label}: {path}: lost without a word"));
            }
            for path in said.difference(&lost) {
                failures.push(format!(
                    "{label}: {path}: reported, but Go's conversion carries it"
                ));
            }
        }
    }
    eprintln!(
        "{requests} requests, {compared} leaves compared, {reported} unconverted leaves reported, {} differences",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
