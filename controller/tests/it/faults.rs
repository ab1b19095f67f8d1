//! The controller on a control plane that fails under it: kube-apiserver, then etcd, stopped
//! and started again while ExtensionConfigs are created, changed and deleted. Nothing may be
//! lost: once the control plane is back, every ExtensionConfig's `status.handlers` and
//! `Discovered` condition match what its extension serves, and the registry holds exactly
//! those handlers, no more (deletions made while the watch was down included).
//!
//! The test restarts processes, so it has a control plane of its own, not the binary's
//! shared one.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::support::*;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::Client as RuntimeClient;
use capi_runtime_controller::{ControllerMetrics, Options, Reconciler};
use capi_runtime_testenv::TestEnv;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};

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
    let _ = rustls::crypto::ring::default_provider().install_default();
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

    let runtime = runtime_client();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(capi_runtime_controller::run(
        Reconciler::new(kube.clone(), runtime.clone()),
        Options::default(),
        ControllerMetrics::new(),
        async move {
            let _ = stopped.await;
        },
    ));
    eventually(Duration::from_secs(60), || async { runtime.is_ready() }).await;

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

    stop.send(()).unwrap();
    let result = tokio::time::timeout(Duration::from_secs(20), running)
        .await
        .expect("run() returns after shutdown")
        .unwrap();
    assert!(result.is_ok(), "{result:?}");
    first.stop().await;
    second.stop().await;
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
