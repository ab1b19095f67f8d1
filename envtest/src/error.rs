//! What can go wrong while building the binaries.

use std::path::PathBuf;
use std::process::ExitStatus;

/// An error of [`install`](crate::install) or [`cache_dir`](crate::cache_dir): `Display` says
/// what this step failed to do, `source()` gives the cause.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Neither `XDG_CACHE_HOME` nor `HOME` names an absolute directory.
    NoCacheDir,
    /// There is no usable `go` command.
    GoMissing {
        /// What running `go version` gave, if it ran.
        detail: Option<String>,
        /// The error of starting it, if it did not start.
        source: Option<std::io::Error>,
    },
    /// A Go command failed.
    Go {
        /// The command line.
        command: String,
        /// Where it ran.
        dir: PathBuf,
        /// How it ended.
        status: ExitStatus,
        /// What it printed on stderr, when captured.
        stderr: String,
    },
    /// A file operation failed.
    Io {
        /// What was being done.
        what: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Cluster API's module holds no CRD files where they are expected.
    NoCrds(PathBuf),
    /// A Cluster API version this crate carries no Go module files for.
    UnsupportedVersion {
        /// The version asked for.
        version: String,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NoCacheDir => f.write_str(
                "no cache directory: neither XDG_CACHE_HOME nor HOME is an absolute path (pass --dir)",
            ),
            Error::GoMissing { detail, .. } => {
                f.write_str("Go is needed to build the binaries and `go version` did not run")?;
                match detail {
                    Some(d) => write!(f, ": {d}"),
                    None => f.write_str(" (install Go 1.26 or newer and put `go` on the PATH)"),
                }
            }
            Error::Go {
                command,
                dir,
                status,
                stderr,
            } => {
                write!(f, "`{command}` in {} failed ({status})", dir.display())?;
                if !stderr.trim().is_empty() {
                    write!(f, ": {}", stderr.trim())?;
                }
                Ok(())
            }
            Error::Io { what, .. } => f.write_str(what),
            Error::NoCrds(dir) => write!(f, "no CRD files in {}", dir.display()),
            Error::UnsupportedVersion { version } => write!(
                f,
                "Cluster API {version} is not one capi-envtest builds (it builds {})",
                crate::CLUSTER_API_VERSIONS.join(", ")
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::GoMissing {
                source: Some(e), ..
            } => Some(e),
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Error {
    pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let what = what.into();
        move |source| Error::Io { what, source }
    }
}
