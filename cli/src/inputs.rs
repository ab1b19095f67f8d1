//! What both generator binaries share: their input files and how they check a file.

use std::path::Path;

use capi_runtime_codegen::{InputError, SourceFile, fs, read_crate};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// The workspace's hook and API types built into the binary, as the crate `krate`.
fn builtin(krate: &str) -> Vec<SourceFile> {
    embedded::SOURCES
        .iter()
        .map(|(shown, rel, text)| SourceFile::in_named_crate(krate, *shown, rel, *text))
        .collect()
}

/// The input files and their dependencies: the workspace's hook and API types built into the
/// binary, or the crate at `input` (its `src/` directory) with the built-in types available to
/// it as the crate `capi_runtime`.
pub fn sources(input: Option<&Path>) -> Result<(Vec<SourceFile>, Vec<SourceFile>), String> {
    let Some(dir) = input else {
        return Ok((builtin("crate"), Vec::new()));
    };
    let files = read_crate(dir, "crate").map_err(|errors| {
        let lines: Vec<String> = errors
            .0
            .iter()
            .map(|e| match e {
                InputError::Missing { .. } | InputError::NotADirectory { .. } => {
                    format!("error: --input {e}")
                }
                InputError::Io { source, .. } => format!("error: {e}: {source}"),
                _ => format!("error: {e}"),
            })
            .collect();
        lines.join("\n")
    })?;
    Ok((files, builtin("capi_runtime")))
}

/// `Ok` when the file at `path` holds `expected`; else an error with a unified diff, or one
/// line when the file cannot be read (missing, a directory, a FIFO, not UTF-8).
pub fn check(path: &Path, expected: &str, regenerate: &str) -> Result<(), String> {
    let current =
        fs::read_text(path).map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))?;
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
