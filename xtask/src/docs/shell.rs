//! The book's shell samples (`docs/book/samples/sh/*.sh`), run as a reader would run them.
//!
//! A reader runs a sample from the workspace: `cargo run -p ...` finds the workspace from the
//! working directory, `docs/...` are the book's files and `out/...` is where the sample writes.
//! Cargo only ever looks for the workspace upwards from its working directory (no variable or
//! configuration key names the manifest, and `cargo -C` is unstable on this toolchain), so the
//! samples must run inside the workspace even when the target directory is somewhere else.
//!
//! Each sample therefore runs with `bash -eu` in its own directory under a scratch directory of
//! the workspace, `target/book-shell-scratch-<pid>/` (git ignores `/target`). That directory
//! holds two links and nothing else: `docs` to the workspace's `docs/`, and `out` to a fresh
//! `book-shell/<name>/out/` in the target directory (`cargo metadata`'s `target_directory`,
//! wherever that is), so everything a sample writes ends up there. The scratch directory is
//! removed once the samples are done, whether they passed or not, and so is `target/` when it
//! was created only to hold it; one left behind by a killed run goes at the start of the next.
//!
//! A sample that fails, writes anything beside `out/`, or does not leave its expected output
//! fails the docs build.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What each sample must leave behind: a file under `out/` and a text it contains.
const EXPECTED: &[(&str, &str, &str)] = &[
    (
        "openapi.sh",
        "out/runtime-sdk-openapi.json",
        "\"/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/{name}\"",
    ),
    (
        "crd.sh",
        "out/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml",
        "kind: CustomResourceDefinition",
    ),
    (
        "own-hooks.sh",
        "out/backups-openapi.yaml",
        "/backups.example.com/v1alpha1/takebackup/{name}",
    ),
    (
        "local.sh",
        "out/before-cluster-create.json",
        "\"status\":\"Success\"",
    ),
];

/// Environment variables set for one sample only. `local.sh` serves on `PORT`, 9443 when it is
/// unset, as a reader runs it; here the system picks a free port (the script reads the port
/// back from the server's log), so a busy 9443 cannot fail the build.
const ENV: &[(&str, &str, &str)] = &[("local.sh", "PORT", "0")];

/// The name of a run's scratch directory in `<workspace>/target/`, followed by its process id.
const SCRATCH_PREFIX: &str = "book-shell-scratch-";

/// Runs every shell sample; a sample without an expectation is an error too.
pub fn run(root: &Path) -> Result<(), String> {
    let target = crate::target_dir(root)?;
    let dir = root.join("docs/book/samples/sh");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sh"))
        .collect();
    names.sort();
    if let Some(name) = names
        .iter()
        .find(|name| !EXPECTED.iter().any(|(n, _, _)| n == name))
    {
        return Err(format!(
            "docs/book/samples/sh/{name} has no expected output in xtask/src/docs/shell.rs"
        ));
    }
    if names.len() != EXPECTED.len() {
        return Err(format!(
            "xtask/src/docs/shell.rs expects {} shell samples, docs/book/samples/sh has {}",
            EXPECTED.len(),
            names.len()
        ));
    }
    let scratch = Scratch::create(root)?;
    for name in &names {
        let (_, file, text) = EXPECTED
            .iter()
            .find(|(n, _, _)| n == name)
            .expect("checked above");
        eprintln!("xtask docs: shell sample {name}");
        let env: Vec<(&str, &str)> = ENV
            .iter()
            .filter(|(n, _, _)| n == name)
            .map(|(_, key, value)| (*key, *value))
            .collect();
        let output = run_sample(root, &target, &scratch.dir, &dir.join(name), &env)?;
        let produced = std::fs::read_to_string(output.join(file))
            .map_err(|e| format!("shell sample {name}: {}: {e}", output.join(file).display()))?;
        if !produced.contains(text) {
            return Err(format!(
                "shell sample {name}: {file} does not contain {text:?}"
            ));
        }
    }
    Ok(())
}

/// Runs `script` with `bash -eu` from `<scratch>/<name>/`, its `out` a link to
/// `<target>/book-shell/<name>/out/`, made empty first. Returns `<target>/book-shell/<name>/`,
/// the directory that holds what the sample wrote, as the workspace would for a reader.
fn run_sample(
    root: &Path,
    target: &Path,
    scratch: &Path,
    script: &Path,
    env: &[(&str, &str)],
) -> Result<PathBuf, String> {
    let name = script
        .file_stem()
        .ok_or_else(|| format!("{}: no file name", script.display()))?;
    let output = target.join("book-shell").join(name);
    if output.exists() {
        std::fs::remove_dir_all(&output).map_err(|e| format!("{}: {e}", output.display()))?;
    }
    std::fs::create_dir_all(output.join("out"))
        .map_err(|e| format!("{}: {e}", output.display()))?;
    let work = scratch.join(name);
    std::fs::create_dir(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    for (link, to) in [("docs", root.join("docs")), ("out", output.join("out"))] {
        std::os::unix::fs::symlink(&to, work.join(link))
            .map_err(|e| format!("{}: {e}", work.join(link).display()))?;
    }
    let mut command = Command::new("bash");
    command.arg("-eu").arg(script).current_dir(&work);
    // Cargo resolves a relative target or build directory against its working directory, which
    // is not the workspace root here: the samples get both as the xtask resolved them, so that
    // they build where `cargo metadata` says (and reuse what is built there).
    command.env("CARGO_TARGET_DIR", target);
    if let Some(build) = std::env::var_os("CARGO_BUILD_BUILD_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_relative() && !d.as_os_str().is_empty())
        .filter(|d| !d.to_string_lossy().starts_with('{'))
    {
        command.env("CARGO_BUILD_BUILD_DIR", root.join(build));
    }
    command.envs(env.iter().copied());
    let sample = script.file_name().unwrap_or(name).to_string_lossy();
    let status = command
        .status()
        .map_err(|e| format!("cannot run bash: {e}"))?;
    if !status.success() {
        return Err(format!("shell sample {sample} failed ({status})"));
    }
    // Anything beside the two links (or in place of one) would be lost with the scratch
    // directory instead of landing in the target directory.
    for entry in std::fs::read_dir(&work).map_err(|e| format!("{}: {e}", work.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let is_link = entry.file_type().map_err(|e| e.to_string())?.is_symlink();
        let file = entry.file_name();
        if !(is_link && (file == "docs" || file == "out")) {
            return Err(format!(
                "shell sample {sample} wrote {} beside out/ (samples write only under out/)",
                file.to_string_lossy()
            ));
        }
    }
    Ok(output)
}

/// A run's scratch directory, `<workspace>/target/book-shell-scratch-<pid>/`, removed when
/// dropped (also when the run fails), along with `<workspace>/target/` if it was made for it.
struct Scratch {
    dir: PathBuf,
    made_parent: bool,
}

impl Scratch {
    fn create(root: &Path) -> Result<Self, String> {
        let parent = root.join("target");
        remove_stale(&parent);
        let made_parent = std::fs::symlink_metadata(&parent).is_err();
        let dir = parent.join(format!("{SCRATCH_PREFIX}{}", std::process::id()));
        let scratch = Scratch {
            dir: dir.clone(),
            made_parent,
        };
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // Cargo sees its working directory with links resolved: were `target` a link out of
        // the workspace, the samples' cargo would not find the workspace from there.
        let real = dir.canonicalize().map_err(|e| e.to_string())?;
        let real_root = root.canonicalize().map_err(|e| e.to_string())?;
        if !real.starts_with(&real_root) {
            return Err(format!(
                "{} is {}, outside the workspace: the shell samples cannot run there",
                dir.display(),
                real.display()
            ));
        }
        Ok(scratch)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.dir) {
            eprintln!(
                "xtask docs: warning: cannot remove {}: {e}",
                self.dir.display()
            );
        }
        if self.made_parent {
            // Only when empty: something else may have started using it meanwhile.
            let _ = std::fs::remove_dir(self.dir.parent().expect("the scratch has a parent"));
        }
    }
}

/// Removes the scratch directories of runs that are no longer running (killed before they
/// could clean up), then `parent` itself if that leaves it empty. Needs `/proc` to tell; does
/// nothing without it.
fn remove_stale(parent: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let mut removed = false;
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(SCRATCH_PREFIX)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            removed |= std::fs::remove_dir_all(entry.path()).is_ok();
        }
    }
    if removed {
        let _ = std::fs::remove_dir(parent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample run with the target directory outside the workspace finds the workspace, reads
    /// `docs/`, writes into the target directory, and leaves nothing in the workspace.
    #[test]
    fn a_sample_runs_in_the_workspace_and_writes_into_an_outside_target_directory() {
        let root = crate::root();
        let target = std::env::temp_dir().join(format!("xtask-shell-test-{}", std::process::id()));
        std::fs::create_dir_all(&target).unwrap();
        let script = target.join("sample.sh");
        std::fs::write(
            &script,
            "test -d docs/book/samples/sh\n\
             cargo locate-project --workspace --message-format plain >out/workspace.txt\n",
        )
        .unwrap();
        let stray = target.join("stray.sh");
        std::fs::write(&stray, "touch not-in-out\n").unwrap();

        let scratch = Scratch::create(&root).unwrap();
        let dir = scratch.dir.clone();
        let output = run_sample(&root, &target, &dir, &script, &[]).unwrap();
        let err = run_sample(&root, &target, &dir, &stray, &[]).unwrap_err();
        drop(scratch);

        assert_eq!(output, target.join("book-shell/sample"));
        assert_eq!(
            std::fs::read_to_string(output.join("out/workspace.txt"))
                .unwrap()
                .trim(),
            root.join("Cargo.toml").display().to_string()
        );
        assert!(err.contains("not-in-out"), "{err}");
        assert!(!dir.exists(), "{} is left behind", dir.display());
        std::fs::remove_dir_all(&target).unwrap();
    }
}
