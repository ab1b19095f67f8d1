//! The Cluster API Runtime SDK for Rust.
//!
//! Cluster API calls external HTTPS services, Runtime Extensions, at points of a Cluster's
//! lifecycle. This crate holds the typed hook API and the catalog of hooks; the runtime client
//! and the extension server build on them.
//!
//! Start with [`hooks::v1alpha1`] for the request and response types, and [`catalog`] for
//! looking hooks up. Modules are listed in dependency order.

pub mod _private;
pub mod api;
pub mod catalog;
#[cfg(feature = "client")]
pub mod client;
mod generated;
pub mod hook;
pub mod hooks;
pub mod object;
#[cfg(feature = "client")]
pub mod registry;
pub mod schema;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod topology_mutation;

pub use capi_runtime_derive::{Hook, Schema};
pub use catalog::{Catalog, GroupVersionHook};
pub use hook::{Hook, HookRequest, HookResponse, Message};
pub use schema::Schema;
