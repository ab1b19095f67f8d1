//! What a handler may know about the call besides the request: [`Context`].

use std::sync::Arc;
use std::time::Duration;

use http::HeaderMap;
use tokio::time::Instant;

/// The call a request arrived with: the handler it was routed to, its HTTP headers, the
/// timeout the caller asked for and the deadline the server answers by.
///
/// Take it as a second argument of a handler (`async fn(Request, Context)`); handlers that do
/// not need it take the request alone. Cloning is cheap.
#[derive(Clone, Debug)]
pub struct Context {
    handler_name: Arc<str>,
    headers: Arc<HeaderMap>,
    requested_timeout: Option<Duration>,
    deadline: Instant,
}

impl Context {
    pub(crate) fn new(
        handler_name: Arc<str>,
        headers: HeaderMap,
        requested_timeout: Option<Duration>,
        deadline: Instant,
    ) -> Context {
        Context {
            handler_name,
            headers: Arc::new(headers),
            requested_timeout,
            deadline,
        }
    }

    /// The handler name the request was routed to.
    pub fn handler_name(&self) -> &str {
        &self.handler_name
    }

    /// The request's HTTP headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The timeout the caller sent as the `timeout` query parameter (Cluster API sends the
    /// handler's `timeoutSeconds`, e.g. `?timeout=10s`), if it sent a valid one.
    pub fn requested_timeout(&self) -> Option<Duration> {
        self.requested_timeout
    }

    /// When the server stops waiting for the handler and answers Failure: the earlier of the
    /// handler's own timeout and the caller's, counted from when the request arrived.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// The time left until [`deadline`](Context::deadline) (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// The `timeout` query parameter of a request, read as a Go duration (`10s`, `1m30s`,
/// `1.5s`, `500ms`). Absent, unparsable, zero or negative values give `None`.
pub(crate) fn requested_timeout(query: Option<&str>) -> Option<Duration> {
    let query = query?;
    let value = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "timeout")
        .map(|(_, value)| value)?;
    parse_go_duration(value).filter(|d| !d.is_zero())
}

/// Parses a Go `time.Duration` string without a sign: one or more `<decimal><unit>` parts,
/// units `ns`, `us` (or `µs`), `ms`, `s`, `m`, `h`.
pub(crate) fn parse_go_duration(text: &str) -> Option<Duration> {
    // A percent-encoded `µ` is the only escape a Go caller produces here.
    let text = text.replace("%C2%B5", "µ");
    let mut rest = text.as_str();
    if rest.is_empty() || rest == "0" {
        return (rest == "0").then_some(Duration::ZERO);
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(number_len);
        if number.is_empty() || number == "." {
            return None;
        }
        let value: f64 = number.parse().ok()?;
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_len);
        let seconds_per_unit = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        total += value * seconds_per_unit;
        rest = tail;
    }
    Duration::try_from_secs_f64(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_parse_as_go_writes_them() {
        let cases = [
            ("10s", Some(Duration::from_secs(10))),
            ("1m30s", Some(Duration::from_secs(90))),
            ("1h0m0s", Some(Duration::from_secs(3600))),
            ("1.5s", Some(Duration::from_millis(1500))),
            ("500ms", Some(Duration::from_millis(500))),
            ("250us", Some(Duration::from_micros(250))),
            ("250µs", Some(Duration::from_micros(250))),
            ("0", Some(Duration::ZERO)),
            ("", None),
            ("10", None),
            ("-1s", None),
            ("1x", None),
            ("s", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_go_duration(text), expected, "{text}");
        }
    }

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
        assert_eq!(requested_timeout(Some("timeout=soon")), None);
        assert_eq!(requested_timeout(None), None);
    }
}
