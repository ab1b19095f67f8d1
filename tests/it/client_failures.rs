//! Every way an exchange can fail, each under failure policy Fail (an error naming the
//! handler and URL) and Ignore (a Success response with no message).

use crate::support::{extension, tls};

use std::time::Duration;

use axum::body::Body;
use capi_runtime::client::{CallError, Client, ExchangeError, ForObject};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;
use capi_runtime::hooks::v1alpha1::ResponseStatus;
use extension::{Handler, config, handler, ready_client};
use futures::StreamExt;
use serde_json::json;
use tls::{TestCa, TestServer, answer, raw, server_config};

const HOOK: &str = "BeforeClusterCreate";
const MIB: usize = 1 << 20;

/// Calls `h.<config>` under Fail and `i.<config>` under Ignore and returns the Fail error
/// after checking that Ignore turned it into a plain success.
async fn fail_and_ignore(client: &Client, config: &str) -> CallError {
    let object = ForObject::new("default", "c");
    let ignored = client
        .call_extension(
            &format!("i.{config}"),
            &BeforeClusterCreateRequest::default(),
            &object,
        )
        .await
        .expect("Ignore swallows calling errors");
    assert_eq!(ignored.status, ResponseStatus::Success);
    assert_eq!(ignored.message, "");
    assert_eq!(ignored.retry_after_seconds, 0);
    let err = client
        .call_extension(
            &format!("h.{config}"),
            &BeforeClusterCreateRequest::default(),
            &object,
        )
        .await
        .expect_err("Fail reports calling errors");
    assert_eq!(err.handler(), Some(format!("h.{config}").as_str()));
    err
}

fn handlers(timeout: i32) -> [Handler; 2] {
    [
        handler("h", HOOK).timeout(timeout),
        handler("i", HOOK).timeout(timeout).ignore(),
    ]
}

fn exchange_error(err: &CallError) -> &ExchangeError {
    match err {
        CallError::Exchange { source, .. } => source,
        other => panic!("expected an exchange error, got {other}"),
    }
}

#[tokio::test]
async fn a_slow_answer_times_out() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            tls::json(json!({"status": "Success"}))
        }),
    )
    .await;
    let client = ready_client(&[config("ext", &server.url(), &ca.pem(), &handlers(1))]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(exchange_error(&err), ExchangeError::Timeout { .. }),
        "{err}"
    );
    let url = err.url().unwrap();
    assert!(url.ends_with("/beforeclustercreate/h?timeout=1s"), "{url}");
    assert!(
        chain(&err).to_string().contains(&format!("Post \"{url}\"")),
        "{err}"
    );
}

#[tokio::test]
async fn a_body_that_stalls_times_out() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async {
            // Headers and half a JSON object, then nothing.
            let stream =
                futures::stream::once(async { Ok::<_, std::io::Error>(&b"{\"status\":"[..]) })
                    .chain(futures::stream::once(async {
                        tokio::time::sleep(Duration::from_secs(30)).await;
                        Ok(&b"\"Success\"}"[..])
                    }));
            raw(200, Body::from_stream(stream))
        }),
    )
    .await;
    let client = ready_client(&[config("ext", &server.url(), &ca.pem(), &handlers(1))]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(exchange_error(&err), ExchangeError::Timeout { .. }),
        "{err}"
    );
}

#[tokio::test]
async fn an_unknown_ca_is_a_tls_error() {
    let ca = TestCa::new("ca");
    let other = TestCa::new("other");
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let client = ready_client(&[config("ext", &server.url(), &other.pem(), &handlers(5))]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(exchange_error(&err), ExchangeError::Transport { .. }),
        "{err}"
    );
    assert!(chain(&err).to_string().contains("UnknownIssuer"), "{err}");
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn a_certificate_for_another_host_is_a_tls_error() {
    let ca = TestCa::new("ca");
    let server = TestServer::start(
        server_config(&ca.serving(&["other.example"]), None),
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let client = ready_client(&[config("ext", &server.url(), &ca.pem(), &handlers(5))]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(exchange_error(&err), ExchangeError::Transport { .. }),
        "{err}"
    );
    assert!(
        chain(&err)
            .to_string()
            .contains("certificate not valid for name \"127.0.0.1\""),
        "{err}"
    );

    // The server name is the URL's host: a certificate for 127.0.0.1 called as localhost
    // fails as well.
    let server = TestServer::start(
        server_config(&ca.serving(&["127.0.0.1"]), None),
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let by_name = format!("https://localhost:{}", server.addr.port());
    let client = ready_client(&[config("ext", &by_name, &ca.pem(), &handlers(5))]);
    fail_and_ignore(&client, "ext").await;
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error() {
    // A port that stays bound (so no other test can take it) and refuses connections.
    let refused = tls::RefusedPort::new();
    let port = refused.port;
    let ca = TestCa::new("ca");
    let client = ready_client(&[config(
        "ext",
        &format!("https://127.0.0.1:{port}"),
        &ca.pem(),
        &handlers(5),
    )]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(exchange_error(&err), ExchangeError::Transport { .. }),
        "{err}"
    );
}

#[tokio::test]
async fn a_non_200_status_is_an_error_with_a_body_excerpt() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(&ca, answer(|_| async { raw(500, "x".repeat(600)) })).await;
    let client = ready_client(&[config("ext", &server.url(), &ca.pem(), &handlers(5))]);
    let err = fail_and_ignore(&client, "ext").await;
    match exchange_error(&err) {
        ExchangeError::HttpStatus { code, excerpt, .. } => {
            assert_eq!(*code, 500);
            assert_eq!(excerpt, &format!("\"{}...\"", "x".repeat(512)));
        }
        other => panic!("{other}"),
    }
    assert!(
        chain(&err)
            .to_string()
            .contains("got response with status code 500 != 200: response : \"xxx"),
        "{err}"
    );

    let created = TestServer::with_ca(
        &ca,
        answer(|_| async { raw(201, r#"{"status":"Success"}"#) }),
    )
    .await;
    let client = ready_client(&[config("ext", &created.url(), &ca.pem(), &handlers(5))]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(
            exchange_error(&err),
            ExchangeError::HttpStatus { code: 201, .. }
        ),
        "only 200 counts: {err}"
    );
}

#[tokio::test]
async fn an_undecodable_body_is_an_error() {
    let ca = TestCa::new("ca");
    for body in [
        "not json",
        r#"{"status": "Success", "retryAfterSeconds": "soon"}"#,
        "[1, 2]",
        "",
    ] {
        let server = TestServer::with_ca(&ca, answer(move |_| async move { raw(200, body) })).await;
        let client = ready_client(&[config("ext", &server.url(), &ca.pem(), &handlers(5))]);
        let err = fail_and_ignore(&client, "ext").await;
        assert!(
            matches!(exchange_error(&err), ExchangeError::Decode { .. }),
            "{body}: {err}"
        );
    }
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let ca = TestCa::new("ca");
    let big = || {
        let mut body = br#"{"status":"Success","message":""#.to_vec();
        body.extend(std::iter::repeat_n(b'x', 20 * MIB));
        body.extend(br#""}"#);
        body
    };
    let ok = TestServer::with_ca(&ca, answer(move |_| async move { raw(200, big()) })).await;
    let client = ready_client(&[config("ext", &ok.url(), &ca.pem(), &handlers(10))]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(exchange_error(&err), ExchangeError::BodyTooLarge { limit, .. } if *limit == 20 * MIB),
        "{err}"
    );

    // A streamed body without a length is cut off too.
    let streamed = TestServer::with_ca(
        &ca,
        answer(|_| async {
            let chunks =
                futures::stream::iter((0..21).map(|_| Ok::<_, std::io::Error>(vec![b' '; MIB])));
            raw(500, Body::from_stream(chunks))
        }),
    )
    .await;
    let client = ready_client(&[config("ext", &streamed.url(), &ca.pem(), &handlers(10))]);
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(
            exchange_error(&err),
            ExchangeError::HttpStatusBody { code: 500, .. }
        ),
        "{err}"
    );

    // A smaller limit set on the builder applies to every body.
    let small = TestServer::with_ca(
        &ca,
        answer(|_| async {
            raw(
                200,
                format!(r#"{{"status":"Success","message":"{}"}}"#, "y".repeat(2000)),
            )
        }),
    )
    .await;
    let registry = capi_runtime::registry::Registry::new();
    registry
        .warm_up(&[config("ext", &small.url(), &ca.pem(), &handlers(5))])
        .unwrap();
    let client = Client::builder()
        .registry(registry)
        .max_response_bytes(1000)
        .build()
        .unwrap();
    let err = fail_and_ignore(&client, "ext").await;
    assert!(
        matches!(
            exchange_error(&err),
            ExchangeError::BodyTooLarge { limit: 1000, .. }
        ),
        "{err}"
    );
}
