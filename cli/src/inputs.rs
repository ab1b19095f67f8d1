//! What both generator binaries share: their input files, how they check a file, and how they
//! report an error.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use capi_runtime_codegen::{
    InputError, InputErrors, Model, ReadModelError, SourceFile, fs, read_crate, read_model,
};

/// The checked model of the SDK's own hook and API types, with the modules they are reachable
/// from, kept inside this package by `cargo xtask codegen` so that it builds from its `.crate`
/// alone.
const MODEL: &str = include_str!("../sdk/model.json");

/// The name `--input` crates use for the SDK.
pub const SDK_CRATE: &str = "capi_runtime";

/// The SDK's model built into the binary: the documents without `--input` are emitted from it,
/// and `--input` crates find the `capi_runtime` types in it; nothing of the SDK is parsed.
pub fn builtin_model() -> Result<Model, ReadModelError> {
    read_model(MODEL)
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

/// The files of the crate whose `src/` directory is `dir`, for `--input`.
pub fn read_input(dir: &Path) -> Result<Vec<SourceFile>, ReadInputError> {
    read_crate(dir, "crate").map_err(ReadInputError)
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
