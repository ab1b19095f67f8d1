//! The management-cluster half of the Runtime SDK, as a library any kube-runtime program can
//! embed. The crate `capi-runtime-manager` is the binary that runs it as Cluster API's core
//! manager does; this crate does not need it.
//!
//! To embed: build a runtime client over a registry (the one your own controllers call
//! extensions with) and a [`Reconciler`] over it and your `kube::Client`, then, on the leader,
//! call [`run`], which runs the ExtensionConfig controller and the registry warm-up together
//! until your shutdown future completes:
//!
//! ```no_run
//! # async fn embed() -> Result<(), Box<dyn std::error::Error>> {
//! use capi_runtime::client::Client;
//! use capi_runtime_controller::{ControllerMetrics, Options, Reconciler};
//!
//! let kube = kube::Client::try_default().await?;
//! let runtime = Client::builder().build()?;
//! capi_runtime_controller::run(
//!     Reconciler::new(kube, runtime.clone()),
//!     Options::default().concurrency(10),
//!     ControllerMetrics::new(),
//!     capi_runtime::signal::shutdown_signal(),
//! )
//! .await?; // an error: warm-up timed out, and the process should exit
//! # Ok(())
//! # }
//! ```
//!
//! [`run`] watches ExtensionConfigs itself; [`controller::run_watching`] runs on a watch you
//! share with other controllers ([`controller::ConfigWatch::from_reflector`]). The
//! controller's writes carry the field manager `capi-runtime-controller`
//! ([`Reconciler::field_manager`]); give your `kube::Client` a User-Agent (its
//! `Config::headers`) so that the other writes of your program are named too.
//!
//! Errors are [`Error`]s that chain: `Display` is one step, `source()` its cause; Cluster
//! API's one-line texts are `capi_runtime::go::errors::chain(&error)`.
//!
//! The webhooks are [`webhook::router`], to serve on `capi_runtime::https::RunningHost`.
//!
//! * [`decide`]: the reconcile decisions as pure functions (pausing, CA injection, discovery
//!   results, status patches, read-only checks, back-off);
//! * [`reconcile`]: one reconcile and the registry warm-up, doing the I/O those decisions ask
//!   for;
//! * [`error`]: the errors of both, and which of them are worth retrying;
//! * [`watched`]: the ExtensionConfigs the watch holds, the controller's state of each, and
//!   the registry kept in step with them (where registrations go away);
//! * [`controller`]: the kube-runtime controller around them ([`controller::run`] is the
//!   function to embed);
//! * [`index`]: the Secret → ExtensionConfigs index of the CA-injection annotation;
//! * [`webhook`]: the ExtensionConfig admission (defaulting, validation) and conversion
//!   webhooks, served on the crate's shared HTTPS host;
//! * [`conditions`], [`metrics`]: Cluster API's condition rules and the controller's metrics.

pub mod conditions;
pub mod controller;
pub mod decide;
pub mod error;
pub mod index;
pub mod metrics;
pub mod reconcile;
pub mod watched;
pub mod webhook;

pub use controller::{ConfigWatch, ControllerError, Options, run, run_watching};
pub use error::Error;
pub use metrics::ControllerMetrics;
pub use reconcile::{FIELD_MANAGER, Outcome, Reconciler};
