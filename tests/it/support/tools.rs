//! The external validators that `cargo xtask test` installs under `target/tools/` (a Python
//! venv and a node_modules folder, pinned in `xtask/tools/`).

use std::path::PathBuf;
use std::process::Command;

/// The folder holding the tools: `$CAPI_TOOLS_DIR`, or `target/tools` of the workspace.
pub fn dir() -> PathBuf {
    std::env::var_os("CAPI_TOOLS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/tools"))
}

/// The path of a tool under [`dir`], e.g. `venv/bin/openapi-spec-validator`. Panics with
/// instructions when it is missing: these tests never skip silently.
pub fn path(rel: &str) -> PathBuf {
    let p = dir().join(rel);
    assert!(
        p.exists(),
        "{} is not installed; run `cargo xtask test` (or `cargo xtask tools`) to install the \
         external validators",
        p.display()
    );
    p
}

/// Runs a tool and returns (success, combined output).
pub fn run(rel: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(path(rel))
        .args(args)
        .env("REDOCLY_TELEMETRY", "off")
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| panic!("running {rel}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}
