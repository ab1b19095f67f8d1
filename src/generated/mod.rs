//! Code written by `cargo xtask codegen`; never edited by hand (a test fails when it is stale).

#[rustfmt::skip]
mod constructors;
#[rustfmt::skip]
pub(crate) mod conversion;
#[rustfmt::skip]
mod external_schemas;
#[cfg(feature = "schemars")]
#[rustfmt::skip]
pub(crate) mod json_schema;
