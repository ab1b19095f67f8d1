//! The forms a handler may take, served over HTTPS on loopback and called with a runtime client
//! built with the builder's defaults: handlers that return their response (they cannot fail)
//! or a `Result`, that take the request alone or with a `Context` carrying the state the
//! server's handlers share, answering with the response types' own `success()` and
//! `failure(..)` (no trait of the crate is imported here).

use crate::support::extension::{config, handler};

use std::fmt;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use capi_runtime::client::{CallError, Client, ForObject};
use capi_runtime::hooks::v1alpha1::{
    AfterClusterUpgradeRequest, AfterClusterUpgradeResponse, AfterControlPlaneInitializedRequest,
    AfterControlPlaneInitializedResponse, BeforeClusterCreateRequest, BeforeClusterCreateResponse,
    BeforeClusterDeleteRequest, BeforeClusterDeleteResponse, BeforeClusterUpgradeRequest,
    BeforeClusterUpgradeResponse, ResponseStatus,
};
use capi_runtime::server::{Context, RunningServer, Server, ServerError};
use capi_runtime_test_pki::TestCa;

/// What the handlers of the server share. The test keeps a clone of `calls` to see the count
/// the handlers leave behind.
struct Tally {
    greeting: String,
    calls: Arc<AtomicU32>,
}

/// The error type of a handler that refuses.
#[derive(Debug)]
struct Refused {
    call: u32,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refused at call {}", self.call)
    }
}

/// Counts the call in the shared tally and answers Success with the call's number; it cannot
/// fail, so it returns the response itself.
async fn count(
    request: BeforeClusterCreateRequest,
    context: Context<Tally>,
) -> BeforeClusterCreateResponse {
    let tally = context.state();
    let call = tally.calls.fetch_add(1, Ordering::SeqCst) + 1;
    let mut response = BeforeClusterCreateResponse::success();
    response.retry_after_seconds = i32::try_from(call).unwrap();
    response.message = format!(
        "{} {}, call {call}, by {}",
        tally.greeting,
        request.cluster.metadata.name.unwrap_or_default(),
        context.handler_name()
    );
    response
}

/// Counts the call in the same tally and refuses it with an error.
async fn refuse(
    _: BeforeClusterDeleteRequest,
    context: Context<Tally>,
) -> Result<BeforeClusterDeleteResponse, Refused> {
    let call = context.state().calls.fetch_add(1, Ordering::SeqCst) + 1;
    Err(Refused { call })
}

async fn start(dir: &std::path::Path, calls: Arc<AtomicU32>) -> Result<RunningServer, ServerError> {
    let server = Server::builder()
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(dir)
        // A context that carries `()`, on a server with a state: any handler may take it.
        .handle(
            "before-state",
            |_: AfterClusterUpgradeRequest, context: Context| async move {
                let mut response = AfterClusterUpgradeResponse::success();
                response.message = format!("answered by {}", context.handler_name());
                response
            },
        )
        // Registered before the state is given: bound to it when the server is built.
        .handle("count", count)
        .handle("refuse", refuse)
        // The request alone, and the response itself.
        .handle("notice", |_: AfterControlPlaneInitializedRequest| async {
            AfterControlPlaneInitializedResponse::success()
        })
        // A `Result` whose `Ok` is a Failure response: the handler's own verdict, not an error.
        .handle("frozen", |_: BeforeClusterUpgradeRequest| async {
            Ok::<_, Refused>(BeforeClusterUpgradeResponse::failure("upgrades are frozen"))
        })
        .state(Tally {
            greeting: "hello".into(),
            calls,
        })
        .build()?;
    server.start().await
}

fn failure_message(error: CallError) -> String {
    match error {
        CallError::Failure { message, .. } => message,
        other => panic!("expected a Failure answer, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_handler_form_is_served_and_the_state_is_shared() {
    let ca = TestCa::new("handlers");
    let dir = ca.cert_dir();
    let calls = Arc::new(AtomicU32::new(0));
    let running = start(dir.path(), calls.clone()).await.unwrap();
    let url = format!("https://127.0.0.1:{}", running.local_addr().port());
    let config = config(
        "ext",
        &url,
        &ca.pem(),
        &[
            handler("count", "BeforeClusterCreate"),
            handler("refuse", "BeforeClusterDelete"),
            handler("notice", "AfterControlPlaneInitialized"),
            handler("frozen", "BeforeClusterUpgrade"),
            handler("before-state", "AfterClusterUpgrade"),
        ],
    );
    // No catalog and no registry given: the built-in hooks and a registry of the client's own.
    let client = Client::builder().build().unwrap();
    client.warm_up([&config]).unwrap();
    let object = ForObject::new("default", "c1");
    let mut create = BeforeClusterCreateRequest::default();
    create.cluster.metadata.name = Some("c1".into());

    for expected in 1..=2 {
        let answer = client
            .call_extension("count.ext", &create, &object)
            .await
            .unwrap();
        assert_eq!(answer.status, ResponseStatus::Success);
        assert_eq!(answer.retry_after_seconds, expected);
        assert_eq!(
            answer.message,
            format!("hello c1, call {expected}, by count")
        );
    }
    let refused = client
        .call_extension(
            "refuse.ext",
            &BeforeClusterDeleteRequest::default(),
            &object,
        )
        .await
        .unwrap_err();
    assert_eq!(failure_message(refused), "refused at call 3");
    // The other handler counted in the same state.
    let answer = client
        .call_extension("count.ext", &create, &object)
        .await
        .unwrap();
    assert_eq!(answer.retry_after_seconds, 4);
    assert_eq!(calls.load(Ordering::SeqCst), 4);

    let answer = client
        .call_extension(
            "notice.ext",
            &AfterControlPlaneInitializedRequest::default(),
            &object,
        )
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    let frozen = client
        .call_extension(
            "frozen.ext",
            &BeforeClusterUpgradeRequest::default(),
            &object,
        )
        .await
        .unwrap_err();
    assert_eq!(failure_message(frozen), "upgrades are frozen");
    let answer = client
        .call_extension(
            "before-state.ext",
            &AfterClusterUpgradeRequest::default(),
            &object,
        )
        .await
        .unwrap();
    assert_eq!(answer.message, "answered by before-state");
    // Neither of those read the tally.
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    running.shutdown().await.unwrap();
}

/// A state of another type than the one a handler's `Context` names.
struct Ledger;

#[test]
fn a_handler_whose_context_names_another_state_is_a_mistake_build_reports() {
    // Without a state, and with a state of another type: `count` reads a `Tally`.
    for (built, server_state) in [
        (Server::builder().handle("count", count).build(), "()"),
        (
            Server::builder()
                .handle("count", count)
                .state(Ledger)
                .build(),
            "it::server_handlers::Ledger",
        ),
    ] {
        let error = built.unwrap_err();
        assert!(
            matches!(&error, ServerError::StateMismatch { name, .. } if name == "count"),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "handler \"count\" of hook \"BeforeClusterCreate\" takes a Context<it::server_handlers::Tally>, \
                 but the server's state is {server_state}: a handler's Context carries the server's state type or ()"
            )
        );
    }
    // Two such handlers and another mistake: all three are reported, the state's last.
    let error = Server::builder()
        .handle("count", count)
        .handle("Not A Label", |_: AfterClusterUpgradeRequest| async {
            AfterClusterUpgradeResponse::success()
        })
        .state(Ledger)
        .handle("refuse", refuse)
        .build()
        .unwrap_err();
    let kinds: Vec<String> = error
        .errors()
        .iter()
        .map(|e| match e {
            ServerError::StateMismatch {
                name,
                handler_state,
                server_state,
                ..
            } => format!("{name}: {handler_state} on {server_state}"),
            ServerError::InvalidHandlerName { name, .. } => format!("invalid name {name}"),
            other => panic!("unexpected mistake {other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "invalid name Not A Label",
            "count: it::server_handlers::Tally on it::server_handlers::Ledger",
            "refuse: it::server_handlers::Tally on it::server_handlers::Ledger",
        ]
    );
}
