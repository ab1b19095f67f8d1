//! Prometheus metrics of the extension server.
//!
//! No global state: a server records into the [`Metrics`] it was given (or into its own) and
//! serves the registry it was given (or its own). Label sets are resolved once per handler when
//! the server is built, so serving a request only bumps atomics.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use super::failure::FailureReason;

/// Prefix of every metric the server exports, the subsystem Cluster API uses for the Runtime SDK.
const PREFIX: &str = "capi_runtime_sdk_extension";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    hook: String,
    handler: String,
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FailureLabels {
    hook: String,
    handler: String,
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HandlerLabels {
    hook: String,
    handler: String,
}

/// The metric families of an extension server: requests by hook, handler and status,
/// Failure answers by reason, and durations. Cloning shares the families.
#[derive(Clone, Debug)]
pub struct Metrics {
    requests: Family<RequestLabels, Counter>,
    failures: Family<FailureLabels, Counter>,
    durations: Family<HandlerLabels, Histogram>,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// New, empty families, registered nowhere yet.
    pub fn new() -> Self {
        Metrics {
            requests: Family::default(),
            failures: Family::default(),
            durations: Family::new_with_constructor(new_duration_histogram as _),
        }
    }

    /// Registers the families into `registry` under the `capi_runtime_sdk_extension` prefix.
    pub fn register(&self, registry: &mut Registry) {
        let registry = registry.sub_registry_with_prefix(PREFIX);
        let (requests, failures, durations) = (
            self.requests.clone(),
            self.failures.clone(),
            self.durations.clone(),
        );
        registry.register(
            "requests",
            "Hook requests answered, by hook, handler and response status",
            requests,
        );
        registry.register(
            "request_failures",
            "Hook requests answered with Failure by the server itself or because the handler \
             failed, by reason",
            failures,
        );
        registry.register(
            "request_duration_seconds",
            "Time from receiving a hook request to having its response ready",
            durations,
        );
    }

    /// A registry holding only these families.
    pub(crate) fn own_registry(&self) -> Registry {
        let mut registry = Registry::default();
        self.register(&mut registry);
        registry
    }

    /// The handles one handler updates. `handler` is empty for Discovery.
    pub(crate) fn endpoint(&self, hook: &str, handler: &str) -> EndpointMetrics {
        let request = |status| {
            self.requests
                .get_or_create(&RequestLabels {
                    hook: hook.to_string(),
                    handler: handler.to_string(),
                    status,
                })
                .clone()
        };
        let failures = FailureReason::ALL.map(|reason| {
            self.failures
                .get_or_create(&FailureLabels {
                    hook: hook.to_string(),
                    handler: handler.to_string(),
                    reason: reason.as_str(),
                })
                .clone()
        });
        let duration = self
            .durations
            .get_or_create(&HandlerLabels {
                hook: hook.to_string(),
                handler: handler.to_string(),
            })
            .clone();
        EndpointMetrics {
            success: request(crate::hook::ResponseStatus::Success.as_str()),
            failure: request(crate::hook::ResponseStatus::Failure.as_str()),
            failures: Arc::new(failures),
            duration,
        }
    }
}

/// `registry` in the Prometheus text exposition format.
pub(crate) fn encode_registry(registry: &Registry) -> String {
    let mut out = String::new();
    encode(&mut out, registry).expect("writing to a String cannot fail");
    out
}

fn new_duration_histogram() -> Histogram {
    // From 1 ms to about 33 s: hook answers are bounded by the 30 s maximum handler timeout.
    Histogram::new(prometheus_client::metrics::histogram::exponential_buckets(
        0.001, 2.0, 16,
    ))
}

/// The metric handles of one handler.
#[derive(Clone)]
pub(crate) struct EndpointMetrics {
    success: Counter,
    failure: Counter,
    failures: Arc<[Counter; FailureReason::ALL.len()]>,
    duration: Histogram,
}

impl EndpointMetrics {
    pub(crate) fn record_success(&self) {
        self.success.inc();
    }

    pub(crate) fn record_failure(&self, reason: FailureReason) {
        self.failure.inc();
        let index = FailureReason::ALL
            .iter()
            .position(|r| *r == reason)
            .expect("ALL lists every reason");
        self.failures[index].inc();
    }

    pub(crate) fn observe_duration(&self, elapsed: Duration) {
        self.duration.observe(elapsed.as_secs_f64());
    }
}
