//! End to end: the `capi-runtime-manager` binary against the real kube-apiserver, with an
//! extension on loopback. It runs the kube-runtime controller, the warm-up, leader election
//! and the metrics endpoint exactly as deployed: create → status.handlers and Discovered=True;
//! CA injection following its Secret; pause and unpause; delete; kill and restart → warm-up
//! rebuilds the registry before the manager reports ready.

// The controller crate's test helpers (control plane, test CA, loopback extensions), shared
// rather than copied.
#[path = "../../controller/tests/it/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::api::coordination::v1::Lease;
use capi_runtime::k8s_openapi::api::core::v1::Secret;
use capi_runtime_controller::FIELD_MANAGER;
use capi_runtime_controller::decide::PAUSED_ANNOTATION;
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;
use support::*;

/// A running manager; killed when dropped (also when the test panics).
struct Manager {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Manager {
    fn start(kubeconfig: &std::path::Path, cert_dir: &std::path::Path) -> Manager {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capi-runtime-manager"))
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(["--feature-gates", "RuntimeSDK=true"])
            .args(["--webhook-host", "127.0.0.1", "--webhook-port", "0"])
            .arg("--webhook-cert-dir")
            .arg(cert_dir)
            .args(["--metrics-bind-addr", "127.0.0.1:0"])
            .args(["--health-addr", "127.0.0.1:0"])
            .args(["--leader-elect", "--leader-election-namespace", "default"])
            .args([
                "--leader-elect-lease-duration",
                "3s",
                "--leader-elect-renew-grace",
                "1s",
            ])
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the manager binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Manager {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a log line containing `needle` and returns it.
    fn wait_line(&mut self, needle: &str, limit: Duration) -> String {
        if let Some(l) = self.seen.iter().find(|l| l.contains(needle)) {
            return l.clone();
        }
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no log line {needle:?} within {limit:?}; saw {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// The address logged after `message` (`addr=...`).
    fn addr(&mut self, message: &str) -> String {
        let line = self.wait_line(message, Duration::from_secs(30));
        line.split_whitespace()
            .find_map(|w| w.strip_prefix("addr="))
            .unwrap_or_else(|| panic!("no addr in {line:?}"))
            .to_string()
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then waits (bounded) for a clean exit.
    fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the manager did not stop on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Manager {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn http_get(addr: &str, path: &str) -> (u16, String) {
    let client = reqwest::Client::new();
    match client.get(format!("http://{addr}{path}")).send().await {
        Ok(r) => {
            let code = r.status().as_u16();
            (code, r.text().await.unwrap_or_default())
        }
        Err(_) => (0, String::new()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn manager_end_to_end() {
    let env = env("controller-manager");
    let kube = env.client().await.unwrap();
    let ns = env.unique_name("ca");
    namespace(&kube, &ns).await;
    let ca = TestCa::new("manager-ca");
    create_ca_secret(&kube, &ns, "ext-ca", Some(&ca.pem())).await;
    let ext = Extension::start(&ca, &["first", "second"]).await;
    let webhook_ca = TestCa::new("webhook-ca");
    let certs = webhook_ca.cert_dir();

    let mut manager = Manager::start(env.kubeconfig_path(), certs.path());
    let probes = manager.addr("serving probes");
    let metrics = manager.addr("serving metrics");
    eventually(Duration::from_secs(60), || async {
        http_get(&probes, "/readyz").await.0 == 200
    })
    .await;

    // Create: handlers and Discovered=True within seconds, the CA injected from the Secret.
    let name = env.unique_name("ext");
    let created_at = Instant::now();
    create(
        &kube,
        &inject_from(config(&name, &ext.url, None), &ns, "ext-ca"),
    )
    .await;
    eventually(Duration::from_secs(60), || async {
        let c = get(&kube, &name).await;
        c.status.handlers.len() == 2
            && capi_runtime_controller::conditions::get(&c, "Discovered")
                .is_some_and(|d| d.status == "True")
    })
    .await;
    let discovered_after = created_at.elapsed();
    let c = get(&kube, &name).await;
    assert_eq!(c.spec.client_config.ca_bundle.0, ca.pem().as_bytes());
    assert_eq!(
        status_handlers(&c),
        [format!("first.{name}"), format!("second.{name}")]
    );
    // The manager's writes are named: the status and the CA injection by the controller.
    let managers: Vec<(String, String)> = c
        .metadata
        .managed_fields
        .iter()
        .flatten()
        .map(|f| {
            (
                f.manager.clone().unwrap_or_default(),
                f.subresource.clone().unwrap_or_default(),
            )
        })
        .collect();
    for subresource in ["", "status"] {
        assert!(
            managers.contains(&(FIELD_MANAGER.to_string(), subresource.to_string())),
            "{managers:?}"
        );
    }
    eprintln!("created → Discovered=True in {discovered_after:?}");

    // The Secret changes: the caBundle follows (discovery then fails against the old cert).
    let rotated = TestCa::new("rotated");
    let secrets: Api<Secret> = Api::namespaced(kube.clone(), &ns);
    secrets
        .patch(
            "ext-ca",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"ca.crt": ByteString(rotated.pem().into_bytes())}})),
        )
        .await
        .unwrap();
    eventually(Duration::from_secs(60), || async {
        get(&kube, &name).await.spec.client_config.ca_bundle.0 == rotated.pem().as_bytes()
    })
    .await;
    eventually(Duration::from_secs(60), || async {
        capi_runtime_controller::conditions::get(&get(&kube, &name).await, "Discovered")
            .is_some_and(|d| d.status == "False")
    })
    .await;
    assert_eq!(
        get(&kube, &name).await.status.handlers.len(),
        2,
        "stale handlers kept"
    );
    secrets
        .patch(
            "ext-ca",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"ca.crt": ByteString(ca.pem().into_bytes())}})),
        )
        .await
        .unwrap();
    eventually(Duration::from_secs(60), || async {
        capi_runtime_controller::conditions::get(&get(&kube, &name).await, "Discovered")
            .is_some_and(|d| d.status == "True")
    })
    .await;

    // Pause and unpause.
    let pause = |value: serde_json::Value| {
        let kube = kube.clone();
        let name = name.clone();
        async move {
            configs(&kube)
                .patch(
                    &name,
                    &PatchParams::default(),
                    &Patch::Merge(json!({"metadata": {"annotations": {PAUSED_ANNOTATION: value}}})),
                )
                .await
                .unwrap();
        }
    };
    let paused_is = |want: &'static str| {
        let kube = kube.clone();
        let name = name.clone();
        move || {
            let kube = kube.clone();
            let name = name.clone();
            async move {
                capi_runtime_controller::conditions::get(&get(&kube, &name).await, "Paused")
                    .is_some_and(|p| p.status == want)
            }
        }
    };
    pause(json!("")).await;
    eventually(Duration::from_secs(60), paused_is("True")).await;
    pause(serde_json::Value::Null).await;
    eventually(Duration::from_secs(60), paused_is("False")).await;

    // One endpoint with the controller's and the client's metrics; the Lease is held.
    let (code, text) = http_get(&metrics, "/metrics").await;
    assert_eq!(code, 200);
    assert!(
        text.contains(
            "controller_runtime_reconcile_total{controller=\"extensionconfig\",result=\"success\"}"
        ),
        "{text}"
    );
    assert!(text.contains("capi_runtime_sdk_requests_total{"), "{text}");
    assert!(
        text.contains("capi_runtime_sdk_extension_registry_ready 1"),
        "{text}"
    );
    let lease = Api::<Lease>::namespaced(kube.clone(), "default")
        .get("controller-leader-election-capi-runtime")
        .await
        .unwrap();
    assert!(lease.spec.unwrap().holder_identity.is_some());

    // Kill and restart: warm-up rebuilds the registry (readiness waits for it).
    manager.kill();
    let mut manager = Manager::start(env.kubeconfig_path(), certs.path());
    let probes = manager.addr("serving probes");
    eventually(Duration::from_secs(60), || async {
        http_get(&probes, "/readyz").await.0 == 200
    })
    .await;
    manager.wait_line(
        "The extension registry is warmed up",
        Duration::from_secs(60),
    );

    // Delete: the controller unregisters the handlers.
    delete(&kube, &name).await;
    let line = manager.wait_line(
        "Unregistering ExtensionConfig information from registry",
        Duration::from_secs(60),
    );
    assert!(line.contains(&name), "{line}");

    let status = manager.terminate();
    assert!(status.success(), "{status:?}");
    ext.stop().await;
}
