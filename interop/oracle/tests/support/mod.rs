//! What the tests running Cluster API's own programs share: its core CRDs, and starting one of
//! its controller-runtime managers (the core manager, the test extension) on loopback ports.

// Each test binary uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use capi_runtime_oracle::program;
use capi_runtime_test_pki as pki;
use capi_runtime_testenv::{ClusterApiAssets, Process, TestEnv, free_port, new_log_dir};

/// How long a Cluster API program may take to become ready.
const READY_WITHIN: Duration = Duration::from_secs(120);

/// Every CRD file of Cluster API's core, where `capi-envtest` (`cargo xtask testenv` here)
/// put them, sorted.
pub fn cluster_api_crds() -> Vec<PathBuf> {
    let assets = ClusterApiAssets::find().unwrap_or_else(|e| panic!("{e}"));
    let files = assets.crd_files().unwrap_or_else(|e| panic!("{e}"));
    assert!(files.len() > 5, "no CRDs in {}", assets.crds.display());
    files
}

/// Starts a test control plane named `name` with `crds` installed, off the async runtime
/// (starting it blocks).
pub async fn start_env(name: &'static str, crds: Vec<PathBuf>) -> TestEnv {
    tokio::task::spawn_blocking(move || {
        crds.into_iter()
            .fold(TestEnv::builder(name), |b, f| b.crd(f))
            .start()
            .unwrap()
    })
    .await
    .unwrap()
}

/// The loopback ports a started manager listens on.
pub struct Ports {
    pub health: u16,
    pub webhook: u16,
    pub diagnostics: u16,
}

/// Starts the Cluster API program `binary` (built by `cargo xtask testenv`), a
/// controller-runtime manager, against `env` with its webhook certificate in `cert_dir`, on
/// loopback ports it picks (again, up to 5 times, when one was taken meanwhile), plus
/// `extra` arguments; waits until its health endpoint answers. `what` names it in messages,
/// `logs` is its log directory under `target/testenv/logs/`.
pub async fn start_manager(
    what: &str,
    binary: &str,
    logs: &str,
    env: &TestEnv,
    cert_dir: &Path,
    extra: &[String],
) -> (Process, Ports) {
    let logs = new_log_dir(logs).unwrap();
    let binary = program(binary).unwrap();
    for attempt in 1..=5 {
        let ports = Ports {
            health: free_port().unwrap(),
            webhook: free_port().unwrap(),
            diagnostics: free_port().unwrap(),
        };
        let mut args = vec![
            format!("--kubeconfig={}", env.kubeconfig_path().display()),
            "--leader-elect=false".to_string(),
            format!("--webhook-port={}", ports.webhook),
            format!("--webhook-cert-dir={}", cert_dir.display()),
            format!("--health-addr=127.0.0.1:{}", ports.health),
            format!("--diagnostics-address=127.0.0.1:{}", ports.diagnostics),
            "--insecure-diagnostics".to_string(),
        ];
        args.extend_from_slice(extra);
        let log = logs.join(format!("{}-{attempt}.log", binary_name(&binary)));
        let mut process = Process::spawn(what, &binary, &args, &log).unwrap();
        if wait_ready(&mut process, ports.health, what).await {
            return (process, ports);
        }
    }
    panic!(
        "{what} lost the race for a port 5 times (logs in {})",
        logs.display()
    );
}

fn binary_name(binary: &Path) -> String {
    binary.file_name().unwrap().to_string_lossy().into_owned()
}

/// Whether `process` became ready (its health endpoint answers), or `false` when it exited
/// because one of its ports was taken in the meantime; fails on any other exit, or after
/// [`READY_WITHIN`].
async fn wait_ready(process: &mut Process, health: u16, what: &str) -> bool {
    let client = pki::plain_client();
    let deadline = Instant::now() + READY_WITHIN;
    loop {
        if process.exited().is_some() {
            if process.port_was_taken() {
                return false;
            }
            panic!("{what} exited: {}", process.report());
        }
        if let Ok(r) = client
            .get(format!("http://127.0.0.1:{health}/readyz"))
            .send()
            .await
            && r.status().is_success()
        {
            return true;
        }
        assert!(
            Instant::now() < deadline,
            "{what} is not ready after {READY_WITHIN:?}: {}",
            process.report()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
