//! Project automation: `cargo xtask <command>`.
//!
//! - `codegen [--check]` regenerates every checked-in generated artifact, or with `--check`
//!   fails when one is stale.
//! - `test` installs the external validators (once) and runs every test of the project.
//! - `tools` installs the external validators only (see `validators.rs`).
//! - `downstream` builds the README's quick-start samples from outside the
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
//! - `deny` checks security advisories (offline, against the RustSec snapshot beside the
//!   workspace: see `advisories.rs`), licenses, banned and duplicate crates and sources against
//!   `deny.toml`;
//!   `semver` compares the library crates' public API with the last release (see `supply.rs`;
//!   the tools are pinned in `xtask/tools/cargo-tools.txt`, see `cargotools.rs`).
//! - `newest-deps` checks the published crates, warnings denied, against the newest
//!   semver-compatible versions of their dependencies, in a copy of the workspace whose lock
//!   `cargo update` moved (see `newest_deps.rs`).
//! - `cargo-tools` installs those pinned tools only (what `test` starts in the background, see
//!   `background.rs`).

mod advisories;
mod background;
mod bench;
mod cargotools;
mod codegen;
mod codemap;
mod docs;
mod downstream;
mod goenv;
mod gotables;
mod install;
mod isolation;
mod newest_deps;
mod package;
mod pin_lag;
mod release;
mod supply;
mod test;
mod testing_sample;
mod validators;
mod wire_explore;

use std::process::ExitCode;

/// One `cargo xtask` subcommand: its name, its arguments as the usage line shows them, and
/// what runs it. `listed` is false for the commands other commands start (not for people), which
/// the usage line and the README's code map leave out (`codemap.rs` checks the map).
struct Command {
    name: &'static str,
    args: &'static str,
    run: fn(&[String]) -> Result<(), String>,
    listed: bool,
}

const fn command(
    name: &'static str,
    args: &'static str,
    run: fn(&[String]) -> Result<(), String>,
) -> Command {
    Command {
        name,
        args,
        run,
        listed: true,
    }
}

/// Every subcommand, in the order the usage line gives them.
const COMMANDS: &[Command] = &[
    command("codegen", "[--check]", codegen::run),
    command("test", "", test::run),
    command("tools", "", validators::command),
    command("downstream", "", test::downstream),
    command("testing-sample", "", test::testing_sample),
    command("isolation", "[[PACKAGE/]TEST-BINARY]", isolation::command),
    command("package", "", package::command),
    command("testenv", "", goenv::run),
    command("go-tables", "[--check]", gotables::run),
    command("wire-explore", "[--seed N] [--scale K]", wire_explore::run),
    command("bench", "<generator|derive>", bench::run),
    command("deny", "", supply::deny_command),
    command("newest-deps", "", newest_deps::command),
    command("semver", "", supply::semver_command),
    command("cargo-tools", "", cargotools::command),
    command("docs", "", |args| docs::main("docs", args)),
    command("dist", "--version vX.Y.Z", |args| docs::main("dist", args)),
    Command {
        listed: false,
        ..command("site-check", "", |args| docs::main("site-check", args))
    },
    Command {
        listed: false,
        ..command("background-job", "", background::job_command)
    },
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let wanted = args.first().map(String::as_str);
    let result = match COMMANDS.iter().find(|c| Some(c.name) == wanted) {
        Some(command) => (command.run)(&args[1..]),
        None => Err(usage()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The usage line: every listed command with its arguments.
fn usage() -> String {
    let commands: Vec<String> = COMMANDS
        .iter()
        .filter(|c| c.listed)
        .map(|c| {
            format!("cargo xtask {} {}", c.name, c.args)
                .trim_end()
                .to_string()
        })
        .collect();
    format!("usage: {}", commands.join(" | "))
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
