//! The wire codec against plain `serde_json::from_slice` into the same types, side by side:
//! decode throughput (MB/s) of a realistic 20 MiB GeneratePatches request and response, and
//! what decoding costs in memory (peak RSS growth of a child process that decodes once) for the
//! realistic messages and for each hostile shape at the body cap, next to the budget the
//! decoder charged; and what telling a lifecycle request's Cluster shape (v1beta1 from a v1.12
//! manager, v1beta2 from later ones) adds to its decoding. Run with `cargo bench --bench wire`
//! (`-- small` or `-- shapes` for those rows alone).
//!
//! Rounds alternate between the two decoders so drift on a shared machine hits both; the
//! medians and their ratio are reported, never asserted.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use capi_runtime::Hook;
use capi_runtime::hooks::v1alpha1::{
    AfterControlPlaneInitialized, BeforeClusterCreate, BeforeClusterCreateRequest,
    DiscoverVariables, DiscoverVariablesResponse, GeneratePatches, GeneratePatchesRequest,
    GeneratePatchesResponse, decode_request,
};
use capi_runtime::wire;

#[path = "../tests/it/support/wire_payloads.rs"]
mod wire_payloads;
use wire_payloads::*;

/// A field of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`).
fn proc_status(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// In a child process: reads the body, resets the peak RSS, decodes, prints the growth of
/// the peak over the RSS before decoding, and the outcome.
fn child(decoder: &str, file: &Path) {
    let body = std::fs::read(file).unwrap();
    // Writing 5 to clear_refs resets the peak resident set size to the current one.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = proc_status("VmRSS");
    let outcome = match decoder {
        "ours-gp-request" => gp_request(&body),
        "ours-gp-response" => gp_response(&body),
        "ours-dv-response" => dv_response(&body),
        "plain-gp-request" => plain(serde_json::from_slice::<GeneratePatchesRequest>(&body)),
        "plain-gp-response" => plain(serde_json::from_slice::<GeneratePatchesResponse>(&body)),
        "plain-dv-response" => plain(serde_json::from_slice::<DiscoverVariablesResponse>(&body)),
        other => panic!("unknown decoder {other}"),
    };
    let peak = proc_status("VmHWM");
    println!("{} {outcome}", peak.saturating_sub(before));
}

fn plain<T>(result: serde_json::Result<T>) -> String {
    match result {
        Ok(v) => {
            drop(black_box(v));
            "decoded".into()
        }
        Err(e) => format!("refused ({})", e.classify() as u8),
    }
}

/// Runs `decoder` on `body` in a child process: (peak RSS growth, outcome).
fn measure(dir: &Path, name: &str, decoder: &str, body: &[u8]) -> (usize, String) {
    let file: PathBuf = dir.join(format!(
        "{}.json",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    ));
    std::fs::write(&file, body).unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--child", decoder])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (peak, outcome) = text.trim().split_once(' ').unwrap_or(("0", "crashed"));
    let outcome = if out.status.success() {
        outcome.to_string()
    } else {
        format!("child failed: {}", out.status)
    };
    (peak.parse().unwrap_or(0), outcome)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn mb_per_s(bytes: usize, secs: f64) -> f64 {
    bytes as f64 / secs / 1e6
}

fn throughput(name: &str, body: &[u8], ours: &dyn Fn(&[u8]), plain: &dyn Fn(&[u8])) {
    const ROUNDS: usize = 9;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let once = |f: &dyn Fn(&[u8]), into: &mut Vec<f64>| {
            let start = Instant::now();
            f(body);
            into.push(mb_per_s(body.len(), start.elapsed().as_secs_f64()));
        };
        if round % 2 == 0 {
            once(ours, &mut a);
            once(plain, &mut b);
        } else {
            once(plain, &mut b);
            once(ours, &mut a);
        }
    }
    let (a, b) = (median(a), median(b));
    println!(
        "| {name} ({:.1} MiB) | {a:.0} MB/s | {b:.0} MB/s | {:.2} |",
        body.len() as f64 / (1 << 20) as f64,
        a / b
    );
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

fn memory(dir: &Path, name: &str, body: &[u8], ours: &str, plain: &str) {
    let (peak, outcome) = measure(dir, name, ours, body);
    let (plain_peak, plain_outcome) = measure(dir, name, plain, body);
    println!(
        "| {name} | {} | {} | {outcome} | {} ({plain_outcome}) |",
        mib(body.len()),
        mib(peak),
        mib(plain_peak)
    );
}

fn gp_request(body: &[u8]) -> String {
    match wire::decode_request_with::<GeneratePatches>(body, &wire::Limits::default()) {
        Ok(d) => {
            let charged = d.charged;
            drop(black_box(d));
            format!("decoded, charged {}", mib(charged))
        }
        Err(e) => format!("refused ({:?})", e.kind()),
    }
}

fn gp_response(body: &[u8]) -> String {
    match wire::decode_response_with::<GeneratePatches>(body, &wire::Limits::default()) {
        Ok(d) => {
            let charged = d.charged;
            drop(black_box(d));
            format!("decoded, charged {}", mib(charged))
        }
        Err(e) => format!("refused ({:?})", e.kind()),
    }
}

fn dv_response(body: &[u8]) -> String {
    match wire::decode_response_with::<DiscoverVariables>(body, &wire::Limits::default()) {
        Ok(d) => {
            let charged = d.charged;
            drop(black_box(d));
            format!("decoded, charged {}", mib(charged))
        }
        Err(e) => format!("refused ({:?})", e.kind()),
    }
}

/// A DiscoverVariables response of about `size` bytes whose variables each hold a schema of
/// `not` nested 123 deep (the innermost object at the nesting limit of 128) around a schema
/// with a 1 KiB description; `top` is written first in the outermost object.
fn nested_to_the_limit(size: usize, top: &str) -> Vec<u8> {
    let depth = wire::DEFAULT_MAX_DEPTH - 5;
    let chain = format!(
        "{}{{\"description\":\"{}\"}}{}",
        "{\"not\":".repeat(depth),
        "d".repeat(1 << 10),
        "}".repeat(depth)
    );
    let variable = format!("{{\"name\":\"v\",\"schema\":{{\"openAPIV3Schema\":{chain}}}}}");
    let mut body = format!("{{{top}\"status\":\"Success\",\"variables\":[");
    let mut first = true;
    while body.len() + variable.len() + 3 < size {
        if !first {
            body.push(',');
        }
        body.push_str(&variable);
        first = false;
    }
    body.push_str("]}");
    body.into_bytes()
}

/// The careful mode (one repeated key at the top of the message) against the fast mode and
/// `serde_json::from_slice` (which refuses a repeated field, so it reads the message without
/// the repeat), on schemas nested to the depth limit.
fn careful_rows() {
    const ROUNDS: usize = 9;
    let repeated = nested_to_the_limit(4 << 20, "\"message\":\"a\",\"message\":\"b\",");
    let plain_body = nested_to_the_limit(4 << 20, "\"message\":\"b\",");
    let careful = || {
        let d = wire::decode_response::<DiscoverVariables>(&repeated).unwrap();
        assert_eq!(d.message.message, "b");
        drop(black_box(d));
    };
    let fast = || {
        drop(black_box(
            wire::decode_response::<DiscoverVariables>(&plain_body).unwrap(),
        ))
    };
    let plain = || {
        drop(black_box(
            serde_json::from_slice::<DiscoverVariablesResponse>(&plain_body)
                .map_err(|e| e.to_string()),
        ))
    };
    let plain_ok = serde_json::from_slice::<DiscoverVariablesResponse>(&plain_body).is_ok();
    let (mut c, mut f, mut p) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let once = |run: &dyn Fn(), into: &mut Vec<f64>, len: usize| {
            let start = Instant::now();
            run();
            into.push(mb_per_s(len, start.elapsed().as_secs_f64()));
        };
        let order: [usize; 3] = if round % 2 == 0 { [0, 1, 2] } else { [2, 1, 0] };
        for which in order {
            match which {
                0 => once(&careful, &mut c, repeated.len()),
                1 => once(&fast, &mut f, plain_body.len()),
                _ => once(&plain, &mut p, plain_body.len()),
            }
        }
    }
    let (c, f, p) = (median(c), median(f), median(p));
    println!(
        "\n## one repeated key at the top, schemas nested to the depth limit, median of {ROUNDS} rounds\n"
    );
    println!(
        "| message | careful mode | fast mode (no repeat) | serde_json::from_slice (no repeat) | careful / fast | careful / serde_json |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    // serde_json counts nesting its own way and refuses the message at its recursion limit.
    let (plain, ratio) = if plain_ok {
        (format!("{p:.0} MB/s"), format!("{:.2}", c / p))
    } else {
        ("refused (recursion limit)".to_string(), "n/a".to_string())
    };
    println!(
        "| DiscoverVariables response, `not` 123 deep ({:.1} MiB) | {c:.0} MB/s | {f:.0} MB/s | {plain} | {:.2} | {ratio} |",
        repeated.len() as f64 / (1 << 20) as f64,
        c / f,
    );
}

/// A BeforeClusterCreate request (a small hook) with a Cluster as a running management cluster
/// holds it: metadata with times and managed fields, a topology, status conditions of both
/// kinds (metav1 and the deprecated v1beta1 ones), replica counts.
fn before_cluster_create_request() -> Vec<u8> {
    let time = "2026-03-01T10:20:30Z";
    let condition = |kind: &str| {
        serde_json::json!({
            "type": kind, "status": "True", "reason": "Ready", "message": "",
            "observedGeneration": 3, "lastTransitionTime": time,
        })
    };
    let v1beta1 = |kind: &str| serde_json::json!({ "type": kind, "status": "True", "severity": "", "lastTransitionTime": time });
    let replicas = serde_json::json!({
        "availableReplicas": 3, "desiredReplicas": 3, "readyReplicas": 3, "replicas": 3,
        "upToDateReplicas": 3, "versions": [{ "version": "v1.36.0", "replicas": 3 }],
    });
    let conditions = [
        "Available",
        "InfrastructureReady",
        "ControlPlaneAvailable",
        "WorkersAvailable",
        "TopologyReconciled",
    ]
    .map(condition);
    let deprecated = ["Ready", "ControlPlaneReady", "InfrastructureReady"].map(v1beta1);
    let body = serde_json::json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "BeforeClusterCreateRequest",
        "settings": { "origin": "bench" },
        "cluster": {
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "Cluster",
            "metadata": {
                "name": "c1", "namespace": "default", "generation": 3,
                "uid": "0d5b3a9e-5f4c-4b43-9a63-0f2f6d1f0a11", "resourceVersion": "48213",
                "creationTimestamp": time,
                "labels": { "cluster.x-k8s.io/cluster-name": "c1", "topology.cluster.x-k8s.io/owned": "" },
                "annotations": { "example.com/owner": "platform" },
                "finalizers": ["cluster.cluster.x-k8s.io"],
                "managedFields": [{
                    "manager": "capi-topology", "operation": "Apply", "apiVersion": "cluster.x-k8s.io/v1beta2",
                    "time": time, "fieldsType": "FieldsV1",
                    "fieldsV1": { "f:spec": { "f:topology": { "f:version": {} } } },
                }],
            },
            "spec": {
                "clusterNetwork": {
                    "apiServerPort": 6443,
                    "pods": { "cidrBlocks": ["192.168.0.0/16"] },
                    "services": { "cidrBlocks": ["10.128.0.0/12"] },
                    "serviceDomain": "cluster.local",
                },
                "controlPlaneEndpoint": { "host": "172.18.0.3", "port": 6443 },
                "controlPlaneRef": { "apiGroup": "controlplane.cluster.x-k8s.io", "kind": "KubeadmControlPlane", "name": "c1-cp" },
                "infrastructureRef": { "apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerCluster", "name": "c1-infra" },
                "topology": {
                    "classRef": { "name": "quick-start" },
                    "version": "v1.36.0",
                    "controlPlane": { "replicas": 3, "metadata": { "labels": { "tier": "cp" } } },
                    "workers": { "machineDeployments": [
                        { "class": "default-worker", "name": "md-0", "replicas": 2 },
                        { "class": "default-worker", "name": "md-1", "replicas": 2 },
                    ] },
                    "variables": [
                        { "name": "imageRepository", "value": "registry.example.com" },
                        { "name": "podSecurityStandard", "value": { "enabled": true, "audit": "restricted" } },
                    ],
                },
            },
            "status": {
                "conditions": conditions,
                "deprecated": { "v1beta1": { "conditions": deprecated } },
                "initialization": { "infrastructureProvisioned": true, "controlPlaneInitialized": true },
                "controlPlane": replicas,
                "workers": replicas,
                "observedGeneration": 3,
                "phase": "Provisioned",
            },
        },
    });
    serde_json::to_vec(&body).unwrap()
}

/// Decode throughput of a small hook's request: many decodings per round, as a server sees
/// them.
fn small_rows() {
    const ROUNDS: usize = 15;
    const BATCH: usize = 2_000;
    let body = before_cluster_create_request();
    // The same message with one key repeated at the top: decoded again in the careful mode.
    let mut repeated = body.clone();
    repeated.splice(1..1, b"\"kind\":\"x\",".iter().copied());
    let ours = |b: &[u8]| {
        for _ in 0..BATCH {
            drop(black_box(
                wire::decode_request::<BeforeClusterCreate>(black_box(b)).unwrap(),
            ));
        }
    };
    let plain = |b: &[u8]| {
        for _ in 0..BATCH {
            drop(black_box(
                serde_json::from_slice::<BeforeClusterCreateRequest>(black_box(b)).unwrap(),
            ));
        }
    };
    let (mut fast, mut careful, mut p) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let once = |run: &dyn Fn(&[u8]), b: &[u8], into: &mut Vec<f64>| {
            let start = Instant::now();
            run(b);
            into.push(mb_per_s(b.len() * BATCH, start.elapsed().as_secs_f64()));
        };
        let order: [usize; 3] = if round % 2 == 0 { [0, 1, 2] } else { [2, 1, 0] };
        for which in order {
            match which {
                0 => once(&ours, &body, &mut fast),
                1 => once(&ours, &repeated, &mut careful),
                _ => once(&plain, &body, &mut p),
            }
        }
    }
    let (fast, careful, p) = (median(fast), median(careful), median(p));
    println!(
        "\n## a small hook: BeforeClusterCreate request ({} bytes), {BATCH} decodings per round, median of {ROUNDS} rounds\n",
        body.len()
    );
    println!(
        "| wire codec | wire codec, one key repeated (careful mode) | serde_json::from_slice | wire / serde_json |"
    );
    println!("|---:|---:|---:|---:|");
    println!(
        "| {fast:.0} MB/s | {careful:.0} MB/s | {p:.0} MB/s | {:.2} |",
        fast / p
    );
}

/// What telling the Cluster's shape costs a lifecycle request: the server's decoding
/// (`hooks::v1alpha1::decode_request`: a first pass that reads only what tells the shape, then
/// the decoding of that shape, converted to the v1beta2 view for a v1beta1 Cluster) against the
/// wire codec's decoding as v1beta2 alone, on requests captured from the real v1.14.2 and
/// v1.12.5 managers (`testdata/captured/`) and on the larger BeforeClusterCreate above.
fn shape_rows() {
    const ROUNDS: usize = 15;
    const BATCH: usize = 5_000;
    let captured = |version: &str, file: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/captured")
            .join(version)
            .join(file);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    type Decode = fn(&[u8]);
    let rows: [(&str, Vec<u8>, Decode, Decode); 3] = [
        (
            "AfterControlPlaneInitialized from v1.14.2 (v1beta2)",
            captured("v1.14.2", "after-control-plane-initialized.json"),
            as_v1beta2::<AfterControlPlaneInitialized>,
            shape_told::<AfterControlPlaneInitialized>,
        ),
        (
            "AfterControlPlaneInitialized from v1.12.5 (v1beta1, converted)",
            captured("v1.12.5", "after-control-plane-initialized.json"),
            as_v1beta2::<AfterControlPlaneInitialized>,
            shape_told::<AfterControlPlaneInitialized>,
        ),
        (
            "the BeforeClusterCreate above (v1beta2, full status)",
            before_cluster_create_request(),
            as_v1beta2::<BeforeClusterCreate>,
            shape_told::<BeforeClusterCreate>,
        ),
    ];
    println!(
        "\n## telling the Cluster's shape, {BATCH} decodings per round, median of {ROUNDS} alternating rounds\n"
    );
    println!("| request | bytes | as v1beta2 alone | shape told, then decoded | ratio |");
    println!("|---|---:|---:|---:|---:|");
    for (name, body, plain, told) in rows {
        let batch = |decode: Decode| {
            for _ in 0..BATCH {
                decode(&body);
            }
        };
        let (mut a, mut t) = (Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            let once = |decode: Decode, into: &mut Vec<f64>| {
                let start = Instant::now();
                batch(decode);
                into.push(start.elapsed().as_secs_f64() * 1e6 / BATCH as f64);
            };
            if round % 2 == 0 {
                once(plain, &mut a);
                once(told, &mut t);
            } else {
                once(told, &mut t);
                once(plain, &mut a);
            }
        }
        let (a, t) = (median(a), median(t));
        println!(
            "| {name} | {} | {a:.1} µs | {t:.1} µs | {:.2} |",
            body.len(),
            t / a
        );
    }
}

/// A lifecycle request decoded by the wire codec as v1beta2, as the server did before it told
/// shapes apart.
fn as_v1beta2<H: Hook>(body: &[u8]) {
    drop(black_box(
        wire::decode_request::<H>(black_box(body)).unwrap(),
    ));
}

/// A lifecycle request decoded as the server decodes it: its Cluster's shape told first.
fn shape_told<H: Hook>(body: &[u8]) {
    drop(black_box(decode_request::<H>(black_box(body)).unwrap()));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo bench --bench wire -- shapes`: the rows of telling the Cluster's shape alone.
    if args.iter().any(|a| a == "shapes") {
        shape_rows();
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(&args[i + 1], Path::new(&args[i + 2]));
        return;
    }
    // `cargo bench --bench wire -- small`: the small hook's rows alone (for a profiler).
    if args.iter().any(|a| a == "small") {
        small_rows();
        return;
    }
    let request = generate_patches_request(5_000);
    let response = generate_patches_response(5_000);

    println!("## decode throughput, median of 9 alternating rounds\n");
    println!("| message | wire codec | serde_json::from_slice | ratio |");
    println!("|---|---:|---:|---:|");
    throughput(
        "GeneratePatches request, 5,000 items",
        &request,
        &|b| {
            drop(black_box(
                wire::decode_request::<GeneratePatches>(b).unwrap(),
            ))
        },
        &|b| {
            drop(black_box(
                serde_json::from_slice::<GeneratePatchesRequest>(b).unwrap(),
            ))
        },
    );
    throughput(
        "GeneratePatches response, 5,000 items",
        &response,
        &|b| {
            drop(black_box(
                wire::decode_response::<GeneratePatches>(b).unwrap(),
            ))
        },
        &|b| {
            drop(black_box(
                serde_json::from_slice::<GeneratePatchesResponse>(b).unwrap(),
            ))
        },
    );

    careful_rows();
    small_rows();
    shape_rows();

    println!("\n## peak RSS growth while decoding (child process per run, body read first)\n");
    println!("| message | body | wire codec | outcome | serde_json::from_slice |");
    println!("|---|---:|---:|---|---:|");
    let dir = std::env::temp_dir().join(format!("wire-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (req, res, dv) = (
        ("ours-gp-request", "plain-gp-request"),
        ("ours-gp-response", "plain-gp-response"),
        ("ours-dv-response", "plain-dv-response"),
    );
    let cases: Vec<(&str, Vec<u8>, (&str, &str))> = vec![
        ("realistic GeneratePatches request", request, req),
        ("realistic GeneratePatches response", response, res),
        (
            "GeneratePatches `items: [{},...]`",
            array_of("{\"items\":", "{}", "}", CAP),
            req,
        ),
        (
            "GeneratePatches `items[0].variables: [{},...]`",
            array_of("{\"items\":[{\"variables\":", "{}", "}]}", CAP),
            req,
        ),
        (
            "GeneratePatches `items[0].object: [{},...]`",
            array_of("{\"items\":[{\"object\":", "{}", "}]}", CAP),
            req,
        ),
        (
            "GeneratePatches `items[0].object: [{\"a\":1},...]`",
            array_of("{\"items\":[{\"object\":", "{\"a\":1}", "}]}", CAP),
            req,
        ),
        (
            "GeneratePatches response `items: [{},...]`",
            array_of("{\"status\":\"Success\",\"items\":", "{}", "}", CAP),
            res,
        ),
        (
            "DiscoverVariables response `variables: [{},...]`",
            array_of("{\"status\":\"Success\",\"variables\":", "{}", "}", CAP),
            dv,
        ),
        (
            "DiscoverVariables response, schemas nesting `not` 120 deep",
            nested_schemas(CAP, 120),
            dv,
        ),
        ("deep nesting (100,000 levels)", deep(100_000), req),
        ("one long string", long_string(CAP), req),
        ("one long key", long_key(CAP), req),
        ("many distinct keys", many_keys(CAP), req),
    ];
    for (name, body, (ours, plain)) in cases {
        memory(&dir, name, &body, ours, plain);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
