//! Calling a handler that speaks another version of the hook: the client converts the request
//! down to the handler's version and the response back up, through the catalog (Cluster API's
//! "v1alpha2 caller ⇄ v1alpha1 registration" case), against a real HTTPS server.

use crate::support::{self, extension, tls};

use capi_runtime::Catalog;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::{CallAllOptions, CallError, Client, ForObject};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::ResponseStatus;
use capi_runtime::registry::Registry;
use extension::{config, handler};
use serde_json::json;
use support::test_hooks::{self, v1alpha1, v1alpha2};
use tls::{TestCa, TestServer, answer};

const TEST_GROUP_V1ALPHA1: &str = "test.runtime.cluster.x-k8s.io/v1alpha1";

/// An ExtensionConfig whose handler `fake.ext` is registered for FakeHook v1alpha1.
fn v1alpha1_config(server: &TestServer, ca: &TestCa) -> ExtensionConfig {
    let mut cfg = config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("fake", "FakeHook")],
    );
    cfg.status.handlers[0].request_hook.api_version = TEST_GROUP_V1ALPHA1.to_string();
    cfg
}

fn client(catalog: Catalog, configs: &[ExtensionConfig]) -> Client {
    let registry = Registry::new();
    registry.warm_up(configs).expect("valid fixtures");
    Client::builder()
        .catalog(catalog)
        .registry(registry)
        .build()
        .expect("no client certificate")
}

fn request() -> v1alpha2::FakeRequest {
    let mut r = v1alpha2::FakeRequest {
        second: "from-the-caller".into(),
        first: 3,
        ..Default::default()
    };
    r.cluster.metadata.name = Some("test".into());
    r.settings.insert("k".into(), "v".into());
    r
}

#[tokio::test]
async fn a_v1alpha2_caller_reaches_a_v1alpha1_handler_through_conversion() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async {
            tls::json(json!({"status": "Success", "message": "old", "Second": "from-v1alpha1", "First": 7}))
        }),
    )
    .await;
    let client = client(test_hooks::catalog(), &[v1alpha1_config(&server, &ca)]);
    let object = ForObject::new("default", "c1");

    let response = client
        .call_extension("fake.ext", &request(), &object)
        .await
        .unwrap();
    // The answer, written in v1alpha1, comes back as a v1alpha2 response.
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(
        (
            response.message.as_str(),
            response.second.as_str(),
            response.first
        ),
        ("old", "from-v1alpha1", 7)
    );

    // What the handler received is a v1alpha1 request, converted from the caller's.
    let received = server.received();
    assert_eq!(received.len(), 1);
    assert_eq!(
        received[0].path,
        "/test.runtime.cluster.x-k8s.io/v1alpha1/fakehook/fake"
    );
    let body = received[0].json();
    assert_eq!(body["apiVersion"], TEST_GROUP_V1ALPHA1);
    assert_eq!(body["kind"], "FakeRequest");
    assert_eq!(body["Cluster"]["metadata"]["name"], "test");
    assert_eq!(
        (body["Second"].as_str(), body["First"].as_i64()),
        (Some("from-the-caller"), Some(3))
    );
    assert_eq!(body["settings"], json!({"k": "v"}));

    // call_all takes the same path.
    let all = client
        .call_all_extensions_with(&request(), &object, CallAllOptions::default())
        .await
        .unwrap();
    assert_eq!(all.status, ResponseStatus::Success);
    assert_eq!(server.received().len(), 2);
}

#[tokio::test]
async fn a_failure_answered_in_the_old_version_is_still_a_failure() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async { tls::json(json!({"status": "Failure", "message": "no"})) }),
    )
    .await;
    let client = client(test_hooks::catalog(), &[v1alpha1_config(&server, &ca)]);
    let err = client
        .call_extension("fake.ext", &request(), &ForObject::new("default", "c1"))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, CallError::Failure { message, .. } if message == "no"),
        "{err}"
    );
}

#[tokio::test]
async fn without_a_conversion_the_call_is_a_misconfiguration() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    // The same hooks, but no conversions registered.
    let mut catalog = Catalog::new();
    catalog
        .register::<v1alpha1::FakeHook>()
        .and_then(|c| c.register::<v1alpha2::FakeHook>())
        .unwrap();
    let mut cfg = v1alpha1_config(&server, &ca);
    cfg.status.handlers[0].failure_policy =
        Some(capi_runtime::api::runtime::v1beta2::FailurePolicy::Ignore);
    let client = client(catalog, &[cfg]);
    let err = client
        .call_extension("fake.ext", &request(), &ForObject::new("default", "c1"))
        .await
        .unwrap_err();
    // Not ignored despite the Ignore policy, and nothing was sent.
    assert!(matches!(err, CallError::NoConversion { .. }), "{err}");
    assert!(
        chain(&err)
            .to_string()
            .contains("no conversion between hook"),
        "{err}"
    );
    assert!(server.received().is_empty());
}
