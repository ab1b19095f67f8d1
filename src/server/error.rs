//! Errors of building and running the extension server.

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;

use crate::catalog::CatalogError;

/// Why the server could not be built or could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The hook of a handler is not in the server's catalog.
    #[error("hook \"{hook}\" does not exist in catalog: {source}")]
    UnknownHook {
        /// The hook name.
        hook: &'static str,
        /// What the catalog said.
        source: CatalogError,
    },
    /// Two handlers would be served at the same path.
    #[error("there is already a handler registered for path \"{0}\"")]
    DuplicatePath(String),
    /// A handler name is not a DNS-1123 label, so Cluster API would reject the Discovery answer.
    #[error("invalid handler name \"{name}\": {reason}")]
    InvalidHandlerName {
        /// The name.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A handler timeout is outside what Cluster API accepts.
    #[error("invalid timeoutSeconds {seconds} for handler \"{name}\": must be between 0 and 30")]
    InvalidTimeout {
        /// The handler name.
        name: String,
        /// The timeout.
        seconds: i32,
    },
    /// The serving certificate could not be loaded.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The listening socket could not be opened.
    #[error("failed to listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The cause.
        source: io::Error,
    },
    /// The server stopped with an I/O error.
    #[error("extension server failed: {0}")]
    Serve(#[source] io::Error),
}

/// Why a TLS configuration could not be built from the certificate files.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("failed to read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A file holds no usable PEM item of the expected kind.
    #[error("failed to parse {path}: {reason}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// rustls refused the certificate, the key or the client CA.
    #[error("invalid TLS configuration: {0}")]
    Config(String),
}
