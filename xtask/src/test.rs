//! `cargo xtask test`: the project's one test command.
//!
//! 0. starts, in the background at idle priority, the installation of the pinned cargo tools
//!    and the release build of the shipped binaries, which only steps 6–8 need
//!    (`background.rs`);
//! 1. installs the external validators (pinned in `xtask/tools/`) under `target/tools/` when
//!    they are missing or their pins changed;
//! 2. checks formatting, generated files and clippy (warnings are errors), also for the
//!    runtime crate with each feature alone (`feature_matrix`);
//! 3. runs every test of the workspace with every feature;
//! 4. runs every integration test once more alone in its own process, so that a test which
//!    passes only after another one ran first is caught (`isolation.rs`);
//! 5. builds the README's quick-start samples as a crate outside the workspace
//!    (`downstream.rs`), then the book's "Testing against Cluster API" sample the same way,
//!    its tests run against the real control plane and Cluster API's manager
//!    (`testing_sample.rs`);
//! 6. checks the security advisories (offline, against the RustSec snapshot beside the
//!    workspace: `advisories.rs`) and the licence, ban and source policy of `deny.toml`
//!    (`supply.rs`); checks the published crates, warnings denied, against the newest
//!    semver-compatible versions of their dependencies in a copy of the workspace
//!    (`newest_deps.rs`); then packages the published crates, builds each from its `.crate`
//!    alone and runs the installed generator from its package (`package.rs`);
//! 7. compares the library crates' public API with the last release (`supply.rs`);
//! 8. builds the release artifacts and the site with `CARGO_TARGET_DIR` moved outside the
//!    workspace, and checks the site in a browser (`docs.rs`).
//!
//! Step 3 runs with `--all-features`, which includes each crate's `external-tests` feature: the
//! tests that need Go, the real control plane or the validators, which a plain `cargo test`
//! (the fast tier) does not build or run.
//!
//! `cargo xtask tools` does step 1 only.
//!
//! The verdict is a function of the commit: property tests draw their cases from a fixed seed
//! here (`validators::proptest_seed`), while a plain `cargo test` keeps exploring with random
//! seeds. A failure found by exploring becomes a regression case of its test, not a coin toss
//! in CI.
//!
//! The validators and the environment of the test processes live in `validators.rs`, which the
//! isolation pass and the documentation build use too.

use std::path::Path;

use crate::validators::step;

/// Runs the whole test suite.
pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask test".into());
    }
    let root = crate::root();
    // The cargo tools and the release build, at idle priority, for the late steps; stopped
    // when this returns.
    let _background = crate::background::start(&root)?;
    crate::validators::install(&root)?;
    crate::goenv::prepare(&root)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    step(
        &root,
        &cargo,
        &["fmt", "--all", "--", "--check"],
        "formatting (run `cargo fmt`)",
    )?;
    crate::codegen::run(&["--check".to_string()])?;
    // The tables written from Go (Unicode rules, the fields Go holds by value).
    crate::gotables::run(&["--check".to_string()])?;
    step(
        &root,
        &cargo,
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--",
            "-D",
            "warnings",
        ],
        "clippy",
    )?;
    feature_matrix(&root, &cargo)?;
    eprintln!(
        "xtask test: property tests use seed {} (PROPTEST_RNG_SEED)",
        crate::validators::proptest_seed()
    );
    step(
        &root,
        &cargo,
        &["test", "--workspace", "--all-features", "--no-fail-fast"],
        "tests",
    )?;
    crate::isolation::run(&root, &cargo, None)?;
    crate::downstream::run(&root, &cargo)?;
    timed("the book's testing sample", || {
        crate::testing_sample::run(&root, &cargo)
    })?;
    // Advisories, licenses, banned and duplicate crates, sources (deny.toml); offline,
    // seconds. This late, cargo-deny is installed by the background job by now.
    timed("cargo deny", || crate::supply::deny(&root))?;
    // What a user's fresh resolution meets: the newest compatible dependencies.
    timed("newest dependencies", || {
        crate::newest_deps::run(&root, &cargo)
    })?;
    timed("packaging", || crate::package::run(&root, &cargo))?;
    // The library crates' public API against the last release.
    timed("semver checks", || crate::supply::semver(&root))?;
    // dist (with the site: book, API reference, rustdoc) and the browser check
    crate::docs::test_step(&root)?;
    eprintln!("xtask test: everything passed");
    Ok(())
}

/// Runs `step`, then says how long it took (what each step adds to the command).
fn timed(what: &str, step: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    let started = std::time::Instant::now();
    let result = step();
    eprintln!("xtask test: {what} took {:.0?}", started.elapsed());
    result
}

/// Each feature of the runtime crate must build on its own (and with none), as a user who
/// enables only that one gets it: clippy over the library with `--no-default-features` plus
/// that feature.
const FEATURES: &[&str] = &[
    "",
    "derive",
    "kube",
    "kube-client",
    "client",
    "server",
    "topology-mutation",
    "schemars",
    "variable-cel",
];

fn feature_matrix(root: &Path, cargo: &str) -> Result<(), String> {
    for feature in FEATURES {
        let mut args = vec![
            "clippy",
            "--package",
            "capi-runtime",
            "--lib",
            "--no-default-features",
        ];
        if !feature.is_empty() {
            args.extend(["--features", feature]);
        }
        args.extend(["--", "-D", "warnings"]);
        let what = format!(
            "the runtime crate with only {:?}",
            if feature.is_empty() {
                "no features"
            } else {
                feature
            }
        );
        step(root, cargo, &args, &what)?;
    }
    Ok(())
}

/// Builds the README's quick-start samples only.
pub fn downstream(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask downstream".into());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    crate::downstream::run(&crate::root(), &cargo)
}

/// Builds the book's "Testing against Cluster API" sample outside the workspace and runs its
/// tests, alone (the binaries of `cargo xtask testenv` must be there).
pub fn testing_sample(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask testing-sample".into());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    crate::testing_sample::run(&crate::root(), &cargo)
}
