//! The Cluster API Runtime SDK for Rust.
//!
//! Cluster API calls external HTTPS services, Runtime Extensions, at points of a Cluster's
//! lifecycle. This crate holds both sides of that contract:
//!
//! - the typed hook API: [`hooks::v1alpha1`] (request and response types of the 17 hooks),
//!   [`api`] (Cluster API core types and the ExtensionConfig in both versions), and the
//!   [`catalog`] that looks hooks up;
//! - with feature `client`, the [`registry`] of discovered handlers and the [`client`] that
//!   calls extensions (what Cluster API's controllers use);
//! - with feature `server`, the [`server`] that serves typed hook handlers, and with feature
//!   `topology-mutation` (which `server` enables) the [`topology_mutation`] helpers, plain data
//!   over the hook types (what extension authors use);
//! - with either, [`tls`]: PEM parsing, the rustls configurations of both sides and their
//!   one error type; and [`signal`]: the shutdown signal (SIGTERM or Ctrl-C) a long-running
//!   extension or controller waits for.
//!
//! `#[derive(Schema)]` and `#[derive(Hook)]` describe wire types and hooks for the generator
//! (`runtime-openapi-gen`), which publishes them as an OpenAPI document. Layers, from the
//! bottom: `schema`/`hook`/`object` (traits), `api`/`hooks` (data), `catalog`, then `registry`
//! and `client`, or `server`.

#[doc(hidden)]
pub mod __private;
pub mod go;
pub mod schema;
pub mod hook;
pub mod object;
pub mod conversion;
pub mod api;
pub mod hooks;
pub mod catalog;
pub mod wire;
pub mod raw;
pub mod variable;
#[cfg(any(feature = "client", feature = "server"))]
pub mod tls;
#[cfg(any(feature = "client", feature = "server"))]
pub mod signal;
#[cfg(feature = "client")]
pub mod registry;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "server")]
pub mod https;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "topology-mutation")]
pub mod topology_mutation;
mod generated;

/// axum, whose `Router` [`server::Server::router`] returns (feature `server`).
#[cfg(feature = "server")]
pub use axum;
/// `#[derive(Schema)]` and `#[derive(Hook)]` for your own types (feature `derive`, on by
/// default). This crate's own types always use them; the feature only decides whether they
/// are part of the public API.
#[cfg(feature = "derive")]
pub use capi_runtime_derive::{Hook, Schema};
#[cfg(not(feature = "derive"))]
pub(crate) use capi_runtime_derive::{Hook, Schema};
/// json-patch, whose errors are the causes of a [`topology_mutation::PatchError`] (feature
/// `topology-mutation`).
#[cfg(feature = "topology-mutation")]
pub use json_patch;
/// The k8s-openapi crate whose types (`ObjectMeta`, `LabelSelector`, ...) this crate's API
/// uses. A binary still chooses its Kubernetes version with one of k8s-openapi's version
/// features (see the README).
pub use k8s_openapi;
/// kube-core, whose `Resource` trait the ExtensionConfig types implement (feature `kube`);
/// kube itself re-exports the same crate as `kube::core`.
#[cfg(feature = "kube")]
pub use kube_core as kube;
/// prometheus-client, whose `Registry` the client's and the server's `Metrics::register` and
/// the server builder's `metrics_registry` take (feature `client` or `server`).
#[cfg(any(feature = "client", feature = "server"))]
pub use prometheus_client;
/// reqwest, whose error the client keeps as the cause of a failed exchange
/// ([`client::ExchangeError`], feature `client`).
#[cfg(feature = "client")]
pub use reqwest;
/// rustls, whose error [`tls::TlsError::rustls_error`] and the client's
/// `ExchangeError::tls_error` return (feature `client` or `server`).
#[cfg(any(feature = "client", feature = "server"))]
pub use rustls;

/// The traits a hook author or caller needs in scope, for `use capi_runtime::prelude::*;`:
/// with them, `request.settings()`, `response.status()` and friends are callable, as is
/// `R::success()` in code generic over a response type `R: HookResponse`. (Every concrete
/// response type has `success()` and `failure(..)` of its own and needs no import for them.)
pub mod prelude {
    pub use crate::hook::{Hook, HookRequest, HookResponse, Message};
}
pub use catalog::{Catalog, HookId};
pub use hook::{Hook, HookRequest, HookResponse, Message};
pub use schema::{HookSchema, Schema};
