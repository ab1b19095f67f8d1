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
    /// A variable was declared twice on the builder
    /// ([`ServerBuilder::variable`](super::ServerBuilder::variable)); Cluster API refuses a
    /// class whose variables share a name.
    #[error(
        "the variable \"{name}\" is declared twice (the second time by {type_name}); variable names must be unique"
    )]
    DuplicateVariable {
        /// The variable's name.
        name: &'static str,
        /// The Rust type of the second declaration.
        type_name: &'static str,
    },
    /// Variables were declared on the builder but no handler answers DiscoverVariables with
    /// them ([`ServerBuilder::discover_variables`](super::ServerBuilder::discover_variables)
    /// was not called).
    #[error(
        "variables are declared ({}) but no handler answers DiscoverVariables with them; call `discover_variables` on the builder",
        .0.join(", ")
    )]
    UndiscoveredVariables(Vec<String>),
    /// The builder found several mistakes; each is one of the other variants, in the order
    /// they were made. Its text lists them all, as apimachinery's aggregate does
    /// (`[e1, e2, …]`, each with its whole chain); it has no single cause, so `source()` is
    /// `None`: [`ServerError::errors`] lists them. A single mistake is returned as itself.
    #[error("{} mistakes in registering the server's handlers: {}", .0.len(), list_chains(.0))]
    Registrations(Vec<ServerError>),
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
    /// A handler's [`Context`](super::Context) carries a state type that is neither the
    /// server's ([`ServerBuilder::state`](super::ServerBuilder::state)) nor `()`.
    #[error(
        "handler \"{name}\" of hook \"{hook}\" takes a Context<{handler_state}>, but the server's state is {server_state}: a handler's Context carries the server's state type or ()"
    )]
    StateMismatch {
        /// The hook name.
        hook: &'static str,
        /// The handler name.
        name: String,
        /// The state type the handler's `Context` names.
        handler_state: &'static str,
        /// The server's state type.
        server_state: &'static str,
    },
}

impl ServerError {
    /// The mistakes this error stands for: those of [`ServerError::Registrations`], or this
    /// error alone.
    pub fn errors(&self) -> &[ServerError] {
        match self {
            ServerError::Registrations(errors) => errors,
            one => std::slice::from_ref(one),
        }
    }

    /// None for no mistakes, the mistake itself for one, [`ServerError::Registrations`] for
    /// several.
    pub(super) fn from_mistakes(mut errors: Vec<ServerError>) -> Option<ServerError> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(ServerError::Registrations(errors)),
        }
    }
}

fn list_chains(errors: &[ServerError]) -> String {
    let texts: Vec<String> = errors
        .iter()
        .map(|e| crate::go::errors::chain(e).to_string())
        .collect();
    format!("[{}]", texts.join(", "))
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
