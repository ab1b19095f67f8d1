//! Runtime-client benchmarks (a benchmark, not a timed test):
//!
//! 1. `call_all_extensions` over 1, 10, 100 and 1,000 loopback extensions (each its own HTTPS
//!    server) that each answer after 20 ms, sequential against concurrent, as a ratio.
//! 2. Calls per second of `call_extension` over one kept-alive TLS connection, against a bare
//!    reqwest POST of the same body to the same server.
//!
//! Run with `cargo bench --features client --bench client`; `-- fan_out` or `-- call_extension`
//! runs one part, `-- fan_out 1000` one size. Each figure is the median of repeated runs,
//! except the sequential run over 1,000 extensions (20 s): one run.

#[path = "../tests/it/support/extension.rs"]
mod extension;
#[path = "../tests/it/support/tls.rs"]
mod tls;

use std::sync::Arc;
use std::time::{Duration, Instant};

use capi_runtime::client::{CallAllOptions, Client, ForObject};
use capi_runtime::hooks::v1alpha1::{BeforeClusterCreate, BeforeClusterCreateRequest};
use extension::{config, handler, ready_client};
use serde_json::json;
use tls::{TestCa, TestServer, answer};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

async fn time<F: std::future::Future>(f: F) -> Duration {
    let start = Instant::now();
    f.await;
    start.elapsed()
}

async fn call_all(client: &Client, options: CallAllOptions) {
    client
        .call_all_extensions_with::<BeforeClusterCreate>(
            &Default::default(),
            &ForObject::new("default", "c"),
            options,
        )
        .await
        .expect("every extension answers Success");
}

/// The 1-minute load average, from /proc/loadavg (empty elsewhere).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_default()
}

/// CPU time this process used so far (user + system, all threads), from /proc/self/stat in
/// clock ticks of 10 ms; zero where there is no /proc.
fn cpu_time() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // The fields after the command name, which is in parentheses and may hold spaces.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// Raises this process's soft open-file limit to its hard limit: 1,000 extensions each hold a
/// listening socket and a connection with two ends in this process.
fn raise_open_file_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    if let Err(error) = setrlimit(Resource::Nofile, limit) {
        eprintln!("could not raise the open-file limit: {error}");
    }
}

async fn fan_out(ca: &TestCa, sizes: &[usize]) {
    println!("## call_all_extensions, each extension answers after 20 ms (median of runs)");
    println!(
        "| extensions | runs | sequential | concurrent (limit 10) | concurrent (limit = n) | speed-up (limit = n) | CPU per run (limit = n) | load |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &n in sizes {
        let mut servers = Vec::new();
        let mut configs = Vec::new();
        for i in 0..n {
            let server = TestServer::with_ca(
                ca,
                answer(|_| async {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    tls::json(json!({"status": "Success"}))
                }),
            )
            .await;
            configs.push(config(
                &format!("ext{i:03}"),
                &server.url(),
                &ca.pem(),
                &[handler("h", "BeforeClusterCreate")],
            ));
            servers.push(server);
        }
        let client = ready_client(&configs);
        // Open every connection first: the figures compare calls, not handshakes.
        call_all(&client, CallAllOptions::concurrent(n)).await;
        // Runs of each mode: sequential, limit 10, limit = n. A sequential run over 1,000
        // extensions takes 20 s, one at limit 10 2 s: fewer of those.
        let (seq_runs, conc10_runs, runs) = match n {
            1000 => (1, 3, 11),
            100 => (5, 5, 11),
            _ => (11, 11, 11),
        };
        let mut seq = Vec::new();
        let mut conc10 = Vec::new();
        let mut conc_n = Vec::new();
        let mut conc_n_cpu = Duration::ZERO;
        for run in 0..runs {
            if run < seq_runs {
                seq.push(time(call_all(&client, CallAllOptions::sequential())).await);
            }
            if run < conc10_runs {
                conc10.push(time(call_all(&client, CallAllOptions::concurrent(10))).await);
            }
            let cpu = cpu_time();
            conc_n.push(time(call_all(&client, CallAllOptions::concurrent(n))).await);
            conc_n_cpu += cpu_time().saturating_sub(cpu);
        }
        let (s, c10, cn) = (median(seq), median(conc10), median(conc_n));
        println!(
            "| {n} | {seq_runs}/{conc10_runs}/{runs} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1}x | {:.0} ms | {} |",
            s.as_secs_f64() * 1e3,
            c10.as_secs_f64() * 1e3,
            cn.as_secs_f64() * 1e3,
            s.as_secs_f64() / cn.as_secs_f64(),
            conc_n_cpu.as_secs_f64() * 1e3 / runs as f64,
            load_average()
        );
    }
}

async fn throughput(ca: &TestCa) {
    const CALLS: usize = 2000;
    const RUNS: usize = 7;
    let server = TestServer::with_ca(
        ca,
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let client = ready_client(&[config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("h", "BeforeClusterCreate")],
    )]);
    let request = BeforeClusterCreateRequest::default();
    let object = ForObject::new("default", "c");

    // The baseline: reqwest with the same TLS trust, posting the body the client sends.
    let body = serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "BeforeClusterCreateRequest",
        "cluster": serde_json::to_value(&request.cluster).unwrap(),
    }))
    .unwrap();
    let url = format!(
        "{}/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/h?timeout=10s",
        server.url()
    );
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::pem::PemObject::pem_slice_iter(ca.pem().as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let mut tls = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    tls.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let bare = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .build()
        .unwrap();

    let sdk_run = || async {
        let start = Instant::now();
        for _ in 0..CALLS {
            client
                .call_extension::<BeforeClusterCreate>("h.ext", &request, &object)
                .await
                .unwrap();
        }
        start.elapsed()
    };
    let bare_run = || async {
        let start = Instant::now();
        for _ in 0..CALLS {
            let response = bare
                .post(&url)
                .header("content-type", "application/json")
                .body(body.clone())
                .send()
                .await
                .unwrap();
            let bytes = response.bytes().await.unwrap();
            let _: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        }
        start.elapsed()
    };
    // Warm up both connections.
    sdk_run().await;
    bare_run().await;
    let mut sdk = Vec::new();
    let mut baseline = Vec::new();
    for _ in 0..RUNS {
        sdk.push(sdk_run().await);
        baseline.push(bare_run().await);
    }
    let per_sec = |d: Duration| CALLS as f64 / d.as_secs_f64();
    let (s, b) = (per_sec(median(sdk)), per_sec(median(baseline)));
    println!();
    println!(
        "## call_extension over one kept-alive TLS connection ({CALLS} calls, median of {RUNS} runs)"
    );
    println!("| client | calls/s | relative to bare reqwest |");
    println!("|---|---:|---:|");
    println!("| bare reqwest POST + JSON parse | {b:.0} | 1.00 |");
    println!("| `Client::call_extension` | {s:.0} | {:.2} |", s / b);
    println!("load average: {}", load_average());
}

fn main() {
    // `cargo test --benches` runs bench targets with `--bench`-less arguments; only measure
    // when cargo bench asks.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let sizes: Vec<usize> = words.iter().filter_map(|w| w.parse().ok()).collect();
    let sizes = if sizes.is_empty() {
        vec![1, 10, 100, 1000]
    } else {
        sizes
    };
    let part =
        |name: &str| !words.iter().any(|w| w.parse::<usize>().is_err()) || words.contains(&name);
    raise_open_file_limit();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let ca = TestCa::new("bench");
        if part("fan_out") {
            fan_out(&ca, &sizes).await;
        }
        if part("call_extension") {
            throughput(&ca).await;
        }
    });
}
