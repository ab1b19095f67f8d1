//! Typed errors of calling extensions: [`CallError`] and the layers below it, and
//! [`BuildError`].
//!
//! Each error says what its own layer failed to do, and [`source`](StdError::source) returns
//! the cause (a catalog or registry error, an [`ExchangeError`], and below that the reqwest,
//! rustls or I/O error, or the wire codec's [`DecodeError`]), so a chain walker (`anyhow`,
//! `tracing`, `downcast_ref`) finds every cause as a value. Cluster API's one-line message,
//! the text of its conditions and logs, is the chain rendered the way Go wraps errors:
//! [`chain(&err)`](crate::go::errors::chain). Messages name the handler (and so the
//! ExtensionConfig) and, for anything that reached the network, the URL. URLs never carry
//! credentials: user info is refused when the URL is built.

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::api::runtime::validation::UrlError;
use crate::catalog::{CatalogError, GroupHook, HookId};
use crate::registry::RegistryError;
use crate::tls::{Cause, TlsError, find_in_chain};
use crate::wire::DecodeError;

use super::namespaces::NamespaceError;

/// Why no HTTP client could be made for an ExtensionConfig's client config.
///
/// Transparent: it shows the URL or TLS error it holds, and the errors above it
/// ([`CallError::HttpClient`], [`DiscoveryError::HttpClient`](super::DiscoveryError)) return
/// that error itself as their source.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ClientConfigError {
    /// The URL is missing or invalid.
    #[error(transparent)]
    Url(#[from] UrlError),
    /// The CA bundle or TLS configuration is unusable.
    #[error(transparent)]
    Tls(#[from] TlsError),
}

impl ClientConfigError {
    /// The URL or TLS error, as the source of the errors that hold this one.
    pub(crate) fn as_cause(&self) -> &(dyn StdError + 'static) {
        match self {
            ClientConfigError::Url(e) => e,
            ClientConfigError::Tls(e) => e,
        }
    }
}

/// Why one HTTP exchange with an extension failed.
///
/// Every variant except [`ExchangeError::Encode`] is a *calling* error, which a handler's
/// `Ignore` failure policy swallows; see [`ExchangeError::is_calling_error`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ExchangeError {
    /// The request could not be serialised; a bug on the caller's side, never ignored. The
    /// cause is the serialiser's (or the catalog's conversion's) error.
    Encode(Cause),
    /// Connecting, the TLS handshake or the transfer failed.
    Transport {
        /// The URL called.
        url: String,
        /// reqwest's error (without the URL, which the message has already), the source; see
        /// [`ExchangeError::is_connect`] and [`ExchangeError::tls_error`].
        error: Arc<reqwest::Error>,
    },
    /// The call did not complete within the handler's timeout.
    Timeout {
        /// The URL called.
        url: String,
        /// The deadline.
        timeout: Duration,
    },
    /// The extension answered with a status other than 200 (redirects are not followed).
    HttpStatus {
        /// The URL called.
        url: String,
        /// The HTTP status.
        code: u16,
        /// The first 512 bytes of the body, quoted, with `...` when cut.
        excerpt: String,
    },
    /// The body of a non-200 answer could not be read (or was larger than the client accepts).
    HttpStatusBody {
        /// The URL called.
        url: String,
        /// The HTTP status.
        code: u16,
        /// Why reading failed, the source.
        error: Cause,
    },
    /// The body of a 200 answer could not be read.
    Body {
        /// The URL called.
        url: String,
        /// reqwest's error, the source.
        error: Arc<reqwest::Error>,
    },
    /// The body is larger than the client accepts.
    BodyTooLarge {
        /// The URL called.
        url: String,
        /// The HTTP status.
        code: u16,
        /// The limit in bytes.
        limit: usize,
    },
    /// The body of a 200 answer is not a response of the hook.
    Decode {
        /// The URL called.
        url: String,
        /// What did not decode, the source.
        error: Box<DecodeError>,
    },
}

impl fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("http call failed: ")?;
        match self {
            ExchangeError::Encode(_) => f.write_str("failed to marshal request object"),
            ExchangeError::Transport { url, .. } => write!(f, "Post {url:?}"),
            ExchangeError::Timeout { url, timeout } => write!(
                f,
                "Post {url:?}: no complete response within {}s",
                timeout.as_secs()
            ),
            ExchangeError::HttpStatus { code, excerpt, .. } => write!(
                f,
                "got response with status code {code} != 200: response : {excerpt}"
            ),
            ExchangeError::HttpStatusBody { code, .. } => write!(
                f,
                "got response with status code {code} != 200: failed to read response body"
            ),
            ExchangeError::Body { url, .. } => {
                write!(f, "failed to read response body from {url:?}")
            }
            ExchangeError::BodyTooLarge { url, limit, .. } => {
                write!(f, "response body from {url:?} is larger than {limit} bytes")
            }
            ExchangeError::Decode { url, .. } => {
                write!(f, "failed to decode response from {url:?}")
            }
        }
    }
}

impl StdError for ExchangeError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            ExchangeError::Encode(cause) | ExchangeError::HttpStatusBody { error: cause, .. } => {
                Some(&**cause)
            }
            ExchangeError::Transport { error, .. } | ExchangeError::Body { error, .. } => {
                Some(&**error)
            }
            ExchangeError::Decode { error, .. } => Some(&**error),
            ExchangeError::Timeout { .. }
            | ExchangeError::HttpStatus { .. }
            | ExchangeError::BodyTooLarge { .. } => None,
        }
    }
}

impl ExchangeError {
    /// True for errors communicating with the extension, the ones `Ignore` applies to. A body
    /// refused for one of this side's limits (the wire codec's memory budget or nesting depth)
    /// is not one: the extension answered, and ignoring the answer would turn it into a
    /// Success it never said.
    pub fn is_calling_error(&self) -> bool {
        match self {
            ExchangeError::Encode(_) => false,
            ExchangeError::Decode { error, .. } => !error.is_limit(),
            _ => true,
        }
    }

    /// True when no connection could be made (refused, unreachable, DNS, or a failed TLS
    /// handshake; [`ExchangeError::tls_error`] tells the last apart).
    pub fn is_connect(&self) -> bool {
        matches!(self, ExchangeError::Transport { error, .. } if error.is_connect())
    }

    /// The rustls error when the TLS handshake failed (an unknown CA, a certificate for
    /// another name, a refused client certificate, ...).
    pub fn tls_error(&self) -> Option<&rustls::Error> {
        match self {
            ExchangeError::Transport { error, .. } | ExchangeError::Body { error, .. } => {
                find_in_chain(&**error)
            }
            _ => None,
        }
    }

    /// The URL called, when the exchange got that far.
    pub fn url(&self) -> Option<&str> {
        match self {
            ExchangeError::Encode(_) => None,
            ExchangeError::Transport { url, .. }
            | ExchangeError::Timeout { url, .. }
            | ExchangeError::HttpStatus { url, .. }
            | ExchangeError::HttpStatusBody { url, .. }
            | ExchangeError::Body { url, .. }
            | ExchangeError::BodyTooLarge { url, .. }
            | ExchangeError::Decode { url, .. } => Some(url),
        }
    }
}

/// Why calling one handler, or the handlers of a hook, failed.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum CallError {
    /// The hook of a call to one handler is not in the client's catalog.
    HookNotInCatalog {
        /// The handler's full name.
        handler: String,
        /// The catalog's answer.
        source: CatalogError,
    },
    /// The registry is not ready or has no such handler.
    Registry {
        /// The handler's full name.
        handler: String,
        /// The registry's answer.
        source: RegistryError,
    },
    /// The handler is registered for another hook.
    HookMismatch {
        /// The handler's full name.
        handler: String,
        /// The hook of the call.
        expected: GroupHook,
        /// The hook the handler is registered for.
        registered: Box<HookId>,
    },
    /// The handler speaks another version of the hook and the catalog cannot convert the
    /// request to it or the response from it. A misconfiguration: never ignored.
    NoConversion {
        /// The handler's full name.
        handler: String,
        /// The hook (and version) of the call.
        caller: Box<HookId>,
        /// The hook version the handler is registered for.
        registered: Box<HookId>,
    },
    /// The handler's namespace selector does not select the object's namespace.
    NamespaceMismatch {
        /// The handler's full name.
        handler: String,
        /// The object's namespace.
        namespace: String,
        /// The object's name.
        name: String,
    },
    /// No HTTP client could be made for the handler's ExtensionConfig.
    HttpClient {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<HookId>,
        /// What is wrong with the client config (its URL or TLS error is the source).
        source: ClientConfigError,
    },
    /// The exchange failed and the failure policy is `Fail` (or the error is not a calling
    /// error).
    Exchange {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<HookId>,
        /// What failed.
        source: ExchangeError,
    },
    /// The handler answered with status `Failure`. Never covered by the failure policy.
    Failure {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<HookId>,
        /// The URL called.
        url: String,
        /// The extension's message.
        message: String,
    },
    /// The handler answered with a status that is neither `Success` nor `Failure` (including
    /// none). Never covered by the failure policy.
    UnknownStatus {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<HookId>,
        /// The URL called.
        url: String,
        /// The status as written (empty when absent).
        status: String,
        /// The extension's message.
        message: String,
    },
    /// The hook of a call to every handler is not in the client's catalog.
    UnknownHook {
        /// The hook.
        hook: Box<GroupHook>,
        /// The catalog's answer.
        source: CatalogError,
    },
    /// Calling the handlers of a hook failed before any call.
    List {
        /// The hook.
        hook: GroupHook,
        /// The registry's answer.
        source: RegistryError,
    },
    /// One of the handlers of a hook failed; the first failure in handler-name order.
    Handler {
        /// The hook.
        hook: GroupHook,
        /// The handler's error.
        source: Box<CallError>,
    },
    // Variants added after the first release go last: a published enum keeps the
    // discriminants of its variants (cargo-semver-checks holds it to that).
    /// Whether the handler's namespace selector matches the object's namespace could not be
    /// known: the labels it needs are not known, or reading them failed (the source says
    /// which). Never covered by the failure policy, and never a silent skip.
    Namespace {
        /// The handler's full name.
        handler: String,
        /// Why the selector could not be matched.
        source: NamespaceError,
    },
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::HookNotInCatalog { handler, .. } => write!(
                f,
                "failed to call extension handler {handler:?}: failed to compute GroupVersionHook"
            ),
            CallError::Registry { handler, .. } | CallError::Exchange { handler, .. } => {
                write!(f, "failed to call extension handler {handler:?}")
            }
            CallError::HookMismatch {
                handler, expected, ..
            } => write!(
                f,
                "failed to call extension handler {handler:?}: handler does not match GroupHook \"{expected}\""
            ),
            CallError::NoConversion {
                handler,
                caller,
                registered,
            } => write!(
                f,
                "failed to call extension handler {handler:?}: no conversion between hook {caller} and the handler's version {registered}"
            ),
            CallError::NamespaceMismatch {
                handler,
                namespace,
                name,
            } => write!(
                f,
                "failed to call extension handler {handler:?}: namespaceSelector did not match object {namespace}/{name}"
            ),
            CallError::Namespace { handler, .. } => write!(
                f,
                "failed to call extension handler {handler:?}: failed to match namespace"
            ),
            CallError::HttpClient { handler, .. } => write!(
                f,
                "failed to call extension handler {handler:?}: failed to get http client"
            ),
            CallError::Failure {
                handler, message, ..
            } => write!(
                f,
                "failed to call extension handler {handler:?}: got failure response with message: {message}"
            ),
            CallError::UnknownStatus {
                handler,
                status,
                message,
                ..
            } => write!(
                f,
                "failed to call extension handler {handler:?}: got unknown response status {status:?} with message: {message}"
            ),
            CallError::UnknownHook { hook, .. } => write!(
                f,
                "failed to call extension handlers for hook \"{hook}\": failed to compute GroupVersionHook"
            ),
            CallError::List { hook, .. } | CallError::Handler { hook, .. } => {
                write!(f, "failed to call extension handlers for hook \"{hook}\"")
            }
        }
    }
}

impl StdError for CallError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            CallError::HookNotInCatalog { source, .. } | CallError::UnknownHook { source, .. } => {
                Some(source)
            }
            CallError::Registry { source, .. } | CallError::List { source, .. } => Some(source),
            CallError::HttpClient { source, .. } => Some(source.as_cause()),
            CallError::Namespace { source, .. } => Some(source),
            CallError::Exchange { source, .. } => Some(source),
            CallError::Handler { source, .. } => Some(&**source),
            CallError::HookMismatch { .. }
            | CallError::NoConversion { .. }
            | CallError::NamespaceMismatch { .. }
            | CallError::Failure { .. }
            | CallError::UnknownStatus { .. } => None,
        }
    }
}

impl CallError {
    /// The full name of the handler the error is about, if any.
    pub fn handler(&self) -> Option<&str> {
        match self {
            CallError::HookNotInCatalog { handler, .. }
            | CallError::Registry { handler, .. }
            | CallError::HookMismatch { handler, .. }
            | CallError::NoConversion { handler, .. }
            | CallError::NamespaceMismatch { handler, .. }
            | CallError::Namespace { handler, .. }
            | CallError::HttpClient { handler, .. }
            | CallError::Exchange { handler, .. }
            | CallError::Failure { handler, .. }
            | CallError::UnknownStatus { handler, .. } => {
                Some(handler).filter(|h| !h.is_empty()).map(String::as_str)
            }
            CallError::UnknownHook { .. } | CallError::List { .. } => None,
            CallError::Handler { source, .. } => source.handler(),
        }
    }

    /// The URL called, when the error happened at or after sending.
    pub fn url(&self) -> Option<&str> {
        match self {
            CallError::Exchange { source, .. } => source.url(),
            CallError::Failure { url, .. } | CallError::UnknownStatus { url, .. } => Some(url),
            CallError::Handler { source, .. } => source.url(),
            _ => None,
        }
    }

    /// The error of the failing handler, looking through [`CallError::Handler`].
    pub fn root(&self) -> &CallError {
        match self {
            CallError::Handler { source, .. } => source.root(),
            other => other,
        }
    }
}

/// Why a [`Client`](super::Client) could not be built.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The client certificate could not be loaded (the source).
    #[error("failed to create RuntimeSDK client")]
    Identity(#[source] TlsError),
}

impl From<TlsError> for BuildError {
    fn from(e: TlsError) -> Self {
        BuildError::Identity(e)
    }
}
