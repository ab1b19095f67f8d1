//! What both generator binaries share: their input files, how they check a file, and how they
//! report an error.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use capi_runtime_codegen::{
    InputError, InputErrors, Model, ReadModelError, SourceFile, fs, read_crate, read_model,
};

/// The SDK's own types, kept inside this package by `cargo xtask codegen` (`cli/sdk/`).
#[allow(
    dead_code,
    reason = "the binaries read the model record as build.rs compacts it; a test compares the two"
)]
mod sdk {
    include!("sdk.rs");
}

/// [`sdk::MODEL`] as `build.rs` embeds it: the same record without the white space between its
/// tokens (half the bytes to parse).
#[allow(dead_code, reason = "runtime-crd-gen reads the sources only")]
const COMPACT_MODEL: &str = include_str!(concat!(env!("OUT_DIR"), "/model.json"));

/// The checked model of the SDK's hooks and types built into the binary: the document without
/// `--input` is emitted from it, with nothing parsed.
#[allow(dead_code, reason = "runtime-crd-gen reads the sources only")]
pub fn builtin_model() -> Result<Model, ReadModelError> {
    read_model(COMPACT_MODEL)
}

/// The SDK's hook and API sources built into the binary, as the crate `krate`.
fn builtin(krate: &str) -> Vec<SourceFile> {
    sdk::SOURCES
        .iter()
        .map(|(shown, rel, text)| SourceFile::in_named_crate(krate, *shown, rel, *text))
        .collect()
}

/// Why the `--input` crate could not be read: every problem, one `error: ` line each (a read
/// that failed with its cause). It lists its causes in its own text, so it has no `source()`.
#[derive(Debug)]
pub struct ReadInputError(pub InputErrors);

impl fmt::Display for ReadInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            match e {
                InputError::Missing { .. } | InputError::NotADirectory { .. } => {
                    write!(f, "error: --input {e}")?
                }
                InputError::Io { source, .. } => write!(f, "error: {e}: {source}")?,
                _ => write!(f, "error: {e}")?,
            }
        }
        Ok(())
    }
}

impl Error for ReadInputError {}

/// The input files and their dependencies: the workspace's hook and API types built into the
/// binary, or the crate at `input` (its `src/` directory) with the built-in types available to
/// it as the crate `capi_runtime`.
pub fn sources(input: Option<&Path>) -> Result<(Vec<SourceFile>, Vec<SourceFile>), ReadInputError> {
    let Some(dir) = input else {
        return Ok((builtin("crate"), Vec::new()));
    };
    let files = read_crate(dir, "crate").map_err(ReadInputError)?;
    Ok((files, builtin("capi_runtime")))
}

/// Why `--check` failed for one file.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The file cannot be read (missing, a directory, a FIFO, not UTF-8).
    #[error("error: cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file differs from what would be generated; the text ends with a unified diff.
    #[error("error: {} is stale; {regenerate}\n{diff}", path.display())]
    Stale {
        /// The file.
        path: PathBuf,
        /// How to bring it up to date.
        regenerate: &'static str,
        /// The unified diff from the file to the generated text.
        diff: String,
    },
}

/// `Ok` when the file at `path` holds `expected`; else why not.
pub fn check(path: &Path, expected: &str, regenerate: &'static str) -> Result<(), CheckError> {
    // Compared a piece at a time first: a file that is up to date is never read whole. Any
    // other outcome (a difference, an error) is found again below with the file's text.
    if fs::holds(path, expected.as_bytes()).unwrap_or(false) {
        return Ok(());
    }
    let current = fs::read_text(path).map_err(|source| CheckError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if current == expected {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(current.as_str(), expected)
        .unified_diff()
        .context_radius(2)
        .header(&format!("{} (current)", path.display()), "generated")
        .to_string();
    Err(CheckError::Stale {
        path: path.to_path_buf(),
        regenerate,
        diff,
    })
}

/// The text of an error with its causes: each layer followed by `: ` and its cause.
pub fn message<E: Error + Send + Sync + 'static>(error: E) -> String {
    format!("{:#}", anyhow::Error::new(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compact_model_is_the_record_without_its_layout() {
        let record: serde_json::Value = serde_json::from_str(sdk::MODEL).expect("the record");
        let compact: serde_json::Value = serde_json::from_str(COMPACT_MODEL).expect("compact");
        assert_eq!(compact, record);
        assert!(COMPACT_MODEL.len() < sdk::MODEL.len() * 3 / 4);
        assert!(!COMPACT_MODEL.contains("\n"));
    }
}
