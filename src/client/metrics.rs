//! Prometheus metrics of hook calls, with Cluster API's names, labels and buckets.
//!
//! * `capi_runtime_sdk_requests_total{code, host, group, version, hook, status}`: one per
//!   exchange that got as far as sending a request. `code` is the HTTP status, or `<error>`
//!   when no response arrived; `status` is the response's status, or `Unknown` when there is
//!   none (error, non-200, undecodable body) or it is not `Success` or `Failure` (Cluster API
//!   uses any non-empty value; bounding it keeps an extension from creating label values).
//! * `capi_runtime_sdk_request_duration_seconds{host, group, version, hook}`: the time of
//!   every exchange that got past URL construction.
//!
//! `group`, `version` and `hook` are the caller's hook, `host` includes the port when the URL
//! has one. Cluster API also exports a native histogram; the text format has no such thing.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use crate::catalog::HookId;

/// Histogram buckets, in seconds.
pub const DURATION_BUCKETS: [f64; 23] = [
    0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0,
    10.0, 15.0, 20.0, 30.0, 45.0, 60.0,
];

/// The `code` label when the round trip failed without a response.
pub const ERROR_CODE: &str = "<error>";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    code: String,
    host: String,
    group: String,
    version: String,
    hook: String,
    status: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DurationLabels {
    host: String,
    group: String,
    version: String,
    hook: String,
}

fn duration_histogram() -> Histogram {
    Histogram::new(DURATION_BUCKETS)
}

/// The client's metrics. Cheap to clone; clones record into the same families.
#[derive(Clone, Debug)]
pub struct Metrics {
    requests: Family<RequestLabels, Counter>,
    duration: Family<DurationLabels, Histogram, fn() -> Histogram>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            requests: Family::default(),
            duration: Family::new_with_constructor(duration_histogram),
        }
    }
}

impl Metrics {
    /// Metrics not yet registered anywhere.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers both families in `registry` (which should have no prefix of its own).
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "capi_runtime_sdk_requests",
            "Number of HTTP requests, partitioned by status code, host, hook and response status",
            self.requests.clone(),
        );
        registry.register(
            "capi_runtime_sdk_request_duration_seconds",
            "Request duration in seconds, broken down by hook and host",
            self.duration.clone(),
        );
    }

    /// Records the request counter: `code` is `None` when no response arrived.
    pub(crate) fn count(&self, gvh: &HookId, host: &str, code: Option<u16>, status: &str) {
        let status = crate::wire::parse_status(status).map_or("Unknown", |s| s.as_str());
        self.requests
            .get_or_create(&RequestLabels {
                code: code.map_or_else(|| ERROR_CODE.to_string(), |c| c.to_string()),
                host: host.to_string(),
                group: gvh.group.clone(),
                version: gvh.version.clone(),
                hook: gvh.hook.clone(),
                status: status.to_string(),
            })
            .inc();
    }

    /// Records the duration of one exchange.
    pub(crate) fn observe(&self, gvh: &HookId, host: &str, elapsed: Duration) {
        self.duration
            .get_or_create(&DurationLabels {
                host: host.to_string(),
                group: gvh.group.clone(),
                version: gvh.version.clone(),
                hook: gvh.hook.clone(),
            })
            .observe(elapsed.as_secs_f64());
    }
}
