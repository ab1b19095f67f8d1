//! This repository's interop checks, never published: the programs `cargo xtask testenv`
//! builds into `target/testenv/bin/` from `interop/capi` and from Cluster API's module, the
//! plumbing to run them, and the tests and the benchmark that hold the SDK to them.
//!
//! - [`go_rules`]: the Go oracle, `go-rules`, which runs the real Go functions (Go's standard
//!   library, apimachinery, Cluster API's webhook, `encoding/json` into Cluster API's types,
//!   `crypto/x509` chain verification) over the cases a test gives it;
//! - [`GoExtension`]: an extension written with Cluster API's own Go kit, `go-extension-<version>`
//!   (one per supported Cluster API), on a loopback port, and [`topology_cluster`], the Cluster both the tests and the benchmark
//!   send it;
//! - [`program`]: any program of that directory (Cluster API's core manager `core` and its
//!   test extension `extension`, for the tests that run them).
//!
//! The tests (`tests/`, feature `external-tests`): `go_rules` (`capi_runtime::go` and the
//! crate's private Go rules against Go), `go_wire` and `go_pointer_zeros` (the wire codec
//! against `encoding/json`), `go_tls` (the `caBundle` verifier against `crypto/x509`),
//! `go_extension` (the client against each version's Go kit), `capi_core` and `capi_test_extension`
//! (Cluster API's core manager and test extension against the kit and the client). The
//! benchmark `go_vs_rust` measures the kit against the Go extension. An extension's author
//! needs none of it: the testing crate is `capi-runtime-testenv`.

mod go_extension;
mod go_rules;

use std::path::PathBuf;

use capi_runtime_testenv::{MissingBinary, Result, target_dir};

pub use go_extension::{GoExtension, topology_cluster};
pub use go_rules::{OracleError, go_printable_ranges, go_rules};

/// A program `cargo xtask testenv` built into `target/testenv/bin/` (`go-rules`,
/// `go-extension-<version>`, `core`, `extension`, ...).
pub fn program(name: &str) -> Result<PathBuf> {
    let path = target_dir().join("testenv/bin").join(name);
    if is_executable(&path) {
        Ok(path)
    } else {
        Err(MissingBinary::NotFound {
            name: name.to_string(),
            path,
            hint: "run `cargo xtask testenv` (needs Go on the PATH)",
        }
        .into())
    }
}

fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
