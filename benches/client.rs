//! Runtime-client benchmarks (a benchmark, not a timed test):
//!
//! 1. `call_all_extensions` over 1, 10, 100 and 1,000 loopback extensions (each its own HTTPS
//!    server) that each answer after 20 ms, sequential against concurrent, as a ratio.
//! 2. Calls per second and CPU per call of `call_extension` over one kept-alive TLS
//!    connection, against a bare reqwest POST of the same body to the same server, in pairs of
//!    runs whose order alternates; the ratios are taken per pair.
//!
//! Run with `cargo bench --features client --bench client`; `-- fan_out` or `-- call_extension`
//! runs one part, `-- fan_out 1000` one size. `-- call_extension sdk N` (or `bare N`) makes N
//! calls with one client alone after the warm-up and prints nothing: run under
//! `valgrind --tool=callgrind` with two values of N, the difference of the instruction counts
//! over the difference of N is that client's instructions per call, a figure a busy machine
//! does not move. Each figure is the median of repeated runs,
//! except the sequential run over 1,000 extensions (20 s): one run.

#[path = "../tests/it/support/extension.rs"]
mod extension;
#[path = "../tests/it/support/tls.rs"]
mod tls;

use std::sync::Arc;
use std::time::{Duration, Instant};

use capi_runtime::client::{CallAllOptions, Client, ForObject};
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;
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
        .call_all_extensions_with(
            &BeforeClusterCreateRequest::default(),
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

/// CPU time this process used so far (user + system, all threads), to the nanosecond
/// (`CLOCK_PROCESS_CPUTIME_ID`).
fn cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
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

/// Which client `-- call_extension sdk N` or `bare N` runs alone.
enum Side {
    Sdk,
    Bare,
}

async fn throughput(ca: &TestCa, one_side: Option<(Side, usize)>) {
    const CALLS: usize = 1000;
    const PAIRS: usize = 21;
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
        capi_runtime::tls::crypto_provider().as_ref().clone(),
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

    let (client, bare, url, body, request, object) =
        (&client, &bare, &url, &body, &request, &object);
    let sdk_calls = |calls: usize| async move {
        let start = Instant::now();
        for _ in 0..calls {
            client
                .call_extension("h.ext", request, object)
                .await
                .unwrap();
        }
        start.elapsed()
    };
    let bare_calls = |calls: usize| async move {
        let start = Instant::now();
        for _ in 0..calls {
            let response = bare
                .post(url)
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
    sdk_calls(CALLS).await;
    bare_calls(CALLS).await;
    if let Some((side, calls)) = one_side {
        // One client's calls alone, for an instruction count (callgrind) of each: run twice
        // with two counts, the difference is the calls' own.
        match side {
            Side::Sdk => sdk_calls(calls).await,
            Side::Bare => bare_calls(calls).await,
        };
        return;
    }
    let sdk_run = || sdk_calls(CALLS);
    let bare_run = || bare_calls(CALLS);
    // Pairs of runs, one of each client, the order swapped every pair: each pair's ratio
    // compares two runs a few hundred milliseconds apart, so that what the machine does
    // meanwhile (this one is shared and noisy) hits both sides alike.
    let mut pairs = Vec::with_capacity(PAIRS);
    for i in 0..PAIRS {
        let (sdk, bare) = if i % 2 == 0 {
            let sdk = measured(sdk_run()).await;
            (sdk, measured(bare_run()).await)
        } else {
            let bare = measured(bare_run()).await;
            (measured(sdk_run()).await, bare)
        };
        pairs.push((sdk, bare));
    }
    let per_sec = |d: Duration| CALLS as f64 / d.as_secs_f64();
    let micros_per_call = |d: Duration| d.as_secs_f64() * 1e6 / CALLS as f64;
    let med = |pick: fn(&(Run, Run)) -> Duration| median(pairs.iter().map(pick).collect());
    let (s, b) = (
        per_sec(med(|(sdk, _)| sdk.wall)),
        per_sec(med(|(_, bare)| bare.wall)),
    );
    let (s_cpu, b_cpu) = (
        micros_per_call(med(|(sdk, _)| sdk.cpu)),
        micros_per_call(med(|(_, bare)| bare.cpu)),
    );
    // Relative to bare reqwest, per pair: its time over the SDK's (above 1 is faster).
    let speed = quartiles(pairs.iter().map(|(sdk, bare)| ratio(bare.wall, sdk.wall)));
    let per_cpu = quartiles(pairs.iter().map(|(sdk, bare)| ratio(bare.cpu, sdk.cpu)));
    println!();
    println!(
        "## call_extension over one kept-alive TLS connection ({PAIRS} pairs of runs of {CALLS} calls)"
    );
    println!(
        "CPU is this process's (the client and the in-process server), per call; ratios are per \
         pair, median [first quartile, third quartile]."
    );
    println!("| client | calls/s (median) | CPU per call (median) |");
    println!("|---|---:|---:|");
    println!("| bare reqwest POST + JSON parse | {b:.0} | {b_cpu:.1} µs |");
    println!("| `Client::call_extension` | {s:.0} | {s_cpu:.1} µs |");
    println!(
        "relative to bare reqwest: calls/s {:.3} [{:.3}, {:.3}]; calls per CPU second {:.3} [{:.3}, {:.3}]",
        speed[1], speed[0], speed[2], per_cpu[1], per_cpu[0], per_cpu[2]
    );
    println!("load average: {}", load_average());
}

/// One run of calls: its wall time and the CPU this process spent in it.
struct Run {
    wall: Duration,
    cpu: Duration,
}

async fn measured<F: std::future::Future<Output = Duration>>(run: F) -> Run {
    let cpu = cpu_time();
    let wall = run.await;
    Run {
        wall,
        cpu: cpu_time().saturating_sub(cpu),
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

/// The first quartile, the median and the third quartile of `values`.
fn quartiles(values: impl Iterator<Item = f64>) -> [f64; 3] {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    [at(0.25), at(0.5), at(0.75)]
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
            let calls = sizes.first().copied().unwrap_or(1000);
            let one_side = if words.contains(&"sdk") {
                Some((Side::Sdk, calls))
            } else if words.contains(&"bare") {
                Some((Side::Bare, calls))
            } else {
                None
            };
            throughput(&ca, one_side).await;
        }
    });
}
