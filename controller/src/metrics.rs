//! Prometheus metrics of the controller, named as controller-runtime names its own so that
//! dashboards made for Cluster API's manager read them: reconciles by result, reconcile
//! errors, reconcile durations, and whether the registry is warmed up.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// The controller's name in metrics and logs.
pub const CONTROLLER_NAME: &str = "extensionconfig";

/// Labels of a reconcile counted by result.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ResultLabels {
    /// Always [`CONTROLLER_NAME`].
    pub controller: String,
    /// `success`, `error` or `requeue_after`.
    pub result: String,
}

/// Labels carrying only the controller's name.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ControllerLabels {
    /// Always [`CONTROLLER_NAME`].
    pub controller: String,
}

/// The controller's metrics; cheap to clone (clones share the values).
#[derive(Clone, Debug)]
pub struct ControllerMetrics {
    reconcile_total: Family<ResultLabels, Counter>,
    reconcile_errors: Family<ControllerLabels, Counter>,
    reconcile_time: Family<ControllerLabels, Histogram>,
    registry_ready: Gauge,
}

impl Default for ControllerMetrics {
    fn default() -> Self {
        Self::new()
    }
}

impl ControllerMetrics {
    /// Fresh metrics (register them with [`ControllerMetrics::register`]).
    pub fn new() -> Self {
        ControllerMetrics {
            reconcile_total: Family::default(),
            reconcile_errors: Family::default(),
            reconcile_time: Family::new_with_constructor(|| {
                Histogram::new([
                    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6,
                    0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0,
                    7.0, 8.0, 9.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0,
                ])
            }),
            registry_ready: Gauge::default(),
        }
    }

    /// Adds the metrics to `registry`.
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "controller_runtime_reconcile",
            "Total number of reconciliations per controller",
            self.reconcile_total.clone(),
        );
        registry.register(
            "controller_runtime_reconcile_errors",
            "Total number of reconciliation errors per controller",
            self.reconcile_errors.clone(),
        );
        registry.register(
            "controller_runtime_reconcile_time_seconds",
            "Length of time per reconciliation per controller",
            self.reconcile_time.clone(),
        );
        registry.register(
            "capi_runtime_sdk_extension_registry_ready",
            "1 once the ExtensionConfig registry is warmed up",
            self.registry_ready.clone(),
        );
    }

    pub(crate) fn observe(&self, result: &str, seconds: f64) {
        let controller = CONTROLLER_NAME.to_string();
        self.reconcile_total
            .get_or_create(&ResultLabels {
                controller: controller.clone(),
                result: result.to_string(),
            })
            .inc();
        if result == "error" {
            self.reconcile_errors
                .get_or_create(&ControllerLabels {
                    controller: controller.clone(),
                })
                .inc();
        }
        self.reconcile_time
            .get_or_create(&ControllerLabels { controller })
            .observe(seconds);
    }

    pub(crate) fn set_ready(&self, ready: bool) {
        self.registry_ready.set(i64::from(ready));
    }

    /// How many reconciles ended with `result` (`success`, `error`, `requeue_after`).
    pub fn reconciles(&self, result: &str) -> u64 {
        self.reconcile_total
            .get_or_create(&ResultLabels {
                controller: CONTROLLER_NAME.to_string(),
                result: result.to_string(),
            })
            .get()
    }
}
