//! `cargo xtask newest-deps`: the published crates checked against the newest semver-compatible
//! versions of their dependencies (a step of `cargo xtask test`).
//!
//! The checked-in `Cargo.lock` holds the workspace to the versions it was last updated to,
//! while a user's new crate that depends on ours resolves the newest compatible release of
//! every dependency. A release that deprecates an API we call (a warning in every user's
//! build) or breaks a compatible-looking build is seen there first. So this step:
//!
//! 1. mirrors the workspace (the files git lists: tracked ones, and untracked ones it does not
//!    ignore) into `<target>/newest-deps/workspace`, each file with its modification time, so
//!    that on the next run cargo finds every unchanged crate fresh;
//! 2. runs `cargo update --verbose` there, never on the checked-in lock, and prints what moved
//!    (and, from cargo's verbose output, what stays behind a newer incompatible release).
//!    Resolution ignores the workspace's `rust-version`, as a user's crate without one does;
//! 3. runs clippy with `-D warnings` over the library and binary targets of every published
//!    crate ([`crate::package::CRATES`]) with all their features, so that every
//!    `cfg(feature)` part of them is compiled.
//!
//! One run with all features covers every feature set for what this step looks for: a
//! dependency's deprecation or breakage shows wherever our code that uses it is compiled, and
//! all features compile all of it (the crates' `cfg(not(feature))` parts call no third-party
//! crate).
//! That each feature also builds alone is the feature matrix's job, with the locked versions.
//!
//! Clippy rather than `cargo build` with `RUSTFLAGS=-D warnings`: the warnings and errors this
//! looks for come before code generation, and `-D warnings` given to clippy reaches only the
//! workspace's own crates, where `RUSTFLAGS` would change every dependency's build. So the
//! mirror can share the workspace's build directory (`downstream::outside_cargo`): a
//! dependency whose version, features and own dependencies are those of one of the
//! workspace's clippy runs is not checked again. Measured on the 2 shared cores with 25
//! versions moved, cold, in CPU time: `cargo build` with `RUSTFLAGS` 275 s, clippy in a build
//! directory of its own 187 s, clippy sharing the workspace's after the test command's clippy
//! step about 125 s (the sum of the runs that got through the two deprecation errors it
//! found). A warm run with nothing changed takes 4 s, most of it `cargo update`
//! reading the index. The mirror's own output goes to `<target>/newest-deps/target`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `cargo xtask newest-deps`.
pub fn command(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask newest-deps".into());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(&crate::root(), &cargo)
}

/// Mirrors the workspace, updates the mirror's lock and checks the published crates there.
pub fn run(root: &Path, cargo: &str) -> Result<(), String> {
    let target = crate::target_dir(root)?;
    let mirror = target.join("newest-deps").join("workspace");
    let copied = mirror_workspace(root, &mirror)?;
    eprintln!(
        "xtask newest-deps: {copied} changed files copied to {}",
        mirror.display()
    );

    let output = crate::downstream::outside_cargo(cargo, &mirror, &target, "newest-deps/target")
        .args(["update", "--verbose"])
        .env("CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS", "allow")
        .stdout(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {cargo} update: {e}"))?;
    let report = String::from_utf8_lossy(&output.stderr);
    eprint!("{report}");
    if !output.status.success() {
        return Err(format!(
            "cargo update in {} failed ({})",
            mirror.display(),
            output.status
        ));
    }
    let moved = Moved::read(&report);

    // `--keep-going`: every crate that can be checked is, so one run shows every warning.
    let mut args = vec![
        "clippy",
        "--keep-going",
        "--lib",
        "--bins",
        "--all-features",
    ];
    for name in crate::package::CRATES {
        args.extend(["--package", name]);
    }
    args.extend(["--", "-D", "warnings"]);
    eprintln!("xtask newest-deps: cargo {}", args.join(" "));
    let started = std::time::Instant::now();
    let status = crate::downstream::outside_cargo(cargo, &mirror, &target, "newest-deps/target")
        .args(&args)
        .status()
        .map_err(|e| format!("cannot run {cargo} clippy: {e}"))?;
    eprintln!(
        "xtask newest-deps: clippy: {:.0} s",
        started.elapsed().as_secs_f64()
    );
    if !status.success() {
        return Err(format!(
            "the published crates do not build without warnings against the newest compatible \
             versions of their dependencies ({moved}; clippy {status}): see above"
        ));
    }
    eprintln!(
        "xtask newest-deps: the {} published crates build without warnings against the newest \
         compatible versions ({moved})",
        crate::package::CRATES.len()
    );
    Ok(())
}

/// What `cargo update` changed in the lock, counted from its report.
#[derive(Debug, PartialEq)]
struct Moved {
    updated: usize,
    added: usize,
    removed: usize,
}

impl Moved {
    fn read(report: &str) -> Moved {
        let count = |verb: &str| {
            report
                .lines()
                .filter(|line| line.trim_start().starts_with(verb))
                .count()
        };
        Moved {
            // `Updating crates.io index` is not a version.
            updated: report
                .lines()
                .filter(|l| {
                    let l = l.trim_start();
                    (l.starts_with("Updating ") || l.starts_with("Downgrading "))
                        && l.contains(" -> ")
                })
                .count(),
            added: count("Adding "),
            removed: count("Removing "),
        }
    }
}

impl std::fmt::Display for Moved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} versions moved from Cargo.lock, {} packages added, {} removed",
            self.updated, self.added, self.removed
        )
    }
}

/// Makes `to` hold exactly the files git lists in `root` (tracked, and untracked but not
/// ignored), copying only those whose size or modification time differ and giving each copy
/// its original's modification time. Returns how many it copied.
fn mirror_workspace(root: &Path, to: &Path) -> Result<usize, String> {
    let output = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run git ls-files: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "git ls-files in {} failed ({}): {}",
            root.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let mut wanted = HashSet::new();
    let mut copied = 0;
    for name in output.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).map_err(|_| "a non-UTF-8 file name in git")?;
        let from = root.join(name);
        // A tracked file deleted from the working tree is not part of it.
        let Ok(source) = std::fs::metadata(&from) else {
            continue;
        };
        if !source.is_file() {
            continue;
        }
        let copy = to.join(name);
        wanted.insert(copy.clone());
        let fresh = std::fs::metadata(&copy)
            .is_ok_and(|c| c.len() == source.len() && c.modified().ok() == source.modified().ok());
        if fresh {
            continue;
        }
        if let Some(dir) = copy.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let _ = std::fs::remove_file(&copy);
        std::fs::copy(&from, &copy).map_err(|e| format!("{}: {e}", from.display()))?;
        let modified = source
            .modified()
            .map_err(|e| format!("{}: {e}", from.display()))?;
        std::fs::File::options()
            .write(true)
            .open(&copy)
            .and_then(|f| f.set_modified(modified))
            .map_err(|e| format!("{}: {e}", copy.display()))?;
        copied += 1;
    }
    remove_others(to, &wanted)?;
    Ok(copied)
}

/// Removes every file under `dir` that is not in `keep`, and the directories left empty.
fn remove_others(dir: &Path, keep: &HashSet<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            remove_others(&path, keep)?;
            // Only succeeds when nothing is left in it.
            let _ = std::fs::remove_dir(&path);
        } else if !keep.contains(&path) {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_cargo_update_moved_is_counted_from_its_report() {
        let report = "    Updating crates.io index\n     Locking 3 packages to latest compatible versions\n    Updating rustls v0.23.46 -> v0.23.48\n Downgrading foo v1.2.0 -> v1.1.0\n      Adding windows-sys v0.101.0\n    Removing bar v0.1.0\n   Unchanged base64 v0.22.1 (available: v0.23.1)\n";
        assert_eq!(
            Moved::read(report),
            Moved {
                updated: 2,
                added: 1,
                removed: 1
            }
        );
    }

    /// The mirror gets the files git lists, with their times; an unchanged file is not copied
    /// again, and a file that left the workspace leaves the mirror.
    #[test]
    fn the_mirror_holds_what_git_lists_and_copies_only_what_changed() {
        let scratch =
            std::env::temp_dir().join(format!("xtask-newest-deps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let root = scratch.join("root");
        let mirror = scratch.join("mirror");
        std::fs::create_dir_all(root.join("src")).unwrap();
        let git = |args: &[&str]| {
            let status = Command::new("git")
                .args(args)
                .current_dir(&root)
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .status()
                .unwrap();
            assert!(status.success());
        };
        git(&["init", "--quiet"]);
        std::fs::write(root.join(".gitignore"), "/target\n").unwrap();
        std::fs::write(root.join("src/lib.rs"), "// lib\n").unwrap();
        std::fs::write(root.join("src/old.rs"), "// old\n").unwrap();
        std::fs::create_dir_all(root.join("target")).unwrap();
        std::fs::write(root.join("target/ignored"), "").unwrap();
        git(&["add", "src/lib.rs"]);

        assert_eq!(mirror_workspace(&root, &mirror).unwrap(), 3);
        assert!(mirror.join("src/old.rs").is_file());
        assert!(!mirror.join("target").exists());
        let time = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
        assert_eq!(
            time(&mirror.join("src/lib.rs")),
            time(&root.join("src/lib.rs"))
        );

        assert_eq!(mirror_workspace(&root, &mirror).unwrap(), 0);
        std::fs::remove_file(root.join("src/old.rs")).unwrap();
        std::fs::write(root.join("src/lib.rs"), "// lib, changed\n").unwrap();
        assert_eq!(mirror_workspace(&root, &mirror).unwrap(), 1);
        assert!(!mirror.join("src/old.rs").exists());
        assert_eq!(
            std::fs::read_to_string(mirror.join("src/lib.rs")).unwrap(),
            "// lib, changed\n"
        );
        std::fs::remove_dir_all(&scratch).unwrap();
    }
}
