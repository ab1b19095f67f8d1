//! The integration tests of the runtime crate, gathered into one test binary.
//!
//! Each module was a test binary of its own; as one binary, reqwest, axum, rustls and the
//! crate itself are linked once instead of once per file. A module that needs a feature is
//! compiled only with it (`cargo test --all-features` builds them all). Run one module with
//! `cargo test --all-features --test it -- client_calls::`, one test with
//! `-- --exact client_calls::call_extension_success`.
//!
//! The tests share one process, so none may rely on process-wide state: every rustls
//! configuration names its crypto provider, no test sets environment variables, and servers
//! bind OS-assigned ports. `cargo xtask test` also runs every test alone in its own process
//! (`xtask/src/isolation.rs`).

mod support;

mod captured_requests;
mod catalog;
mod conversion;
mod crd;
mod layering;
mod openapi;
mod openapi_contract;
mod openapi_validators;
mod raw_values;
mod response_constructors;
mod variable_check;
mod variable_types;
mod wire_author_types;
mod wire_limits;

#[cfg(feature = "schemars")]
mod json_schema;

#[cfg(feature = "client")]
mod client_api;
#[cfg(feature = "client")]
mod client_cache;
#[cfg(feature = "client")]
mod client_calls;
#[cfg(feature = "client")]
mod client_concurrency;
#[cfg(feature = "client")]
mod client_discovery;
#[cfg(feature = "client")]
mod client_error_causes;
#[cfg(feature = "client")]
mod client_failures;
#[cfg(feature = "client")]
mod client_metrics;
#[cfg(feature = "client")]
mod client_namespaces;
#[cfg(feature = "client")]
mod client_proxy;
#[cfg(feature = "client")]
mod client_tls;
#[cfg(feature = "client")]
mod client_trust;
#[cfg(feature = "client")]
mod client_versions;
#[cfg(feature = "client")]
mod registry_behaviour;
#[cfg(feature = "client")]
mod wire_go_client;

#[cfg(all(feature = "server", feature = "client"))]
mod extension_faults;
#[cfg(feature = "server")]
mod server_cluster_shapes;
#[cfg(all(feature = "server", feature = "client"))]
mod server_handlers;
#[cfg(feature = "server")]
mod server_limits;
#[cfg(feature = "server")]
mod server_requests;
#[cfg(feature = "server")]
mod server_tls;
#[cfg(feature = "server")]
mod wire_go_server;

#[cfg(feature = "topology-mutation")]
mod topology_patch;
#[cfg(feature = "topology-mutation")]
mod topology_paths;
#[cfg(feature = "topology-mutation")]
mod topology_variables;
#[cfg(feature = "topology-mutation")]
mod topology_walker;
