//! What both generator binaries share: their input files and how they report a stale file.

use std::path::Path;

use capi_runtime_codegen::{SourceFile, source};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// The input files and their dependencies: the workspace's hook and API types built into the
/// binary, or the crate at `input` (its `src/` directory) with the built-in types available to
/// it as the crate `capi_runtime`.
pub fn sources(input: Option<&Path>) -> Result<(Vec<SourceFile>, Vec<SourceFile>), String> {
    let builtin = |krate: &str| {
        embedded::SOURCES
            .iter()
            .map(|(shown, rel, text)| SourceFile::in_named_crate(krate, *shown, rel, *text))
            .collect::<Vec<_>>()
    };
    match input {
        Some(dir) => {
            let subs: Vec<&str> = ["hooks", "api"]
                .into_iter()
                .filter(|s| dir.join(s).exists())
                .collect();
            let prefix = format!("{}/", dir.display());
            let files = source::read_crate_dir(dir, &subs, &prefix, "crate")
                .map_err(|e| format!("error: cannot read {}: {e}", dir.display()))?;
            Ok((files, builtin("capi_runtime")))
        }
        None => Ok((builtin("crate"), Vec::new())),
    }
}

/// `Ok` when the file at `path` holds `expected`, else an error with a unified diff.
pub fn check(path: &Path, expected: &str, regenerate: &str) -> Result<(), String> {
    let current = std::fs::read_to_string(path).unwrap_or_default();
    if current == expected {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(current.as_str(), expected);
    let mut out = format!("error: {} is stale; {regenerate}\n", path.display());
    out.push_str(
        &diff
            .unified_diff()
            .context_radius(2)
            .header(&format!("{} (current)", path.display()), "generated")
            .to_string(),
    );
    Err(out)
}
