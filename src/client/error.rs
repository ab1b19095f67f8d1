//! Typed errors of the runtime client.
//!
//! Messages follow Cluster API's wording where it has one, name the handler (and so the
//! ExtensionConfig) and, for anything that reached the network, the URL. URLs never carry
//! credentials: user info is refused when the URL is built.
//!
//! Like Cluster API's (Go's wrapped errors), a message is one line that carries its causes.
//! The causes are also kept as values in the variants (a caller matches on them, or asks
//! [`ExchangeError::is_connect`] and [`ExchangeError::tls_error`], instead of reading the text);
//! they are not also returned by [`source`](std::error::Error::source), so that a chain
//! reporter prints each cause once.

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::api::runtime::validation::UrlError;
use crate::catalog::{CatalogError, GroupHook, HookId};
use crate::registry::{RegistryError, aggregate};

use super::discovery::ValidationError;
use crate::tls::{Cause, TlsError, find_in_chain};
use crate::wire::DecodeError;

/// Why no HTTP client could be made for an ExtensionConfig's client config.
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

/// The error and its causes, as one line, each cause once.
fn describe(e: &(dyn StdError + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.last().is_some_and(|last| last.ends_with(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

/// A reqwest error with its causes, displayed as one line.
struct Chain<'a>(&'a (dyn StdError + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&describe(self.0))
    }
}

/// Why one HTTP exchange with an extension failed.
///
/// Every variant except [`ExchangeError::Encode`] is a *calling* error, which a handler's
/// `Ignore` failure policy swallows; see [`ExchangeError::is_calling_error`].
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ExchangeError {
    /// The request could not be serialised; a bug on the caller's side, never ignored.
    #[error("http call failed: failed to marshal request object: {0}")]
    Encode(Cause),
    /// Connecting, the TLS handshake or the transfer failed.
    #[error("http call failed: Post {url:?}: {}", Chain(&**error))]
    Transport {
        /// The URL called.
        url: String,
        /// reqwest's error (without the URL, which the message has already); see
        /// [`ExchangeError::is_connect`] and [`ExchangeError::tls_error`].
        error: Arc<reqwest::Error>,
    },
    /// The call did not complete within the handler's timeout.
    #[error("http call failed: Post {url:?}: no complete response within {}s", timeout.as_secs())]
    Timeout {
        /// The URL called.
        url: String,
        /// The deadline.
        timeout: Duration,
    },
    /// The extension answered with a status other than 200 (redirects are not followed).
    #[error("http call failed: got response with status code {code} != 200: response : {excerpt}")]
    HttpStatus {
        /// The URL called.
        url: String,
        /// The HTTP status.
        code: u16,
        /// The first 512 bytes of the body, quoted, with `...` when cut.
        excerpt: String,
    },
    /// The body of a non-200 answer could not be read (or was larger than the client accepts).
    #[error(
        "http call failed: got response with status code {code} != 200: failed to read response body: {}",
        Chain(&**error)
    )]
    HttpStatusBody {
        /// The URL called.
        url: String,
        /// The HTTP status.
        code: u16,
        /// Why reading failed.
        error: Cause,
    },
    /// The body of a 200 answer could not be read.
    #[error("http call failed: failed to read response body from {url:?}: {}", Chain(&**error))]
    Body {
        /// The URL called.
        url: String,
        /// reqwest's error.
        error: Arc<reqwest::Error>,
    },
    /// The body is larger than the client accepts.
    #[error("http call failed: response body from {url:?} is larger than {limit} bytes")]
    BodyTooLarge {
        /// The URL called.
        url: String,
        /// The HTTP status.
        code: u16,
        /// The limit in bytes.
        limit: usize,
    },
    /// The body of a 200 answer is not a response of the hook.
    #[error("http call failed: failed to decode response from {url:?}: {error}")]
    Decode {
        /// The URL called.
        url: String,
        /// What did not decode.
        error: Box<DecodeError>,
    },
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
        /// What is wrong with the client config.
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
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::HookNotInCatalog { handler, source } => write!(
                f,
                "failed to call extension handler {handler:?}: failed to compute GroupVersionHook: {source}"
            ),
            CallError::Registry { handler, source } => {
                write!(f, "failed to call extension handler {handler:?}: {source}")
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
            CallError::HttpClient {
                handler, source, ..
            } => write!(
                f,
                "failed to call extension handler {handler:?}: failed to get http client: {source}"
            ),
            CallError::Exchange {
                handler, source, ..
            } => write!(f, "failed to call extension handler {handler:?}: {source}"),
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
            CallError::UnknownHook { hook, source } => write!(
                f,
                "failed to call extension handlers for hook \"{hook}\": failed to compute GroupVersionHook: {source}"
            ),
            CallError::List { hook, source } => write!(
                f,
                "failed to call extension handlers for hook \"{hook}\": {source}"
            ),
            CallError::Handler { hook, source } => write!(
                f,
                "failed to call extension handlers for hook \"{hook}\": {source}"
            ),
        }
    }
}

impl StdError for CallError {}

impl CallError {
    /// The full name of the handler the error is about, if any.
    pub fn handler(&self) -> Option<&str> {
        match self {
            CallError::HookNotInCatalog { handler, .. }
            | CallError::Registry { handler, .. }
            | CallError::HookMismatch { handler, .. }
            | CallError::NoConversion { handler, .. }
            | CallError::NamespaceMismatch { handler, .. }
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

/// Why discovering an extension failed. Discovery has no failure policy: any error fails it,
/// and a failed discovery changes nothing.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum DiscoveryError {
    /// The catalog has no Discovery hook.
    HookNotInCatalog {
        /// The ExtensionConfig's name.
        config: String,
        /// The catalog's answer.
        source: CatalogError,
    },
    /// The ExtensionConfig's name is not a DNS label, so its handler names would be
    /// ambiguous.
    InvalidName {
        /// The ExtensionConfig's name.
        config: String,
    },
    /// No HTTP client could be made for the client config.
    HttpClient {
        /// The ExtensionConfig's name.
        config: String,
        /// What is wrong with the client config.
        source: ClientConfigError,
    },
    /// The exchange failed.
    Exchange {
        /// The ExtensionConfig's name.
        config: String,
        /// What failed.
        source: ExchangeError,
    },
    /// The extension answered with status `Failure`.
    Failure {
        /// The ExtensionConfig's name.
        config: String,
        /// The extension's message.
        message: String,
    },
    /// The extension answered with a status that is neither `Success` nor `Failure`.
    UnknownStatus {
        /// The ExtensionConfig's name.
        config: String,
        /// The status as written.
        status: String,
        /// The extension's message.
        message: String,
    },
    /// The response breaks at least one rule; every violation is listed.
    Invalid {
        /// The ExtensionConfig's name.
        config: String,
        /// One entry per violation.
        errors: Vec<ValidationError>,
    },
}

impl fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiscoveryError::HookNotInCatalog { config, source } => write!(
                f,
                "failed to discover extension {config:?}: failed to compute GVH of hook: {source}"
            ),
            DiscoveryError::InvalidName { config } => write!(
                f,
                "failed to discover extension {config:?}: the ExtensionConfig name is not a valid DNS-1123 label"
            ),
            DiscoveryError::HttpClient { config, source } => write!(
                f,
                "failed to discover extension {config:?}: failed to get http client: {source}"
            ),
            DiscoveryError::Exchange { config, source } => {
                write!(f, "failed to discover extension {config:?}: {source}")
            }
            DiscoveryError::Failure { config, message } => write!(
                f,
                "failed to discover extension {config:?}: got failure response with message: {message}"
            ),
            DiscoveryError::UnknownStatus {
                config,
                status,
                message,
            } => write!(
                f,
                "failed to discover extension {config:?}: got unknown response status {status:?} with message: {message}"
            ),
            DiscoveryError::Invalid { config, errors } => write!(
                f,
                "failed to discover extension {config:?}: failed to validate discovery response: {}",
                aggregate(errors)
            ),
        }
    }
}

impl StdError for DiscoveryError {}

/// Why a [`Client`](super::Client) could not be built.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The client certificate could not be loaded.
    #[error("failed to create RuntimeSDK client: {0}")]
    Identity(TlsError),
}

impl From<TlsError> for BuildError {
    fn from(e: TlsError) -> Self {
        BuildError::Identity(e)
    }
}
