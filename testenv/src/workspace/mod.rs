//! This repository's own Go peers, built by its `cargo xtask testenv` from `interop/capi`
//! (`go-rules`, `go-extension`). Hidden from the documentation and outside any compatibility
//! promise: the workspace's tests and benchmarks use them; nothing outside it can (the
//! binaries exist only in its `target/testenv/bin/`).

mod go_extension;
mod go_rules;

pub use go_extension::{GoExtension, topology_cluster};
pub use go_rules::{OracleError, go_printable_ranges, go_rules};
