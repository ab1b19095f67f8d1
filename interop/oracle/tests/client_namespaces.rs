//! The runtime client's namespace selectors against a real API server (etcd + kube-apiserver
//! of `capi-runtime-testenv`, with Cluster API's Cluster CRD): the client reads the labels of
//! a Cluster's namespace through kube, as Cluster API's client reads the Namespace, and
//! calls a handler selecting `env=prod` for a Cluster in a namespace labelled so, and not for
//! one in a namespace without the label; a namespace that does not exist fails the call with
//! the API server's NotFound as the cause; a client with no way to know the labels fails the
//! call with `LabelsUnknown` instead of skipping the handler. The same decisions over a corpus,
//! against Go's own matching, are `go_rules::namespace_selector_matching_is_gos`.

use capi_runtime_test_pki as pki;

mod support;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};

use capi_runtime::api::runtime::v1beta2::{ClientConfig, ExtensionConfig, ExtensionConfigSpec};
use capi_runtime::client::{CallError, Client, ForObject, NamespaceError};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreate, BeforeClusterCreateRequest, BeforeClusterCreateResponse,
};
use capi_runtime::server::ServerBuilder;
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use kube::Api;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams};
use serde_json::json;

/// Creates the namespace `name` with `labels`.
async fn namespace(kube: &kube::Client, name: &str, labels: &[(&str, &str)]) {
    let labels: BTreeMap<String, String> = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let ns: Namespace = serde_json::from_value(json!({
        "metadata": {"name": name, "labels": labels}
    }))
    .unwrap();
    Api::<Namespace>::all(kube.clone())
        .create(&PostParams::default(), &ns)
        .await
        .unwrap();
}

/// Creates a Cluster named `name` in `namespace` and returns the object it is as the API
/// server stored it.
async fn cluster(kube: &kube::Client, namespace: &str, name: &str) -> ForObject {
    let resource = ApiResource::from_gvk(&GroupVersionKind::gvk(
        "cluster.x-k8s.io",
        "v1beta2",
        "Cluster",
    ));
    let api: Api<DynamicObject> = Api::namespaced_with(kube.clone(), namespace, &resource);
    let object: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "cluster.x-k8s.io/v1beta2",
        "kind": "Cluster",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"paused": true},
    }))
    .unwrap();
    let created = api.create(&PostParams::default(), &object).await.unwrap();
    ForObject::new(
        created.metadata.namespace.unwrap(),
        created.metadata.name.unwrap(),
    )
}

fn request_for(object: &ForObject) -> BeforeClusterCreateRequest {
    let mut request = BeforeClusterCreateRequest::default();
    request.cluster.metadata.namespace = Some(object.namespace.clone());
    request.cluster.metadata.name = Some(object.name.clone());
    request
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_selector_on_namespace_labels_is_matched_against_the_api_server() {
    let crds: Vec<_> = support::cluster_api_crds()
        .into_iter()
        .filter(|f| f.ends_with("cluster.x-k8s.io_clusters.yaml"))
        .collect();
    assert_eq!(crds.len(), 1, "the Cluster CRD");
    let env = support::start_env("client-namespaces", crds).await;
    let kube = env.client().await.unwrap();

    // Two namespaces, one labelled env=prod, with a Cluster in each.
    let prod_ns = env.unique_name("prod");
    let plain_ns = env.unique_name("plain");
    namespace(&kube, &prod_ns, &[("env", "prod")]).await;
    namespace(&kube, &plain_ns, &[]).await;
    let in_prod = cluster(&kube, &prod_ns, "c1").await;
    let in_plain = cluster(&kube, &plain_ns, "c2").await;

    // An extension that records the Clusters it is called for.
    let ca = pki::TestCa::new("client-namespaces-ca");
    let dir = tempfile::tempdir().unwrap();
    ca.write_serving(dir.path());
    let called: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = called.clone();
    let server = ServerBuilder::new()
        .handle("create", move |request: BeforeClusterCreateRequest| {
            let record = record.clone();
            async move {
                let meta = &request.cluster.metadata;
                record.lock().unwrap().push(format!(
                    "{}/{}",
                    meta.namespace.as_deref().unwrap_or_default(),
                    meta.name.as_deref().unwrap_or_default()
                ));
                Ok::<_, String>(BeforeClusterCreateResponse::success())
            }
        })
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(dir.path())
        .build()
        .unwrap()
        .start()
        .await
        .unwrap();
    let spec = ExtensionConfigSpec {
        client_config: ClientConfig {
            url: format!("https://{}", server.local_addr()),
            ca_bundle: ByteString(ca.pem().into_bytes()),
            ..Default::default()
        },
        namespace_selector: Some(metav1::LabelSelector {
            match_labels: Some(BTreeMap::from([("env".into(), "prod".into())])),
            match_expressions: None,
        }),
        settings: BTreeMap::new(),
    };
    let config = ExtensionConfig::new("prod-only", spec);

    // The client reads namespaces through kube.
    let client = Client::builder()
        .kube_client(kube.clone())
        .without_controller()
        .build()
        .unwrap();
    client
        .register(&client.discover(&config).await.unwrap())
        .unwrap();

    for object in [&in_prod, &in_plain] {
        client
            .call_all_extensions(&request_for(object), object)
            .await
            .unwrap_or_else(|e| panic!("{}", chain(&e)));
    }
    assert_eq!(
        *called.lock().unwrap(),
        [format!("{prod_ns}/c1")],
        "called for the Cluster in the env=prod namespace only"
    );
    assert!(
        client
            .get_all_extensions_async::<BeforeClusterCreate>(&in_plain)
            .await
            .unwrap()
            .is_empty()
    );

    // The labels are read at each call: labelling the other namespace selects it.
    Api::<Namespace>::all(kube.clone())
        .patch(
            &plain_ns,
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"labels": {"env": "prod"}}})),
        )
        .await
        .unwrap();
    client
        .call_all_extensions(&request_for(&in_plain), &in_plain)
        .await
        .unwrap();
    assert_eq!(called.lock().unwrap().len(), 2);

    // A namespace that does not exist fails the call, with the API server's answer as cause.
    let nowhere = ForObject::new(env.unique_name("missing"), "c3");
    let err = client
        .call_all_extensions(&request_for(&nowhere), &nowhere)
        .await
        .unwrap_err();
    let CallError::Namespace {
        source: NamespaceError::Lookup { source, .. },
        ..
    } = err.root()
    else {
        panic!("not a lookup error: {err:?}");
    };
    match source.downcast_ref::<kube::Error>() {
        Some(kube::Error::Api(status)) => assert_eq!(status.code, 404, "{status:?}"),
        other => panic!("not the API server's NotFound: {other:?}"),
    }
    let text = chain(&err).to_string();
    assert!(
        text.contains(&format!(
            "failed to call extension handler \"create.prod-only\": failed to match namespace: failed to get namespace {}: ",
            nowhere.namespace
        )),
        "{text}"
    );

    // A client with no source cannot know the labels: an error, not a skip.
    let blind = Client::builder()
        .registry(client.registry().clone())
        .build()
        .unwrap();
    let err = blind
        .call_all_extensions(&request_for(&in_prod), &in_prod)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.root(),
            CallError::Namespace {
                source: NamespaceError::LabelsUnknown { .. },
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(called.lock().unwrap().len(), 2, "nothing called");

    // A reflector's store of the namespaces' metadata is a source too.
    let (reader, writer) = kube::runtime::reflector::store();
    let watch = kube::runtime::watcher(
        Api::<kube::core::PartialObjectMeta<Namespace>>::all(kube.clone()),
        kube::runtime::watcher::Config::default(),
    );
    let reflector = tokio::spawn(futures::StreamExt::for_each(
        kube::runtime::reflector(writer, watch),
        |_| async {},
    ));
    reader.wait_until_ready().await.unwrap();
    let cached = Client::builder()
        .registry(client.registry().clone())
        .namespace_labels(reader)
        .build()
        .unwrap();
    cached
        .call_all_extensions(&request_for(&in_prod), &in_prod)
        .await
        .unwrap();
    assert_eq!(called.lock().unwrap().len(), 3);
    reflector.abort();

    server.shutdown().await.unwrap();
}
