//! Project automation: `cargo xtask <command>`.
//!
//! - `codegen [--check]` regenerates every checked-in generated artifact, or with `--check`
//!   fails when one is stale.
//! - `test` installs the external validators (once) and runs every test of the project.
//! - `tools` installs the external validators only (see `validators.rs`).
//! - `downstream` builds and runs the README's "Using this crate" example from outside the
//!   workspace (see `downstream.rs`).
//! - `testing-sample` builds the book's "Testing against Cluster API" sample as a crate outside
//!   the workspace and runs its tests against the real control plane (see `testing_sample.rs`).
//! - `isolation [[PACKAGE/]BINARY]` runs the order-independence pass of `test` alone: every
//!   integration test (of one test binary) in its own process (see `isolation.rs`).
//! - `package` packages every published crate, builds each from its `.crate` alone, installs the
//!   packaged generator and runs it (see `package.rs`).
//! - `testenv` builds etcd and kube-apiserver for the tests from `interop/` (see `goenv.rs`).
//! - `go-tables [--check]` writes the tables taken from Go: `src/go/print_ranges.rs`
//!   (`strconv.IsPrint`), `src/wire/fold_table.rs` and `src/wire/go_values.rs` (see
//!   `gotables.rs`); `test` checks them.
//! - `bench <generator|derive>` runs the generator's benchmarks (see `bench.rs`).
//! - `deny` checks licenses, banned and duplicate crates and sources against `deny.toml`;
//!   `semver` compares the library crates' public API with the last release (see `supply.rs`;
//!   the tools are pinned in `xtask/tools/cargo-tools.txt`, see `cargotools.rs`).
//! - `cargo-tools` installs those pinned tools only (what `test` starts in the background, see
//!   `background.rs`).

mod background;
mod bench;
mod cargotools;
mod codegen;
mod docs;
mod downstream;
mod goenv;
mod gotables;
mod install;
mod isolation;
mod package;
mod release;
mod supply;
mod test;
mod testing_sample;
mod validators;
mod wire_explore;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("codegen") => codegen::run(&args[1..]),
        Some("test") => test::run(&args[1..]),
        Some("tools") => validators::command(&args[1..]),
        Some("downstream") => test::downstream(&args[1..]),
        Some("testing-sample") => test::testing_sample(&args[1..]),
        Some("isolation") => isolation::command(&args[1..]),
        Some("testenv") => goenv::run(&args[1..]),
        Some("package") => package::command(&args[1..]),
        Some("go-tables") => gotables::run(&args[1..]),
        Some("wire-explore") => wire_explore::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("deny") => supply::deny_command(&args[1..]),
        Some("semver") => supply::semver_command(&args[1..]),
        Some("cargo-tools") => cargotools::command(&args[1..]),
        Some("background-job") => background::job_command(&args[1..]),
        Some(c @ ("docs" | "dist" | "site-check")) => docs::main(c, &args[1..]),
        _ => Err("usage: cargo xtask codegen [--check] | cargo xtask test | cargo xtask tools | cargo xtask downstream | cargo xtask testing-sample | cargo xtask isolation [[PACKAGE/]TEST-BINARY] | cargo xtask package | cargo xtask testenv | cargo xtask go-tables [--check] | cargo xtask wire-explore [--seed N] [--scale K] | cargo xtask bench <generator|derive> | cargo xtask deny | cargo xtask semver | cargo xtask cargo-tools".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (the parent of this crate's directory).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Where cargo writes this workspace's output, as `cargo metadata` reports it
/// (`CARGO_TARGET_DIR`, `build.target-dir`, or `target/` under the workspace). Every xtask puts
/// its own output there too (`site/`, `dist/`, `tools/`, `testenv/`, ...), so that a shared or
/// moved target directory holds all of it.
pub fn target_dir(root: &std::path::Path) -> Result<std::path::PathBuf, String> {
    cargo_metadata(root)?["target_directory"]
        .as_str()
        .map(std::path::PathBuf::from)
        .ok_or_else(|| "cargo metadata names no target_directory".to_string())
}

/// `cargo metadata --no-deps` of the workspace, offline.
pub fn cargo_metadata(root: &std::path::Path) -> Result<serde_json::Value, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(&cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run {cargo} metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("cargo metadata printed no JSON: {e}"))
}

/// Where the pinned tools live (the validators' venv and node_modules, mdBook):
/// `CAPI_TOOLS_DIR` when set (what the tests read too), else `tools/` in [`target_dir`].
pub fn tools_dir(root: &std::path::Path) -> Result<std::path::PathBuf, String> {
    match std::env::var_os("CAPI_TOOLS_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => Ok(std::path::PathBuf::from(dir)),
        None => Ok(target_dir(root)?.join("tools")),
    }
}
