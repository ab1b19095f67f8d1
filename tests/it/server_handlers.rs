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
    AfterClusterUpgrade, AfterClusterUpgradeRequest, AfterClusterUpgradeResponse,
    AfterControlPlaneInitialized, AfterControlPlaneInitializedRequest,
    AfterControlPlaneInitializedResponse, BeforeClusterCreate, BeforeClusterCreateRequest,
    BeforeClusterCreateResponse, BeforeClusterDelete, BeforeClusterDeleteRequest,
    BeforeClusterDeleteResponse, BeforeClusterUpgrade, BeforeClusterUpgradeRequest,
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
        // Registered before the state is given: its context carries `()`.
        .handle(
            AfterClusterUpgrade,
            "before-state",
            |_: AfterClusterUpgradeRequest, context: Context| async move {
                let mut response = AfterClusterUpgradeResponse::success();
                response.message = format!("answered by {}", context.handler_name());
                response
            },
        )
        .state(Tally {
            greeting: "hello".into(),
            calls,
        })
        .handle(BeforeClusterCreate, "count", count)
        .handle(BeforeClusterDelete, "refuse", refuse)
        // The request alone, and the response itself.
        .handle(
            AfterControlPlaneInitialized,
            "notice",
            |_: AfterControlPlaneInitializedRequest| async {
                AfterControlPlaneInitializedResponse::success()
            },
        )
        // A `Result` whose `Ok` is a Failure response: the handler's own verdict, not an error.
        .handle(
            BeforeClusterUpgrade,
            "frozen",
            |_: BeforeClusterUpgradeRequest| async {
                Ok::<_, Refused>(BeforeClusterUpgradeResponse::failure("upgrades are frozen"))
            },
        )
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
            .call_extension::<BeforeClusterCreate>("count.ext", &create, &object)
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
        .call_extension::<BeforeClusterDelete>("refuse.ext", &Default::default(), &object)
        .await
        .unwrap_err();
    assert_eq!(failure_message(refused), "refused at call 3");
    // The other handler counted in the same state.
    let answer = client
        .call_extension::<BeforeClusterCreate>("count.ext", &create, &object)
        .await
        .unwrap();
    assert_eq!(answer.retry_after_seconds, 4);
    assert_eq!(calls.load(Ordering::SeqCst), 4);

    let answer = client
        .call_extension::<AfterControlPlaneInitialized>("notice.ext", &Default::default(), &object)
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    let frozen = client
        .call_extension::<BeforeClusterUpgrade>("frozen.ext", &Default::default(), &object)
        .await
        .unwrap_err();
    assert_eq!(failure_message(frozen), "upgrades are frozen");
    let answer = client
        .call_extension::<AfterClusterUpgrade>("before-state.ext", &Default::default(), &object)
        .await
        .unwrap();
    assert_eq!(answer.message, "answered by before-state");
    // Neither of those read the tally.
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    running.shutdown().await.unwrap();
}
