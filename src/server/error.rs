//! Errors of building and running the extension server.

use std::io;
use std::net::SocketAddr;

use crate::catalog::CatalogError;
use crate::https::{HostError, TlsError};

/// Why the server could not be built or could not run.
///
/// Each variant shows its own layer and returns its cause as its
/// [`source`](std::error::Error::source) (the whole text is
/// [`chain(&err)`](crate::go::errors::chain)); [`ServerError::Tls`] shows the [`TlsError`]'s
/// text and its source, as the TLS error itself would.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The hook of a handler is not in the server's catalog.
    #[error("hook \"{hook}\" does not exist in catalog")]
    UnknownHook {
        /// The hook name.
        hook: &'static str,
        /// What the catalog said (the source).
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
        /// What is wrong with it (Kubernetes' words for a DNS-1123 label).
        reason: String,
    },
    /// A handler timeout is outside what Cluster API accepts.
    #[error("invalid timeoutSeconds {seconds} for handler \"{name}\": must be between 0 and 30")]
    InvalidTimeout {
        /// The handler name.
        name: String,
        /// The timeout.
        seconds: i32,
    },
    /// A handler failure policy is neither `Ignore` nor `Fail`
    /// ([`FailurePolicy::Other`](crate::hooks::v1alpha1::FailurePolicy::Other)), so Cluster API
    /// would reject the Discovery answer.
    #[error(
        "invalid failurePolicy \"{policy}\" for handler \"{name}\": must equal \"Ignore\" or \"Fail\""
    )]
    InvalidFailurePolicy {
        /// The handler name.
        name: String,
        /// The policy as given.
        policy: String,
    },
    /// The serving certificate could not be loaded.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The listening socket could not be opened.
    #[error("failed to listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The cause.
        source: io::Error,
    },
    /// The server stopped with an I/O error.
    #[error("extension server failed")]
    Serve(#[source] io::Error),
}

impl From<HostError> for ServerError {
    fn from(error: HostError) -> Self {
        match error {
            HostError::Tls(e) => ServerError::Tls(e),
            HostError::Bind { addr, source } => ServerError::Bind { addr, source },
            HostError::Serve(e) => ServerError::Serve(e),
        }
    }
}
