//! How the extension server answers requests, good and bad, called in-process through its
//! router (the TLS listener is covered in `server_tls.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::body::Body;
use capi_runtime::catalog::Catalog;
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{
    AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, DiscoveryResponse, FailurePolicy,
};
use capi_runtime::server::{
    HEALTHZ_PATH, HandlerOptions, MAX_REQUEST_BODY_BYTES, METRICS_PATH, READYZ_PATH, Server,
    ServerBuilder, ServerError,
};
use http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

const BCC_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/bcc";
const ACPI_PATH: &str =
    "/hooks.runtime.cluster.x-k8s.io/v1alpha1/aftercontrolplaneinitialized/acpi";
const DISCOVERY_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery";

/// A server whose BeforeClusterCreate handler counts calls and acts on the cluster name:
/// `fail` returns an error, `panic` panics, `hang` never answers, anything else succeeds with
/// retryAfterSeconds 7. Its timeout is 30 s, so that a loaded machine (a panic's backtrace
/// printed under load can take more than a second) never turns an answer into a timeout; the
/// `hang` requests ask for 1 s with the `?timeout=` parameter instead ([`HANG_PATH`]).
fn server(calls: Arc<AtomicUsize>) -> Server {
    server_with(calls, HandlerOptions::new("bcc").timeout_seconds(30))
}

/// BeforeClusterCreate's path for `bcc` with the caller's timeout of 1 s (the shorter of the
/// caller's and the handler's timeout applies).
const HANG_PATH: &str =
    "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/bcc?timeout=1s";

/// [`server`] with the BeforeClusterCreate handler registered under `bcc`.
fn server_with(calls: Arc<AtomicUsize>, bcc: HandlerOptions) -> Server {
    Server::builder()
        .handle(bcc, move |request: BeforeClusterCreateRequest| {
            let calls = calls.clone();
            async move {
                calls.fetch_add(1, Ordering::SeqCst);
                match request.cluster.metadata.name.as_deref() {
                    Some("fail") => Err("cluster \"fail\" is not welcome".to_string()),
                    Some("panic") => panic!("boom"),
                    Some("hang") => std::future::pending().await,
                    _ => {
                        let mut response = BeforeClusterCreateResponse::success();
                        response.retry_after_seconds = 7;
                        Ok(response)
                    }
                }
            }
        })
        .handle(
            HandlerOptions::new("acpi").failure_policy(FailurePolicy::Ignore),
            |_: AfterControlPlaneInitializedRequest| async {
                Ok::<_, String>(AfterControlPlaneInitializedResponse::success())
            },
        )
        .build()
        .unwrap()
}

async fn send(
    router: &Router,
    method: Method,
    path: &str,
    body: impl Into<Body>,
) -> (StatusCode, Vec<u8>, http::HeaderMap) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap()
        .to_vec();
    (status, body, headers)
}

async fn post_json(router: &Router, path: &str, body: impl Into<Body>) -> Value {
    let (status, body, headers) = send(router, Method::POST, path, body).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    serde_json::from_slice(&body).unwrap()
}

fn cluster_named(name: &str) -> String {
    json!({"cluster": {"metadata": {"name": name}}}).to_string()
}

#[tokio::test]
async fn empty_object_reaches_the_handler_and_gets_typed_success() {
    let calls = Arc::new(AtomicUsize::new(0));
    let router = server(calls.clone()).router();
    let answer = post_json(&router, BCC_PATH, "{}").await;
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(
        answer,
        json!({
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "kind": "BeforeClusterCreateResponse",
            "status": "Success",
            "retryAfterSeconds": 7
        })
    );
}

#[tokio::test]
async fn body_over_the_cap_is_a_failure_without_calling_the_handler() {
    let calls = Arc::new(AtomicUsize::new(0));
    let router = server(calls.clone()).router();
    let mut body = b"{}".to_vec();
    body.resize(2 + MAX_REQUEST_BODY_BYTES + 1, b' ');
    let answer = post_json(&router, BCC_PATH, body).await;
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert_eq!(answer["status"], "Failure");
    assert_eq!(answer["kind"], "BeforeClusterCreateResponse");
    let message = answer["message"].as_str().unwrap();
    assert!(message.starts_with("error reading request"), "{message}");
    assert!(message.contains("20971520"), "{message}");
    // A retryable Failure still carries retryAfterSeconds, which the schema requires.
    assert_eq!(answer["retryAfterSeconds"], 0);
}

#[tokio::test]
async fn body_exactly_at_the_cap_is_read() {
    let calls = Arc::new(AtomicUsize::new(0));
    let router = server(calls.clone()).router();
    let mut body = b"{}".to_vec();
    body.resize(MAX_REQUEST_BODY_BYTES, b' ');
    let answer = post_json(&router, BCC_PATH, body).await;
    assert_eq!(answer["status"], "Success");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn invalid_json_and_wrong_types_are_decode_failures() {
    let calls = Arc::new(AtomicUsize::new(0));
    let router = server(calls.clone()).router();
    for body in [
        "",
        "{",
        "[]",
        "{\"cluster\": 5}",
        "{\"settings\": {\"a\": 1}}",
    ] {
        let answer = post_json(&router, BCC_PATH, body).await;
        assert_eq!(answer["status"], "Failure", "{body}");
        let message = answer["message"].as_str().unwrap();
        assert!(
            message.starts_with("error unmarshalling request: "),
            "{body}: {message}"
        );
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn wrong_api_version_or_kind_is_a_failure() {
    let calls = Arc::new(AtomicUsize::new(0));
    let router = server(calls.clone()).router();
    for (api_version, kind) in [
        (
            "hooks.runtime.cluster.x-k8s.io/v1alpha2",
            "BeforeClusterCreateRequest",
        ),
        (
            "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "BeforeClusterDeleteRequest",
        ),
    ] {
        let body = json!({"apiVersion": api_version, "kind": kind}).to_string();
        let answer = post_json(&router, BCC_PATH, body).await;
        assert_eq!(answer["status"], "Failure");
        let message = answer["message"].as_str().unwrap();
        assert!(message.starts_with("unexpected request type"), "{message}");
        assert!(message.contains(kind), "{message}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    // The request's own type metadata is accepted.
    let body = json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "BeforeClusterCreateRequest"
    });
    let answer = post_json(&router, BCC_PATH, body.to_string()).await;
    assert_eq!(answer["status"], "Success");
}

#[tokio::test]
async fn handler_error_becomes_failure_with_its_text() {
    let router = server(Arc::default()).router();
    let answer = post_json(&router, BCC_PATH, cluster_named("fail")).await;
    assert_eq!(answer["status"], "Failure");
    assert_eq!(answer["message"], "cluster \"fail\" is not welcome");
}

#[tokio::test]
async fn handler_panic_becomes_failure_and_the_server_keeps_serving() {
    let router = server(Arc::default()).router();
    let answer = post_json(&router, BCC_PATH, cluster_named("panic")).await;
    assert_eq!(answer["status"], "Failure");
    assert_eq!(answer["message"], "handler \"bcc\" panicked: boom");
    let answer = post_json(&router, BCC_PATH, cluster_named("ok")).await;
    assert_eq!(answer["status"], "Success");
}

/// An error whose `Display` panics.
struct Unprintable;

impl std::fmt::Display for Unprintable {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("cannot print")
    }
}

#[tokio::test]
async fn an_error_that_cannot_be_written_is_answered_as_a_panic() {
    for options in [
        HandlerOptions::new("bcc"),
        HandlerOptions::new("bcc").blocking(),
    ] {
        let server = Server::builder()
            .handle(options, |_: BeforeClusterCreateRequest| async {
                Err::<BeforeClusterCreateResponse, _>(Unprintable)
            })
            .build()
            .unwrap();
        let router = server.router();
        let answer = post_json(&router, BCC_PATH, "{}").await;
        assert_eq!(answer["status"], "Failure");
        assert_eq!(answer["message"], "handler \"bcc\" panicked: cannot print");
        // The server goes on serving.
        let answer = post_json(&router, BCC_PATH, "{}").await;
        assert_eq!(answer["status"], "Failure");
        assert!(
            server.metrics_text().contains(
                r#"capi_runtime_sdk_extension_request_failures_total{hook="BeforeClusterCreate",handler="bcc",reason="panic"} 2"#
            ),
            "{}",
            server.metrics_text()
        );
    }
}

#[tokio::test]
async fn handler_outliving_its_timeout_becomes_failure() {
    let router = server(Arc::default()).router();
    let answer = post_json(&router, HANG_PATH, cluster_named("hang")).await;
    assert_eq!(answer["status"], "Failure");
    assert_eq!(
        answer["message"],
        "handler \"bcc\" did not answer within 1s"
    );
}

#[tokio::test]
async fn a_handler_declared_blocking_answers_fails_panics_and_times_out_alike() {
    let calls = Arc::new(AtomicUsize::new(0));
    let options = HandlerOptions::new("bcc").timeout_seconds(30);
    let server = server_with(calls.clone(), options.clone().blocking());
    // Running on the blocking pool is not part of what Discovery advertises.
    assert_eq!(
        server.discovery(),
        server_with(Arc::default(), options).discovery()
    );
    let router = server.router();
    let answer = post_json(&router, BCC_PATH, cluster_named("ok")).await;
    assert_eq!(answer["status"], "Success");
    assert_eq!(answer["retryAfterSeconds"], 7);
    let answer = post_json(&router, BCC_PATH, cluster_named("fail")).await;
    assert_eq!(answer["status"], "Failure");
    assert_eq!(answer["message"], "cluster \"fail\" is not welcome");
    let answer = post_json(&router, BCC_PATH, cluster_named("panic")).await;
    assert_eq!(answer["status"], "Failure");
    assert_eq!(answer["message"], "handler \"bcc\" panicked: boom");
    let answer = post_json(&router, HANG_PATH, cluster_named("hang")).await;
    assert_eq!(answer["status"], "Failure");
    assert_eq!(
        answer["message"],
        "handler \"bcc\" did not answer within 1s"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    // And it keeps serving.
    let answer = post_json(&router, BCC_PATH, cluster_named("ok")).await;
    assert_eq!(answer["status"], "Success");
}

/// Runs on a current-thread runtime: the test's thread is its only worker.
#[tokio::test]
async fn handlers_run_on_the_worker_unless_declared_blocking() {
    for (options, on_worker) in [
        (HandlerOptions::new("bcc"), true),
        (HandlerOptions::new("bcc").blocking(), false),
    ] {
        let seen = Arc::new(std::sync::Mutex::new(None));
        let s = seen.clone();
        let router = Server::builder()
            .handle(options, move |_: BeforeClusterCreateRequest| {
                let s = s.clone();
                async move {
                    *s.lock().unwrap() = Some(std::thread::current().id());
                    BeforeClusterCreateResponse::success()
                }
            })
            .build()
            .unwrap()
            .router();
        let answer = post_json(&router, BCC_PATH, "{}").await;
        assert_eq!(answer["status"], "Success");
        let ran_on = seen.lock().unwrap().expect("the handler ran");
        assert_eq!(ran_on == std::thread::current().id(), on_worker);
    }
}

#[tokio::test]
async fn non_blocking_is_a_no_op() {
    let options = HandlerOptions::new("bcc").timeout_seconds(3);
    assert_eq!(options.clone().non_blocking(), options);
}

#[tokio::test]
async fn a_handler_that_panics_before_its_future_is_answered_failure() {
    for options in [
        HandlerOptions::new("bcc"),
        HandlerOptions::new("bcc").blocking(),
    ] {
        let router = Server::builder()
            .handle(
                options,
                |_: BeforeClusterCreateRequest| -> std::future::Ready<BeforeClusterCreateResponse> {
                    panic!("before the future")
                },
            )
            .build()
            .unwrap()
            .router();
        let answer = post_json(&router, BCC_PATH, "{}").await;
        assert_eq!(answer["status"], "Failure");
        assert_eq!(
            answer["message"],
            "handler \"bcc\" panicked: before the future"
        );
    }
}

#[tokio::test]
async fn unknown_paths_are_404_and_other_methods_405() {
    let router = server(Arc::default()).router();
    for path in [
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/other",
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate",
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterdelete/bcc",
        "/",
    ] {
        let (status, _, _) = send(&router, Method::POST, path, "{}").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    for method in [Method::GET, Method::PUT, Method::DELETE, Method::PATCH] {
        for path in [BCC_PATH, DISCOVERY_PATH] {
            let (status, _, headers) = send(&router, method.clone(), path, "{}").await;
            assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert_eq!(headers[header::ALLOW], "POST");
        }
    }
}

#[tokio::test]
async fn discovery_decodes_its_request_like_every_hook() {
    // Upstream decodes the Discovery request like any other and answers Failure for a body
    // that is not a DiscoveryRequest.
    let router = server(Arc::default()).router();
    for body in ["not json", "[]", r#"{"apiVersion": 1}"#] {
        let answer = post_json(&router, DISCOVERY_PATH, body).await;
        assert_eq!(answer["kind"], "DiscoveryResponse", "{body}");
        assert_eq!(answer["status"], "Failure", "{body}");
        assert!(
            answer["message"]
                .as_str()
                .unwrap()
                .starts_with("error unmarshalling request"),
            "{body}: {answer}"
        );
        assert!(answer.get("handlers").is_none(), "{body}: {answer}");
    }
    let answer = post_json(
        &router,
        DISCOVERY_PATH,
        r#"{"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "kind": "DiscoveryRequest"}"#,
    )
    .await;
    assert_eq!(answer["status"], "Success");
}

#[tokio::test]
async fn query_strings_are_ignored() {
    let router = server(Arc::default()).router();
    let answer = post_json(&router, &format!("{BCC_PATH}?timeout=10s"), "{}").await;
    assert_eq!(answer["status"], "Success");
}

#[tokio::test]
async fn discovery_lists_the_registered_handlers_sorted() {
    let router = server(Arc::default()).router();
    let answer = post_json(&router, DISCOVERY_PATH, "{}").await;
    assert_eq!(
        answer,
        json!({
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "kind": "DiscoveryResponse",
            "status": "Success",
            "handlers": [
                {
                    "name": "acpi",
                    "requestHook": {
                        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
                        "hook": "AfterControlPlaneInitialized"
                    },
                    "failurePolicy": "Ignore"
                },
                {
                    "name": "bcc",
                    "requestHook": {
                        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
                        "hook": "BeforeClusterCreate"
                    },
                    "timeoutSeconds": 30
                }
            ]
        })
    );
    let typed: DiscoveryResponse = serde_json::from_value(answer).unwrap();
    assert_eq!(&typed, server(Arc::default()).discovery());
    let acpi = post_json(&router, ACPI_PATH, "{}").await;
    assert_eq!(acpi["status"], "Success");
}

#[tokio::test]
async fn the_hook_port_serves_neither_health_nor_metrics() {
    let router = server(Arc::default()).router();
    for path in [HEALTHZ_PATH, READYZ_PATH, METRICS_PATH] {
        for method in [Method::GET, Method::POST] {
            let (status, body, _) = send(&router, method.clone(), path, "").await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}");
            assert_eq!(
                String::from_utf8(body).unwrap(),
                format!("no handler is registered for path \"{path}\"")
            );
        }
    }
}

#[tokio::test]
async fn health_and_metrics_are_served_on_their_own_routers() {
    let server = server(Arc::default());
    let (router, health, metrics) = (
        server.router(),
        server.health_router(),
        server.metrics_router(),
    );
    post_json(&router, BCC_PATH, "{}").await;
    post_json(&router, BCC_PATH, "{").await;
    post_json(&router, DISCOVERY_PATH, "{}").await;
    for path in [HEALTHZ_PATH, READYZ_PATH] {
        let (status, body, _) = send(&health, Method::GET, path, "").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, b"ok");
        let (status, _, _) = send(&metrics, Method::GET, path, "").await;
        assert_eq!(
            status,
            StatusCode::NOT_FOUND,
            "{path} on the metrics router"
        );
    }
    for path in [METRICS_PATH, DISCOVERY_PATH, BCC_PATH] {
        let (status, _, _) = send(&health, Method::GET, path, "").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path} on the health router");
    }
    let (status, body, headers) = send(&metrics, Method::GET, METRICS_PATH, "").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    let text = String::from_utf8(body).unwrap();
    for line in [
        "# TYPE capi_runtime_sdk_extension_requests counter",
        r#"capi_runtime_sdk_extension_requests_total{hook="BeforeClusterCreate",handler="bcc",status="Success"} 1"#,
        r#"capi_runtime_sdk_extension_requests_total{hook="BeforeClusterCreate",handler="bcc",status="Failure"} 1"#,
        r#"capi_runtime_sdk_extension_request_failures_total{hook="BeforeClusterCreate",handler="bcc",reason="decode"} 1"#,
        r#"capi_runtime_sdk_extension_request_failures_total{hook="BeforeClusterCreate",handler="bcc",reason="panic"} 0"#,
        r#"capi_runtime_sdk_extension_requests_total{hook="Discovery",handler="",status="Success"} 1"#,
        r#"capi_runtime_sdk_extension_request_duration_seconds_count{hook="BeforeClusterCreate",handler="bcc"} 2"#,
        "# EOF",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
}

fn noop(_: BeforeClusterCreateRequest) -> std::future::Ready<BeforeClusterCreateResponse> {
    std::future::ready(BeforeClusterCreateResponse::success())
}

#[test]
fn registration_errors_name_the_problem() {
    let builder = || ServerBuilder::new().handle("one", noop);

    let error = builder().handle("One", noop).build().unwrap_err();
    let text = chain(&error).to_string();
    assert!(text.starts_with("invalid handler name \"One\": "), "{text}");
    assert!(
        text.contains("must consist of lower case alphanumeric characters or '-'"),
        "{text}"
    );
    let error = builder().handle("one", noop).build().unwrap_err();
    assert_eq!(
        chain(&error).to_string(),
        "there is already a handler registered for path \
         \"/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/one\""
    );
    let error = builder()
        .handle(HandlerOptions::new("two").timeout_seconds(31), noop)
        .build()
        .unwrap_err();
    assert_eq!(
        chain(&error).to_string(),
        "invalid timeoutSeconds 31 for handler \"two\": must be between 0 and 30"
    );
    // Cluster API would refuse the whole Discovery answer for a policy it does not know.
    let error = builder()
        .handle(
            HandlerOptions::new("two").failure_policy(FailurePolicy::Other("Sometimes".into())),
            noop,
        )
        .build()
        .unwrap_err();
    assert_eq!(
        chain(&error).to_string(),
        "invalid failurePolicy \"Sometimes\" for handler \"two\": must equal \"Ignore\" or \"Fail\""
    );
    let error = ServerBuilder::with_catalog(Catalog::new())
        .handle("one", noop)
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "hook \"BeforeClusterCreate\" does not exist in catalog"
    );
    let cause = std::error::Error::source(&error)
        .and_then(|e| e.downcast_ref::<capi_runtime::catalog::CatalogError>())
        .expect("the catalog's answer is the source");
    assert!(
        chain(&error)
            .to_string()
            .ends_with(&format!("does not exist in catalog: {cause}")),
        "{}",
        chain(&error)
    );
    let builder = builder();
    let names: Vec<_> = builder.registered().map(|(_, n)| n.to_string()).collect();
    assert_eq!(names, ["one"]);
}

#[test]
fn build_returns_every_registration_mistake() {
    let builder = ServerBuilder::new()
        .handle("One", noop)
        .handle("ok", noop)
        .handle("ok", noop);
    // The mistakes are left out and remembered; the chain goes on.
    assert_eq!(builder.errors().len(), 2);
    let names: Vec<_> = builder.registered().map(|(_, n)| n.to_string()).collect();
    assert_eq!(names, ["ok"]);
    assert_eq!(builder.discovery().handlers.len(), 1);

    let error = builder.build().unwrap_err();
    assert!(matches!(&error, ServerError::Registrations(list) if list.len() == 2));
    assert!(matches!(
        error.errors(),
        [
            ServerError::InvalidHandlerName { .. },
            ServerError::DuplicatePath(_)
        ]
    ));
    let text = chain(&error).to_string();
    assert!(
        text.starts_with(
            "2 mistakes in registering the server's handlers: [invalid handler name \"One\": "
        ),
        "{text}"
    );
    assert!(
        text.ends_with(
            ", there is already a handler registered for path \
             \"/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/ok\"]"
        ),
        "{text}"
    );
    assert!(std::error::Error::source(&error).is_none());

    // One mistake is returned as itself.
    let error = ServerBuilder::new()
        .handle("One", noop)
        .build()
        .unwrap_err();
    assert!(matches!(error, ServerError::InvalidHandlerName { .. }));
    assert_eq!(error.errors().len(), 1);
}
