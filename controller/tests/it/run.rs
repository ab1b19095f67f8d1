//! `capi_runtime_controller::run`, the function a kube-runtime program embeds, in-process
//! against a real kube-apiserver: warm-up failure stops it with upstream's message; with
//! `--watch-filter` only labelled ExtensionConfigs are reconciled (on a watch the test made
//! and shares); deleting one unregisters it; shutdown returns `Ok`.
//! (Warm-up lists every ExtensionConfig, so the cases run in order in one test.)

use std::time::Duration;

use crate::support::*;
use capi_runtime::go::errors::chain;
use capi_runtime_controller::controller::WATCH_FILTER_LABEL;
use capi_runtime_controller::{
    ConfigWatch, ControllerError, ControllerMetrics, Options, Reconciler,
};
use kube::ResourceExt;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_warm_up_failure_watch_filter_and_shutdown() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = whole_cluster(&kube).await;
    let ca = TestCa::new("run-ca");

    // An unreachable extension: warm-up times out and run() returns its error. The timeout
    // leaves room for at least one whole attempt (a list and a status patch on a loaded API
    // server); with none finished the message would be the bare deadline.
    let broken = env.unique_name("broken");
    create(&kube, &config(&broken, &unreachable_url(), Some(&ca.pem()))).await;
    let result = capi_runtime_controller::run(
        Reconciler::new(kube.clone(), runtime_client()),
        Options::default().warm_up(Duration::from_millis(200), Duration::from_secs(10)),
        ControllerMetrics::new(),
        std::future::pending(),
    )
    .await;
    match result {
        Err(ControllerError::WarmUp(e)) => assert!(
            chain(&e).to_string().starts_with(&format!(
                "ExtensionConfig registry warmup timed out after 10s: failed to reconcile ExtensionConfig: failed to discover ExtensionConfig {broken}: "
            )),
            "{}",
            chain(&e)
        ),
        other => panic!("expected a warm-up error, got {other:?}"),
    }
    delete(&kube, &broken).await;

    // The watch filter: only labelled objects are reconciled. The watch is made here and
    // given to the controller, so that this test reads the same cache.
    let ext = Extension::start(&ca, &["first"]).await;
    let runtime = runtime_client();
    let metrics = ControllerMetrics::new();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let watch = ConfigWatch::new(kube.clone(), Some("mine"));
    let cache = watch.store();
    let running = tokio::spawn(capi_runtime_controller::run_watching(
        watch,
        Reconciler::new(kube.clone(), runtime.clone()),
        Options::default(),
        metrics.clone(),
        async move {
            let _ = stopped.await;
        },
    ));
    let label = |mut c: capi_runtime::api::runtime::v1beta2::ExtensionConfig| {
        c.metadata.labels = Some([(WATCH_FILTER_LABEL.to_string(), "mine".to_string())].into());
        c
    };
    // Warm-up lists every object, labelled or not: let it finish (on an empty cluster) first.
    eventually(Duration::from_secs(30), || async { runtime.is_ready() }).await;
    let first = env.unique_name("mine");
    create(&kube, &label(config(&first, &ext.url, Some(&ca.pem())))).await;
    let ignored = env.unique_name("other");
    create(&kube, &config(&ignored, &ext.url, Some(&ca.pem()))).await;
    let second = env.unique_name("mine");
    create(&kube, &label(config(&second, &ext.url, Some(&ca.pem())))).await;
    for name in [&first, &second] {
        eventually(Duration::from_secs(30), || async {
            capi_runtime_controller::conditions::get(&get(&kube, name).await, "Discovered")
                .is_some_and(|d| d.status == "True")
        })
        .await;
    }
    // The unlabelled object, created before `second` (whose discovery took two reconciles at
    // least a second apart), was never touched.
    assert!(get(&kube, &ignored).await.status.conditions.is_empty());
    assert_eq!(
        registered(&runtime),
        [format!("first.{first}"), format!("first.{second}")]
    );
    let mut cached: Vec<String> = cache.state().iter().map(|c| c.name_any()).collect();
    cached.sort();
    assert_eq!(
        cached,
        [first.clone(), second.clone()],
        "the shared cache holds the labelled ones"
    );
    assert!(metrics.reconciles("success") >= 4);

    // Deleting a watched object unregisters it.
    delete(&kube, &first).await;
    eventually(Duration::from_secs(20), || async {
        registered(&runtime) == [format!("first.{second}")]
    })
    .await;

    stop.send(()).unwrap();
    let result = tokio::time::timeout(Duration::from_secs(20), running)
        .await
        .expect("run() returns after shutdown")
        .unwrap();
    assert!(result.is_ok(), "{result:?}");
    for name in [&second, &ignored] {
        delete(&kube, name).await;
    }
    ext.stop().await;
}
