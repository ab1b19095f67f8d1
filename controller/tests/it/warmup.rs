//! The warm-up of upstream's tests (runtime.md §10.4), against a real kube-apiserver + etcd with
//! real HTTPS extensions. Warm-up lists every ExtensionConfig of the cluster, so the cases run
//! one after another in one test, each deleting what it created.

use std::time::Duration;

use crate::support::*;
use capi_runtime::catalog::GroupHook;
use capi_runtime::go::errors::chain;
use capi_runtime_controller::Reconciler;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn warm_up_cases() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = whole_cluster(&kube).await;
    let ns = env.unique_name("ca");
    namespace(&kube, &ns).await;
    let ca = TestCa::new("warm-ca");
    create_ca_secret(&kube, &ns, "ca", Some(&ca.pem())).await;
    let ext = Extension::start(&ca, &["first", "second", "third"]).await;
    let names: Vec<String> = (1..=3).map(|i| format!("ext{i}")).collect();
    for n in &names {
        create(&kube, &inject_from(config(n, &ext.url, None), &ns, "ca")).await;
    }

    // Read-only before the normal warm-up: nothing has a CA bundle yet. Each timeout that is
    // meant to pass leaves room for at least one whole attempt on a loaded API server (with
    // none finished the message would be the bare deadline, not the attempt's errors).
    let read_only = Reconciler::read_only(kube.clone(), runtime_client());
    let err = read_only
        .warm_up(Duration::from_secs(1), Duration::from_secs(10))
        .await
        .unwrap_err();
    assert_eq!(
        chain(&err).to_string(),
        "ExtensionConfig registry warmup timed out after 10s: [failed to validate ExtensionConfig: caBundle is not set on ExtensionConfig ext1, failed to validate ExtensionConfig: caBundle is not set on ExtensionConfig ext2, failed to validate ExtensionConfig: caBundle is not set on ExtensionConfig ext3]"
    );
    assert!(!read_only.runtime().is_ready());

    // The normal warm-up injects, discovers, patches and loads all nine handlers.
    let normal = Reconciler::new(kube.clone(), runtime_client());
    normal
        .warm_up(Duration::from_secs(2), Duration::from_secs(60))
        .await
        .unwrap();
    assert!(normal.runtime().is_ready());
    let hook = GroupHook::new("hooks.runtime.cluster.x-k8s.io", "BeforeClusterCreate");
    let listed: Vec<String> = normal
        .runtime()
        .registry()
        .list(&hook)
        .unwrap()
        .iter()
        .map(|r| r.name.clone())
        .collect();
    let mut expected = Vec::new();
    for h in ["first", "second", "third"] {
        for n in &names {
            expected.push(format!("{h}.{n}"));
        }
    }
    expected.sort();
    assert_eq!(listed, expected);
    for n in &names {
        let c = get(&kube, n).await;
        assert_eq!(c.status.handlers.len(), 3);
        assert_eq!(
            conditions_of(&c),
            [("Discovered".into(), "True".into(), "Discovered".into())],
            "warm-up sets no Paused condition"
        );
        assert_eq!(c.spec.client_config.ca_bundle.0, ca.pem().as_bytes());
    }

    // Now the read-only warm-up succeeds with the same handlers.
    read_only
        .warm_up(Duration::from_secs(1), Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(
        registered(read_only.runtime()),
        registered(normal.runtime())
    );
    for n in &names {
        delete(&kube, n).await;
    }

    // One unreachable extension among three: warm-up fails, the others are still patched.
    let broken_names: Vec<String> = (4..=6).map(|i| format!("ext{i}")).collect();
    create(&kube, &config(&broken_names[0], &ext.url, Some(&ca.pem()))).await;
    create(
        &kube,
        &config(&broken_names[1], &unreachable_url(), Some(&ca.pem())),
    )
    .await;
    create(&kube, &config(&broken_names[2], &ext.url, Some(&ca.pem()))).await;
    let third = Reconciler::new(kube.clone(), runtime_client());
    let err = third
        .warm_up(Duration::from_millis(500), Duration::from_secs(15))
        .await
        .unwrap_err();
    assert!(
        chain(&err).to_string().starts_with(&format!(
            "ExtensionConfig registry warmup timed out after 15s: failed to reconcile ExtensionConfig: failed to discover ExtensionConfig {}: ",
            broken_names[1]
        )),
        "{}",
        chain(&err)
    );
    assert!(!third.runtime().is_ready());
    let broken = get(&kube, &broken_names[1]).await;
    assert!(broken.status.handlers.is_empty());
    assert_eq!(
        v1beta1_conditions_of(&broken),
        [("Discovered".into(), "False".into())]
    );
    for n in [&broken_names[0], &broken_names[2]] {
        let c = get(&kube, n).await;
        assert_eq!(c.status.handlers.len(), 3);
        assert_eq!(c.status.conditions[0].status, "True");
    }
    for n in &broken_names {
        delete(&kube, n).await;
    }
    ext.stop().await;
}
