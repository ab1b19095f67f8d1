//! The book's shell samples (`docs/book/samples/sh/*.sh`), run as a reader would run them.
//!
//! Each file is run with `bash -eu` in `target/book-shell/<name>/`, a directory inside the
//! workspace (so `cargo run -p ...` finds it) where `docs` points at the workspace's `docs/`
//! (so paths in the samples read as from the workspace root) and `out/` is fresh. A sample
//! that fails, or whose expected output is missing, fails the docs build.

use std::path::Path;
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

/// Runs every shell sample; a sample without an expectation is an error too.
pub fn run(root: &Path) -> Result<(), String> {
    let dir = root.join("docs/book/samples/sh");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sh"))
        .collect();
    names.sort();
    for name in &names {
        let Some((_, file, text)) = EXPECTED.iter().find(|(n, _, _)| n == name) else {
            return Err(format!(
                "docs/book/samples/sh/{name} has no expected output in xtask/src/docs/shell.rs"
            ));
        };
        let work = crate::target_dir(root)?
            .join("book-shell")
            .join(name.trim_end_matches(".sh"));
        if work.exists() {
            std::fs::remove_dir_all(&work).map_err(|e| e.to_string())?;
        }
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        std::os::unix::fs::symlink(root.join("docs"), work.join("docs"))
            .map_err(|e| e.to_string())?;
        eprintln!("xtask docs: shell sample {name}");
        let mut command = Command::new("bash");
        command.arg("-eu").arg(dir.join(name)).current_dir(&work);
        for (_, key, value) in ENV.iter().filter(|(n, _, _)| n == name) {
            command.env(key, value);
        }
        let status = command
            .status()
            .map_err(|e| format!("cannot run bash: {e}"))?;
        if !status.success() {
            return Err(format!("shell sample {name} failed ({status})"));
        }
        let produced = std::fs::read_to_string(work.join(file))
            .map_err(|e| format!("shell sample {name}: {file}: {e}"))?;
        if !produced.contains(text) {
            return Err(format!(
                "shell sample {name}: {file} does not contain {text:?}"
            ));
        }
    }
    if names.len() != EXPECTED.len() {
        return Err(format!(
            "xtask/src/docs/shell.rs expects {} shell samples, docs/book/samples/sh has {}",
            EXPECTED.len(),
            names.len()
        ));
    }
    Ok(())
}
