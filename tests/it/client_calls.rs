//! `call_extension` and `call_all_extensions` against real HTTPS servers on loopback.

use crate::support::{extension, tls};

use std::collections::BTreeMap;
use std::time::Duration;

use capi_runtime::api::runtime::v1beta2::FailurePolicy;
use capi_runtime::client::{CallAllOptions, CallError, ExchangeError, ForObject};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::AfterClusterUpgradeRequest;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreate, BeforeClusterCreateRequest, ResponseStatus,
};
use capi_runtime::registry::{NAMESPACE_NAME_LABEL, RegistryError};
use extension::{config, handler, ready_client, selector_in};
use serde_json::json;
use tls::{TestCa, TestServer, answer, raw};

const HOOK: &str = "BeforeClusterCreate";

fn object() -> ForObject {
    ForObject::new("default", "my-cluster")
}

fn request() -> BeforeClusterCreateRequest {
    BeforeClusterCreateRequest {
        settings: BTreeMap::from([("b".into(), "request".into())]),
        ..Default::default()
    }
}

async fn success_server(ca: &TestCa) -> TestServer {
    TestServer::with_ca(
        ca,
        answer(|_| async { tls::json(json!({"status": "Success", "message": "ok"})) }),
    )
    .await
}

#[tokio::test]
async fn a_successful_call_sends_a_typed_request_with_merged_settings() {
    let ca = TestCa::new("ca");
    let server = success_server(&ca).await;
    let mut cfg = config("ext", &server.url(), &ca.pem(), &[handler("create", HOOK)]);
    cfg.spec.settings =
        BTreeMap::from([("a".into(), "config".into()), ("b".into(), "config".into())]);
    let client = ready_client(&[cfg]);

    let response = client
        .call_extension("create.ext", &request(), &object())
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(response.message, "ok");

    let received = server.received();
    assert_eq!(received.len(), 1);
    let r = &received[0];
    assert_eq!(
        r.path,
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/create"
    );
    assert_eq!(r.query, "timeout=10s");
    assert_eq!(r.headers["content-type"], "application/json");
    let body = r.json();
    assert_eq!(
        body["apiVersion"],
        "hooks.runtime.cluster.x-k8s.io/v1alpha1"
    );
    assert_eq!(body["kind"], "BeforeClusterCreateRequest");
    assert_eq!(body["settings"], json!({"a": "config", "b": "request"}));
}

#[tokio::test]
async fn go_style_bodies_are_accepted() {
    let ca = TestCa::new("ca");
    // Capitalised field names, no apiVersion or kind, no content type, trailing data.
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async {
            raw(
                200,
                r#"{"Status": "Success", "RetryAfterSeconds": 5, "Message": "wait"} junk"#,
            )
        }),
    )
    .await;
    let client = ready_client(&[config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("h", HOOK)],
    )]);
    let response = client
        .call_extension("h.ext", &request(), &object())
        .await
        .unwrap();
    assert_eq!(response.retry_after_seconds, 5);
    assert_eq!(response.message, "wait");
    // The answer is the extension's as it wrote it: no apiVersion or kind, as Go's server
    // helper writes neither (interop/oracle's go_extension compares the two field by field).
    assert_eq!(
        (response.api_version.as_str(), response.kind.as_str()),
        ("", "")
    );
}

#[tokio::test]
async fn failure_and_unknown_statuses_are_errors_under_both_policies() {
    let ca = TestCa::new("ca");
    let failure = TestServer::with_ca(
        &ca,
        answer(|_| async { tls::json(json!({"status": "Failure", "message": "nope"})) }),
    )
    .await;
    let unknown = TestServer::with_ca(
        &ca,
        answer(|_| async { tls::json(json!({"status": "Unknown", "message": "hm"})) }),
    )
    .await;
    let missing = TestServer::with_ca(&ca, answer(|_| async { tls::json(json!({})) })).await;
    let client = ready_client(&[
        config(
            "failure",
            &failure.url(),
            &ca.pem(),
            &[handler("fail", HOOK), handler("ignore", HOOK).ignore()],
        ),
        config(
            "unknown",
            &unknown.url(),
            &ca.pem(),
            &[handler("fail", HOOK), handler("ignore", HOOK).ignore()],
        ),
        config(
            "missing",
            &missing.url(),
            &ca.pem(),
            &[handler("ignore", HOOK).ignore()],
        ),
    ]);
    for name in ["fail.failure", "ignore.failure"] {
        let err = client
            .call_extension(name, &request(), &object())
            .await
            .unwrap_err();
        assert!(
            matches!(&err, CallError::Failure { message, .. } if message == "nope"),
            "{err}"
        );
        assert_eq!(
            chain(&err).to_string(),
            format!(
                "failed to call extension handler \"{name}\": got failure response with message: nope"
            )
        );
        assert!(err.url().unwrap().starts_with(&failure.url()));
    }
    for name in ["fail.unknown", "ignore.unknown"] {
        let err = client
            .call_extension(name, &request(), &object())
            .await
            .unwrap_err();
        assert!(
            matches!(&err, CallError::UnknownStatus { status, .. } if status == "Unknown"),
            "{err}"
        );
    }
    let err = client
        .call_extension("ignore.missing", &request(), &object())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, CallError::UnknownStatus { status, .. } if status.is_empty()),
        "{err}"
    );
}

#[tokio::test]
async fn call_all_aggregates_in_handler_name_order() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|r| async move {
            // The handler name is the last path segment.
            let name = r.path.rsplit('/').next().unwrap().to_string();
            let (retry, message) = match name.as_str() {
                "a" => (0, "first"),
                "b" => (7, "second"),
                "c" => (3, ""),
                _ => (4, "last"),
            };
            tls::json(json!({"status": "Success", "retryAfterSeconds": retry, "message": message}))
        }),
    )
    .await;
    let client = ready_client(&[
        config("z-ext", &server.url(), &ca.pem(), &[handler("d", HOOK)]),
        config(
            "ext",
            &server.url(),
            &ca.pem(),
            &[handler("c", HOOK), handler("a", HOOK), handler("b", HOOK)],
        ),
    ]);
    for options in [CallAllOptions::sequential(), CallAllOptions::concurrent(3)] {
        let response = client
            .call_all_extensions_with(&request(), &object(), options)
            .await
            .unwrap();
        assert_eq!(response.status, ResponseStatus::Success);
        assert_eq!(response.retry_after_seconds, 3);
        assert_eq!(response.message, "first, second, last");
        // The aggregate says which response it is, as each answer on the wire does.
        assert_eq!(
            (response.api_version.as_str(), response.kind.as_str()),
            (
                "hooks.runtime.cluster.x-k8s.io/v1alpha1",
                "BeforeClusterCreateResponse"
            )
        );
    }
    assert_eq!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&object())
            .unwrap(),
        ["a.ext", "b.ext", "c.ext", "d.z-ext"]
    );
}

#[tokio::test]
async fn call_all_with_no_handler_succeeds_and_stops_at_the_first_failure() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|r| async move {
            if r.path.ends_with("/b") {
                tls::json(json!({"status": "Failure", "message": "b failed"}))
            } else if r.path.ends_with("/missing") {
                raw(404, "404 page not found")
            } else {
                tls::json(json!({"status": "Success"}))
            }
        }),
    )
    .await;
    let client = ready_client(&[config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("a", HOOK), handler("b", HOOK), handler("c", HOOK)],
    )]);
    let none = client
        .call_all_extensions_with(
            &AfterClusterUpgradeRequest::default(),
            &object(),
            CallAllOptions::sequential(),
        )
        .await
        .unwrap();
    assert_eq!(none.status, ResponseStatus::Success);
    assert_eq!(
        none.kind, "AfterClusterUpgradeResponse",
        "also with no handler"
    );

    let err = client
        .call_all_extensions_with(&request(), &object(), CallAllOptions::sequential())
        .await
        .unwrap_err();
    assert_eq!(err.handler(), Some("b.ext"));
    assert!(chain(&err).to_string().starts_with(
        "failed to call extension handlers for hook \"BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io\": failed to call extension handler \"b.ext\""
    ), "{err}");
    let called: Vec<String> = server
        .received()
        .iter()
        .map(|r| r.path.rsplit('/').next().unwrap().to_string())
        .collect();
    assert_eq!(called, ["a", "b"], "c is not called after b failed");

    let missing = ready_client(&[config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("missing", HOOK)],
    )]);
    let err = missing
        .call_all_extensions_with(&request(), &object(), CallAllOptions::sequential())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.root(),
            CallError::Exchange {
                source: ExchangeError::HttpStatus { code: 404, .. },
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn namespace_selectors_skip_in_call_all_and_fail_call_extension() {
    let ca = TestCa::new("ca");
    let server = success_server(&ca).await;
    let mut cfg = config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("a", HOOK), handler("b", HOOK), handler("c", HOOK)],
    );
    cfg.spec.namespace_selector = Some(selector_in(NAMESPACE_NAME_LABEL, &["foo"]));
    // A selector on the namespace's name needs no labels (client_namespaces has the others).
    let client = ready_client(&[cfg]);

    let foo = ForObject::new("foo", "c1");
    assert_eq!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&foo)
            .unwrap(),
        ["a.ext", "b.ext", "c.ext"]
    );
    let other = ForObject::new("different", "c1");
    assert!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&other)
            .unwrap()
            .is_empty()
    );
    // Labels given without the name label: it is assumed.
    let blue = ForObject::new("different", "c1")
        .with_namespace_labels(BTreeMap::from([("team".into(), "blue".into())]));
    assert!(
        client
            .get_all_extensions::<BeforeClusterCreate>(&blue)
            .unwrap()
            .is_empty()
    );

    client
        .call_all_extensions_with(&request(), &other, CallAllOptions::sequential())
        .await
        .unwrap();
    assert!(server.received().is_empty(), "every handler was skipped");

    let err = client
        .call_extension("a.ext", &request(), &other)
        .await
        .unwrap_err();
    assert_eq!(
        chain(&err).to_string(),
        "failed to call extension handler \"a.ext\": namespaceSelector did not match object different/c1"
    );
    client
        .call_extension("a.ext", &request(), &foo)
        .await
        .unwrap();
    assert_eq!(server.received().len(), 1);
}

#[tokio::test]
async fn misconfigured_calls_fail_before_any_request() {
    let ca = TestCa::new("ca");
    let server = success_server(&ca).await;
    let client = ready_client(&[
        config(
            "ext",
            &server.url(),
            &ca.pem(),
            &[handler("after", "AfterClusterUpgrade").ignore()],
        ),
        config(
            "plain",
            &server.url().replace("https", "http"),
            &ca.pem(),
            &[handler("h", HOOK).ignore()],
        ),
        config(
            "badca",
            &server.url(),
            "not a certificate",
            &[handler("h", HOOK).ignore()],
        ),
    ]);
    let err = client
        .call_extension("after.ext", &request(), &object())
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::HookMismatch { .. }), "{err}");
    assert_eq!(
        chain(&err).to_string(),
        "failed to call extension handler \"after.ext\": handler does not match GroupHook \"BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io\""
    );
    let err = client
        .call_extension("nope.ext", &request(), &object())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            CallError::Registry {
                source: RegistryError::NotRegistered { .. },
                ..
            }
        ),
        "{err}"
    );
    // Ignore does not cover an unusable URL or CA bundle.
    let err = client
        .call_extension("h.plain", &request(), &object())
        .await
        .unwrap_err();
    assert!(
        chain(&err)
            .to_string()
            .contains("expected https scheme, got http"),
        "{err}"
    );
    let err = client
        .call_extension("h.badca", &request(), &object())
        .await
        .unwrap_err();
    assert!(
        chain(&err)
            .to_string()
            .contains("unable to load root certificates"),
        "{err}"
    );
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn a_cold_registry_is_an_error_not_an_empty_answer() {
    let client = capi_runtime::client::Client::builder().build().unwrap();
    let err = client
        .get_all_extensions::<BeforeClusterCreate>(&object())
        .unwrap_err();
    assert!(
        matches!(
            err,
            CallError::List {
                source: RegistryError::ListNotReady { .. },
                ..
            }
        ),
        "{err}"
    );
    let err = client
        .call_all_extensions_with(&request(), &object(), CallAllOptions::concurrent(4))
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::List { .. }), "{err}");
    let err = client
        .call_extension("h.ext", &request(), &object())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            CallError::Registry {
                source: RegistryError::GetNotReady { .. },
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let ca = TestCa::new("ca");
    let target = success_server(&ca).await;
    let location = format!("{}/elsewhere", target.url());
    let redirecting = TestServer::with_ca(
        &ca,
        answer(move |_| {
            let location = location.clone();
            async move {
                axum::http::Response::builder()
                    .status(307)
                    .header("location", location)
                    .body(axum::body::Body::empty())
                    .unwrap()
            }
        }),
    )
    .await;
    let client = ready_client(&[config(
        "ext",
        &redirecting.url(),
        &ca.pem(),
        &[handler("h", HOOK)],
    )]);
    let err = client
        .call_extension("h.ext", &request(), &object())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            CallError::Exchange {
                source: ExchangeError::HttpStatus { code: 307, .. },
                ..
            }
        ),
        "{err}"
    );
    assert!(
        target.received().is_empty(),
        "the redirect target is never called"
    );
}

#[tokio::test]
async fn a_handler_registered_with_a_policy_keeps_it() {
    // A registration records the failure policy from the status; absent means Fail.
    let ca = TestCa::new("ca");
    let mut cfg = config(
        "ext",
        "https://127.0.0.1:1",
        &ca.pem(),
        &[handler("h", HOOK)],
    );
    cfg.status.handlers[0].failure_policy = None;
    let client = ready_client(&[cfg]);
    let registration = client.registry().get("h.ext").unwrap();
    assert_eq!(registration.failure_policy, FailurePolicy::Fail);
    assert_eq!(registration.timeout(), Duration::from_secs(10));
    assert_eq!(registration.handler_short_name(), "h");
}
