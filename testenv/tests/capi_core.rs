//! Cluster API's own core manager (`sigs.k8s.io/cluster-api/core` of v1.14.2, built by
//! `cargo xtask testenv` into `target/testenv/bin/core`) against the test control plane, with
//! the `RuntimeSDK` feature gate and every CRD of the Cluster API module installed. Given an
//! ExtensionConfig pointing at the example extension (`capi-test-extension`, served in this
//! test over HTTPS on loopback, `caBundle` set), Cluster API's ExtensionConfig controller
//! discovers it: `status.handlers` lists exactly the extension's registrations (name suffixed
//! with the ExtensionConfig's, hook, timeout, failure policy) and `Discovered` is True.
//!
//! The manager's log is kept under `target/testenv/logs/capi-core/`.

#[path = "../../tests/support/server_pki.rs"]
mod server_pki;

use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::{ClientConfig, ExtensionConfig, ExtensionConfigSpec};
use capi_runtime_testenv::{Process, TestEnv, free_port, new_log_dir, program};
use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use kube::Api;
use kube::api::PostParams;

/// The directory of the Cluster API module `interop/capi` pins, in Go's module cache.
fn cluster_api_module() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../interop/capi");
    let out = Command::new("go")
        .args(["list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/cluster-api"])
        .current_dir(&dir)
        .env("GOWORK", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "-mod=readonly")
        .output()
        .expect(
            "Go is not installed (no `go` on the PATH): this test finds Cluster API's CRDs with it",
        );
    assert!(
        out.status.success(),
        "go list sigs.k8s.io/cluster-api: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// Every CRD file of Cluster API's core (`core/config/crd/bases`).
fn cluster_api_crds() -> Vec<PathBuf> {
    let dir = cluster_api_module().join("core/config/crd/bases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() > 5, "no CRDs in {}", dir.display());
    files
}

/// Whether the manager became ready (its health endpoint answers), or `false` when it exited
/// because one of its ports was taken in the meantime; fails on any other exit, or after 120 s.
async fn wait_ready(manager: &mut Process, health: u16) -> bool {
    let client = server_pki::plain_client();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if manager.exited().is_some() {
            if manager.port_was_taken() {
                return false;
            }
            panic!("Cluster API's manager exited: {}", manager.report());
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
            "Cluster API's manager is not ready after 120 s: {}",
            manager.report()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Starts Cluster API's core manager with the RuntimeSDK and ClusterTopology gates against
/// `env`, on loopback ports it picks (again, up to 5 times, when one was taken meanwhile).
async fn start_manager(env: &TestEnv, webhook_dir: &Path) -> Process {
    let logs = new_log_dir("capi-core").unwrap();
    let binary = program("core").unwrap();
    for attempt in 1..=5 {
        let health = free_port().unwrap();
        let args = vec![
            format!("--kubeconfig={}", env.kubeconfig_path().display()),
            "--feature-gates=RuntimeSDK=true,ClusterTopology=true".to_string(),
            "--leader-elect=false".to_string(),
            format!("--webhook-port={}", free_port().unwrap()),
            format!("--webhook-cert-dir={}", webhook_dir.display()),
            format!("--health-addr=127.0.0.1:{health}"),
            format!("--diagnostics-address=127.0.0.1:{}", free_port().unwrap()),
            "--insecure-diagnostics".to_string(),
            "--v=2".to_string(),
        ];
        let log = logs.join(format!("capi-core-{attempt}.log"));
        let mut manager = Process::spawn("capi-core", &binary, &args, &log).unwrap();
        if wait_ready(&mut manager, health).await {
            return manager;
        }
    }
    panic!(
        "Cluster API's manager lost the race for a port 5 times (logs in {})",
        logs.display()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_apis_extension_config_controller_discovers_the_example_extension() {
    let env = tokio::task::spawn_blocking(|| {
        cluster_api_crds()
            .into_iter()
            .fold(TestEnv::builder("capi-core"), |b, f| b.crd(f))
            .start()
            .unwrap()
    })
    .await
    .unwrap();
    let kube = env.client().await.unwrap();

    // The example extension, over HTTPS on loopback.
    let ca = server_pki::TestCa::new("capi-core-ca");
    let dir = tempfile::tempdir().unwrap();
    ca.write_serving(dir.path());
    std::fs::write(dir.path().join("hookresponses.yaml"), "{}\n").unwrap();
    let script = capi_test_extension::lifecycle::Script::new(
        dir.path().join("hookresponses.yaml"),
        dir.path().join("hookresponses.actual.yaml"),
    );
    let builder = capi_test_extension::server_builder(&script).unwrap();
    let registered = builder.discovery().handlers;
    let extension = builder
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(dir.path())
        .build()
        .start()
        .await
        .unwrap();
    let url = format!("https://127.0.0.1:{}", extension.local_addr().port());

    // Cluster API's manager, with its own webhook serving certificate.
    let webhook_dir = tempfile::tempdir().unwrap();
    ca.write_serving(webhook_dir.path());
    let mut manager = start_manager(&env, webhook_dir.path()).await;

    let name = "example-extension";
    let configs: Api<ExtensionConfig> = Api::all(kube);
    let config = ExtensionConfig {
        api_version: "runtime.cluster.x-k8s.io/v1beta2".into(),
        kind: "ExtensionConfig".into(),
        metadata: metav1::ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        spec: ExtensionConfigSpec {
            client_config: ClientConfig {
                url: url.clone(),
                ca_bundle: ByteString(ca.pem().into_bytes()),
                ..Default::default()
            },
            ..Default::default()
        },
        ..Default::default()
    };
    configs
        .create(&PostParams::default(), &config)
        .await
        .unwrap();

    let deadline = Instant::now() + Duration::from_secs(120);
    let discovered = loop {
        let current = configs.get(name).await.unwrap();
        let condition = current
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Discovered")
            .cloned();
        // Cluster API's patch helper writes the conditions first and the rest of the status
        // in a second patch, so Discovered can be True a moment before the handlers are in.
        if condition.as_ref().is_some_and(|c| c.status == "True")
            && !current.status.handlers.is_empty()
        {
            break current;
        }
        if manager.exited().is_some() {
            panic!("Cluster API's manager exited: {}", manager.report());
        }
        assert!(
            Instant::now() < deadline,
            "not Discovered with handlers after 120 s (condition {condition:?}, {} handlers): {}",
            current.status.handlers.len(),
            manager.report()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };

    let mut got: Vec<_> = discovered
        .status
        .handlers
        .iter()
        .map(|h| {
            (
                h.name.clone(),
                h.request_hook.api_version.clone(),
                h.request_hook.hook.clone(),
                h.timeout_seconds,
                serde_json::to_value(h.failure_policy).unwrap(),
            )
        })
        .collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let mut want: Vec<_> = registered
        .iter()
        .map(|h| {
            (
                format!("{}.{name}", h.name),
                h.request_hook.api_version.clone(),
                h.request_hook.hook.clone(),
                // Cluster API's defaults for what Discovery leaves out.
                h.timeout_seconds.unwrap_or(10),
                h.failure_policy.map_or(serde_json::json!("Fail"), |p| {
                    serde_json::to_value(p).unwrap()
                }),
            )
        })
        .collect();
    want.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(got, want);
    assert_eq!(got.len(), 16);

    manager.stop();
    extension.shutdown().await.unwrap();
}
