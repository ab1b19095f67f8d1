//! The management-cluster half of the Runtime SDK, as a library any kube-runtime program can
//! embed, and the `capi-runtime-manager` binary that runs it.
//!
//! * [`decide`]: the reconcile decisions as pure functions (pausing, CA injection, discovery
//!   results, status patches, read-only checks, back-off);
//! * [`reconcile`]: one reconcile and the registry warm-up, doing the I/O those decisions ask
//!   for;
//! * [`controller`]: the kube-runtime controller around them ([`controller::run`] is the
//!   function to embed);
//! * [`webhook`]: the ExtensionConfig admission (defaulting, validation) and conversion
//!   webhooks, served on the crate's shared HTTPS host;
//! * [`conditions`], [`metrics`]: Cluster API's condition rules and the controller's metrics.

pub mod conditions;
pub mod controller;
pub mod decide;
pub mod metrics;
pub mod reconcile;
pub mod webhook;

pub use controller::{ControllerError, Options, run};
pub use metrics::ControllerMetrics;
pub use reconcile::{Outcome, ReconcileError, Reconciler};
