//! Code written by `cargo xtask codegen`; never edited by hand (a test fails when it is stale).

#[rustfmt::skip]
mod conversion;
#[rustfmt::skip]
mod external_schemas;
