//! What a handler may know about the call besides the request: [`Context`], with the
//! server's shared state.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::conversion::Unconverted;
use crate::go::time::parse_duration;
use crate::go::url::query::parse_query;
use crate::hooks::v1alpha1::{Arrival, ClusterApiShape};
use http::HeaderMap;
use tokio::time::Instant;

/// What the server knows about one call before a handler sees it.
#[derive(Clone, Debug)]
pub(crate) struct Call {
    pub(crate) handler_name: Arc<str>,
    pub(crate) headers: Arc<HeaderMap>,
    pub(crate) requested_timeout: Option<Duration>,
    pub(crate) deadline: Instant,
    /// How the request arrived: the shape of its Cluster, what of it did not convert.
    pub(crate) arrival: Arc<Arrival>,
}

/// The call a request arrived with (the handler it was routed to, its HTTP headers, the timeout
/// the caller asked for, the deadline the server answers by) and the server's shared state.
///
/// Take it as a second argument of a handler (`async fn(Request, Context)`); handlers that do
/// not need it take the request alone. `S` is the type of the value given to
/// [`ServerBuilder::state`](super::ServerBuilder::state), `()` when there is none: a handler
/// that reads the state says its type in its signature (`context: Context<AppState>`), and only
/// a builder holding an `AppState` accepts it, so a missing or mistyped state is a compile
/// error, never a failed request. Cloning is cheap (the state is shared, not copied).
pub struct Context<S = ()> {
    call: Call,
    state: Arc<S>,
}

impl<S> Clone for Context<S> {
    fn clone(&self) -> Self {
        Context {
            call: self.call.clone(),
            state: self.state.clone(),
        }
    }
}

impl<S> fmt::Debug for Context<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("handler_name", &self.call.handler_name)
            .field("headers", &self.call.headers)
            .field("requested_timeout", &self.call.requested_timeout)
            .field("deadline", &self.call.deadline)
            .field("arrival", &self.call.arrival)
            .field("state", &std::any::type_name::<S>())
            .finish()
    }
}

impl<S> Context<S> {
    pub(crate) fn new(call: Call, state: Arc<S>) -> Context<S> {
        Context { call, state }
    }

    /// The value given to [`ServerBuilder::state`](super::ServerBuilder::state), shared by
    /// every call of every handler whose `Context` carries its type. Wrap what changes in a
    /// lock or an atomic, as with axum's `State`.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The handler name the request was routed to.
    pub fn handler_name(&self) -> &str {
        &self.call.handler_name
    }

    /// The request's HTTP headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.call.headers
    }

    /// The timeout the caller sent as the `timeout` query parameter (Cluster API sends the
    /// handler's `timeoutSeconds`, e.g. `?timeout=10s`), if it sent a valid one.
    pub fn requested_timeout(&self) -> Option<Duration> {
        self.call.requested_timeout
    }

    /// When the server stops waiting for the handler and answers Failure: the earlier of the
    /// handler's own timeout and the caller's, counted from when the request arrived.
    pub fn deadline(&self) -> Instant {
        self.call.deadline
    }

    /// The time left until [`deadline`](Context::deadline) (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        self.call.deadline.saturating_duration_since(Instant::now())
    }

    /// The API version the request's Cluster arrived in, for the nine lifecycle hooks:
    /// [`V1Beta1`](ClusterApiShape::V1Beta1) from Cluster API v1.12 and older (the request the
    /// handler sees holds it converted to v1beta2), [`V1Beta2`](ClusterApiShape::V1Beta2) from
    /// v1.13 and newer. `None` for the other hooks.
    pub fn cluster_api_shape(&self) -> Option<ClusterApiShape> {
        self.call.arrival.shape()
    }

    /// What of a v1beta1 Cluster the v1beta2 view has no place for (a topology's
    /// `rolloutAfter`, a reference's namespace, ...), with its path in the request; empty when
    /// everything converted. The server also logs these, at warning level.
    pub fn unconverted(&self) -> &[Unconverted] {
        self.call.arrival.unconverted()
    }
}

/// The `timeout` query parameter of a request, read as Cluster API's Go server reads it
/// (`r.URL.Query().Get("timeout")`, then `time.ParseDuration`): `10s`, `1m30s`, `1.5s`,
/// `500ms`, `1µs` (sent as `1%C2%B5s`). Absent, unparsable, zero or negative values give
/// `None`.
pub(crate) fn requested_timeout(query: Option<&str>) -> Option<Duration> {
    // Go's `URL.Query` drops the parse error and keeps the pairs it could decode.
    let (values, _) = parse_query(query?);
    let value = std::str::from_utf8(values.get("timeout")?).ok()?;
    parse_duration(value).ok().filter(|d| !d.is_zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeout_parameter_is_read_from_the_query() {
        assert_eq!(
            requested_timeout(Some("timeout=10s")),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            requested_timeout(Some("a=b&timeout=2s")),
            Some(Duration::from_secs(2))
        );
        assert_eq!(requested_timeout(Some("timeout=0s")), None);
        assert_eq!(requested_timeout(Some("timeout=-1s")), None);
        assert_eq!(requested_timeout(Some("timeout=soon")), None);
        assert_eq!(requested_timeout(Some("timeout=")), None);
        assert_eq!(requested_timeout(Some("other=1s")), None);
        assert_eq!(requested_timeout(None), None);
    }

    #[test]
    fn the_query_is_decoded_as_go_decodes_it() {
        let cases = [
            // Go's client writes µ percent-encoded.
            ("timeout=1%C2%B5s", Some(Duration::from_micros(1))),
            ("timeout=1.5%6ds", Some(Duration::from_micros(1500))),
            ("time%6Fut=2s", Some(Duration::from_secs(2))),
            // The first value counts.
            ("timeout=3s&timeout=4s", Some(Duration::from_secs(3))),
            // `+` is a space, which no duration holds.
            ("timeout=1s+", None),
            // Pairs Go cannot decode are dropped, and the next one counts.
            ("timeout=%zz&timeout=5s", Some(Duration::from_secs(5))),
            ("timeout=6s;x=1&timeout=7s", Some(Duration::from_secs(7))),
            ("timeout=1%", None),
        ];
        for (query, expected) in cases {
            assert_eq!(requested_timeout(Some(query)), expected, "{query}");
        }
    }
}
