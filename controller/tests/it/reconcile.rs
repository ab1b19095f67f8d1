//! The reconcile of upstream's controller tests (runtime.md §10.3), against a real
//! kube-apiserver + etcd, with real HTTPS extensions on loopback: normal and read-only
//! reconcilers, CA injection from Secrets, updates, deletion, pausing, and discovery failures.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::support::*;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::go::errors::chain;
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::api::core::v1::Secret;
use capi_runtime_controller::decide::{self, PAUSED_ANNOTATION};
use capi_runtime_controller::error::KubeError;
use capi_runtime_controller::{FIELD_MANAGER, Outcome, Reconciler};
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn before_warm_up_reconcile_requeues_after_ten_seconds() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = own_objects().await;
    let r = Reconciler::new(kube, runtime_client());
    assert_eq!(
        r.reconcile("does-not-matter").await.ok(),
        Some(Outcome::RequeueAfter(Duration::from_secs(10)))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_update_delete_with_normal_and_read_only_reconcilers() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = own_objects().await;
    let ns = env.unique_name("ca");
    namespace(&kube, &ns).await;
    let ca = TestCa::new("ext-ca");
    create_ca_secret(&kube, &ns, "ext-ca", Some(&ca.pem())).await;
    let ext = Extension::start(&ca, &["first", "second", "third"]).await;
    let name = env.unique_name("ext");
    create(
        &kube,
        &inject_from(config(&name, &ext.url, None), &ns, "ext-ca"),
    )
    .await;

    let normal = Reconciler::new(kube.clone(), ready_runtime_client());
    let read_only = Reconciler::read_only(kube.clone(), ready_runtime_client());

    // The first reconcile only sets the Paused condition.
    assert_done(normal.reconcile(&name).await);
    let c = get(&kube, &name).await;
    assert_eq!(
        conditions_of(&c),
        [("Paused".into(), "False".into(), "NotPaused".into())]
    );
    assert_eq!(
        c.status.conditions[0].observed_generation,
        c.metadata.generation
    );
    assert!(registered(normal.runtime()).is_empty());

    assert_eq!(
        chain(&read_only.reconcile(&name).await.unwrap_err()).to_string(),
        format!(
            "failed to validate ExtensionConfig: caBundle is not set on ExtensionConfig {name}"
        )
    );

    assert_done(normal.reconcile(&name).await);
    let handlers: Vec<String> = ["first", "second", "third"]
        .iter()
        .map(|h| format!("{h}.{name}"))
        .collect();
    assert_eq!(registered(normal.runtime()), handlers);
    assert_eq!(
        read_only
            .runtime()
            .registry()
            .get(&handlers[0])
            .unwrap_err()
            .to_string(),
        format!(
            "failed to get extension handler \"{0}\" from registry: handler with name \"{0}\" has not been registered",
            handlers[0]
        )
    );
    assert_done(read_only.reconcile(&name).await);
    assert_eq!(registered(read_only.runtime()), handlers);

    let c = get(&kube, &name).await;
    assert_eq!(c.spec.client_config.ca_bundle.0, ca.pem().as_bytes());
    assert_eq!(status_handlers(&c), handlers);
    assert_eq!(
        v1beta1_conditions_of(&c),
        [("Discovered".into(), "True".into())]
    );
    assert_eq!(
        conditions_of(&c),
        [
            ("Discovered".into(), "True".into(), "Discovered".into()),
            ("Paused".into(), "False".into(), "NotPaused".into()),
        ]
    );
    // The CA patch moved the generation: Discovered observed it; the Paused condition, left
    // unchanged in this pass, catches up at the next reconcile (as upstream's does).
    assert_eq!(c.metadata.generation, Some(2));
    assert_eq!(c.status.conditions[0].observed_generation, Some(2));
    assert_eq!(c.status.conditions[1].observed_generation, Some(1));

    // Update: a new extension serving only first and third.
    let ext2 = Extension::start(&ca, &["first", "third"]).await;
    configs(&kube)
        .patch(
            &name,
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"clientConfig": {"url": ext2.url}}})),
        )
        .await
        .unwrap();
    assert_done(normal.reconcile(&name).await);
    assert_done(read_only.reconcile(&name).await);
    let two = vec![handlers[0].clone(), handlers[2].clone()];
    assert_eq!(registered(normal.runtime()), two);
    assert_eq!(registered(read_only.runtime()), two);
    let c = get(&kube, &name).await;
    assert_eq!(status_handlers(&c), two);
    assert_eq!(
        conditions_of(&c),
        [
            ("Discovered".into(), "True".into(), "Discovered".into()),
            ("Paused".into(), "False".into(), "NotPaused".into()),
        ]
    );
    assert_eq!(
        c.status.conditions[1].observed_generation,
        c.metadata.generation
    );

    // Delete: both reconcilers succeed and forget the handlers.
    delete(&kube, &name).await;
    assert_done(normal.reconcile(&name).await);
    assert_done(read_only.reconcile(&name).await);
    assert!(registered(normal.runtime()).is_empty());
    assert!(registered(read_only.runtime()).is_empty());
    ext.stop().await;
    ext2.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_success_and_failure_on_the_object() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = own_objects().await;
    let ca = TestCa::new("disc-ca");
    let ext = Extension::start(&ca, &["first"]).await;
    let r = Reconciler::new(kube.clone(), ready_runtime_client());

    let name = env.unique_name("ext");
    let created = create(&kube, &config(&name, &ext.url, Some(&ca.pem()))).await;
    let out = r
        .reconcile_extension_config(created.clone(), created)
        .await
        .unwrap();
    assert_eq!(status_handlers(&out), [format!("first.{name}")]);
    assert_eq!(
        conditions_of(&out),
        [("Discovered".into(), "True".into(), "Discovered".into())]
    );
    assert_eq!(
        v1beta1_conditions_of(&out),
        [("Discovered".into(), "True".into())]
    );
    // The status was patched on the server.
    assert_eq!(
        status_handlers(&get(&kube, &name).await),
        [format!("first.{name}")]
    );

    let broken = env.unique_name("ext");
    let created = create(&kube, &config(&broken, &unreachable_url(), Some(&ca.pem()))).await;
    let err = r
        .reconcile_extension_config(created.clone(), created)
        .await
        .unwrap_err();
    assert!(
        err.is_transient(),
        "an unreachable extension is retried: {err:?}"
    );
    assert!(
        chain(&err)
            .to_string()
            .starts_with(&format!("failed to discover ExtensionConfig {broken}: ")),
        "{}",
        chain(&err)
    );
    let c = get(&kube, &broken).await;
    assert!(c.status.handlers.is_empty());
    assert_eq!(
        conditions_of(&c),
        [("Discovered".into(), "False".into(), "NotDiscovered".into())]
    );
    assert!(
        c.status.conditions[0]
            .message
            .starts_with("Error in discovery: ")
    );
    assert_eq!(
        v1beta1_conditions_of(&c),
        [("Discovered".into(), "False".into())]
    );

    // A failing re-discovery keeps the stale handlers (status and registry).
    let ok = get(&kube, &name).await;
    r.runtime().register(&ok).unwrap();
    configs(&kube)
        .patch(
            &name,
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"clientConfig": {"url": unreachable_url()}}})),
        )
        .await
        .unwrap();
    // The first reconcile of this object only sets its Paused condition.
    assert_done(r.reconcile(&name).await);
    let err = r.reconcile(&name).await.unwrap_err();
    assert!(
        chain(&err)
            .to_string()
            .starts_with("failed to reconcile ExtensionConfig: failed to discover ExtensionConfig"),
        "{}",
        chain(&err)
    );
    let c = get(&kube, &name).await;
    assert_eq!(status_handlers(&c), [format!("first.{name}")]);
    assert_eq!(c.status.conditions[0].status, "False");
    assert_eq!(registered(r.runtime()), [format!("first.{name}")]);
    ext.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ca_bundle_injection_cases() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = own_objects().await;
    let ns = env.unique_name("ca");
    namespace(&kube, &ns).await;
    let ca = TestCa::new("inject-ca");
    let ext = Extension::start(&ca, &["first"]).await;
    let r = Reconciler::new(kube.clone(), ready_runtime_client());
    let run = |c: ExtensionConfig| {
        let r = r.clone();
        async move { r.reconcile_extension_config(c.clone(), c).await }
    };

    // No annotation: nothing injected (the bundle given stays).
    let plain = env.unique_name("ext");
    let c = create(&kube, &config(&plain, &ext.url, Some(&ca.pem()))).await;
    run(c).await.unwrap();
    assert_eq!(
        get(&kube, &plain).await.spec.client_config.ca_bundle.0,
        ca.pem().as_bytes()
    );

    // Annotation and Secret: injected, and the generation moved with the patch.
    create_ca_secret(&kube, &ns, "good", Some(&ca.pem())).await;
    let injected = env.unique_name("ext");
    let c = create(
        &kube,
        &inject_from(config(&injected, &ext.url, None), &ns, "good"),
    )
    .await;
    let out = run(c).await.unwrap();
    let stored = get(&kube, &injected).await;
    assert_eq!(stored.spec.client_config.ca_bundle.0, ca.pem().as_bytes());
    assert_eq!(stored.metadata.generation, Some(2));
    assert_eq!(out.status.conditions[0].observed_generation, Some(2));

    // An old CA is replaced.
    let replaced = env.unique_name("ext");
    let c = create(
        &kube,
        &inject_from(config(&replaced, &ext.url, Some("old")), &ns, "good"),
    )
    .await;
    run(c).await.unwrap();
    assert_eq!(
        get(&kube, &replaced).await.spec.client_config.ca_bundle.0,
        ca.pem().as_bytes()
    );

    // A missing Secret and a Secret without ca.crt are errors; the status is not touched.
    let missing = env.unique_name("ext");
    let c = create(
        &kube,
        &inject_from(config(&missing, &ext.url, None), &ns, "absent"),
    )
    .await;
    let err = run(c).await.unwrap_err();
    assert_eq!(
        chain(&err).to_string(),
        format!(
            "failed to reconcile caBundle: failed to get secret \"{ns}/absent\": secrets \"absent\" not found"
        )
    );
    // Only the Secret's creation (watched) fixes it: not retried on a timer.
    assert!(!err.is_transient(), "{err:?}");
    let kube_error = std::error::Error::source(&err)
        .and_then(|e| e.downcast_ref::<KubeError>())
        .expect("the API server's answer is the cause");
    assert_eq!(kube_error.code(), Some(404));
    assert!(get(&kube, &missing).await.status.conditions.is_empty());
    create_ca_secret(&kube, &ns, "no-ca", None).await;
    let no_ca = env.unique_name("ext");
    let c = create(
        &kube,
        &inject_from(config(&no_ca, &ext.url, None), &ns, "no-ca"),
    )
    .await;
    assert_eq!(
        chain(&run(c).await.unwrap_err()).to_string(),
        format!(
            "failed to reconcile caBundle: secret {ns}/no-ca does not contain a \"ca.crt\" entry"
        )
    );
    let bad_ref = env.unique_name("ext");
    let mut c = config(&bad_ref, &ext.url, None);
    c.metadata.annotations = Some(BTreeMap::from([(
        capi_runtime::api::runtime::INJECT_CA_FROM_SECRET_ANNOTATION.to_string(),
        "no-namespace".to_string(),
    )]));
    let c = create(&kube, &c).await;
    assert_eq!(
        chain(&run(c).await.unwrap_err()).to_string(),
        "failed to reconcile caBundle: secret name \"no-namespace\" must be in the form <namespace>/<name>"
    );

    // Changing the Secret: the next reconcile follows it.
    let other = TestCa::new("rotated");
    Api::<Secret>::namespaced(kube.clone(), &ns)
        .patch(
            "good",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"ca.crt": ByteString(other.pem().into_bytes())}})),
        )
        .await
        .unwrap();
    let c = get(&kube, &injected).await;
    let _ = run(c).await;
    assert_eq!(
        get(&kube, &injected).await.spec.client_config.ca_bundle.0,
        other.pem().as_bytes()
    );
    ext.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paused_configs_are_not_discovered_and_stay_registered() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = own_objects().await;
    let ca = TestCa::new("pause-ca");
    let ext = Extension::start(&ca, &["first"]).await;
    let r = Reconciler::new(kube.clone(), ready_runtime_client());
    let name = env.unique_name("ext");
    create(&kube, &config(&name, &ext.url, Some(&ca.pem()))).await;
    r.reconcile(&name).await.unwrap();
    r.reconcile(&name).await.unwrap();
    assert_eq!(registered(r.runtime()), [format!("first.{name}")]);

    configs(&kube)
        .patch(
            &name,
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"annotations": {PAUSED_ANNOTATION: ""}}})),
        )
        .await
        .unwrap();
    ext.stop().await;
    // Paused: the condition flips, discovery is not tried (the extension is gone, yet no error).
    assert_done(r.reconcile(&name).await);
    assert_done(r.reconcile(&name).await);
    let c = get(&kube, &name).await;
    let paused = capi_runtime_controller::conditions::get(&c, "Paused").unwrap();
    assert_eq!(
        (paused.status.as_str(), paused.reason.as_str()),
        ("True", "Paused")
    );
    assert_eq!(
        paused.message,
        "ExtensionConfig has the cluster.x-k8s.io/paused annotation"
    );
    assert_eq!(
        c.status.conditions[0].status, "True",
        "Discovered untouched"
    );
    assert_eq!(registered(r.runtime()), [format!("first.{name}")]);

    // Unpaused: discovery runs again (and fails now that the extension is gone).
    configs(&kube)
        .patch(
            &name,
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"annotations": {PAUSED_ANNOTATION: null}}})),
        )
        .await
        .unwrap();
    assert_done(r.reconcile(&name).await);
    assert!(r.reconcile(&name).await.is_err());
    let c = get(&kube, &name).await;
    assert_eq!(
        conditions_of(&c),
        [
            ("Discovered".into(), "False".into(), "NotDiscovered".into()),
            ("Paused".into(), "False".into(), "NotPaused".into()),
        ]
    );
    // Deletion unregisters.
    delete(&kube, &name).await;
    r.reconcile(&name).await.unwrap();
    assert!(registered(r.runtime()).is_empty());
    assert_eq!(decide::key_of(&c), format!("/{name}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn managed_fields_name_the_controller() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = own_objects().await;
    let ns = env.unique_name("ca");
    namespace(&kube, &ns).await;
    let ca = TestCa::new("fields-ca");
    create_ca_secret(&kube, &ns, "ca", Some(&ca.pem())).await;
    let ext = Extension::start(&ca, &["first"]).await;

    // The default field manager: the Paused patch, then the CA injection and the status.
    let name = env.unique_name("ext");
    create(
        &kube,
        &inject_from(config(&name, &ext.url, None), &ns, "ca"),
    )
    .await;
    let r = Reconciler::new(kube.clone(), ready_runtime_client());
    assert_done(r.reconcile(&name).await);
    assert_done(r.reconcile(&name).await);
    let managers = |c: &ExtensionConfig| -> Vec<(String, String, String)> {
        let mut m: Vec<_> = c
            .metadata
            .managed_fields
            .iter()
            .flatten()
            .map(|f| {
                (
                    f.manager.clone().unwrap_or_default(),
                    f.operation.clone().unwrap_or_default(),
                    f.subresource.clone().unwrap_or_default(),
                )
            })
            .collect();
        m.sort();
        m
    };
    let c = get(&kube, &name).await;
    let ours: Vec<_> = managers(&c)
        .into_iter()
        .filter(|(m, _, _)| m == FIELD_MANAGER)
        .collect();
    assert_eq!(
        ours,
        [
            (
                FIELD_MANAGER.to_string(),
                "Update".to_string(),
                String::new()
            ),
            (
                FIELD_MANAGER.to_string(),
                "Update".to_string(),
                "status".to_string()
            ),
        ],
        "{:?}",
        managers(&c)
    );

    // A field manager of the caller's choice.
    let other = env.unique_name("ext");
    create(
        &kube,
        &inject_from(config(&other, &ext.url, None), &ns, "ca"),
    )
    .await;
    let r = Reconciler::new(kube.clone(), ready_runtime_client()).field_manager("my-manager");
    assert_done(r.reconcile(&other).await);
    assert_done(r.reconcile(&other).await);
    let c = get(&kube, &other).await;
    let mine: Vec<_> = managers(&c)
        .into_iter()
        .filter(|(m, _, _)| m == "my-manager")
        .map(|(_, _, s)| s)
        .collect();
    assert_eq!(mine, ["", "status"], "{:?}", managers(&c));
    assert!(!managers(&c).iter().any(|(m, _, _)| m == FIELD_MANAGER));
    ext.stop().await;
}
