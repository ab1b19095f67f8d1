//! The Go extension built with Cluster API's own kit (`interop/go-extension`, from the
//! published v1.14.2 module) against this workspace's kit (`capi_runtime::server::Server`),
//! serving the same hook with the same answer (type metadata aside: Go's server writes no
//! `apiVersion`/`kind` in responses, the kit does) over TLS on loopback. Not a test: run by hand
//! after `cargo xtask testenv` has built the Go program:
//!
//! ```sh
//! cargo xtask testenv
//! cargo bench -p capi-runtime-oracle --bench go_vs_rust [-- ROUNDS SECONDS IN_FLIGHT] [--blocking-pool]
//!     [--offload-bytes=N] [--only=TEXT]
//! ```
//!
//! For each payload a fresh pair of server processes is started: the Go program (as the interop
//! tests start it, [`capi_runtime_oracle::GoExtension`]), and this benchmark's own executable
//! re-run as a server (`--serve-rust`) whose handlers give the Go program's answers (checked
//! before measuring). The Rust handlers run on the runtime's workers (the kit's default, as
//! they never block); `--blocking-pool` declares them [`HandlerOptions::blocking`] instead,
//! every handler on a blocking-pool thread of its own. One load generator in this
//! process, a keep-alive HTTP/1.1 rustls client with `IN_FLIGHT` requests outstanding, drives
//! both in alternating rounds (the order swaps every round, so drift on a shared machine hits
//! both). Reported per server: requests per second (median of the rounds), p50 and p99
//! latency over every request of every round, CPU seconds per 10,000 requests (the server
//! process's utime + stime from `/proc/<pid>/stat` across the rounds) and its inverse, requests
//! per CPU second (which, unlike requests per second, a loaded machine hardly distorts), peak
//! resident set (`VmHWM` from `/proc/<pid>/status` after the last round) and the load average
//! before and after; then Rust/Go ratios. The payloads: BeforeClusterCreate (a small hook),
//! GeneratePatches with 500 items (the large one), and the in-place update hooks
//! CanUpdateMachine and UpdateMachine for one control-plane Machine with its infrastructure
//! machine and bootstrap config. `--only=TEXT` measures the payloads whose label holds `TEXT`;
//! `--offload-bytes=N` sets the Rust server's [`Limits::offload_decode_bytes`] (an experiment's
//! knob: the default is the kit's).

use capi_runtime_test_pki as pki;

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, CanUpdateMachineRequest,
    CanUpdateMachineResponse, FailurePolicy, GeneratePatchesRequest, GeneratePatchesResponse,
    GeneratePatchesResponseItem, Patch, PatchType, UpdateMachineRequest, UpdateMachineResponse,
};
use capi_runtime::server::{DEFAULT_OFFLOAD_DECODE_BYTES, HandlerOptions, Limits, Server};
use capi_runtime_oracle::topology_cluster;
use k8s_openapi::ByteString;
use serde_json::{Value, json};

const BCC_PATH: &str =
    "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/before-cluster-create";
const GP_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate-patches";
const CUM_PATH: &str =
    "/hooks.runtime.cluster.x-k8s.io/v1alpha1/canupdatemachine/can-update-machine";
const UM_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/updatemachine/update-machine";
/// The machine patch the Go program answers to CanUpdateMachine.
const GO_MACHINE_PATCH: &[u8] =
    br#"{"metadata":{"labels":{"interop.capi-runtime/hook":"CanUpdateMachine"}}}"#;
/// The patch the Go program answers for every item.
const GO_PATCH: &[u8] =
    br#"[{"op":"add","path":"/metadata/annotations","value":{"interop.capi-runtime/hook":"GeneratePatches"}}]"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = Options::parse(&args);
    if args.first().map(String::as_str) == Some("--serve-rust") {
        serve_rust(args[1].parse().unwrap(), Path::new(&args[2]), &options);
        return;
    }
    // `cargo bench` passes `--bench`; the numbers are the other arguments.
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let rounds = numbers.first().copied().unwrap_or(6) as usize;
    let seconds = numbers.get(1).copied().unwrap_or(3);
    let in_flight = numbers.get(2).copied().unwrap_or(8) as usize;
    bench(rounds, Duration::from_secs(seconds), in_flight, &options);
}

/// The switches of the benchmark, passed on to the Rust server it starts.
#[derive(Default)]
struct Options {
    /// `--blocking-pool`: handlers declared blocking, on tokio's blocking pool.
    blocking_pool: bool,
    /// `--offload-bytes=N`: the Rust server's `Limits::offload_decode_bytes`.
    offload_bytes: Option<usize>,
    /// `--only=TEXT`: the payloads whose label holds `TEXT`.
    only: Option<String>,
}

impl Options {
    fn parse(args: &[String]) -> Options {
        let mut options = Options::default();
        for arg in args {
            if arg == "--blocking-pool" {
                options.blocking_pool = true;
            } else if let Some(n) = arg.strip_prefix("--offload-bytes=") {
                options.offload_bytes = Some(n.parse().expect("--offload-bytes=N takes a number"));
            } else if let Some(text) = arg.strip_prefix("--only=") {
                options.only = Some(text.to_string());
            }
        }
        options
    }

    /// The switches the Rust server needs, as arguments.
    fn server_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if self.blocking_pool {
            args.push("--blocking-pool".to_string());
        }
        if let Some(n) = self.offload_bytes {
            args.push(format!("--offload-bytes={n}"));
        }
        args
    }
}

// ---------------------------------------------------------------------------------------------
// The Rust server: the kit, with the Go program's answers for the two benchmarked hooks.

fn options(name: &str, blocking_pool: bool) -> HandlerOptions {
    let options = HandlerOptions::new(name)
        .timeout_seconds(5)
        .failure_policy(FailurePolicy::Fail);
    // Both handlers only compute for a moment and never block: by default they run on the
    // runtime's workers like Go's handlers run on the goroutine of their request.
    if blocking_pool {
        options.blocking()
    } else {
        options
    }
}

fn serve_rust(port: u16, cert_dir: &Path, switches: &Options) {
    let blocking_pool = switches.blocking_pool;
    let mut limits = Limits::default();
    if let Some(n) = switches.offload_bytes {
        limits = limits.offload_decode_bytes(n);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = Server::builder()
            .handle(
                options("before-cluster-create", blocking_pool),
                |request: BeforeClusterCreateRequest| async move {
                    let mut response = BeforeClusterCreateResponse::success();
                    let name = request.cluster.metadata.name.unwrap_or_default();
                    response.message = format!("go BeforeClusterCreate {name}");
                    response.retry_after_seconds = "BeforeClusterCreate".len() as i32;
                    Ok::<_, String>(response)
                },
            )
            .handle(
                options("generate-patches", blocking_pool),
                |request: GeneratePatchesRequest| async move {
                    let mut response = GeneratePatchesResponse::success();
                    response.message = format!("go GeneratePatches {} items", request.items.len());
                    response.items = request
                        .items
                        .into_iter()
                        .map(|item| GeneratePatchesResponseItem {
                            uid: item.uid,
                            patch_type: PatchType::JsonPatch,
                            patch: ByteString(GO_PATCH.to_vec()),
                        })
                        .collect();
                    Ok::<_, String>(response)
                },
            )
            .handle(
                options("can-update-machine", blocking_pool),
                |request: CanUpdateMachineRequest| async move {
                    let mut response = CanUpdateMachineResponse::success();
                    let name = request.desired.machine.metadata.name.unwrap_or_default();
                    response.message = format!("go CanUpdateMachine {name}");
                    response.machine_patch = Patch {
                        patch_type: Some(PatchType::JsonMergePatch),
                        patch: ByteString(GO_MACHINE_PATCH.to_vec()),
                    };
                    Ok::<_, String>(response)
                },
            )
            .handle(
                options("update-machine", blocking_pool),
                |request: UpdateMachineRequest| async move {
                    let mut response = UpdateMachineResponse::success();
                    let name = request.desired.machine.metadata.name.unwrap_or_default();
                    response.message = format!("go UpdateMachine {name}");
                    response.retry_after_seconds = "UpdateMachine".len() as i32;
                    Ok::<_, String>(response)
                },
            )
            .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
            .port(port)
            .cert_dir(cert_dir)
            .limits(limits)
            .build()
            .unwrap();
        let running = server.start().await.unwrap();
        println!("serving");
        let _ = tokio::signal::ctrl_c().await;
        running.shutdown().await.unwrap();
    });
}

// ---------------------------------------------------------------------------------------------
// Payloads.

const NAMESPACE: &str = "default";
const CLUSTER: &str = "c1";

/// A Cluster with a managed topology, as Cluster API sends it.
fn cluster() -> Value {
    topology_cluster(NAMESPACE, CLUSTER)
}

fn before_cluster_create() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "BeforeClusterCreateRequest",
        "settings": { "origin": "bench" },
        "cluster": cluster(),
    }))
    .unwrap()
}

/// 500 items as the topology controller sends them for a Cluster with many MachineDeployments:
/// the infrastructure and bootstrap templates of each, with the builtin variables.
fn generate_patches() -> Vec<u8> {
    let items: Vec<Value> = (0..500)
        .map(|i| {
            let md = format!("md-{}", i / 2);
            let (kind, field, spec) = if i % 2 == 0 {
                (
                    "DockerMachineTemplate",
                    "spec.template.spec.infrastructureRef",
                    json!({ "template": { "spec": {
                        "customImage": "kindest/node:v1.36.0",
                        "extraMounts": [{ "containerPath": "/var/run/docker.sock", "hostPath": "/var/run/docker.sock" }],
                    } } }),
                )
            } else {
                (
                    "KubeadmConfigTemplate",
                    "spec.template.spec.bootstrap.configRef",
                    json!({ "template": { "spec": { "joinConfiguration": { "nodeRegistration": {
                        "kubeletExtraArgs": [{ "name": "eviction-hard", "value": "nodefs.available<0%" }],
                    } } } } }),
                )
            };
            json!({
                "uid": format!("6d1f0e2a-8a63-4d7b-9a52-{i:012}"),
                "holderReference": {
                    "apiVersion": "cluster.x-k8s.io/v1beta2",
                    "kind": "MachineDeployment",
                    "namespace": NAMESPACE,
                    "name": format!("{CLUSTER}-{md}"),
                    "fieldPath": field,
                },
                "object": {
                    "apiVersion": if i % 2 == 0 { "infrastructure.cluster.x-k8s.io/v1beta1" } else { "bootstrap.cluster.x-k8s.io/v1beta2" },
                    "kind": kind,
                    "metadata": { "name": format!("{CLUSTER}-{md}-{i}"), "namespace": NAMESPACE },
                    "spec": spec,
                },
                "variables": [{ "name": "builtin", "value": {
                    "cluster": { "name": CLUSTER, "namespace": NAMESPACE, "topology": { "version": "v1.36.0", "classRef": { "name": "quick-start" } } },
                    "machineDeployment": { "name": format!("{CLUSTER}-{md}"), "topologyName": md, "class": "default-worker", "version": "v1.36.0", "replicas": 3 },
                } }],
            })
        })
        .collect();
    serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "GeneratePatchesRequest",
        "settings": { "origin": "bench" },
        "variables": [{ "name": "imageRepository", "value": "registry.example.com" }],
        "items": items,
    }))
    .unwrap()
}

/// A control-plane Machine of the Cluster at `version`, as the in-place update hooks carry it.
fn machine(version: &str) -> Value {
    json!({
        "apiVersion": "cluster.x-k8s.io/v1beta2",
        "kind": "Machine",
        "metadata": {
            "name": format!("{CLUSTER}-cp-x7k2p"),
            "namespace": NAMESPACE,
            "uid": "0b7c6e9f-4d3a-4f21-9a0e-5c1d2e3f4a5b",
            "labels": {
                "cluster.x-k8s.io/cluster-name": CLUSTER,
                "cluster.x-k8s.io/control-plane": "",
                "cluster.x-k8s.io/control-plane-name": format!("{CLUSTER}-cp"),
            },
            "annotations": { "controlplane.cluster.x-k8s.io/kubeadm-cluster-configuration": "{\"etcd\":{},\"networking\":{},\"apiServer\":{},\"controllerManager\":{},\"scheduler\":{},\"dns\":{}}" },
            "ownerReferences": [{ "apiVersion": "controlplane.cluster.x-k8s.io/v1beta2", "kind": "KubeadmControlPlane", "name": format!("{CLUSTER}-cp"), "uid": "5f0e1d2c-3b4a-4968-8776-a5b4c3d2e1f0", "controller": true, "blockOwnerDeletion": true }],
        },
        "spec": {
            "clusterName": CLUSTER,
            "version": version,
            "bootstrap": {
                "configRef": { "apiGroup": "bootstrap.cluster.x-k8s.io", "kind": "KubeadmConfig", "name": format!("{CLUSTER}-cp-x7k2p") },
                "dataSecretName": format!("{CLUSTER}-cp-x7k2p"),
            },
            "infrastructureRef": { "apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerMachine", "name": format!("{CLUSTER}-cp-x7k2p") },
            "providerID": format!("docker:////{CLUSTER}-cp-x7k2p"),
            "failureDomain": "fd1",
            "readinessGates": [{ "conditionType": "APIServerPodHealthy" }, { "conditionType": "EtcdPodHealthy" }],
        },
    })
}

/// The DockerMachine and KubeadmConfig of [`machine`], at `image`.
fn machine_objects(image: &str) -> (Value, Value) {
    let infrastructure = json!({
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
        "kind": "DockerMachine",
        "metadata": { "name": format!("{CLUSTER}-cp-x7k2p"), "namespace": NAMESPACE },
        "spec": {
            "customImage": image,
            "providerID": format!("docker:////{CLUSTER}-cp-x7k2p"),
            "extraMounts": [{ "containerPath": "/var/run/docker.sock", "hostPath": "/var/run/docker.sock" }],
        },
    });
    let bootstrap = json!({
        "apiVersion": "bootstrap.cluster.x-k8s.io/v1beta2",
        "kind": "KubeadmConfig",
        "metadata": { "name": format!("{CLUSTER}-cp-x7k2p"), "namespace": NAMESPACE },
        "spec": {
            "clusterConfiguration": { "apiServer": { "certSANs": ["localhost", "127.0.0.1", "0.0.0.0"] } },
            "initConfiguration": { "nodeRegistration": { "kubeletExtraArgs": [{ "name": "eviction-hard", "value": "nodefs.available<0%" }] } },
            "files": [{ "path": "/etc/kubernetes/audit-policy.yaml", "owner": "root:root", "permissions": "0600", "content": "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n" }],
        },
    });
    (infrastructure, bootstrap)
}

/// What the in-place update hooks carry for one Machine at `version` and `image`.
fn update_objects(version: &str, image: &str) -> Value {
    let (infrastructure, bootstrap) = machine_objects(image);
    json!({
        "machine": machine(version),
        "infrastructureMachine": infrastructure,
        "bootstrapConfig": bootstrap,
    })
}

/// CanUpdateMachine for a control-plane Machine going from v1.35.2 to v1.36.0.
fn can_update_machine() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "CanUpdateMachineRequest",
        "settings": { "origin": "bench" },
        "current": update_objects("v1.35.2", "kindest/node:v1.35.2"),
        "desired": update_objects("v1.36.0", "kindest/node:v1.36.0"),
    }))
    .unwrap()
}

/// UpdateMachine for the same Machine, to its desired state.
fn update_machine() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "UpdateMachineRequest",
        "settings": { "origin": "bench" },
        "desired": update_objects("v1.36.0", "kindest/node:v1.36.0"),
    }))
    .unwrap()
}

// ---------------------------------------------------------------------------------------------
// Server processes.

/// A server process, stopped on drop.
struct Peer {
    name: &'static str,
    /// The server's own pid, for `/proc`.
    pid: u32,
    url: String,
    /// Stops the process when dropped.
    _process: Box<dyn std::any::Any>,
}

/// The Rust server, this executable re-run; killed and reaped on drop.
struct RustChild(Child);

impl Drop for RustChild {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for the line "serving" on the peer's stdout, then drains the rest in the background.
fn wait_serving(name: &str, stdout: ChildStdout) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line == "serving"
                && let Some(tx) = tx.take()
            {
                let _ = tx.send(());
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{name} did not start serving within 60 s"));
}

/// The Go extension, started the way the interop tests start it.
fn start_go(cert_dir: &Path) -> Peer {
    let go = capi_runtime_oracle::GoExtension::start(cert_dir)
        .unwrap_or_else(|e| panic!("{e} (run `cargo xtask testenv` first)"));
    Peer {
        name: "Go",
        pid: go.server_pid().expect("the Go program's pid"),
        url: go.url().to_string(),
        _process: Box::new(go),
    }
}

fn start_rust(cert_dir: &Path, options: &Options) -> Peer {
    let port = capi_runtime_testenv::free_port().unwrap();
    let mut args = vec![
        "--serve-rust".to_string(),
        port.to_string(),
        cert_dir.display().to_string(),
    ];
    args.extend(options.server_args());
    let program = std::env::current_exe().unwrap();
    let mut child = Command::new(&program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let stdout = child.stdout.take().unwrap();
    let child = RustChild(child);
    wait_serving("Rust", stdout);
    Peer {
        name: "Rust",
        pid: child.0.id(),
        url: format!("https://127.0.0.1:{port}"),
        _process: Box::new(child),
    }
}

/// utime + stime of `pid`, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of stat(5); `after` starts at field 3.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

fn clock_ticks_per_second() -> f64 {
    let out = Command::new("getconf").arg("CLK_TCK").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// A `kB` line of `/proc/<pid>/status`, in megabytes.
fn status_mb(pid: u32, key: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(key)).unwrap();
    let kb: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb / 1000.0
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------------
// The load generator.

fn client(ca_pem: &str, in_flight: usize) -> reqwest::Client {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = capi_runtime::tls::crypto_provider();
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    reqwest::Client::builder()
        .tls_backend_preconfigured(config)
        .http1_only()
        .pool_max_idle_per_host(in_flight)
        .no_proxy()
        .build()
        .unwrap()
}

async fn call(client: &reqwest::Client, url: &str, body: &'static [u8]) -> Vec<u8> {
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.bytes().await.unwrap().to_vec()
}

/// One round against one server: the number of requests answered in `run`, each one's
/// latency in microseconds, and the CPU ticks spent meanwhile by the server and by this
/// process (the load generator).
async fn round(
    client: &reqwest::Client,
    peer: &Peer,
    path: &str,
    body: &'static [u8],
    run: Duration,
    in_flight: usize,
) -> (usize, Vec<u32>, u64, u64) {
    let url = format!("{}{path}", peer.url);
    let stop = Arc::new(AtomicBool::new(false));
    let pid = peer.pid;
    let ticks = cpu_ticks(pid);
    let own = cpu_ticks(std::process::id());
    let start = Instant::now();
    let tasks: Vec<_> = (0..in_flight)
        .map(|_| {
            let (client, url, stop) = (client.clone(), url.clone(), stop.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let sent = Instant::now();
                    std::hint::black_box(call(&client, &url, body).await);
                    latencies.push(sent.elapsed().as_micros() as u32);
                }
                latencies
            })
        })
        .collect();
    tokio::time::sleep(run).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    let elapsed = start.elapsed();
    let ticks = cpu_ticks(pid) - ticks;
    let own = cpu_ticks(std::process::id()) - own;
    // Requests per second over the whole round, the last ones in flight included.
    let count = (latencies.len() as f64 * run.as_secs_f64() / elapsed.as_secs_f64()) as usize;
    (count, latencies, ticks, own)
}

#[derive(Default)]
struct Totals {
    rates: Vec<f64>,
    latencies: Vec<u32>,
    requests: usize,
    ticks: u64,
    client_ticks: u64,
}

impl Totals {
    fn rate(&self) -> f64 {
        let mut v = self.rates.clone();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    }

    fn percentile(&mut self, p: f64) -> f64 {
        self.latencies.sort_unstable();
        let i = ((self.latencies.len() as f64 * p).ceil() as usize).saturating_sub(1);
        self.latencies[i] as f64 / 1000.0
    }

    fn cpu_per_10k(&self, ticks: u64, ticks_per_second: f64) -> f64 {
        ticks as f64 / ticks_per_second / self.requests as f64 * 10_000.0
    }
}

/// The answer of `peer`, as JSON.
async fn answer(client: &reqwest::Client, peer: &Peer, path: &str, body: &'static [u8]) -> Value {
    serde_json::from_slice(&call(client, &format!("{}{path}", peer.url), body).await).unwrap()
}

fn bench(rounds: usize, run: Duration, in_flight: usize, options: &Options) {
    let blocking_pool = options.blocking_pool;
    let ticks_per_second = clock_ticks_per_second();
    let ca = pki::TestCa::new("go-vs-rust-ca");
    let certs = tempfile::tempdir().unwrap();
    ca.write_serving(certs.path());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let client = client(&ca.pem(), in_flight);
    println!(
        "Go extension (Cluster API v1.14.2 exp/runtime/server) vs capi_runtime::server, TLS on \
         loopback, HTTP/1.1 keep-alive, {in_flight} requests in flight, {rounds} alternating \
         rounds of {}s; handlers {}; offloaded decoding from {} bytes; {} cores; load average \
         before: {}",
        run.as_secs(),
        if blocking_pool {
            "on the blocking pool"
        } else {
            "on the workers (the default)"
        },
        options
            .offload_bytes
            .unwrap_or(DEFAULT_OFFLOAD_DECODE_BYTES),
        std::thread::available_parallelism().unwrap(),
        load_average()
    );
    for (label, path, body) in [
        ("BeforeClusterCreate", BCC_PATH, before_cluster_create()),
        ("GeneratePatches, 500 items", GP_PATH, generate_patches()),
        ("CanUpdateMachine", CUM_PATH, can_update_machine()),
        ("UpdateMachine", UM_PATH, update_machine()),
    ] {
        if options
            .only
            .as_ref()
            .is_some_and(|only| !label.contains(only.as_str()))
        {
            continue;
        }
        let body = &*Box::leak(body.into_boxed_slice());
        let go = start_go(certs.path());
        let rust = start_rust(certs.path(), options);
        runtime.block_on(async {
            let (g, r) = (
                answer(&client, &go, path, body).await,
                answer(&client, &rust, path, body).await,
            );
            // The same answer, apart from the type metadata: Cluster API's Go server leaves
            // apiVersion and kind out of its responses, the kit writes them.
            let (mut g_body, mut r_body) = (g.clone(), r.clone());
            for v in [&mut g_body, &mut r_body] {
                let o = v.as_object_mut().unwrap();
                o.remove("apiVersion");
                o.remove("kind");
            }
            assert_eq!(g_body, r_body, "the two servers answer {label} differently");
            let idle = [go.pid, rust.pid].map(|pid| status_mb(pid, "VmRSS:"));
            // Warm-up: connections, allocators, Go's heap target.
            for peer in [&go, &rust] {
                round(&client, peer, path, body, Duration::from_secs(1), in_flight).await;
            }
            let mut totals = [Totals::default(), Totals::default()];
            for i in 0..rounds {
                let order = if i % 2 == 0 { [0, 1] } else { [1, 0] };
                for which in order {
                    let peer = [&go, &rust][which];
                    let (count, latencies, ticks, own) =
                        round(&client, peer, path, body, run, in_flight).await;
                    let t = &mut totals[which];
                    t.rates.push(count as f64 / run.as_secs_f64());
                    t.requests += latencies.len();
                    t.latencies.extend(latencies);
                    t.ticks += ticks;
                    t.client_ticks += own;
                }
            }
            let peak = [go.pid, rust.pid].map(|pid| status_mb(pid, "VmHWM:"));
            println!(
                "{label}: request {} bytes, answer {} bytes (Go) / {} bytes (Rust); load average after: {}",
                body.len(),
                serde_json::to_vec(&g).unwrap().len(),
                serde_json::to_vec(&r).unwrap().len(),
                load_average()
            );
            let mut rows = Vec::new();
            for (i, peer) in [&go, &rust].into_iter().enumerate() {
                let t = &mut totals[i];
                let row = (
                    t.rate(),
                    t.percentile(0.50),
                    t.percentile(0.99),
                    t.cpu_per_10k(t.ticks, ticks_per_second),
                    peak[i],
                );
                let client = t.cpu_per_10k(t.client_ticks, ticks_per_second);
                // Requests per CPU second of the server: what a loaded machine does not
                // distort, unlike requests per second.
                let per_cpu_second = 10_000.0 / row.3;
                println!(
                    "  {:<4} {:>9.0} req/s  p50 {:>7.2} ms  p99 {:>7.2} ms  CPU {:>6.2} s/10k \
                     ({:>7.0} req/CPU-s)  peak RSS {:>6.1} MB (idle {:>5.1} MB)  load generator \
                     CPU {:>6.2} s/10k",
                    peer.name, row.0, row.1, row.2, row.3, per_cpu_second, row.4, idle[i], client
                );
                rows.push(row);
            }
            let (g, r) = (rows[0], rows[1]);
            println!(
                "  Rust/Go: throughput {:.2}x, p50 {:.2}, p99 {:.2}, CPU per request {:.2} \
                 (requests per CPU second {:.2}x), peak RSS {:.2}",
                r.0 / g.0,
                r.1 / g.1,
                r.2 / g.2,
                r.3 / g.3,
                g.3 / r.3,
                r.4 / g.4
            );
        });
        drop(go);
        drop(rust);
    }
}
