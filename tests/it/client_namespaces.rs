//! Namespace selectors that read labels of the namespace: where the client gets the labels
//! (the object, the client's source) and the error when it has none. The same against a real
//! API server is in `interop/oracle/tests/client_namespaces.rs`.

use crate::support::{extension, tls};

use std::collections::BTreeMap;
use std::error::Error as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use capi_runtime::client::{
    CallError, Cause, ForObject, NamespaceError, NamespaceLabels, NamespaceNotFound,
};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{BeforeClusterCreate, BeforeClusterCreateRequest};
use capi_runtime::registry::NAMESPACE_NAME_LABEL;
use extension::{config, handler, ready_builder, selector_in};
use futures::future::BoxFuture;
use serde_json::json;
use tls::{TestCa, TestServer, answer};

const HOOK: &str = "BeforeClusterCreate";

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// An extension answering Success, with three ExtensionConfigs: `prod` (selector `env=prod`),
/// `named` (selector on the namespace's name `team-a`) and `all` (`{}`).
async fn setup(
    ca: &TestCa,
) -> (
    TestServer,
    Vec<capi_runtime::api::runtime::v1beta2::ExtensionConfig>,
) {
    let server = TestServer::with_ca(
        ca,
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let mut prod = config("prod", &server.url(), &ca.pem(), &[handler("h", HOOK)]);
    prod.spec.namespace_selector = Some(selector_in("env", &["prod"]));
    let mut named = config("named", &server.url(), &ca.pem(), &[handler("h", HOOK)]);
    named.spec.namespace_selector = Some(selector_in(NAMESPACE_NAME_LABEL, &["team-a"]));
    let all = config("all", &server.url(), &ca.pem(), &[handler("h", HOOK)]);
    (server, vec![prod, named, all])
}

/// A source that counts its lookups.
struct Counting {
    labels: BTreeMap<String, BTreeMap<String, String>>,
    lookups: AtomicUsize,
}

impl NamespaceLabels for Counting {
    fn namespace_labels<'a>(
        &'a self,
        namespace: &'a str,
    ) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>> {
        self.lookups.fetch_add(1, Ordering::SeqCst);
        self.labels.namespace_labels(namespace)
    }
}

#[tokio::test]
async fn without_labels_a_selector_on_other_labels_fails_the_call() {
    let ca = TestCa::new("ca");
    let (server, configs) = setup(&ca).await;
    let client = ready_builder(&configs).build().unwrap();
    let object = ForObject::new("team-a", "c1");
    let request = BeforeClusterCreateRequest::default();

    let err = client
        .call_all_extensions(&request, &object)
        .await
        .unwrap_err();
    assert_eq!(err.handler(), Some("h.prod"));
    let CallError::Namespace { source, .. } = err.root() else {
        panic!("not a namespace error: {err:?}");
    };
    assert!(matches!(source, NamespaceError::LabelsUnknown { .. }));
    assert_eq!(
        chain(&err).to_string(),
        "failed to call extension handlers for hook \"BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io\": \
         failed to call extension handler \"h.prod\": failed to match namespace: \
         the labels of namespace \"team-a\" are not known and the namespaceSelector \"env in (prod)\" \
         needs them: build the client with a namespace-labels source, or give them with \
         ForObject::with_namespace_labels"
    );
    assert!(server.received().is_empty(), "no handler was called");

    // The same from the other entry points.
    let err = client
        .get_all_extensions::<BeforeClusterCreate>(&object)
        .unwrap_err();
    assert!(matches!(err, CallError::Namespace { .. }), "{err:?}");
    let err = client
        .call_extension("h.prod", &request, &object)
        .await
        .unwrap_err();
    assert_eq!(
        err.source().unwrap().to_string(),
        NamespaceError::LabelsUnknown {
            namespace: "team-a".into(),
            selector: "env in (prod)".into()
        }
        .to_string()
    );
    // Handlers whose selector needs no labels still work without them.
    for name in ["h.named", "h.all"] {
        client
            .call_extension(name, &request, &object)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn labels_come_from_the_object_or_the_source() {
    let ca = TestCa::new("ca");
    let (server, configs) = setup(&ca).await;
    let request = BeforeClusterCreateRequest::default();

    // Labels on the object: no source needed.
    let client = ready_builder(&configs).build().unwrap();
    let prod = ForObject::new("team-a", "c1").with_namespace_labels(labels(&[("env", "prod")]));
    assert_eq!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&prod)
            .unwrap(),
        ["h.all", "h.named", "h.prod"]
    );
    let bare = ForObject::new("team-b", "c1").with_namespace_labels(BTreeMap::new());
    assert_eq!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&bare)
            .unwrap(),
        ["h.all"]
    );

    // Labels from the client's source, read once per call whatever the number of handlers.
    let source = Arc::new(Counting {
        labels: BTreeMap::from([
            ("team-a".to_string(), labels(&[("env", "prod")])),
            (
                "team-b".to_string(),
                labels(&[(NAMESPACE_NAME_LABEL, "team-b"), ("env", "dev")]),
            ),
        ]),
        lookups: AtomicUsize::new(0),
    });
    let client = ready_builder(&configs)
        .namespace_labels(source.clone())
        .build()
        .unwrap();
    let in_a = ForObject::new("team-a", "c1");
    client.call_all_extensions(&request, &in_a).await.unwrap();
    assert_eq!(source.lookups.load(Ordering::SeqCst), 1);
    assert_eq!(server.received().len(), 3, "all three handlers were called");
    // The calls that read a source can run on any task.
    let spawned = client.clone();
    tokio::spawn(async move {
        let object = ForObject::new("team-a", "c1");
        spawned
            .call_all_extensions(&BeforeClusterCreateRequest::default(), &object)
            .await
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(source.lookups.load(Ordering::SeqCst), 2);
    assert_eq!(
        client
            .get_all_extensions_async::<BeforeClusterCreate>(&ForObject::new("team-b", "c2"))
            .await
            .unwrap(),
        ["h.all"]
    );
    // The sync listing never reads the source.
    let before = source.lookups.load(Ordering::SeqCst);
    assert!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&in_a)
            .is_err()
    );
    assert_eq!(source.lookups.load(Ordering::SeqCst), before);

    // Labels on the object win over the source.
    let given = ForObject::new("team-b", "c3").with_namespace_labels(labels(&[("env", "prod")]));
    assert_eq!(
        client
            .get_all_extensions_async::<BeforeClusterCreate>(&given)
            .await
            .unwrap(),
        ["h.all", "h.prod"]
    );
    assert_eq!(source.lookups.load(Ordering::SeqCst), before);
}

#[tokio::test]
async fn a_failed_lookup_fails_the_call() {
    let ca = TestCa::new("ca");
    let (server, configs) = setup(&ca).await;
    let source: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let client = ready_builder(&configs)
        .namespace_labels(source)
        .build()
        .unwrap();
    let gone = ForObject::new("gone", "c1");
    let err = client
        .call_all_extensions(&BeforeClusterCreateRequest::default(), &gone)
        .await
        .unwrap_err();
    assert_eq!(
        chain(&err).to_string(),
        "failed to call extension handlers for hook \"BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io\": \
         failed to call extension handler \"h.named\": failed to match namespace: \
         failed to get namespace gone: namespaces \"gone\" not found"
    );
    // The cause is the source's error, as a value.
    let mut cause: Option<&dyn std::error::Error> = Some(&err);
    let mut found = false;
    while let Some(e) = cause {
        found |= e.downcast_ref::<NamespaceNotFound>().is_some();
        cause = e.source();
    }
    assert!(found, "{err:?}");
    assert!(server.received().is_empty());
    // With a source, even a selector on the name reads the namespace, as Go does: a namespace
    // that does not exist fails the call.
    let err = client
        .call_extension("h.named", &BeforeClusterCreateRequest::default(), &gone)
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        CallError::Namespace {
            source: NamespaceError::Lookup { .. },
            ..
        }
    ));
    // An empty selector needs no lookup.
    client
        .call_extension("h.all", &BeforeClusterCreateRequest::default(), &gone)
        .await
        .unwrap();
}
