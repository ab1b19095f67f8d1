//! Project automation: `cargo xtask <command>`.
//!
//! - `codegen [--check]` regenerates every checked-in generated artifact, or with `--check`
//!   fails when one is stale.
//! - `test` installs the external validators (once) and runs every test of the project.
//! - `tools` installs the external validators only (see `validators.rs`).
//! - `downstream` builds and runs the README's "Using this crate" example from outside the
//!   workspace (see `downstream.rs`).
//! - `isolation [[PACKAGE/]BINARY]` runs the order-independence pass of `test` alone: every
//!   integration test (of one test binary) in its own process (see `isolation.rs`).
//! - `testenv` builds etcd and kube-apiserver for the tests from `interop/` (see `goenv.rs`).
//! - `go-tables [--check]` writes the tables taken from Go: `src/go/print_ranges.rs`
//!   (`strconv.IsPrint`), `src/wire/fold_table.rs` and `src/wire/value_table.rs` (see
//!   `gotables.rs`); `test` checks them.
//! - `bench <generator|derive>` runs the generator's benchmarks (see `bench.rs`).

mod bench;
mod codegen;
mod docs;
mod downstream;
mod goenv;
mod gotables;
mod isolation;
mod test;
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
        Some("isolation") => isolation::command(&args[1..]),
        Some("testenv") => goenv::run(&args[1..]),
        Some("go-tables") => gotables::run(&args[1..]),
        Some("wire-explore") => wire_explore::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some(c @ ("docs" | "dist" | "site-check")) => docs::main(c, &args[1..]),
        _ => Err("usage: cargo xtask codegen [--check] | cargo xtask test | cargo xtask tools | cargo xtask downstream | cargo xtask isolation [[PACKAGE/]TEST-BINARY] | cargo xtask testenv | cargo xtask go-tables [--check] | cargo xtask wire-explore [--seed N] [--scale K] | cargo xtask bench <generator|derive>".to_string()),
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
