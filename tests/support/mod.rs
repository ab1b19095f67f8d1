//! Helpers shared by the integration tests (each test file includes the ones it needs).
#![allow(dead_code)]

pub mod derived;
pub mod structure;
pub mod test_hooks;
#[rustfmt::skip]
pub mod test_hooks_conversion;
pub mod tools;
