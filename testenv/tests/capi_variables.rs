//! `capi_runtime::variable::check` against Cluster API's own judgement of variable values.
//!
//! Cluster API defaults and validates a Cluster's variables with one function,
//! `DefaultAndValidateVariables`, which its Cluster webhook runs at admission and its topology
//! controller runs again before it computes a topology (the webhooks do not run in the test
//! environment; the controller's run is the same function over the same definitions). A
//! value it refuses fails the reconcile: the Cluster's `TopologyReconciled` condition turns
//! False with reason `ReconcileFailed` and the `Invalid` error as its message. A value it
//! accepts is defaulted, and the defaulted value is what GeneratePatches receives.
//!
//! An extension declares six `#[derive(Variable)]` types through DiscoverVariables; one
//! Cluster per value of a corpus (valid values, one invalid value per keyword the schemas use,
//! defaults inside defaults, unknown and preserved fields, values CEL rules refuse with a
//! message or a message expression, reason and field path, int-or-string, a format, exclusive
//! bounds, values of the wrong type) sets one of them. For each, what `check::<V>` says must be
//! what Cluster API did: the same defaulted value reaching GeneratePatches, or the same field
//! errors in the condition's message, word for word (in any order: Go walks an object's
//! properties in random order).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use capi_runtime::go::errors::{BoxError, chain};
use capi_runtime::hook::ResponseStatus;
use capi_runtime::hooks::v1alpha1::{GeneratePatchesRequest, GeneratePatchesResponse};
use capi_runtime::server::Server;
use capi_runtime::variable::{Variable, VariableErrors, check};
use capi_runtime_testenv::topology::{
    ClusterClass, ExternalPatch, TopologyCluster, condition, control_plane_template, handler_name,
    infrastructure_cluster_template,
};
use capi_runtime_testenv::{ClusterApi, Result};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

const EXTENSION: &str = "variables-extension";

/// Where the Cluster's images come from.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "registry", required)]
#[schema(x_validation(
    rule = "self.scheme == 'https' || self.port != 443",
    message = "plain HTTP needs a port other than 443"
))]
struct Registry {
    /// Host name of the registry.
    #[schema(min_length = 1, max_length = 20, pattern = "^[a-z0-9.-]+$")]
    host: String,
    /// Port of the registry, 443 unless set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 65535, default = 443)]
    port: Option<i32>,
    /// How the images are fetched.
    #[schema(default = "https", enum_values("http", "https"))]
    scheme: Option<String>,
    /// Other registries with the same images.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 2)]
    mirrors: Vec<String>,
}

/// Registries that mirror the images, one to two, each once.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "mirrors")]
#[schema(min_items = 1, max_items = 2, unique_items)]
struct Mirrors(Vec<String>);

/// How the Cluster reaches the internet.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "proxy")]
struct Proxy {
    /// The proxy: by default the internal one. (Its default names the port: Cluster API checks
    /// a default against the CEL rules of its schema without the defaults inside it, so
    /// `{"host": "proxy.internal"}` alone fails `self.port != 443` with "no such key: port"
    /// and the ClusterClass's variables are refused.)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(default_json = r#"{"host": "proxy.internal", "port": 3128}"#)]
    endpoint: Option<Endpoint>,
    /// Headers sent to it, at most one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(max_properties = 1)]
    headers: BTreeMap<String, String>,
    /// The protocol.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(enum_values("http", "https"))]
    scheme: Option<String>,
    /// Settings passed on to the proxy as they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    extra: Option<Extra>,
}

/// A host and a port.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[schema(x_validation(
    rule = "self.port != 443",
    // Cluster API estimates a rule's cost and refuses a ClusterClass whose rules may cost too
    // much: `string(self.port)` in a message expression did ("exceeds budget by factor of more
    // than 100x"); a host of bounded length does not.
    message_expression = "self.host + ' uses the registry port'",
    reason = "FieldValueForbidden",
    field_path = ".port"
))]
struct Endpoint {
    /// The host.
    #[schema(max_length = 20)]
    host: String,
    /// The port.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(default = 3128)]
    port: Option<i32>,
}

/// Settings the proxy reads; fields beyond `mode` are kept.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[schema(preserve_unknown_fields)]
struct Extra {
    /// The proxy's mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<String>,
}

/// The share of the nodes, strictly between 0 and 1.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "share")]
#[schema(minimum = 0, exclusive_minimum, maximum = 1, exclusive_maximum)]
struct Share(f64);

/// The address of the DNS server.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "dns")]
#[schema(format = "ipv4")]
struct Dns(String);

/// How many nodes a rollout may add, as a number or a percentage.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "surge")]
struct Surge(IntOrString);

/// `check::<V>` for the variable named `name`.
fn check_named(name: &str, value: &Value) -> std::result::Result<Value, VariableErrors> {
    match name {
        "registry" => check::<Registry>(value),
        "mirrors" => check::<Mirrors>(value),
        "proxy" => check::<Proxy>(value),
        "share" => check::<Share>(value),
        "dns" => check::<Dns>(value),
        "surge" => check::<Surge>(value),
        other => panic!("no variable {other}"),
    }
}

/// The values the Clusters set: the Cluster's name, the variable and its value. A Cluster
/// that sets another variable than `registry` (which every Cluster must set) sets `registry`
/// to a valid value too.
fn corpus() -> Vec<(&'static str, &'static str, Value)> {
    let registry = |name, value| (name, "registry", value);
    let mut corpus: Vec<_> = registry_corpus()
        .into_iter()
        .map(|(name, value)| registry(name, value))
        .collect();
    corpus.extend([
        ("mirrors-ok", "mirrors", json!(["a"])),
        ("mirrors-min", "mirrors", json!([])),
        ("mirrors-unique", "mirrors", json!(["a", "a"])),
        ("mirrors-max", "mirrors", json!(["a", "b", "c"])),
        ("proxy-defaults", "proxy", json!({})),
        (
            "proxy-cel",
            "proxy",
            json!({"endpoint": {"host": "p", "port": 443}}),
        ),
        (
            "proxy-headers",
            "proxy",
            json!({"headers": {"a": "1", "b": "2"}}),
        ),
        (
            "proxy-preserved",
            "proxy",
            json!({"extra": {"mode": "x", "other": {"n": 1}}}),
        ),
        (
            "proxy-unknown",
            "proxy",
            json!({"endpoint": {"host": "p", "tls": true}}),
        ),
        ("proxy-scheme", "proxy", json!({"scheme": "gopher"})),
        ("share-ok", "share", json!(0.5)),
        ("share-zero", "share", json!(0)),
        ("share-one", "share", json!(1)),
        ("dns-ok", "dns", json!("10.0.0.1")),
        ("dns-format", "dns", json!("10.0.0")),
        ("surge-int", "surge", json!(1)),
        ("surge-percent", "surge", json!("25%")),
        ("surge-bool", "surge", json!(true)),
    ]);
    corpus
}

/// The values of `registry` the Clusters of its part of the corpus set.
fn registry_corpus() -> Vec<(&'static str, Value)> {
    vec![
        ("ok-defaults", json!({"host": "r.example"})),
        (
            "ok-everything",
            json!({"host": "r.example", "port": 5000, "scheme": "http", "mirrors": ["m1", "m2"]}),
        ),
        ("empty-host", json!({"host": ""})),
        ("host-pattern", json!({"host": "R!"})),
        ("host-length", json!({"host": "a-host-name-longer-than-20"})),
        ("port-maximum", json!({"host": "r", "port": 70000})),
        ("port-minimum", json!({"host": "r", "port": 0})),
        ("scheme-enum", json!({"host": "r", "scheme": "ftp"})),
        (
            "registry-mirrors-max",
            json!({"host": "r", "mirrors": ["a", "b", "c"]}),
        ),
        ("unknown-field", json!({"host": "r", "colour": "blue"})),
        ("host-missing", json!({"port": 5000})),
        ("cel-refusal", json!({"host": "r", "scheme": "http"})),
        ("not-an-object", json!("r.example")),
        ("host-type", json!({"host": 5})),
        ("two-errors", json!({"host": "", "port": 0})),
    ]
}

/// Every order of `items` (a few at most).
fn orders(items: &[String]) -> Vec<Vec<String>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for (i, first) in items.iter().enumerate() {
        let mut rest = items.to_vec();
        rest.remove(i);
        for mut tail in orders(&rest) {
            tail.insert(0, first.clone());
            all.push(tail);
        }
    }
    all
}

/// What Cluster API did with a value: accepted (the value GeneratePatches received) or
/// refused (the condition's message).
#[derive(Debug, PartialEq)]
enum Verdict {
    Accepted(Value),
    Refused(String),
}

fn must<T>(r: Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("{}", chain(&e)))
}

/// The variables each GeneratePatches call received, by the Cluster's name.
type Seen = Arc<Mutex<BTreeMap<String, BTreeMap<String, Value>>>>;

fn record(seen: &Seen, request: &GeneratePatchesRequest) {
    let values: BTreeMap<String, Value> = request
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.value.to_value().unwrap()))
        .collect();
    if let Some(Value::String(cluster)) = values
        .get("builtin")
        .and_then(|b| b.pointer("/cluster/name"))
        .cloned()
    {
        seen.lock().unwrap().insert(cluster, values);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_agrees_with_cluster_apis_defaulting_and_validation() {
    let capi = must(
        ClusterApi::builder("capi-variables")
            .test_providers()
            .start()
            .await,
    );
    let seen: Seen = Arc::default();
    let s = seen.clone();
    let builder = Server::builder()
        .handle(
            "generate-patches",
            move |request: GeneratePatchesRequest| {
                let s = s.clone();
                async move {
                    record(&s, &request);
                    Ok::<_, String>(GeneratePatchesResponse {
                        status: ResponseStatus::Success,
                        ..Default::default()
                    })
                }
            },
        )
        .variable::<Registry>()
        .variable::<Mirrors>()
        .variable::<Proxy>()
        .variable::<Share>()
        .variable::<Dns>()
        .variable::<Surge>()
        .discover_variables("discover-variables");
    let _extension = must(capi.serve_extension(EXTENSION, builder).await);

    let ns = "variables";
    must(capi.create_namespace(ns).await);
    must(
        capi.create(&infrastructure_cluster_template(ns, "infra", json!({})))
            .await,
    );
    must(
        capi.create(&control_plane_template(ns, "control-plane", json!({})))
            .await,
    );
    let class = "variables-class";
    must(
        capi.create(
            &ClusterClass::new(ns, class, "infra", "control-plane").patch(
                ExternalPatch::new("rust-patches")
                    .generate_patches(handler_name("generate-patches", EXTENSION))
                    .discover_variables(handler_name("discover-variables", EXTENSION)),
            ),
        )
        .await,
    );
    let classes = must(
        capi.api(ns, "cluster.x-k8s.io/v1beta2", "ClusterClass")
            .await,
    );
    must(
        capi.wait_for("the ClusterClass's variables", || {
            let classes = classes.clone();
            async move {
                let c = classes.get(class).await?;
                match condition(&c, "VariablesReady") {
                    Some(v)
                        if v.status == "True"
                            && c.data["status"]["observedGeneration"].as_i64()
                                == c.metadata.generation =>
                    {
                        Ok(())
                    }
                    other => Err(BoxError::from(format!("VariablesReady {other:?}"))),
                }
            }
        })
        .await,
    );

    let corpus = corpus();
    let names: std::collections::BTreeSet<_> = corpus.iter().map(|(name, ..)| name).collect();
    assert_eq!(names.len(), corpus.len(), "one Cluster per value");
    for (name, variable, value) in &corpus {
        let mut cluster =
            TopologyCluster::new(ns, name, class, "v1.31.0").variable_json(variable, value.clone());
        if *variable != "registry" {
            cluster = cluster.variable_json("registry", json!({"host": "r.example"}));
        }
        must(capi.create(&cluster).await);
    }

    let clusters = must(capi.api(ns, "cluster.x-k8s.io/v1beta2", "Cluster").await);
    let mut verdicts = BTreeMap::new();
    for (name, variable, _) in &corpus {
        let clusters = clusters.clone();
        let seen = seen.clone();
        let what = format!("Cluster API's verdict on {name}");
        let verdict = capi.wait_for(&what, || {
            let clusters = clusters.clone();
            let seen = seen.clone();
            async move {
                if let Some(values) = seen.lock().unwrap().get(*name) {
                    return Ok(Verdict::Accepted(
                        values.get(*variable).cloned().unwrap_or(Value::Null),
                    ));
                }
                let c = clusters.get(name).await?;
                match condition(&c, "TopologyReconciled") {
                    // The variables' refusal, not a passing state such as a ClusterClass
                    // not reconciled yet.
                    Some(cond)
                        if cond.reason == "ReconcileFailed"
                            && cond.message.contains(" is invalid: ") =>
                    {
                        Ok(Verdict::Refused(cond.message))
                    }
                    other => Err(BoxError::from(format!("TopologyReconciled {other:?}"))),
                }
            }
        });
        verdicts.insert(*name, must(verdict.await));
    }

    let mut differences = Vec::new();
    for (name, variable, value) in &corpus {
        let theirs = &verdicts[name];
        eprintln!("{name}: {theirs:?}");
        let agree = match (check_named(variable, value), theirs) {
            (Ok(defaulted), Verdict::Accepted(received)) => &defaulted == received,
            (Err(errors), Verdict::Refused(message)) => {
                // Go's object validator walks the properties of a map, in random order: errors
                // of several properties come in any order, so any order of ours matches.
                let prefix = format!("Cluster.cluster.x-k8s.io \"{name}\" is invalid: ");
                let each: Vec<String> = errors.errors().iter().map(|e| e.to_string()).collect();
                orders(&each).iter().any(|order| {
                    let list = if order.len() == 1 {
                        order[0].clone()
                    } else {
                        format!("[{}]", order.join(", "))
                    };
                    *message == format!("{prefix}{list}")
                })
            }
            _ => false,
        };
        if !agree {
            differences.push(format!(
                "{name} ({value}):\n  Cluster API: {theirs:?}\n  check:       {:?}",
                check_named(variable, value).map_err(|e| e.to_string())
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} values judged differently:\n{}",
        differences.len(),
        corpus.len(),
        differences.join("\n")
    );
    // Both outcomes were met.
    let accepted = verdicts
        .values()
        .filter(|v| matches!(v, Verdict::Accepted(_)))
        .count();
    assert!(accepted >= 2 && accepted < corpus.len(), "{verdicts:?}");
}
