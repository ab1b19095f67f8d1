//! One registered handler and what happens to each request it serves.
//!
//! Every problem with a request on a handler's path becomes HTTP 200 with a Failure response of
//! the hook's response type, because Cluster API treats any other status as "extension
//! unreachable", which an `Ignore` failure policy would silently swallow.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use futures::FutureExt;
use http::{HeaderValue, StatusCode, header};

use super::metrics::EndpointMetrics;
use crate::hook::{Hook, HookResponse, Message};
use crate::hooks::v1alpha1::FailurePolicy;

/// The largest request body the server reads: 20 MiB, as upstream.
pub const MAX_REQUEST_BODY_BYTES: usize = 20 << 20;

/// How a handler is advertised in Discovery: its name and the call options Cluster API should
/// use. `From<&str>` gives a handler with Cluster API's defaults (10 s, `Fail`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerOptions {
    pub(crate) name: String,
    pub(crate) timeout_seconds: Option<i32>,
    pub(crate) failure_policy: Option<FailurePolicy>,
}

impl HandlerOptions {
    /// A handler named `name` (a DNS-1123 label, unique per hook within the server).
    pub fn new(name: impl Into<String>) -> Self {
        HandlerOptions {
            name: name.into(),
            timeout_seconds: None,
            failure_policy: None,
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

/// Why a request was answered with Failure instead of reaching or leaving the handler normally.
/// The label value is what the failure metric records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FailureReason {
    /// The body could not be read, or was over the cap.
    Read,
    /// The body is not a JSON request of the hook.
    Decode,
    /// The body names another apiVersion or kind.
    TypeMeta,
    /// The handler returned an error.
    Handler,
    /// The handler panicked.
    Panic,
    /// The handler did not answer in time.
    Timeout,
}

impl FailureReason {
    pub(crate) const ALL: [FailureReason; 6] = [
        FailureReason::Read,
        FailureReason::Decode,
        FailureReason::TypeMeta,
        FailureReason::Handler,
        FailureReason::Panic,
        FailureReason::Timeout,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FailureReason::Read => "read",
            FailureReason::Decode => "decode",
            FailureReason::TypeMeta => "type_meta",
            FailureReason::Handler => "handler_error",
            FailureReason::Panic => "panic",
            FailureReason::Timeout => "timeout",
        }
    }
}

/// A failed request: the reason and the message the Failure response carries.
struct Failed {
    reason: FailureReason,
    message: String,
}

/// A registered handler of hook `H`: the author's function `F` with its options.
pub(crate) struct Endpoint<H, F> {
    pub(crate) name: String,
    pub(crate) timeout: Duration,
    pub(crate) metrics: EndpointMetrics,
    pub(crate) handler: F,
    pub(crate) hook: PhantomData<fn() -> H>,
}

impl<H, F, Fut, E> Endpoint<H, F>
where
    H: Hook,
    F: Fn(H::Request) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<H::Response, E>> + Send + 'static,
    E: fmt::Display + Send + 'static,
{
    /// Answers one request body. The answer is always HTTP 200 with a JSON response of the
    /// hook, except when the response cannot be serialized (500, as upstream).
    pub(crate) async fn serve(&self, body: Body) -> Response {
        let started = Instant::now();
        let mut response = match self.process(body).await {
            Ok(response) => {
                tracing::debug!(hook = H::NAME, handler = %self.name, "handled hook request");
                self.metrics.record_success();
                response
            }
            Err(failed) => {
                tracing::warn!(
                    hook = H::NAME,
                    handler = %self.name,
                    reason = failed.reason.as_str(),
                    message = %failed.message,
                    "answering hook request with Failure"
                );
                self.metrics.record_failure(failed.reason);
                H::Response::failure(failed.message)
            }
        };
        // Upstream leaves the type metadata empty; filling it in is harmless and lets a reader of
        // the body tell what it is.
        response.set_type_meta(H::API_VERSION, H::RESPONSE_KIND);
        let answer = json_response(&response);
        self.metrics.observe_duration(started.elapsed());
        answer
    }

    async fn process(&self, body: Body) -> Result<H::Response, Failed> {
        let bytes = axum::body::to_bytes(body, MAX_REQUEST_BODY_BYTES)
            .await
            .map_err(|e| Failed {
                reason: FailureReason::Read,
                message: format!("error reading request: {}", read_error_text(&e)),
            })?;
        // serde's derived structs also accept a JSON array of their fields in order; a hook
        // request is always an object, so anything else is refused before decoding.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(Failed {
                reason: FailureReason::Decode,
                message: "error unmarshalling request: the body is not a JSON object".to_string(),
            });
        }
        let request: H::Request = serde_json::from_slice(&bytes).map_err(|e| Failed {
            reason: FailureReason::Decode,
            message: format!("error unmarshalling request: {e}"),
        })?;
        check_type_meta::<H>(&request)?;
        // The call itself runs inside the guarded future, so a panic before the first await is
        // caught as well as one after it.
        let call = AssertUnwindSafe(async { (self.handler)(request).await }).catch_unwind();
        match tokio::time::timeout(self.timeout, call).await {
            Ok(Ok(Ok(response))) => Ok(response),
            Ok(Ok(Err(error))) => Err(Failed {
                reason: FailureReason::Handler,
                message: error.to_string(),
            }),
            Ok(Err(panic)) => Err(Failed {
                reason: FailureReason::Panic,
                message: format!(
                    "handler \"{}\" panicked: {}",
                    self.name,
                    panic_text(panic.as_ref())
                ),
            }),
            Err(_) => Err(Failed {
                reason: FailureReason::Timeout,
                message: format!(
                    "handler \"{}\" did not answer within {}s",
                    self.name,
                    self.timeout.as_secs()
                ),
            }),
        }
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

/// The text of a body-read error. A body over the cap surfaces as a length-limit error somewhere
/// in the source chain; name the cap then, since that is what the caller can act on.
fn read_error_text(error: &axum::Error) -> String {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return format!("request body is larger than {MAX_REQUEST_BODY_BYTES} bytes");
        }
        source = e.source();
    }
    error.to_string()
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

/// A 200 response with the JSON body of `message`, or 500 when it cannot be serialized.
pub(crate) fn json_response<M: Message>(message: &M) -> Response {
    match serde_json::to_vec(message) {
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
