//! The controller on a control plane that fails under it: kube-apiserver, then etcd, stopped
//! and started again while ExtensionConfigs are created, changed and deleted; then a watch
//! that expires (the controller cut off from the API server by a relay while objects change,
//! etcd compacted past what it saw and the API server restarted, so that its watch can only
//! resume with `410 Gone` and a new list). Nothing may be lost: once the control plane is
//! back, every ExtensionConfig's `status.handlers` and `Discovered` condition match what its
//! extension serves, and the registry holds exactly those handlers, no more (deletions made
//! while the watch was down included).
//!
//! Each test restarts processes or reconfigures the API server, so it has a control plane of
//! its own, not the binary's shared one.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::*;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::Client as RuntimeClient;
use capi_runtime_controller::{ControllerMetrics, Options, Reconciler};
use capi_runtime_testenv::TestEnv;
use futures::StreamExt;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams, WatchParams};
use kube::config::{Config, KubeConfigOptions};

/// How many ExtensionConfigs reconcile while the API server restarts.
const CONFIGS: usize = 50;
/// How long a restarted process stays down.
const DOWNTIME: Duration = Duration::from_secs(2);
/// How long the controller may take to catch up once the control plane is back.
const SETTLE: Duration = Duration::from_secs(120);

/// What each ExtensionConfig should end with: the URL it points at and the handlers (bare
/// names) that extension serves.
type Expected = BTreeMap<String, (String, Vec<&'static str>)>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_lost_when_the_api_server_or_etcd_restarts() {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    let mut env = tokio::task::block_in_place(|| {
        TestEnv::builder("controller-faults")
            .crd(crd_file())
            .start()
            .unwrap()
    });
    let kube = env.client().await.unwrap();
    let ca = TestCa::new("faults-ca");
    let first = Extension::start(&ca, &["a", "b"]).await;
    let second = Extension::start(&ca, &["c"]).await;

    let controller = Running::start(kube.clone()).await;
    let runtime = controller.runtime.clone();

    // 50 new configs, and the API server goes away while they reconcile.
    let mut expected = Expected::new();
    for n in 0..CONFIGS {
        let name = format!("fault-{n:02}");
        create(&kube, &config(&name, &first.url, Some(&ca.pem()))).await;
        expected.insert(name, (first.url.clone(), vec!["a", "b"]));
    }
    let discovered = discovered_count(&kube).await;
    let down = tokio::task::block_in_place(|| env.restart_apiserver(DOWNTIME).unwrap());
    eprintln!(
        "kube-apiserver stopped with {discovered} of {CONFIGS} configs discovered; it answered \
         again {down:?} after it was stopped"
    );
    let caught_up = settle(&kube, &runtime, &expected).await;
    eprintln!("after the API server restart, everything held {caught_up:?} later");

    // Deletions, creations and changes, then etcd goes away while they reconcile.
    let api = configs(&kube);
    for n in 0..10 {
        let name = format!("fault-{n:02}");
        api.delete(&name, &DeleteParams::default()).await.unwrap();
        expected.remove(&name);
    }
    for n in CONFIGS..CONFIGS + 10 {
        let name = format!("fault-{n:02}");
        api.create(
            &PostParams::default(),
            &config(&name, &first.url, Some(&ca.pem())),
        )
        .await
        .unwrap();
        expected.insert(name, (first.url.clone(), vec!["a", "b"]));
    }
    for n in 10..20 {
        let name = format!("fault-{n:02}");
        let patch = serde_json::json!({"spec": {"clientConfig": {"url": second.url}}});
        api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .unwrap();
        expected.insert(name, (second.url.clone(), vec!["c"]));
    }
    let discovered = discovered_count(&kube).await;
    let down = tokio::task::block_in_place(|| env.restart_etcd(DOWNTIME).unwrap());
    eprintln!(
        "etcd stopped with {discovered} of {} configs discovered; it was healthy again {down:?} \
         after it was stopped",
        expected.len()
    );
    let caught_up = settle(&kube, &runtime, &expected).await;
    eprintln!("after the etcd restart, everything held {caught_up:?} later");

    controller.stop().await;
    first.stop().await;
    second.stop().await;
}

/// The controller cut off from the API server (by a relay on its connections) while
/// ExtensionConfigs are deleted, created and moved, and etcd compacted past the last resource
/// version it saw. The API server runs without a watch cache (`--watch-cache=false`), so it
/// stays up and a watch resuming from that version meets etcd's compaction at once: `410
/// Gone`. Once the relay carries traffic again the controller must list again, and nothing
/// made meanwhile may be missed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_watch_is_listed_again_and_misses_nothing() {
    /// ExtensionConfigs before the cut; a third of them is deleted, another third moved.
    const BEFORE: usize = 30;
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    let env = tokio::task::block_in_place(|| {
        TestEnv::builder("controller-watch-expiry")
            .crd(crd_file())
            .apiserver_arg("--watch-cache=false")
            .start()
            .unwrap()
    });
    let kube = env.client().await.unwrap();
    let ca = TestCa::new("expiry-ca");
    let first = Extension::start(&ca, &["a", "b"]).await;
    let second = Extension::start(&ca, &["c"]).await;

    // The controller reaches the API server only through the relay; the test does not.
    let relay = Relay::start(port_of(env.server_url())).await;
    let mut through_relay = env.kubeconfig().clone();
    for cluster in &mut through_relay.clusters {
        if let Some(c) = cluster.cluster.as_mut() {
            c.server = Some(format!("https://127.0.0.1:{}", relay.port));
        }
    }
    let controller_kube = kube::Client::try_from(
        Config::from_custom_kubeconfig(through_relay, &KubeConfigOptions::default())
            .await
            .unwrap(),
    )
    .unwrap();
    let controller = Running::start(controller_kube).await;

    let api = configs(&kube);
    let mut expected = Expected::new();
    for n in 0..BEFORE {
        let name = format!("expiry-{n:02}");
        create(&kube, &config(&name, &first.url, Some(&ca.pem()))).await;
        expected.insert(name, (first.url.clone(), vec!["a", "b"]));
    }
    let caught_up = settle(&kube, &controller.runtime, &expected).await;
    eprintln!("{BEFORE} configs discovered after {caught_up:?}");

    // Cut off: deletions, creations and moves the controller's watch cannot see, then the
    // history it would resume from is compacted away.
    let seen = api
        .list(&ListParams::default())
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    relay.cut();
    let cut_at = Instant::now();
    for n in 0..BEFORE / 3 {
        let name = format!("expiry-{n:02}");
        api.delete(&name, &DeleteParams::default()).await.unwrap();
        expected.remove(&name);
    }
    for n in BEFORE / 3..2 * BEFORE / 3 {
        let name = format!("expiry-{n:02}");
        let patch = serde_json::json!({"spec": {"clientConfig": {"url": second.url}}});
        api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .unwrap();
        expected.insert(name, (second.url.clone(), vec!["c"]));
    }
    for n in BEFORE..BEFORE + BEFORE / 3 {
        let name = format!("expiry-{n:02}");
        api.create(
            &PostParams::default(),
            &config(&name, &second.url, Some(&ca.pem())),
        )
        .await
        .unwrap();
        expected.insert(name, (second.url.clone(), vec!["c"]));
    }
    let revision = tokio::task::block_in_place(|| env.compact_etcd().unwrap());
    // What the controller's watch will meet: resuming from what it saw is refused.
    assert_gone(&api, &seen).await;
    relay.restore();
    eprintln!(
        "cut for {:?}; a watch from {seen} is gone (etcd compacted at {revision})",
        cut_at.elapsed()
    );
    let caught_up = settle(&kube, &controller.runtime, &expected).await;
    eprintln!(
        "after the expired watch, everything held {caught_up:?} after the relay was restored"
    );

    controller.stop().await;
    drop(relay);
    first.stop().await;
    second.stop().await;
}

/// `capi_runtime_controller::run` in this process with default options, over `kube`, and the
/// runtime client whose registry it fills; warmed up when [`Running::start`] returns.
struct Running {
    runtime: RuntimeClient,
    stop: tokio::sync::oneshot::Sender<()>,
    running: tokio::task::JoinHandle<Result<(), capi_runtime_controller::ControllerError>>,
}

impl Running {
    async fn start(kube: kube::Client) -> Running {
        let runtime = runtime_client();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(capi_runtime_controller::run(
            Reconciler::new(kube, runtime.clone()),
            Options::default(),
            ControllerMetrics::new(),
            async move {
                let _ = stopped.await;
            },
        ));
        eventually(Duration::from_secs(60), || async { runtime.is_ready() }).await;
        Running {
            runtime,
            stop,
            running,
        }
    }

    /// Shuts the controller down and checks that it stopped cleanly.
    async fn stop(self) {
        self.stop.send(()).unwrap();
        let result = tokio::time::timeout(Duration::from_secs(20), self.running)
            .await
            .expect("run() returns after shutdown")
            .unwrap();
        assert!(result.is_ok(), "{result:?}");
    }
}

/// How many ExtensionConfigs are `Discovered=True` now (however they point).
async fn discovered_count(kube: &kube::Client) -> usize {
    let list = configs(kube).list(&ListParams::default()).await.unwrap();
    list.items
        .iter()
        .filter(|c| {
            capi_runtime_controller::conditions::get(c, "Discovered")
                .is_some_and(|d| d.status == "True")
        })
        .count()
}

/// Polls, tolerating the errors of a control plane that is still coming back, until every
/// ExtensionConfig in the cluster is one of `expected`, points where it says, is
/// `Discovered=True` with exactly its extension's handlers, and the registry holds exactly
/// those handlers. Returns how long that took; panics after [`SETTLE`] with what differs.
async fn settle(kube: &kube::Client, runtime: &RuntimeClient, expected: &Expected) -> Duration {
    let started = Instant::now();
    let mut want_registered: Vec<String> = expected
        .iter()
        .flat_map(|(name, (_, handlers))| handlers.iter().map(move |h| format!("{h}.{name}")))
        .collect();
    want_registered.sort();
    let mut last = String::new();
    while started.elapsed() < SETTLE {
        match configs(kube).list(&ListParams::default()).await {
            Ok(list) => match differences(&list.items, expected) {
                None if registered(runtime) == want_registered => return started.elapsed(),
                None => last = "the registry differs from the configs".into(),
                Some(d) => last = d,
            },
            Err(e) => last = format!("listing: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let got = registered(runtime);
    let extra: Vec<_> = got
        .iter()
        .filter(|h| !want_registered.contains(h))
        .collect();
    let missing: Vec<_> = want_registered
        .iter()
        .filter(|h| !got.contains(h))
        .collect();
    panic!("not settled within {SETTLE:?}: {last}; registry extra {extra:?}, missing {missing:?}");
}

/// The first way `items` differ from `expected`, if any.
fn differences(items: &[ExtensionConfig], expected: &Expected) -> Option<String> {
    let names: Vec<&str> = items
        .iter()
        .filter_map(|c| c.metadata.name.as_deref())
        .collect();
    if names.len() != expected.len() || !names.iter().all(|n| expected.contains_key(*n)) {
        return Some(format!(
            "{} configs in the cluster, {} expected",
            names.len(),
            expected.len()
        ));
    }
    for c in items {
        let name = c.metadata.name.as_deref().unwrap_or_default();
        let (url, handlers) = &expected[name];
        let want: Vec<String> = handlers.iter().map(|h| format!("{h}.{name}")).collect();
        let discovered = capi_runtime_controller::conditions::get(c, "Discovered")
            .is_some_and(|d| d.status == "True");
        if &c.spec.client_config.url != url || status_handlers(c) != want || !discovered {
            return Some(format!(
                "{name}: url {}, handlers {:?}, discovered {discovered}",
                c.spec.client_config.url,
                status_handlers(c)
            ));
        }
    }
    None
}

/// Asserts that a watch from `version` is refused with `410 Gone` (expired), not served.
async fn assert_gone(api: &kube::Api<ExtensionConfig>, version: &str) {
    let outcome = tokio::time::timeout(Duration::from_secs(30), async {
        match api.watch(&WatchParams::default(), version).await {
            Err(e) => format!("{e:?}"),
            Ok(events) => {
                let mut events = Box::pin(events);
                format!("{:?}", events.next().await)
            }
        }
    })
    .await
    .expect("a watch from a compacted resource version ends at once");
    assert!(
        outcome.contains("410") && !outcome.contains("Added"),
        "a watch from the compacted resource version {version} was not refused with 410: {outcome}"
    );
}

/// The port of `https://127.0.0.1:<port>`.
fn port_of(url: &str) -> u16 {
    url.rsplit(':').next().unwrap().parse().unwrap()
}

/// A TCP relay on loopback to a port, which the test can cut (every connection closed, new
/// ones closed at once) and restore: a network partition between a client and a server.
struct Relay {
    port: u16,
    cut: Arc<AtomicBool>,
    connections: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Relay {
    async fn start(target: u16) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(AtomicBool::new(false));
        let connections = Arc::new(Mutex::new(Vec::<tokio::task::AbortHandle>::new()));
        let (is_cut, open) = (cut.clone(), connections.clone());
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if is_cut.load(Ordering::SeqCst) {
                    continue; // dropped: closed at once
                }
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) =
                        tokio::net::TcpStream::connect(("127.0.0.1", target)).await
                    {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                open.lock().unwrap().push(task.abort_handle());
            }
        });
        Relay {
            port,
            cut,
            connections,
            accept,
        }
    }

    /// Closes every connection and every new one until [`Relay::restore`].
    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for c in self.connections.lock().unwrap().drain(..) {
            c.abort();
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}
