//! Runtime-client benchmarks (a benchmark, not a timed test):
//!
//! 1. `call_all_extensions` over 1, 10 and 100 loopback extensions that each answer after
//!    20 ms, sequential against concurrent, as a ratio.
//! 2. Calls per second of `call_extension` over one kept-alive TLS connection, against a bare
//!    reqwest POST of the same body to the same server.
//!
//! Run with `cargo bench --features client --bench client`. Each figure is the median of
//! repeated runs.

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

async fn fan_out(ca: &TestCa) {
    println!("## call_all_extensions, each extension answers after 20 ms (median of runs)");
    println!(
        "| extensions | sequential | concurrent (limit 10) | concurrent (limit = n) | speed-up (limit = n) |"
    );
    println!("|---:|---:|---:|---:|---:|");
    for n in [1usize, 10, 100] {
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
        let runs = if n == 100 { 5 } else { 11 };
        let mut seq = Vec::new();
        let mut conc10 = Vec::new();
        let mut conc_n = Vec::new();
        for _ in 0..runs {
            seq.push(time(call_all(&client, CallAllOptions::sequential())).await);
            conc10.push(time(call_all(&client, CallAllOptions::concurrent(10))).await);
            conc_n.push(time(call_all(&client, CallAllOptions::concurrent(n))).await);
        }
        let (s, c10, cn) = (median(seq), median(conc10), median(conc_n));
        println!(
            "| {n} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1}x |",
            s.as_secs_f64() * 1e3,
            c10.as_secs_f64() * 1e3,
            cn.as_secs_f64() * 1e3,
            s.as_secs_f64() / cn.as_secs_f64()
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
}

fn main() {
    // `cargo test --benches` runs bench targets with `--bench`-less arguments; only measure
    // when cargo bench asks.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let ca = TestCa::new("bench");
        fan_out(&ca).await;
        throughput(&ca).await;
    });
}
