//! Helpers shared by the integration tests; the benchmarks include some of them by path.
#![allow(dead_code)]

pub mod derived;
#[cfg(feature = "client")]
pub mod extension;
pub mod structure;
pub mod test_hooks;
#[rustfmt::skip]
pub mod test_hooks_conversion;
#[cfg(feature = "client")]
pub mod tls;
pub mod tools;
/// The example extension's field-list checker (its own test helper), borrowed.
#[path = "../../../examples/test-extension/tests/support/v1beta2_fields.rs"]
pub mod topology_fields;
pub mod wire_payloads;
