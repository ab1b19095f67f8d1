//! Peak memory of the example extension, and of a caller's decoding, for hostile messages at
//! the 20 MiB cap. Run with `cargo bench -p capi-test-extension --bench hostile`.
//!
//! Server side: for each shape a fresh `capi-test-extension` process is started on loopback
//! (TLS with a throwaway CA), its resident set is read from `/proc/<pid>/status` after one
//! small request (the idle footprint), the hostile request is sent, and its high-water mark
//! (`VmHWM`) is read once the answer is in. Caller side: a child process of this benchmark
//! reads the hostile DiscoverVariables answer into memory and decodes it with the wire codec
//! the runtime client uses; its `VmHWM` minus the footprint before decoding is reported.
//! Figures are megabytes above the idle footprint; they go in BENCHMARKS.md, never in tests.
//!
//! Side by side with another build: `HOSTILE_EXTENSION=/path/to/capi-test-extension` runs that
//! binary instead of this build's, and `HOSTILE_CALLER=tree` decodes the caller's answers the
//! way the client did before the wire codec (a `serde_json::Value` tree of the whole body,
//! then the typed message).

use std::io::Write;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use capi_runtime::hooks::v1alpha1::{DiscoverVariables, DiscoverVariablesResponse};

const CAP: usize = 20 << 20;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--decode-child") {
        decode_child(&args[i + 1]);
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    println!("example extension, peak RSS above idle for one request at the 20 MiB cap:");
    for (name, path, body) in server_shapes() {
        let (idle, peak, answer) = runtime.block_on(measure_server(path, &body, 1));
        println!(
            "  {name:<48} idle {idle:>6.1} MB, peak +{:>7.1} MB, answer: {answer}",
            peak - idle
        );
    }
    let (name, path, body) = server_shapes().remove(0);
    let (idle, peak, answer) = runtime.block_on(measure_server(path, &body, 2));
    println!(
        "  {:<48} idle {idle:>6.1} MB, peak +{:>7.1} MB, answer: {answer}",
        format!("{name}, two at once"),
        peak - idle
    );
    println!("caller decoding a DiscoverVariables answer, peak RSS above the read body:");
    for (name, shape) in [
        ("20 MiB of empty variables", "empty-variables"),
        ("20 MiB of schemas nesting `not` 120 deep", "nested-schemas"),
        ("5,000 realistic variables", "realistic-variables"),
    ] {
        let out = Command::new(std::env::current_exe().unwrap())
            .args(["--decode-child", shape])
            .output()
            .unwrap();
        println!(
            "  {name:<48} {}",
            String::from_utf8_lossy(&out.stdout).trim()
        );
    }
}

type Shape = (&'static str, &'static str, Vec<u8>);

const GP: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate-patches";
const BCC: &str =
    "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/before-cluster-create";

/// A JSON document of exactly `CAP` bytes (padded with spaces) from a prefix, a repeated unit,
/// and a suffix.
fn filled(prefix: &str, unit: &str, separator: &str, suffix: &str) -> Vec<u8> {
    let mut out = String::with_capacity(CAP);
    out.push_str(prefix);
    let mut first = true;
    while out.len() + separator.len() + unit.len() + suffix.len() < CAP {
        if !first {
            out.push_str(separator);
        }
        out.push_str(unit);
        first = false;
    }
    out.push_str(suffix);
    out.into_bytes()
}

fn server_shapes() -> Vec<Shape> {
    let realistic_item = r#"{"uid":"6d1f0e2a-8a63-4d7b-9a52-1d2f5c1a9e00","holderReference":{"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachineDeployment","name":"md-0","namespace":"default","fieldPath":"spec.template.spec.infrastructureRef"},"object":{"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta1","kind":"DockerMachineTemplate","metadata":{"name":"worker","namespace":"default","labels":{"cluster.x-k8s.io/cluster-name":"c1"}},"spec":{"template":{"spec":{"customImage":"kindest/node:v1.33.0","extraMounts":[{"containerPath":"/var/run/docker.sock","hostPath":"/var/run/docker.sock"}],"preLoadImages":["a","b","c"]}}}},"variables":[{"name":"imageRepository","value":"registry.k8s.io"},{"name":"builtin","value":{"cluster":{"name":"c1","namespace":"default","topology":{"version":"v1.33.0","class":"quick-start"}},"machineDeployment":{"name":"md-0","topologyName":"md-0","class":"default-worker","version":"v1.33.0","replicas":3}}}]}"#;
    let mut realistic = String::from(r#"{"items":["#);
    for i in 0..5_000 {
        if i > 0 {
            realistic.push(',');
        }
        realistic.push_str(realistic_item);
    }
    realistic.push_str("]}");
    vec![
        (
            "GeneratePatches, items of empty objects",
            GP,
            filled(r#"{"items":["#, "{}", ",", "]}"),
        ),
        (
            "GeneratePatches, one object nested deeply",
            GP,
            filled(r#"{"items":[{"object":"#, "[", "", "]}"),
        ),
        (
            "BeforeClusterCreate, one long name",
            BCC,
            filled(r#"{"cluster":{"metadata":{"name":""#, "a", "", r#""}}}"#),
        ),
        (
            "BeforeClusterCreate, many distinct label keys",
            BCC,
            many_keys(),
        ),
        (
            "GeneratePatches, 5,000 realistic items (control)",
            GP,
            realistic.into_bytes(),
        ),
    ]
}

fn many_keys() -> Vec<u8> {
    let mut out = String::from(r#"{"cluster":{"metadata":{"labels":{"#);
    let mut i = 0u64;
    while out.len() < CAP - 64 {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("\"k{i}\":\"\""));
        i += 1;
    }
    out.push_str("}}}}");
    out.into_bytes()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Extension {
    child: Child,
    _dir: tempfile::TempDir,
    port: u16,
    ca: String,
}

impl Drop for Extension {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_extension() -> Extension {
    let dir = tempfile::tempdir().unwrap();
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let issuer = rcgen::CertifiedIssuer::self_signed(params, ca_key).unwrap();
    let leaf_key = rcgen::KeyPair::generate().unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&leaf_key, &issuer)
        .unwrap();
    std::fs::write(dir.path().join("tls.crt"), leaf.pem()).unwrap();
    std::fs::write(dir.path().join("tls.key"), leaf_key.serialize_pem()).unwrap();
    std::fs::write(dir.path().join("hookresponses.yaml"), "{}\n").unwrap();
    // A port chosen by the OS and released just before the extension binds it: fine for a
    // benchmark run by hand, where nothing else races for it.
    let port = free_port();
    let health = free_port();
    let binary = std::env::var("HOSTILE_EXTENSION")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_capi-test-extension").to_string());
    let child = Command::new(binary)
        .args([
            "--webhook-host",
            "127.0.0.1",
            "--webhook-port",
            &port.to_string(),
            "--webhook-cert-dir",
            dir.path().to_str().unwrap(),
            "--health-addr",
            &format!("127.0.0.1:{health}"),
            "--responses-file",
            dir.path().join("hookresponses.yaml").to_str().unwrap(),
        ])
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Extension {
        child,
        _dir: dir,
        port,
        ca: issuer.pem(),
    }
}

fn status_kb(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} not in /proc/{pid}/status"));
    let kb: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb / 1024.0
}

fn client(ca_pem: &str) -> reqwest::Client {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::pem::PemObject::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let mut tls = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
        capi_runtime::tls::crypto_provider().as_ref().clone(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    tls.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .no_proxy()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

/// Idle RSS, peak RSS (MB) and the head of the first answer.
async fn measure_server(path: &str, body: &[u8], parallel: usize) -> (f64, f64, String) {
    let extension = start_extension();
    let client = client(&extension.ca);
    let url = format!("https://localhost:{}{path}", extension.port);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match client.post(&url).body("{}").send().await {
            Ok(_) => break,
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(e) => panic!("the extension did not start: {e}"),
        }
    }
    let pid = extension.child.id();
    let idle = status_kb(pid, "VmRSS:");
    let body = body.to_vec();
    let sends: Vec<_> = (0..parallel)
        .map(|_| {
            let (client, url, body) = (client.clone(), url.clone(), body.clone());
            tokio::spawn(async move {
                match client.post(&url).body(body).send().await {
                    Ok(r) => {
                        let text = r.text().await.unwrap_or_default();
                        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
                        let message = v["message"].as_str().unwrap_or_default();
                        format!(
                            "{} {}",
                            v["status"].as_str().unwrap_or("?"),
                            message.chars().take(60).collect::<String>()
                        )
                    }
                    Err(e) => format!("transport error: {e}"),
                }
            })
        })
        .collect();
    let mut answers = Vec::new();
    for send in sends {
        answers.push(send.await.unwrap());
    }
    let peak = status_kb(pid, "VmHWM:");
    (idle, peak, answers.remove(0))
}

/// Child mode: decode one hostile DiscoverVariables answer and print the peak above the body.
fn decode_child(shape: &str) {
    let body = match shape {
        "empty-variables" => filled(r#"{"status":"Success","variables":["#, "{}", ",", "]}"),
        // Each `not` is a boxed JSONSchemaProps: one heap block per 8 bytes of the body.
        "nested-schemas" => {
            let chain = format!("{}{{}}{}", r#"{"not":"#.repeat(120), "}".repeat(120));
            let unit = format!(r#"{{"name":"v","schema":{{"openAPIV3Schema":{chain}}}}}"#);
            filled(r#"{"status":"Success","variables":["#, &unit, ",", "]}")
        }
        _ => {
            let unit = r#"{"name":"imageRepository","required":true,"metadata":{"labels":{"a":"b"}},"schema":{"openAPIV3Schema":{"type":"string","default":"registry.k8s.io","description":"The container registry the cluster's images come from.","example":"registry.k8s.io","maxLength":253,"pattern":"^[a-z0-9.-/]+$"}}}"#;
            let mut out = String::from(r#"{"status":"Success","variables":["#);
            for i in 0..5_000 {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(unit);
            }
            out.push_str("]}");
            out.into_bytes()
        }
    };
    let pid = std::process::id();
    let before = status_kb(pid, "VmRSS:");
    let started = Instant::now();
    let outcome: Result<usize, Box<dyn std::error::Error>> =
        if std::env::var("HOSTILE_CALLER").as_deref() == Ok("tree") {
            serde_json::from_slice::<serde_json::Value>(&body)
                .and_then(serde_json::from_value::<DiscoverVariablesResponse>)
                .map(|message| message.variables.len())
                .map_err(Into::into)
        } else {
            capi_runtime::wire::decode_response::<DiscoverVariables>(&body)
                .map(|decoded| decoded.message.variables.len())
                .map_err(Into::into)
        };
    let elapsed = started.elapsed();
    let peak = status_kb(pid, "VmHWM:");
    let what = match outcome {
        Ok(n) => format!("decoded ({n} variables)"),
        Err(e) => format!(
            "refused: {}",
            e.to_string().chars().take(70).collect::<String>()
        ),
    };
    let mut out = std::io::stdout();
    writeln!(
        out,
        "peak +{:.1} MB over {:.1} MB, {:.0} ms, {what}",
        peak - before,
        before,
        elapsed.as_secs_f64() * 1e3
    )
    .unwrap();
}
