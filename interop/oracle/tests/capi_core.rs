//! Cluster API's own core manager (`sigs.k8s.io/cluster-api/core` of v1.14.2, built by
//! `cargo xtask testenv` into `target/testenv/bin/core`) against the test control plane, with
//! the `RuntimeSDK` feature gate and every CRD of the Cluster API module installed, following
//! an extension served by this SDK's kit over HTTPS on loopback (`caBundle` set):
//!
//! 1. given an ExtensionConfig pointing at the example extension (`capi-test-extension`),
//!    Cluster API's ExtensionConfig controller discovers it: `status.handlers` lists exactly
//!    the extension's registrations (name suffixed with the ExtensionConfig's, hook, timeout,
//!    failure policy) and `Discovered` is True;
//! 2. another kit server with other handlers on a new port, and the ExtensionConfig's URL
//!    changed to it: the spec change makes Cluster API discover again, and the status lists
//!    the new handlers (removed ones gone, changed timeout and failure policy in);
//! 3. that server stopped and a third handler set served on the same address (a TCP
//!    forwarder of this test owns the address and switches to the third server, so no port is
//!    ever given up and bound again), with no write
//!    to the ExtensionConfig: Cluster API's controller has no timer of its own, but its
//!    watch delivers every object again each `--sync-period` (given 10 s here instead of the
//!    default 10 min) and each delivery is a discovery, so the status follows;
//! 4. the extension stopped and the ExtensionConfig annotated (any metadata change is an
//!    event, and an event is a discovery): `Discovered` turns False with reason
//!    `NotDiscovered` and a message naming the refused connection, while `status.handlers`
//!    keeps the last successful discovery's list.
//!
//! How long each step took is printed (`--nocapture`), not asserted. The manager's log is kept
//! under `target/testenv/logs/capi-core/`.

use capi_runtime_test_pki as pki;

mod support;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::{ClientConfig, ExtensionConfig, ExtensionConfigSpec};
use capi_runtime::hooks::v1alpha1::{
    AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, BeforeClusterDeleteRequest,
    BeforeClusterDeleteResponse, DiscoveryResponse, FailurePolicy, GeneratePatchesRequest,
    GeneratePatchesResponse,
};
use capi_runtime::server::{HandlerOptions, RunningServer, ServerBuilder};
use capi_runtime_testenv::{Process, TestEnv};
use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use kube::Api;
use kube::api::{Patch, PatchParams, PostParams};
use serde_json::json;

/// The ExtensionConfig's name.
const NAME: &str = "example-extension";

/// How often the manager's informers deliver every object again (its `--sync-period`).
const SYNC_PERIOD: &str = "10s";

/// Starts Cluster API's core manager with the RuntimeSDK and ClusterTopology gates against
/// `env`. Returns the manager and its diagnostics (metrics) port.
async fn start_manager(env: &TestEnv, webhook_dir: &Path) -> (Process, u16) {
    let extra = [
        "--feature-gates=RuntimeSDK=true,ClusterTopology=true".to_string(),
        format!("--sync-period={SYNC_PERIOD}"),
        "--v=2".to_string(),
    ];
    let (manager, ports) = support::start_manager(
        "Cluster API's manager",
        "core",
        "capi-core",
        env,
        webhook_dir,
        &extra,
    )
    .await;
    (manager, ports.diagnostics)
}

/// One row of `status.handlers`, compared field for field: name, hook apiVersion, hook,
/// timeout, failure policy (as JSON).
type Row = (String, String, String, i32, String);

/// The rows Cluster API should list for a server advertising `discovery`: names suffixed
/// with the ExtensionConfig's, and Cluster API's defaults (10 s, `Fail`) for what Discovery
/// leaves out; sorted by name.
fn expected(discovery: &DiscoveryResponse) -> Vec<Row> {
    let mut rows: Vec<Row> = discovery
        .handlers
        .iter()
        .map(|h| {
            (
                format!("{}.{NAME}", h.name),
                h.request_hook.api_version.clone(),
                h.request_hook.hook.clone(),
                h.timeout_seconds.unwrap_or(10),
                serde_json::to_value(h.failure_policy.clone().unwrap_or(FailurePolicy::Fail))
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// The rows of `status.handlers`, sorted by name.
fn listed(config: &ExtensionConfig) -> Vec<Row> {
    let mut rows: Vec<Row> = config
        .status
        .handlers
        .iter()
        .map(|h| {
            (
                h.name.clone(),
                h.request_hook.api_version.clone(),
                h.request_hook.hook.clone(),
                h.timeout_seconds,
                serde_json::to_value(h.failure_policy).unwrap().to_string(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// The `Discovered` condition.
fn discovered(config: &ExtensionConfig) -> Option<&metav1::Condition> {
    config
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Discovered")
}

/// Whether Cluster API has discovered `want` for the current spec: `Discovered` True for the
/// current generation and `status.handlers` equal to `want`. (Cluster API's patch helper
/// writes the conditions first and the rest of the status in a second patch, so both are
/// waited for.)
fn shows(config: &ExtensionConfig, want: &[Row]) -> bool {
    discovered(config)
        .is_some_and(|c| c.status == "True" && c.observed_generation == config.metadata.generation)
        && listed(config) == want
}

/// Polls the ExtensionConfig until `done` holds, for up to 120 s; returns it and how long it
/// took. Fails early when the manager exits.
async fn wait_for(
    configs: &Api<ExtensionConfig>,
    manager: &mut Process,
    what: &str,
    done: impl Fn(&ExtensionConfig) -> bool,
) -> (ExtensionConfig, Duration) {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(120);
    loop {
        let current = configs.get(NAME).await.unwrap();
        if done(&current) {
            let took = started.elapsed();
            eprintln!("capi-core: {what} after {took:.1?}");
            return (current, took);
        }
        if manager.exited().is_some() {
            panic!("Cluster API's manager exited: {}", manager.report());
        }
        assert!(
            Instant::now() < deadline,
            "{what}: not after 120 s (Discovered {:?}, handlers {:#?}): {}",
            discovered(&current),
            listed(&current),
            manager.report()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Serves the handlers `make` registers over HTTPS on a loopback port the OS picks, with the
/// serving certificate in `dir`.
async fn serve(make: fn() -> ServerBuilder, dir: &Path) -> RunningServer {
    make()
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(dir)
        .build()
        .unwrap()
        .start()
        .await
        .unwrap_or_else(|e| panic!("serving on loopback: {e}"))
}

/// A loopback TCP address that forwards every connection to the backend it is currently
/// given: the extension's one address while the servers behind it change.
struct Forwarder {
    addr: SocketAddr,
    backend: Arc<Mutex<SocketAddr>>,
    task: tokio::task::JoinHandle<()>,
}

impl Forwarder {
    async fn start(backend: SocketAddr) -> Self {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let backend = Arc::new(Mutex::new(backend));
        let current = backend.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let to = *current.lock().unwrap();
                tokio::spawn(async move {
                    // A backend that is gone drops the connection: the caller sees it closed.
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        Forwarder {
            addr,
            backend,
            task,
        }
    }

    /// New connections go to `backend` from now on.
    fn point_to(&self, backend: SocketAddr) {
        *self.backend.lock().unwrap() = backend;
    }

    /// Stops listening: connecting to the address is refused from now on.
    async fn stop(self) {
        self.task.abort();
        let _ = self.task.await;
    }
}

/// The second handler set: one handler kept under a new name with a short timeout and
/// `Ignore`, one with Cluster API's defaults, one at the longest timeout.
fn second_handlers() -> ServerBuilder {
    ServerBuilder::new()
        .handle(
            HandlerOptions::new("gate")
                .timeout_seconds(3)
                .failure_policy(FailurePolicy::Ignore),
            |_: BeforeClusterCreateRequest| async {
                Ok::<_, String>(BeforeClusterCreateResponse::default())
            },
        )
        .handle("announce", |_: AfterControlPlaneInitializedRequest| async {
            Ok::<_, String>(AfterControlPlaneInitializedResponse::default())
        })
        .handle(
            HandlerOptions::new("patch").timeout_seconds(30),
            |_: GeneratePatchesRequest| async {
                Ok::<_, String>(GeneratePatchesResponse::default())
            },
        )
}

/// The third handler set: `gate` again with another timeout and `Fail`, and a hook neither
/// earlier set had.
fn third_handlers() -> ServerBuilder {
    ServerBuilder::new()
        .handle(
            HandlerOptions::new("gate")
                .timeout_seconds(20)
                .failure_policy(FailurePolicy::Fail),
            |_: BeforeClusterCreateRequest| async {
                Ok::<_, String>(BeforeClusterCreateResponse::default())
            },
        )
        .handle(
            HandlerOptions::new("last-word").timeout_seconds(7),
            |_: BeforeClusterDeleteRequest| async {
                Ok::<_, String>(BeforeClusterDeleteResponse::default())
            },
        )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_apis_extension_config_controller_follows_the_example_extension() {
    let env = support::start_env("capi-core", support::cluster_api_crds()).await;
    let kube = env.client().await.unwrap();

    // The example extension, over HTTPS on loopback.
    let ca = pki::TestCa::new("capi-core-ca");
    let dir = tempfile::tempdir().unwrap();
    ca.write_serving(dir.path());
    std::fs::write(dir.path().join("hookresponses.yaml"), "{}\n").unwrap();
    let script = capi_test_extension::lifecycle::Script::new(
        dir.path().join("hookresponses.yaml"),
        dir.path().join("hookresponses.actual.yaml"),
    );
    let builder = capi_test_extension::server_builder(&script);
    let first = expected(&builder.discovery());
    assert_eq!(first.len(), 16);
    let example = builder
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(dir.path())
        .build()
        .unwrap()
        .start()
        .await
        .unwrap();

    // Cluster API's manager, with its own webhook serving certificate.
    let webhook_dir = tempfile::tempdir().unwrap();
    ca.write_serving(webhook_dir.path());
    let (mut manager, diagnostics) = start_manager(&env, webhook_dir.path()).await;

    // 1. Discovery of the example extension.
    let configs: Api<ExtensionConfig> = Api::all(kube);
    let config = ExtensionConfig::new(
        NAME,
        ExtensionConfigSpec {
            client_config: ClientConfig {
                url: url(example.local_addr()),
                ca_bundle: ByteString(ca.pem().into_bytes()),
                ..Default::default()
            },
            ..Default::default()
        },
    );
    configs
        .create(&PostParams::default(), &config)
        .await
        .unwrap();
    wait_for(
        &configs,
        &mut manager,
        "discovered the example extension's 16 handlers",
        |c| shows(c, &first),
    )
    .await;

    // 2. Other handlers on a new port; the spec's URL changed to it. The example extension
    // keeps serving, so the new list can only come from the new URL.
    let second = serve(second_handlers, dir.path()).await;
    let second_rows = expected(&second_handlers().discovery());
    let forwarder = Forwarder::start(second.local_addr()).await;
    let port = forwarder.addr.port();
    configs
        .patch(
            NAME,
            &PatchParams::default(),
            &Patch::Merge(json!({ "spec": { "clientConfig": { "url": url(forwarder.addr) } } })),
        )
        .await
        .unwrap();
    wait_for(
        &configs,
        &mut manager,
        "re-discovered after the URL changed",
        |c| shows(c, &second_rows),
    )
    .await;
    example.shutdown().await.unwrap();

    // 3. The same address serving a third set, the ExtensionConfig untouched: the resync
    // every --sync-period discovers again. Cluster API's own status writes are events too and
    // bring a reconcile or two after each discovery, so the switch waits until the
    // controller has been idle for a while (its reconcile count unchanged for 3 s, well
    // within the sync period): the discovery that follows can only come from the resync.
    wait_idle(&mut manager, diagnostics).await;
    let third = serve(third_handlers, dir.path()).await;
    // Closing the second server also closes the connections piped to it, so the next
    // discovery connects again and reaches the third.
    second.shutdown().await.unwrap();
    forwarder.point_to(third.local_addr());
    let third_rows = expected(&third_handlers().discovery());
    let before = configs.get(NAME).await.unwrap().metadata.generation;
    wait_for(
        &configs,
        &mut manager,
        &format!("re-discovered the same address by the resync (--sync-period={SYNC_PERIOD})"),
        |c| shows(c, &third_rows),
    )
    .await;
    assert_eq!(
        configs.get(NAME).await.unwrap().metadata.generation,
        before,
        "the spec did not change"
    );

    // 4. The extension stopped; an annotation (a metadata change, so an event) makes
    // Cluster API discover at once instead of at the next resync.
    third.shutdown().await.unwrap();
    forwarder.stop().await;
    configs
        .patch(
            NAME,
            &PatchParams::default(),
            &Patch::Merge(
                json!({ "metadata": { "annotations": { "capi-runtime.test/poke": "1" } } }),
            ),
        )
        .await
        .unwrap();
    let (lost, _) = wait_for(&configs, &mut manager, "Discovered False", |c| {
        discovered(c).is_some_and(|c| c.status == "False")
    })
    .await;
    let condition = discovered(&lost).unwrap();
    assert_eq!(condition.reason, "NotDiscovered");
    assert_eq!(condition.observed_generation, lost.metadata.generation);
    let address = format!("127.0.0.1:{port}");
    let message = &condition.message;
    for part in [
        "Error in discovery: ",
        &format!("failed to discover extension \"{NAME}\""),
        &address,
        "connection refused",
    ] {
        assert!(message.contains(part), "{part:?} not in {message:?}");
    }
    // The v1beta1 condition says the same; the handlers of the last successful discovery stay.
    let deprecated = serde_json::to_value(&lost.status.deprecated).unwrap();
    let old = deprecated["v1beta1"]["conditions"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["type"] == "Discovered"))
        .cloned()
        .unwrap_or_else(|| panic!("no v1beta1 Discovered condition in {deprecated}"));
    assert_eq!(old["status"], "False", "{old}");
    assert_eq!(old["reason"], "DiscoveryFailed", "{old}");
    assert_eq!(old["severity"], "Error", "{old}");
    assert_eq!(old["message"].as_str(), Some(message.as_str()), "{old}");
    assert_eq!(listed(&lost), third_rows);

    manager.stop();
}

/// How many reconciles the manager's ExtensionConfig controller has done (from its metrics).
async fn reconciles(diagnostics: u16) -> Option<u64> {
    let text = pki::plain_client()
        .get(format!("http://127.0.0.1:{diagnostics}/metrics"))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    Some(
        text.lines()
            .filter(|l| {
                l.starts_with("controller_runtime_reconcile_total{")
                    && l.contains(r#"controller="extensionconfig""#)
            })
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>() as u64,
    )
}

/// Waits until the ExtensionConfig controller's reconcile count has not moved for 3 s (up to
/// 60 s).
async fn wait_idle(manager: &mut Process, diagnostics: u16) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = None;
    let mut since = Instant::now();
    loop {
        let now = reconciles(diagnostics).await;
        if now.is_none() || now != last {
            last = now;
            since = Instant::now();
        } else if since.elapsed() >= Duration::from_secs(3) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the ExtensionConfig controller was not idle for 3 s within 60 s (reconciles {last:?}): {}",
            manager.report()
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

fn url(addr: SocketAddr) -> String {
    format!("https://{addr}")
}
