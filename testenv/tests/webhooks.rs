//! `TestEnv::install_webhooks`: a ValidatingWebhookConfiguration written for a Service (as a
//! project's manifests name one) installed pointed at an HTTPS server of this test on loopback,
//! with the environment's CA as its `caBundle`; the real API server then calls that server for
//! every ConfigMap created in the matching namespace, and refuses the one it denies with its
//! message.

use axum::Json;
use axum::routing::post;
use axum_server::tls_rustls::RustlsConfig;
use capi_runtime::go::errors::chain;
use capi_runtime_testenv::{TestEnv, WebhookInstallOptions};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::Api;
use kube::api::PostParams;
use serde_json::{Value, json};

/// A webhook manifest as a project ships it: the webhook behind a Service.
const MANIFEST: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: testenv-deny
webhooks:
- name: deny.testenv.capi-runtime.test
  clientConfig:
    service:
      name: webhook-service
      namespace: system
      path: /deny-configmaps
  rules:
  - apiGroups: [""]
    apiVersions: ["v1"]
    operations: ["CREATE"]
    resources: ["configmaps"]
  namespaceSelector:
    matchLabels:
      testenv-webhooks: "on"
  failurePolicy: Fail
  sideEffects: None
  admissionReviewVersions: ["v1"]
---
apiVersion: v1
kind: Service
metadata:
  name: webhook-service
  namespace: system
spec:
  ports:
  - port: 443
"#;

/// Denies ConfigMaps named `denied`.
async fn review(Json(review): Json<Value>) -> Json<Value> {
    let request = &review["request"];
    let allowed = request["name"] != "denied";
    Json(json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "response": {
            "uid": request["uid"],
            "allowed": allowed,
            "status": {"message": "denied by the test's webhook", "code": 403},
        },
    }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn installed_webhooks_call_the_local_server() {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    let env = tokio::task::spawn_blocking(|| TestEnv::builder("webhooks").start())
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("webhooks.yaml");
    std::fs::write(&manifest, MANIFEST).unwrap();
    let webhooks = env
        .install_webhooks(WebhookInstallOptions::new().file(&manifest))
        .await
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    assert_eq!(webhooks.names, ["testenv-deny"]);

    let tls = RustlsConfig::from_pem_file(
        webhooks.cert_dir().join("tls.crt"),
        webhooks.cert_dir().join("tls.key"),
    )
    .await
    .unwrap();
    let handle: axum_server::Handle<std::net::SocketAddr> = axum_server::Handle::new();
    let app = axum::Router::new().route("/deny-configmaps", post(review));
    let server = tokio::spawn(
        axum_server::bind_rustls(([127, 0, 0, 1], webhooks.port).into(), tls)
            .handle(handle.clone())
            .serve(app.into_make_service()),
    );
    handle
        .listening()
        .await
        .expect("the webhook server listens");

    let kube = env.client().await.unwrap();
    let namespaces: Api<Namespace> = Api::all(kube.clone());
    namespaces
        .create(
            &PostParams::default(),
            &serde_json::from_value(json!({"metadata": {
                "name": "webhooks", "labels": {"testenv-webhooks": "on"},
            }}))
            .unwrap(),
        )
        .await
        .unwrap();
    let maps: Api<ConfigMap> = Api::namespaced(kube, "webhooks");
    let map = |name: &str| -> ConfigMap {
        serde_json::from_value(json!({"metadata": {"name": name}})).unwrap()
    };
    maps.create(&PostParams::default(), &map("allowed"))
        .await
        .unwrap();
    let err = maps
        .create(&PostParams::default(), &map("denied"))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("deny.testenv.capi-runtime.test")
            && text.contains("denied by the test's webhook"),
        "{text}"
    );
    handle.shutdown();
    server.await.unwrap().unwrap();
}
