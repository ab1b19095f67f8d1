//! Admission of requests before routing: a slot among the requests being answered at once,
//! then the body, read within its cap and its deadline.
//!
//! Every request body is read here, before routing, for two reasons. A connection whose
//! request body was left unread cannot carry the next request, so answers that ignore the body
//! (404, 405) would otherwise break a keep-alive client; and an answer sent while the caller is
//! still uploading reaches it as a broken pipe (HTTP/1.1) or a reset stream (HTTP/2), which
//! Cluster API counts as "unreachable" and an `Ignore` policy would swallow. So a body over the
//! cap is read on and thrown away (up to [`DISCARD_LIMIT`] more bytes, within the body
//! deadline) before the Failure answer goes out; past that the answer says so and the
//! connection is closed.
//!
//! POST requests first wait for a slot (at most [`Limits::max_in_flight`] requests read,
//! decode or run at once); one that gets none within [`Limits::queue_timeout`] is answered
//! Failure ("server busy") without its body being kept. The slot is held until the handler's
//! work is over, also when the answer has gone out on a timeout and the handler runs on.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use bytes::BytesMut;
use http::Method;
use http_body_util::BodyExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::handler::FailureReason;

/// The largest request body the server reads: 20 MiB, as upstream.
pub const MAX_REQUEST_BODY_BYTES: usize = 20 << 20;

/// How many bytes past the cap are read and discarded so that an over-cap caller still
/// receives its answer.
pub const DISCARD_LIMIT: usize = 64 << 20;

/// Limits on the requests a server takes on; see [`ServerBuilder::limits`](super::ServerBuilder::limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// How many requests may be read, decoded or handled at once (16 by default).
    pub max_in_flight: usize,
    /// How long a request waits for a slot before it is answered "server busy" (5 s).
    pub queue_timeout: Duration,
    /// How long reading a request body may take, from its head to its last byte (30 s).
    pub body_timeout: Duration,
    /// The largest request body that is decoded ([`MAX_REQUEST_BODY_BYTES`]).
    pub max_body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_in_flight: 16,
            queue_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(30),
            max_body_bytes: MAX_REQUEST_BODY_BYTES,
        }
    }
}

impl Limits {
    /// Sets how many requests may be worked on at once (at least 1).
    pub fn max_in_flight(mut self, n: usize) -> Self {
        self.max_in_flight = n.max(1);
        self
    }

    /// Sets how long a request waits for a slot.
    pub fn queue_timeout(mut self, timeout: Duration) -> Self {
        self.queue_timeout = timeout;
        self
    }

    /// Sets the body-read deadline.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// Sets the body cap.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }
}

/// The admission state of one server.
#[derive(Clone, Debug)]
pub(crate) struct Intake {
    slots: Arc<Semaphore>,
    limits: Limits,
}

/// What admission found, handed on in the request's extensions.
#[derive(Clone, Debug)]
pub(crate) enum Admitted {
    /// The body is the request's; the slot (none for GET) is held until the work is done.
    Ready(Option<Arc<OwnedSemaphorePermit>>),
    /// The request is answered Failure without reaching a handler.
    Refused(Refusal),
}

/// Why a request was refused at admission.
#[derive(Clone, Debug)]
pub(crate) struct Refusal {
    pub(crate) reason: FailureReason,
    pub(crate) message: String,
    /// The body was not read to its end: the connection must not carry another request.
    pub(crate) close: bool,
}

impl Intake {
    pub(crate) fn new(limits: Limits) -> Intake {
        Intake {
            slots: Arc::new(Semaphore::new(limits.max_in_flight)),
            limits,
        }
    }
}

/// The admission middleware.
pub(crate) async fn admit(State(intake): State<Intake>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let limits = intake.limits;
    // Probes and metrics (GET) are never queued behind hook requests.
    let slot = if parts.method == Method::POST {
        let waited =
            tokio::time::timeout(limits.queue_timeout, intake.slots.clone().acquire_owned()).await;
        match waited {
            Ok(Ok(permit)) => Some(Some(permit)),
            // The semaphore is never closed; a closed one is as good as a full one.
            Ok(Err(_)) | Err(_) => None,
        }
    } else {
        Some(None)
    };
    let keep = if slot.is_some() {
        limits.max_body_bytes
    } else {
        0
    };
    let read = tokio::time::timeout(limits.body_timeout, read_body(body, keep)).await;
    let refused = |reason, message, close| {
        Admitted::Refused(Refusal {
            reason,
            message,
            close,
        })
    };
    let (bytes, admitted) = match (slot, read) {
        (None, read) => {
            // Busy: the body was only read to be thrown away.
            let drained = matches!(
                read,
                Ok(Ok(_)) | Ok(Err(BodyError::TooLarge { drained: true }))
            );
            let message = format!(
                "server busy: {} requests are being answered and no slot came free within {:?}",
                limits.max_in_flight, limits.queue_timeout
            );
            (
                Bytes::new(),
                refused(FailureReason::Busy, message, !drained),
            )
        }
        (Some(permit), Ok(Ok(bytes))) => (bytes, Admitted::Ready(permit.map(Arc::new))),
        (Some(_), Ok(Err(BodyError::TooLarge { drained }))) => {
            let message = format!(
                "error reading request: request body is larger than {} bytes",
                limits.max_body_bytes
            );
            (
                Bytes::new(),
                refused(FailureReason::Read, message, !drained),
            )
        }
        (Some(_), Ok(Err(BodyError::Transport(e)))) => {
            let message = format!("error reading request: {e}");
            (Bytes::new(), refused(FailureReason::Read, message, true))
        }
        (Some(_), Err(_)) => {
            let message = format!(
                "error reading request: the body did not arrive within {:?}",
                limits.body_timeout
            );
            (Bytes::new(), refused(FailureReason::Read, message, true))
        }
    };
    let close = matches!(admitted, Admitted::Refused(Refusal { close: true, .. }));
    parts.extensions.insert(admitted);
    let mut response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if close {
        response.headers_mut().insert(
            http::header::CONNECTION,
            http::HeaderValue::from_static("close"),
        );
    }
    response
}

enum BodyError {
    TooLarge { drained: bool },
    Transport(axum::Error),
}

/// Reads a body, keeping at most `keep` bytes; a longer body is read on and discarded up to
/// [`DISCARD_LIMIT`] bytes past `keep`.
async fn read_body(mut body: Body, keep: usize) -> Result<Bytes, BodyError> {
    let mut kept = BytesMut::new();
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(BodyError::Transport)?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total = total.saturating_add(data.len());
        if total <= keep {
            kept.extend_from_slice(&data);
        } else {
            if !kept.is_empty() {
                kept = BytesMut::new();
            }
            if total > keep.saturating_add(DISCARD_LIMIT) {
                return Err(BodyError::TooLarge { drained: false });
            }
        }
    }
    if total > keep {
        return Err(BodyError::TooLarge { drained: true });
    }
    Ok(kept.freeze())
}
