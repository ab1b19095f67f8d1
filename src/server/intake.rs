//! Admission of requests before routing: the body, read within its cap, its deadline and the
//! server's byte budget, then a slot among the requests being decoded and handled at once.
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
//! Memory: the bytes of all bodies being read or waiting to be decoded are charged to one
//! budget ([`Limits::max_buffered_bytes`]); a body that cannot get its bytes within
//! [`Limits::queue_timeout`] is refused ("server busy"). A stalled upload holds only what it
//! sent, and only until the body deadline. Once read, a POST waits for a slot (at most
//! [`Limits::max_in_flight`] requests decode or run at once) for the same queue timeout. The
//! slot is held until the handler's work is over, also when the answer has gone out on a
//! timeout and the handler runs on.
//!
//! What the bodies decode into is charged as well: besides each message's own budget (the
//! wire codec's, 256 MiB), every request of one server decodes within one shared budget
//! ([`Limits::max_decode_bytes`], 512 MiB by default), so 16 hostile requests decoding at
//! once cannot take 16 × 256 MiB. A request whose decoding finds the shared budget used up is
//! answered at once (200 + Failure naming the shared budget), never left waiting; what a
//! decoded request took is given back when its work is over, with its slot.

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

use super::decoders::Decoders;
use super::failure::{FailureReason, Refusal};
use crate::wire::{self, BudgetHold, SharedBudget};

/// The largest request body the server reads: 20 MiB, as upstream.
pub const MAX_REQUEST_BODY_BYTES: usize = 20 << 20;

/// How many bytes past the cap are read and discarded so that an over-cap caller still
/// receives its answer.
pub const DISCARD_LIMIT: usize = 64 << 20;

/// Limits on the requests a server takes on; see
/// [`ServerBuilder::limits`](super::ServerBuilder::limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// How many requests may be decoded or handled at once (16 by default).
    pub max_in_flight: usize,
    /// How many body bytes all requests together may hold while being read or waiting to be
    /// decoded (128 MiB by default).
    pub max_buffered_bytes: usize,
    /// How long a request waits for body bytes or a slot before it is answered "server busy"
    /// (5 s).
    pub queue_timeout: Duration,
    /// How long reading a request body may take, from its head to its last byte (30 s).
    pub body_timeout: Duration,
    /// The largest request body that is decoded ([`MAX_REQUEST_BODY_BYTES`]).
    pub max_body_bytes: usize,
    /// How many bytes the requests being decoded and handled at once may decode into, all
    /// together, as the wire codec charges them ([`DEFAULT_MAX_DECODE_BYTES`]).
    pub max_decode_bytes: usize,
    /// Bodies of this many bytes and more are decoded on the server's decoding threads
    /// instead of the async worker that read them, so that a long decoding does not hold up
    /// the other requests of that worker ([`DEFAULT_OFFLOAD_DECODE_BYTES`]). Smaller ones
    /// decode in place: the hop to a thread and back costs more than they take. The server has
    /// as many decoding threads as the machine has cores
    /// ([`std::thread::available_parallelism`]), started with the first such body; the other
    /// bodies wait their turn (within their deadline): decoding is all CPU, so more at once
    /// would only hold more decoded requests in memory, each on a thread (and an allocator
    /// arena) of its own.
    pub offload_decode_bytes: usize,
}

/// The default of [`Limits::max_decode_bytes`]: 512 MiB, two messages at the codec's
/// per-message budget.
pub const DEFAULT_MAX_DECODE_BYTES: usize = 512 << 20;

/// The default of [`Limits::offload_decode_bytes`]: 1 MiB, about 1.5 ms of decoding for a
/// realistic GeneratePatches request. Below it, the hop to a decoding thread costs more than
/// the wait it spares the worker's other requests: measured with 406 KB GeneratePatches
/// requests, decoding them on the decoding threads took a fifth more CPU per request and
/// nearly twice the peak memory of decoding them in place (see `docs/benchmarks/history.md`).
pub const DEFAULT_OFFLOAD_DECODE_BYTES: usize = 1 << 20;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_in_flight: 16,
            max_buffered_bytes: 128 << 20,
            queue_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(30),
            max_body_bytes: MAX_REQUEST_BODY_BYTES,
            max_decode_bytes: DEFAULT_MAX_DECODE_BYTES,
            offload_decode_bytes: DEFAULT_OFFLOAD_DECODE_BYTES,
        }
    }
}

impl Limits {
    /// Sets how many requests may be decoded or handled at once (at least 1).
    pub fn max_in_flight(mut self, n: usize) -> Self {
        self.max_in_flight = n.max(1);
        self
    }

    /// Sets the byte budget of bodies being read (at least one full body).
    pub fn max_buffered_bytes(mut self, bytes: usize) -> Self {
        self.max_buffered_bytes = bytes;
        self
    }

    /// Sets how long a request waits for body bytes or a slot.
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

    /// Sets the decode budget shared by the requests decoded and handled at once.
    pub fn max_decode_bytes(mut self, bytes: usize) -> Self {
        self.max_decode_bytes = bytes;
        self
    }

    /// Sets the body size from which requests are decoded on the server's decoding threads
    /// (0: every body; `usize::MAX`: none).
    pub fn offload_decode_bytes(mut self, bytes: usize) -> Self {
        self.offload_decode_bytes = bytes;
        self
    }
}

/// The admission state of one server.
#[derive(Clone, Debug)]
pub(crate) struct Intake {
    slots: Arc<Semaphore>,
    budget: Arc<Semaphore>,
    decode: SharedBudget,
    /// Where bodies of [`Limits::offload_decode_bytes`] and more are decoded.
    decoders: Decoders,
    limits: Limits,
}

/// What admission found, handed on in the request's extensions.
#[derive(Clone, Debug)]
pub(crate) enum Admitted {
    /// The body is the request's; what it holds (a slot for POST, its body bytes) is released
    /// when the work is done.
    Ready(Arc<std::sync::Mutex<Held>>),
    /// The request is answered Failure without reaching a handler.
    Refused(Refusal),
}

/// What an admitted request holds.
#[derive(Debug)]
pub(crate) struct Held {
    /// The slot among requests decoded or handled at once (POST only); held, never read.
    #[allow(dead_code)]
    pub(crate) slot: Option<OwnedSemaphorePermit>,
    /// The body's share of the byte budget; released once the body is decoded.
    pub(crate) bytes: Option<OwnedSemaphorePermit>,
    /// The server's decode budget, for the decoding of this request.
    pub(crate) decode: SharedBudget,
    /// What the decoded request took of it; held, never read.
    #[allow(dead_code)]
    pub(crate) decoded: Option<BudgetHold>,
    /// [`Limits::offload_decode_bytes`].
    pub(crate) offload_decode_bytes: usize,
    /// The server's decoding threads.
    pub(crate) decoders: Decoders,
}

/// What an admitted request holds, shared with the thread that runs its handler.
pub(crate) type HeldSlot = Option<Arc<std::sync::Mutex<Held>>>;

impl Intake {
    pub(crate) fn new(limits: Limits) -> Intake {
        let budget = limits.max_buffered_bytes.max(limits.max_body_bytes).max(1);
        Intake {
            slots: Arc::new(Semaphore::new(limits.max_in_flight)),
            budget: Arc::new(Semaphore::new(budget.min(Semaphore::MAX_PERMITS))),
            decode: SharedBudget::new(limits.max_decode_bytes),
            decoders: Decoders::new(std::thread::available_parallelism().map_or(1, usize::from)),
            limits,
        }
    }

    fn busy(&self, what: &str) -> String {
        format!(
            "server busy: no {what} came free within {:?}",
            self.limits.queue_timeout
        )
    }
}

/// The admission middleware.
pub(crate) async fn admit(State(intake): State<Intake>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let limits = intake.limits;
    let read = tokio::time::timeout(limits.body_timeout, read_body(&intake, body)).await;
    let refused = |reason, message, close| {
        Admitted::Refused(Refusal {
            reason,
            message,
            close,
        })
    };
    let (bytes, admitted) = match read {
        Ok(Ok((bytes, charge))) => {
            // Probes and metrics (GET) are never queued behind hook requests.
            let slot = if parts.method == Method::POST {
                let waited = tokio::time::timeout(
                    limits.queue_timeout,
                    intake.slots.clone().acquire_owned(),
                )
                .await;
                match waited {
                    Ok(Ok(permit)) => Some(Some(permit)),
                    // The semaphore is never closed; a closed one is as good as a full one.
                    Ok(Err(_)) | Err(_) => None,
                }
            } else {
                Some(None)
            };
            match slot {
                Some(slot) => (
                    bytes,
                    Admitted::Ready(Arc::new(std::sync::Mutex::new(Held {
                        slot,
                        bytes: charge,
                        decode: intake.decode.clone(),
                        decoded: None,
                        offload_decode_bytes: limits.offload_decode_bytes,
                        decoders: intake.decoders.clone(),
                    }))),
                ),
                None => (
                    Bytes::new(),
                    refused(
                        FailureReason::Busy,
                        format!(
                            "{} ({} requests are being answered)",
                            intake.busy("slot"),
                            limits.max_in_flight
                        ),
                        false,
                    ),
                ),
            }
        }
        Ok(Err(BodyError::TooLarge { drained })) => {
            let message = format!(
                "error reading request: request body is larger than {} bytes",
                limits.max_body_bytes
            );
            (
                Bytes::new(),
                refused(FailureReason::Read, message, !drained),
            )
        }
        Ok(Err(BodyError::Busy)) => {
            let message = format!(
                "{} (bodies being read hold {} bytes)",
                intake.busy("room for the request body"),
                limits.max_buffered_bytes
            );
            (Bytes::new(), refused(FailureReason::Busy, message, true))
        }
        Ok(Err(BodyError::Transport(e))) => {
            let message = format!("error reading request: {e}");
            (Bytes::new(), refused(FailureReason::Read, message, true))
        }
        Err(_) => {
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
    Busy,
    Transport(axum::Error),
}

/// Reads a body, charging its bytes to the budget; a body over the cap is read on and
/// discarded (uncharged) up to [`DISCARD_LIMIT`] bytes past the cap.
async fn read_body(
    intake: &Intake,
    mut body: Body,
) -> Result<(Bytes, Option<OwnedSemaphorePermit>), BodyError> {
    let keep = intake.limits.max_body_bytes;
    let mut kept = BytesMut::new();
    let mut charge: Option<OwnedSemaphorePermit> = None;
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(BodyError::Transport)?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total = total.saturating_add(data.len());
        if total <= keep {
            if !data.is_empty() {
                let permits = u32::try_from(data.len()).map_err(|_| BodyError::Busy)?;
                let more = intake.budget.clone().acquire_many_owned(permits);
                let more = tokio::time::timeout(intake.limits.queue_timeout, more)
                    .await
                    .map_err(|_| BodyError::Busy)?
                    .map_err(|_| BodyError::Busy)?;
                match &mut charge {
                    Some(held) => held.merge(more),
                    None => charge = Some(more),
                }
            }
            kept.extend_from_slice(&data);
        } else {
            if !kept.is_empty() {
                kept = BytesMut::new();
                charge = None;
            }
            if total > keep.saturating_add(DISCARD_LIMIT) {
                return Err(BodyError::TooLarge { drained: false });
            }
        }
    }
    if total > keep {
        return Err(BodyError::TooLarge { drained: true });
    }
    Ok((kept.freeze(), charge))
}

/// The wire limits an admitted request decodes within: the codec's defaults, the request's
/// deadline and the server's shared decode budget (none when served without the admission
/// layer).
pub(crate) fn decode_limits(held: &HeldSlot, deadline: std::time::Instant) -> wire::Limits {
    let shared = held
        .as_ref()
        .and_then(|h| h.lock().ok().map(|h| h.decode.clone()));
    let limits = wire::Limits::default().with_deadline(deadline);
    match shared {
        Some(shared) => limits.with_shared_budget(shared),
        None => limits,
    }
}

/// The body size from which an admitted request is decoded off the async workers (the default
/// when served without the admission layer), and the server's threads to do so (none without
/// it: then tokio's blocking pool).
pub(crate) fn offload(held: &HeldSlot) -> (usize, Option<Decoders>) {
    held.as_ref()
        .and_then(|h| {
            h.lock()
                .ok()
                .map(|h| (h.offload_decode_bytes, Some(h.decoders.clone())))
        })
        .unwrap_or((DEFAULT_OFFLOAD_DECODE_BYTES, None))
}

/// Keeps what the decoded request took of the shared budget until its work is over.
pub(crate) fn keep_hold(held: &HeldSlot, hold: BudgetHold) {
    if let Some(Ok(mut held)) = held.as_ref().map(|h| h.lock()) {
        held.decoded = Some(hold);
    }
}
