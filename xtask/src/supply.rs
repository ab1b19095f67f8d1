//! `cargo xtask deny` and `cargo xtask semver`: the supply-chain and public-API checks of the
//! test command, each run by a kept tool pinned in `xtask/tools/cargo-tools.txt`.
//!
//! - `deny`: cargo-deny over the whole workspace graph with the policy of `deny.toml`
//!   (advisories, licenses, banned crates and duplicate versions, sources), with the lock file
//!   as it is, once `cargo fetch` has every locked package's sources. Offline, against the
//!   RustSec snapshot beside the workspace (`advisories.rs`); where there is none, cargo-deny
//!   fetches the database itself.
//! - `semver`: cargo-semver-checks compares the public API of the library crates
//!   ([`LIBRARIES`]) with the release named in `xtask/tools/semver-baseline.txt`, built from
//!   that commit of this repository. While the workspace still carries the baseline's version,
//!   the change is checked as a patch release: a breaking change fails until the version is
//!   bumped, after which the tool derives the allowed changes from the two versions.

use std::path::Path;
use std::process::Command;

use crate::validators::{step, step_with_env};

/// The crates with a library API to keep. `capi-runtime-derive` is a proc-macro crate (its
/// API is the derives' names and attributes, which rustdoc does not describe and its trybuild
/// tests pin); `runtime-openapi-gen` and the manager are programs.
pub const LIBRARIES: &[&str] = &[
    "capi-runtime-codegen",
    "capi-runtime",
    "capi-runtime-controller",
];

/// `cargo xtask deny`.
pub fn deny_command(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask deny".into());
    }
    deny(&crate::root())
}

/// Downloads every package of `Cargo.lock`, for every platform. The tools that read the graph
/// offline (cargo-deny, cargo-cyclonedx) run `cargo metadata`, which needs the manifest of each
/// locked package, also of those only other platforms build: on a machine whose cargo cache
/// holds only what its builds used, they fail on the first Windows-only crate. Seconds when
/// everything is there.
pub fn fetch(root: &Path) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    step(
        root,
        &cargo,
        &["fetch", "--locked", "--quiet"],
        "cargo fetch (every package of Cargo.lock)",
    )
}

/// `cargo xtask semver`.
pub fn semver_command(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask semver".into());
    }
    semver(&crate::root())
}

/// Checks the workspace graph against `deny.toml`.
pub fn deny(root: &Path) -> Result<(), String> {
    let bin = crate::cargotools::bin(root, "cargo-deny")?;
    fetch(root)?;
    let database = crate::advisories::prepare(root, &crate::target_dir(root)?)?;
    let mut args = vec!["--locked"];
    if database.offline {
        args.push("--offline");
    }
    args.extend([
        "check",
        "--hide-inclusion-graph",
        "--show-stats",
        "advisories",
        "bans",
        "licenses",
        "sources",
    ]);
    step_with_env(
        root,
        bin.to_str().ok_or("non-UTF-8 tools path")?,
        &args,
        &[(crate::advisories::DB_PATH_VAR, &database.db_path)],
        "cargo deny (deny.toml: advisories, bans, licenses, sources)",
    )
}

/// The baseline release: a commit of this repository and the version it carries.
#[derive(Debug, PartialEq)]
struct Baseline {
    rev: String,
    version: String,
}

fn baseline(text: &str) -> Result<Baseline, String> {
    let (mut rev, mut version) = (None, None);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(' ') {
            Some(("rev", value)) => rev = Some(value.trim().to_string()),
            Some(("version", value)) => version = Some(value.trim().to_string()),
            _ => {
                return Err(format!(
                    "xtask/tools/semver-baseline.txt:{}: expected `rev <commit>` or `version <x.y.z>`",
                    n + 1
                ));
            }
        }
    }
    match (rev, version) {
        (Some(rev), Some(version)) => Ok(Baseline { rev, version }),
        _ => Err("xtask/tools/semver-baseline.txt: needs a `rev` and a `version` line".into()),
    }
}

/// Compares the public API of [`LIBRARIES`] with the baseline release.
pub fn semver(root: &Path) -> Result<(), String> {
    let file = root.join("xtask/tools/semver-baseline.txt");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let baseline = baseline(&text)?;
    ensure_commit(root, &baseline.rev)?;
    let bin = crate::cargotools::bin(root, "cargo-semver-checks")?;
    let mut args = vec!["semver-checks", "check-release"];
    for library in LIBRARIES {
        args.extend(["--package", library]);
    }
    args.extend(["--baseline-rev", &baseline.rev]);
    let current = env!("CARGO_PKG_VERSION");
    if current == baseline.version {
        // Unbumped: whatever is released next from this tree is a patch release of the
        // baseline, so only compatible changes pass.
        args.extend(["--release-type", "patch"]);
    }
    eprintln!(
        "xtask semver: {} v{current} against {} (v{}){}",
        LIBRARIES.join(", "),
        &baseline.rev[..baseline.rev.len().min(12)],
        baseline.version,
        if current == baseline.version {
            ", checked as a patch release"
        } else {
            ""
        }
    );
    // cargo-semver-checks builds each crate, current and baseline, in a placeholder project
    // with a target directory of its own: six builds of the same dependencies. One build
    // directory for all of them (cargo's intermediate artifacts; the rustdoc JSON stays in
    // each target directory) compiles each dependency once.
    let build_dir = crate::target_dir(root)?.join("semver-checks").join("build");
    step_with_env(
        root,
        bin.to_str().ok_or("non-UTF-8 tools path")?,
        &args,
        &[("CARGO_BUILD_BUILD_DIR", &build_dir)],
        "cargo semver-checks (against xtask/tools/semver-baseline.txt)",
    )
}

/// Makes sure the baseline commit is in the clone, fetching it from `origin` when the clone
/// is shallow and has one.
fn ensure_commit(root: &Path, rev: &str) -> Result<(), String> {
    let has = |root: &Path| {
        Command::new("git")
            .args(["cat-file", "-e", &format!("{rev}^{{commit}}")])
            .current_dir(root)
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    if has(root) {
        return Ok(());
    }
    eprintln!(
        "xtask semver: the baseline commit {rev} is not in this clone; fetching it from origin"
    );
    let fetched = Command::new("git")
        .args(["fetch", "--quiet", "--depth", "1", "origin", rev])
        .current_dir(root)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if fetched && has(root) {
        Ok(())
    } else {
        Err(format!(
            "the semver baseline {rev} (xtask/tools/semver-baseline.txt) is not in this git \
             clone and could not be fetched from origin: clone with history (`git fetch \
             --unshallow`)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baseline_file_names_a_commit_and_a_version() {
        let b = baseline("# c\nrev abc123\nversion 0.1.0\n").unwrap();
        assert_eq!(
            b,
            Baseline {
                rev: "abc123".into(),
                version: "0.1.0".into()
            }
        );
        assert!(baseline("rev abc\n").is_err());
        assert!(baseline("tag v1\n").unwrap_err().contains(":1:"));
    }

    #[test]
    fn the_checked_file_parses() {
        let text = include_str!("../tools/semver-baseline.txt");
        let b = baseline(text).unwrap();
        assert_eq!(b.rev.len(), 40);
    }
}
