//! Handlers, and what happens to each request one serves.
//!
//! Every problem with a request on a handler's path becomes HTTP 200 with a Failure response of
//! the hook's response type, because Cluster API treats any other status as "extension
//! unreachable", which an `Ignore` failure policy would silently swallow.
//!
//! A handler runs on the async runtime's worker that decoded its request, as an axum or tonic
//! handler does: it must only await and compute for short whiles between awaits. Its timeout
//! answers Failure when it passes and the handler's future is dropped at its next `.await`;
//! a panic is answered Failure too. A handler that blocks its thread (a synchronous client,
//! `std::fs`, `std::thread::sleep`, seconds of computation) stalls that worker, and every
//! request the worker serves, until it returns, and its timeout cannot fire before then: such
//! a handler must be registered with [`HandlerOptions::blocking`]. It then runs on a thread of
//! tokio's blocking pool of its own, where it delays only itself and its timeout answers on
//! time; when the timeout passes while it is inside a synchronous call, it runs on, detached,
//! until that call returns (it keeps its slot among the requests in flight until then). The
//! hop to the pool costs two thread wake-ups and context switches per request, which on a
//! small machine is as much CPU as the TLS and HTTP work of a small hook.

use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use futures::FutureExt;
use futures::future::BoxFuture;
use http::{HeaderValue, StatusCode, header};
use tokio::time::Instant;

use super::context::{Call, Context, requested_timeout};
use super::failure::{Failed, FailureReason};
use super::intake::{Admitted, HeldSlot};
use super::metrics::EndpointMetrics;
use super::output::{HandlerFailure, HandlerOutput};
use super::variables::answer_body;
use crate::conversion::Unconverted;
use crate::hook::{Hook, HookOf, HookResponse, Message, RequestOf, ResponseOf};
use crate::hooks::v1alpha1::{Arrival, FailurePolicy, decode_request_with};
use crate::wire::DecodeErrorKind;

/// How a handler is advertised in Discovery (its name and the call options Cluster API should
/// use) and how the server runs it. `From<&str>` gives a handler with Cluster API's defaults
/// (10 s, `Fail`), run on the async runtime's workers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerOptions {
    pub(crate) name: String,
    pub(crate) timeout_seconds: Option<i32>,
    pub(crate) failure_policy: Option<FailurePolicy>,
    pub(crate) blocking: bool,
}

impl HandlerOptions {
    /// A handler named `name` (a DNS-1123 label, unique per hook within the server).
    pub fn new(name: impl Into<String>) -> Self {
        HandlerOptions {
            name: name.into(),
            timeout_seconds: None,
            failure_policy: None,
            blocking: false,
        }
    }

    /// Seconds Cluster API waits for an answer (0 to 30). The server also stops the handler
    /// after this long and answers Failure. Unset, Cluster API and the server use 10.
    pub fn timeout_seconds(mut self, seconds: i32) -> Self {
        self.timeout_seconds = Some(seconds);
        self
    }

    /// What Cluster API does when it cannot reach the handler. Unset, Cluster API uses `Fail`.
    pub fn failure_policy(mut self, policy: FailurePolicy) -> Self {
        self.failure_policy = Some(policy);
        self
    }

    /// Declares that the handler blocks its thread: it calls synchronous code (`std::fs`, a
    /// blocking client, `std::thread::sleep`, a mutex held across slow work) or computes for
    /// long (hundreds of milliseconds and more). The server then runs it on a thread of
    /// tokio's blocking pool of its own instead of the async worker that decoded its request,
    /// so it delays only itself and its timeout answers Failure on time, even while it is
    /// stuck in a synchronous call (it then runs on, detached, holding its slot among the
    /// requests in flight, until the call returns). Not advertised in Discovery.
    ///
    /// The hop costs two thread wake-ups and context switches per request. Handlers that only
    /// await (async clients, timers) and compute for milliseconds between awaits are better
    /// left on the worker, the default; a handler that blocks only now and then can instead
    /// wrap that part in [`tokio::task::spawn_blocking`] itself.
    pub fn blocking(mut self) -> Self {
        self.blocking = true;
        self
    }

    /// Formerly the opt-in to run on the async worker; that is now the default, so this does
    /// nothing. Use [`HandlerOptions::blocking`] for handlers that block their thread.
    ///
    /// Kept without a `#[deprecated]` attribute while the crate's version is not bumped: the
    /// public API check of the test command takes an added deprecation for a minor change,
    /// which an unbumped 0.1.0 must not make. The next minor release deprecates it.
    pub fn non_blocking(self) -> Self {
        self
    }

    /// The handler name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl From<&str> for HandlerOptions {
    fn from(name: &str) -> Self {
        HandlerOptions::new(name)
    }
}

impl From<String> for HandlerOptions {
    fn from(name: String) -> Self {
        HandlerOptions::new(name)
    }
}

/// A hook handler: an async function from a hook's request (and, optionally, the call's
/// [`Context`]) to its response, or to a `Result` whose error becomes a Failure response.
///
/// Implemented for every `Fn(R) -> impl Future<Output = O>` and every
/// `Fn(R, Context<S>) -> impl Future<Output = O>`, where `R` is a hook's request (a
/// [`RequestOf`] type, whose hook is the one the handler serves) and `O` is a
/// [`HandlerOutput`]: the hook's response itself, or `Result<response, E>` with `E: Display`
/// (a `String`, a `&'static str`, any error type), whose `Display` is the Failure message.
/// `T` carries the request type (and the state type of a handler with a `Context`), as axum's
/// handlers carry their extractors', so that the hook and the state are inferred from the
/// function's signature; `S` is [`Handler::State`], which must be the server's state type
/// ([`ServerBuilder::state`](super::ServerBuilder::state)) or `()`.
/// Closures need their argument types written out
/// (`|request: BeforeClusterCreateRequest| async { ... }`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a hook handler",
    note = "a handler is an async fn or closure taking a hook's request, and optionally a `Context<S>`, and returning the hook's response or `Result<response, E>` with `E: Display`",
    note = "closures need their argument types written out: `|request: XRequest, context: Context<S>| async move {{ .. }}`"
)]
pub trait Handler<T>: Send + Sync + 'static {
    /// The hook served: the one whose request the handler takes.
    type Hook: Hook;
    /// The state type its [`Context`] carries (`()` for a handler without one).
    type State: Send + Sync + 'static;

    /// Starts handling one request.
    fn call(
        &self,
        request: <Self::Hook as Hook>::Request,
        context: Context<Self::State>,
    ) -> BoxFuture<'static, Result<<Self::Hook as Hook>::Response, HandlerFailure>>;
}

/// Marks handlers that take the request alone.
#[derive(Debug)]
#[non_exhaustive]
pub struct RequestOnly;

/// Marks handlers that take the request and its [`Context`].
#[derive(Debug)]
#[non_exhaustive]
pub struct WithContext;

impl<R, F, Fut> Handler<(RequestOnly, R)> for F
where
    R: RequestOf,
    F: Fn(R) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: HandlerOutput<ResponseOf<R>>,
{
    type Hook = HookOf<R>;
    type State = ();

    fn call(
        &self,
        request: R,
        _context: Context<()>,
    ) -> BoxFuture<'static, Result<ResponseOf<R>, HandlerFailure>> {
        let future = self(request);
        Box::pin(async move { future.await.into_result() })
    }
}

impl<R, S, F, Fut> Handler<(WithContext, R, S)> for F
where
    R: RequestOf,
    S: Send + Sync + 'static,
    F: Fn(R, Context<S>) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: HandlerOutput<ResponseOf<R>>,
{
    type Hook = HookOf<R>;
    type State = S;

    fn call(
        &self,
        request: R,
        context: Context<S>,
    ) -> BoxFuture<'static, Result<ResponseOf<R>, HandlerFailure>> {
        let future = self(request, context);
        Box::pin(async move { future.await.into_result() })
    }
}

/// What a handler's future gives: its response, or the failure to answer with.
type Answer<R> = Result<R, HandlerFailure>;

/// A handler with the server's state bound in: it takes the call alone.
type BoxedHandler<H> = Arc<
    dyn Fn(<H as Hook>::Request, Call) -> BoxFuture<'static, Answer<<H as Hook>::Response>>
        + Send
        + Sync,
>;

/// A registered handler of hook `H` with its options.
pub(crate) struct Endpoint<H: Hook> {
    pub(crate) name: Arc<str>,
    pub(crate) timeout: Duration,
    pub(crate) metrics: EndpointMetrics,
    /// Runs the handler on a blocking-pool thread instead of the request's own task.
    blocking: bool,
    handler: BoxedHandler<H>,
    hook: PhantomData<fn() -> H>,
}

impl<H: Hook> Endpoint<H> {
    pub(crate) fn new<T, F: Handler<T, Hook = H>>(
        name: &str,
        timeout: Duration,
        metrics: EndpointMetrics,
        blocking: bool,
        state: Arc<F::State>,
        handler: F,
    ) -> Self {
        Endpoint {
            name: name.into(),
            timeout,
            metrics,
            blocking,
            handler: Arc::new(move |request, call| {
                handler.call(request, Context::new(call, state.clone()))
            }),
            hook: PhantomData,
        }
    }

    /// Answers one request. The answer is always HTTP 200 with a JSON response of the hook,
    /// except when the response cannot be serialized (500, as upstream).
    pub(crate) async fn serve(&self, request: Request) -> Response {
        let started = Instant::now();
        let outcome = self.process(request, started).await;
        respond::<H>(outcome, &self.metrics, started, &self.name)
    }

    async fn process(&self, request: Request, started: Instant) -> Result<H::Response, Failed> {
        let (mut parts, body) = request.into_parts();
        let slot = admitted(&mut parts)?;
        let requested = requested_timeout(parts.uri.query());
        let timeout = requested.map_or(self.timeout, |r| r.min(self.timeout));
        let deadline = started + timeout;
        let bytes = axum::body::to_bytes(body, usize::MAX)
            .await
            .map_err(|e| Failed {
                reason: FailureReason::Read,
                message: format!("error reading request: {e}"),
            })?;
        let (request, arrival) = decode_admitted::<H>(bytes, &slot, deadline, timeout).await?;
        release_body_bytes(&slot);
        let call = Call {
            handler_name: self.name.clone(),
            headers: Arc::new(parts.headers),
            requested_timeout: requested,
            deadline,
            arrival: Arc::new(arrival),
        };
        // A handler may do work, and panic, before it returns its future.
        let future =
            match std::panic::catch_unwind(AssertUnwindSafe(|| (self.handler)(request, call))) {
                Ok(future) => future,
                Err(panic) => return Err(self.panicked(panic_text(panic.as_ref()))),
            };
        let outcome = if self.blocking {
            run_detached(future, deadline, slot).await
        } else {
            run_inline(future, deadline, slot).await
        };
        match outcome {
            Outcome::Answered(Ok(response)) => Ok(response),
            // The message is written here, outside the handler's guard: a `Display` that
            // panics is answered as the handler's panic, not left to unwind into the server.
            Outcome::Answered(Err(failure)) => {
                match std::panic::catch_unwind(AssertUnwindSafe(|| failure.to_string())) {
                    Ok(message) => Err(Failed {
                        reason: FailureReason::Handler,
                        message,
                    }),
                    Err(panic) => Err(self.panicked(panic_text(panic.as_ref()))),
                }
            }
            Outcome::Panicked(text) => Err(self.panicked(text)),
            Outcome::TimedOut => Err(Failed {
                reason: FailureReason::Timeout,
                message: format!(
                    "handler \"{}\" did not answer within {}",
                    self.name,
                    seconds(timeout)
                ),
            }),
        }
    }
}

impl<H: Hook> Endpoint<H> {
    fn panicked(&self, text: String) -> Failed {
        Failed {
            reason: FailureReason::Panic,
            message: format!("handler \"{}\" panicked: {text}", self.name),
        }
    }
}

/// `10s`, `1.5s`: how a timeout is named in messages.
fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

/// Takes what admission found out of the request: what it holds, or the refusal.
pub(crate) fn admitted(parts: &mut http::request::Parts) -> Result<HeldSlot, Failed> {
    match parts.extensions.remove::<Admitted>() {
        Some(Admitted::Ready(held)) => Ok(Some(held)),
        Some(Admitted::Refused(refusal)) => Err(refusal.into()),
        // Served without the admission layer (a caller's own router): nothing to hold.
        None => Ok(None),
    }
}

/// Gives the body's bytes back to the budget once it is decoded.
pub(crate) fn release_body_bytes(held: &HeldSlot) {
    if let Some(Ok(mut held)) = held.as_ref().map(|h| h.lock()) {
        held.bytes = None;
    }
}

/// Decodes a request body of hook `H` with the wire codec: Go's rules, within the default
/// memory budget and nesting limit, within the server's shared decode budget (a body past
/// them is a Failure like any other that does not decode) and before `deadline` (the
/// request's; past it, the answer is the timeout's Failure). A body of
/// [`Limits::offload_decode_bytes`](super::Limits::offload_decode_bytes) or more is decoded on
/// one of the server's decoding threads (tokio's blocking pool when served without the
/// admission layer), so that the worker goes on serving other requests meanwhile; the answer
/// then comes at the deadline at the latest, even while every decoding thread is busy. What
/// the request took of the shared budget (see `intake`) stays with `held`, so it is given back
/// with the request's slot when its work is over, whichever way its handler runs.
pub(crate) async fn decode_admitted<H: Hook>(
    bytes: Bytes,
    held: &HeldSlot,
    deadline: Instant,
    timeout: Duration,
) -> Result<(H::Request, Arrival), Failed> {
    let (threshold, decoders) = super::intake::offload(held);
    if bytes.len() < threshold {
        return decode_now::<H>(&bytes, held, deadline, timeout);
    }
    let task_held = held.clone();
    let decode = move || decode_now::<H>(&bytes, &task_held, deadline, timeout);
    let decoded = async move {
        match decoders {
            Some(decoders) => decoders.run(decode).await.map_err(|e| e.to_string()),
            None => tokio::task::spawn_blocking(decode)
                .await
                .map_err(|e| e.to_string()),
        }
    };
    match tokio::time::timeout_at(deadline, decoded).await {
        Ok(Ok(decoded)) => decoded,
        // The codec does not panic on any input; should it, the request fails, not the server.
        Ok(Err(why)) => Err(Failed {
            reason: FailureReason::Decode,
            message: format!("error unmarshalling request: the decoder failed: {why}"),
        }),
        // The decoding stops by itself at the deadline (or has not started yet, and then
        // never will); what it took is given back when it does, with the slot its job still
        // holds.
        Err(_) => Err(decode_timeout(timeout, "it was still being decoded")),
    }
}

/// [`decode_admitted`] on the calling thread.
fn decode_now<H: Hook>(
    bytes: &[u8],
    held: &HeldSlot,
    deadline: Instant,
    timeout: Duration,
) -> Result<(H::Request, Arrival), Failed> {
    let limits = super::intake::decode_limits(held, deadline.into_std());
    // A lifecycle request from Cluster API v1.12 embeds a v1beta1 Cluster: it is converted to
    // the v1beta2 view here, and the arrival says so.
    let (decoded, arrival) = decode_request_with::<H>(bytes, &limits).map_err(|e| {
        if e.kind() == DecodeErrorKind::Timeout {
            decode_timeout(timeout, &e.to_string())
        } else {
            Failed {
                reason: FailureReason::Decode,
                message: format!("error unmarshalling request: {e}"),
            }
        }
    })?;
    super::intake::keep_hold(held, decoded.hold);
    check_type_meta::<H>(&decoded.message)?;
    // What a handler could miss at warning level; what a v1.12 manager writes every time and
    // means nothing more in v1beta2 (a reference's namespace and API version) at debug level.
    let (routine, notable): (Vec<&Unconverted>, Vec<&Unconverted>) =
        arrival.unconverted().iter().partition(|u| u.is_routine());
    let paths = |list: Vec<&Unconverted>| list.iter().map(|u| u.to_string()).collect::<Vec<_>>();
    if !notable.is_empty() {
        tracing::warn!(
            hook = H::NAME,
            unconverted = ?paths(notable),
            "the request's v1beta1 Cluster has values the v1beta2 view cannot hold"
        );
    }
    if !routine.is_empty() {
        tracing::debug!(
            hook = H::NAME,
            unconverted = ?paths(routine),
            "the request's v1beta1 Cluster has values the v1beta2 view implies"
        );
    }
    Ok((decoded.message, arrival))
}

/// The answer to a request whose deadline passed before its body was decoded.
fn decode_timeout(timeout: Duration, why: &str) -> Failed {
    Failed {
        reason: FailureReason::Timeout,
        message: format!(
            "the request was not decoded within its timeout of {}: {why}",
            seconds(timeout)
        ),
    }
}

/// Turns the outcome of a request into the HTTP answer, logging and counting it.
pub(crate) fn respond<H: Hook>(
    outcome: Result<H::Response, Failed>,
    metrics: &EndpointMetrics,
    started: Instant,
    handler: &str,
) -> Response {
    let mut response = match outcome {
        Ok(response) => {
            tracing::debug!(hook = H::NAME, handler, "handled hook request");
            metrics.record_success();
            response
        }
        Err(failed) => {
            tracing::warn!(
                hook = H::NAME,
                handler,
                reason = failed.reason.as_str(),
                message = %failed.message,
                "answering hook request with Failure"
            );
            metrics.record_failure(failed.reason);
            H::Response::failure(failed.message)
        }
    };
    // Upstream leaves the type metadata empty; filling it in is harmless and lets a reader of
    // the body tell what it is.
    response.set_type_meta(H::API_VERSION, H::RESPONSE_KIND);
    let answer = json_response(&response);
    metrics.observe_duration(started.elapsed());
    answer
}

/// How a handler run ended.
enum Outcome<R> {
    Answered(Answer<R>),
    Panicked(String),
    TimedOut,
}

/// Runs `future` on a blocking-pool thread of its own until `deadline`, for handlers declared
/// blocking. The slot is released
/// when the handler's work is over, not when the answer goes out.
async fn run_detached<R: Send + 'static>(
    future: BoxFuture<'static, Answer<R>>,
    deadline: Instant,
    slot: HeldSlot,
) -> Outcome<R> {
    let (cancel, cancelled) = tokio::sync::oneshot::channel::<()>();
    let runtime = tokio::runtime::Handle::current();
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        runtime.block_on(async move {
            tokio::select! {
                biased;
                // Sent on timeout, or dropped when the caller went away.
                _ = cancelled => None,
                outcome = AssertUnwindSafe(future).catch_unwind() => Some(outcome),
            }
        })
    });
    match tokio::time::timeout_at(deadline, task).await {
        Ok(Ok(Some(Ok(answer)))) => Outcome::Answered(answer),
        Ok(Ok(Some(Err(panic)))) => Outcome::Panicked(panic_text(panic.as_ref())),
        Ok(Ok(None)) => Outcome::TimedOut,
        Ok(Err(join)) => match join.try_into_panic() {
            Ok(panic) => Outcome::Panicked(panic_text(panic.as_ref())),
            Err(e) => Outcome::Panicked(e.to_string()),
        },
        Err(_) => {
            let _ = cancel.send(());
            Outcome::TimedOut
        }
    }
}

/// Runs `future` on the calling task until `deadline` (the default). The slot is released
/// when the future completes or is dropped on timeout. A future that blocks its thread is
/// stopped only at its next `.await`.
async fn run_inline<R>(
    future: BoxFuture<'static, Answer<R>>,
    deadline: Instant,
    slot: HeldSlot,
) -> Outcome<R> {
    let _slot = slot;
    match tokio::time::timeout_at(deadline, AssertUnwindSafe(future).catch_unwind()).await {
        Ok(Ok(answer)) => Outcome::Answered(answer),
        Ok(Err(panic)) => Outcome::Panicked(panic_text(panic.as_ref())),
        Err(_) => Outcome::TimedOut,
    }
}

/// Absent type metadata is accepted (upstream does not look at it); present metadata must name
/// the hook's request.
fn check_type_meta<H: Hook>(request: &H::Request) -> Result<(), Failed> {
    let api_version = request.api_version();
    let kind = request.kind();
    let api_version_ok = api_version.is_empty() || api_version == H::API_VERSION;
    let kind_ok = kind.is_empty() || kind == H::REQUEST_KIND;
    if api_version_ok && kind_ok {
        return Ok(());
    }
    Err(Failed {
        reason: FailureReason::TypeMeta,
        message: format!(
            "unexpected request type: apiVersion \"{api_version}\", kind \"{kind}\"; this handler \
             serves apiVersion \"{}\", kind \"{}\"",
            H::API_VERSION,
            H::REQUEST_KIND
        ),
    })
}

fn panic_text(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

/// A 200 response with the JSON body of `message` (as [`answer_body`] writes it), or 500
/// when it cannot be serialized.
pub(crate) fn json_response<M: Message>(message: &M) -> Response {
    match answer_body(message) {
        Ok(body) => json_bytes_response(body),
        Err(e) => {
            tracing::error!(error = %e, "unable to marshal hook response");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("unable to marshal response: {e}"),
            )
                .into_response()
        }
    }
}

/// A 200 response with an already serialized JSON body.
pub(crate) fn json_bytes_response(body: impl Into<Body>) -> Response {
    let mut response = Response::new(body.into());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::v1alpha1::GeneratePatches;
    use crate::server::decoders::{Busy, Decoders};
    use crate::server::intake::{DEFAULT_MAX_DECODE_BYTES, Held};
    use crate::wire::SharedBudget;

    /// What an admitted request holds, with every body decoded on `decoders`.
    fn held(decoders: &Decoders) -> HeldSlot {
        Some(Arc::new(std::sync::Mutex::new(Held {
            slot: None,
            bytes: None,
            decode: SharedBudget::new(DEFAULT_MAX_DECODE_BYTES),
            decoded: None,
            offload_decode_bytes: 0,
            decoders: decoders.clone(),
        })))
    }

    #[tokio::test]
    async fn a_body_waiting_for_a_decoding_thread_is_answered_at_its_deadline() {
        let decoders = Decoders::new(1);
        // The one decoding thread is busy until released.
        let busy = Busy::hold(&decoders).await;
        let body = Bytes::from_static(br#"{"items":[]}"#);
        let timeout = Duration::from_millis(50);
        let failed = decode_admitted::<GeneratePatches>(
            body.clone(),
            &held(&decoders),
            Instant::now() + timeout,
            timeout,
        )
        .await
        .unwrap_err();
        assert_eq!(failed.reason, FailureReason::Timeout);
        assert_eq!(
            failed.message,
            "the request was not decoded within its timeout of 0.05s: it was still being decoded"
        );
        busy.release().await;
        // With the thread free again, the same body decodes there.
        let timeout = Duration::from_secs(30);
        let decoded = decode_admitted::<GeneratePatches>(
            body,
            &held(&decoders),
            Instant::now() + timeout,
            timeout,
        )
        .await;
        assert!(decoded.is_ok_and(|(request, _)| request.items.is_empty()));
    }
}
