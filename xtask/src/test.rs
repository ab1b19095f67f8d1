//! `cargo xtask test`: the project's one test command.
//!
//! 1. installs the external validators (pinned in `xtask/tools/`) under `target/tools/` when
//!    they are missing or their pins changed;
//! 2. checks formatting, generated files and clippy (warnings are errors), also for the
//!    runtime crate with each feature alone (`feature_matrix`);
//! 3. runs every test of the workspace with every feature;
//! 4. runs every integration test once more alone in its own process, so that a test which
//!    passes only after another one ran first is caught (`isolation.rs`);
//! 5. builds and runs the README's "Using this crate" example as a crate outside the workspace
//!    (`downstream.rs`).
//!
//! `cargo xtask tools` does step 1 only.
//!
//! The verdict is a function of the commit: property tests draw their cases from a fixed seed
//! here ([`proptest_seed`]), while a plain `cargo test` keeps exploring with random seeds. A
//! failure found by exploring becomes a regression case of its test, not a coin toss in CI.

use std::path::Path;
use std::process::Command;

/// Runs the whole test suite.
pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask test".into());
    }
    let root = crate::root();
    install_tools(&root)?;
    crate::goenv::prepare(&root)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    step(
        &root,
        &cargo,
        &["fmt", "--all", "--", "--check"],
        "formatting (run `cargo fmt`)",
    )?;
    crate::codegen::run(&["--check".to_string()])?;
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
        proptest_seed()
    );
    step(
        &root,
        &cargo,
        &["test", "--workspace", "--all-features", "--no-fail-fast"],
        "tests",
    )?;
    crate::isolation::run(&root, &cargo, None)?;
    crate::downstream::run(&root, &cargo)?;
    crate::docs::test_step(&root)?; // the site (book, API reference, rustdoc) and its browser check
    eprintln!("xtask test: everything passed");
    Ok(())
}

/// Each feature of the runtime crate must build on its own (and with none), as a user who
/// enables only that one gets it: clippy over the library with `--no-default-features` plus
/// that feature.
const FEATURES: &[&str] = &[
    "",
    "derive",
    "kube",
    "client",
    "server",
    "topology-mutation",
    "schemars",
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

/// Builds and runs the README's downstream example only.
pub fn downstream(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask downstream".into());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    crate::downstream::run(&crate::root(), &cargo)
}

/// Installs the validators only.
pub fn tools(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask tools".into());
    }
    install_tools(&crate::root())
}

/// The seed every property test of the test command starts from: `PROPTEST_RNG_SEED` when set
/// (to explore, or to replay a run), else a fixed one.
pub fn proptest_seed() -> String {
    std::env::var("PROPTEST_RNG_SEED").unwrap_or_else(|_| "20261201".into())
}

fn step(root: &Path, program: &str, args: &[&str], what: &str) -> Result<(), String> {
    eprintln!("xtask test: {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(root)
        .env("PROPTEST_RNG_SEED", proptest_seed())
        .env("CAPI_TOOLS_DIR", root.join("target/tools"))
        .env("REDOCLY_TELEMETRY", "off")
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// Creates `target/tools/venv` and `target/tools/node` from the pinned lists, unless a stamp
/// says they are already installed from the same lists.
fn install_tools(root: &Path) -> Result<(), String> {
    let pins = root.join("xtask/tools");
    let requirements =
        std::fs::read_to_string(pins.join("requirements.txt")).map_err(|e| e.to_string())?;
    let package = std::fs::read_to_string(pins.join("package.json")).map_err(|e| e.to_string())?;
    let wanted = format!("{requirements}\n{package}");
    let dir = root.join("target/tools");
    let stamp = dir.join(".installed");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    eprintln!(
        "xtask: installing the external validators into {}",
        dir.display()
    );
    let venv = dir.join("venv");
    if !venv.join("bin/pip").exists() {
        step(
            root,
            "python3",
            &["-m", "venv", venv.to_str().unwrap()],
            "creating the Python venv",
        )?;
    }
    let pip = venv.join("bin/pip");
    step(
        root,
        pip.to_str().unwrap(),
        &[
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            pins.join("requirements.txt").to_str().unwrap(),
        ],
        "pip install",
    )?;
    let node = dir.join("node");
    std::fs::create_dir_all(&node).map_err(|e| e.to_string())?;
    std::fs::write(node.join("package.json"), &package).map_err(|e| e.to_string())?;
    step(
        root,
        "npm",
        &[
            "install",
            "--no-audit",
            "--no-fund",
            "--prefix",
            node.to_str().unwrap(),
        ],
        "npm install",
    )?;
    std::fs::write(&stamp, wanted).map_err(|e| e.to_string())
}
