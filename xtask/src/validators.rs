//! What the test command (`test.rs`), its order-independence pass (`isolation.rs`), the
//! documentation build (`docs.rs`) and the release artifacts (`release.rs`) share: the external
//! validators pinned in `xtask/tools/` (installed under `target/tools/`, also by `cargo xtask
//! tools`), the environment every test process runs in (the property-test seed, where the
//! validators are), and running a step with its time in the log ([`step`], [`run_tool`]). It
//! names none of those modules, so they depend on it and not on each other.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Sets what a test process of xtask runs with: the property-test seed ([`proptest_seed`]),
/// the validators' directory (`CAPI_TOOLS_DIR`) and redocly without telemetry.
/// `tools` is where they are installed ([`crate::tools_dir`]).
pub fn test_env<'c>(command: &'c mut Command, tools: &Path) -> &'c mut Command {
    command
        .env("PROPTEST_RNG_SEED", proptest_seed())
        .env("CAPI_TOOLS_DIR", tools)
        .env("REDOCLY_TELEMETRY", "off")
}

/// The seed every property test of the test command starts from: `PROPTEST_RNG_SEED` when set
/// (to explore, or to replay a run), else a fixed one.
pub fn proptest_seed() -> String {
    std::env::var("PROPTEST_RNG_SEED").unwrap_or_else(|_| "20261201".into())
}

/// Runs `program` with `args` in `root` under [`test_env`]; fails naming `what`.
pub fn step(root: &Path, program: &str, args: &[&str], what: &str) -> Result<(), String> {
    step_with_env(root, program, args, &[], what)
}

/// [`step`] with extra environment variables for `program`.
pub fn step_with_env(
    root: &Path,
    program: &str,
    args: &[&str],
    env: &[(&str, &Path)],
    what: &str,
) -> Result<(), String> {
    eprintln!("xtask test: {program} {}", args.join(" "));
    let tools = crate::tools_dir(root)?;
    let started = std::time::Instant::now();
    let mut command = Command::new(program);
    command.args(args).current_dir(root);
    for (key, value) in env {
        command.env(key, value);
    }
    let status = test_env(&mut command, &tools)
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    // Every step's time is in the log: what a cold run spends where.
    eprintln!(
        "xtask test: {what}: {:.0} s",
        started.elapsed().as_secs_f64()
    );
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// Runs `command` in `root` as it is (without [`test_env`]) and logs how long it took; fails
/// naming `what`.
pub fn run_tool(root: &Path, command: &mut Command, what: &str) -> Result<(), String> {
    eprintln!("xtask: {what}");
    let started = Instant::now();
    let status = command
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    eprintln!("xtask: {what}: {:.1} s", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// `cargo xtask tools`: installs the validators only.
pub fn command(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask tools".into());
    }
    install(&crate::root())
}

/// Creates `target/tools/venv` and `target/tools/node` from the pinned lists, unless a stamp
/// says they are already installed from the same lists.
pub fn install(root: &Path) -> Result<(), String> {
    let pins = root.join("xtask/tools");
    let requirements =
        std::fs::read_to_string(pins.join("requirements.txt")).map_err(|e| e.to_string())?;
    let package = std::fs::read_to_string(pins.join("package.json")).map_err(|e| e.to_string())?;
    let wanted = format!("{requirements}\n{package}");
    let dir = crate::tools_dir(root)?;
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
