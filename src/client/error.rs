//! Typed errors of the runtime client.
//!
//! Messages follow Cluster API's wording where it has one, name the handler (and so the
//! ExtensionConfig) and, for anything that reached the network, the URL. URLs never carry
//! credentials: user info is refused when the URL is built.

use std::time::Duration;

use crate::catalog::{CatalogError, GroupHook, GroupVersionHook};
use crate::registry::{RegistryError, aggregate};

use super::discovery::ValidationError;
use super::tls::TlsError;
use super::urls::UrlError;
use crate::decode::DecodeError;

/// Why no HTTP client could be made for an ExtensionConfig's client config.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientConfigError {
    /// The URL is missing or invalid.
    #[error(transparent)]
    Url(#[from] UrlError),
    /// The CA bundle or TLS configuration is unusable.
    #[error(transparent)]
    Tls(#[from] TlsError),
}

/// Why one HTTP exchange with an extension failed.
///
/// Every variant except [`ExchangeError::Encode`] is a *calling* error, which a handler's
/// `Ignore` failure policy swallows; see [`ExchangeError::is_calling_error`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeError {
    /// The request could not be serialised; a bug on the caller's side, never ignored.
    #[error("http call failed: failed to marshal request object: {0}")]
    Encode(String),
    /// Connecting, the TLS handshake or the transfer failed.
    #[error("http call failed: Post {url:?}: {cause}")]
    Transport {
        /// The URL called.
        url: String,
        /// The error and its causes.
        cause: String,
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
    /// The body of a non-200 answer could not be read.
    #[error(
        "http call failed: got response with status code {code} != 200: failed to read response body: {cause}"
    )]
    HttpStatusBody {
        /// The URL called.
        url: String,
        /// The HTTP status.
        code: u16,
        /// Why reading failed.
        cause: String,
    },
    /// The body of a 200 answer could not be read.
    #[error("http call failed: failed to read response body from {url:?}: {cause}")]
    Body {
        /// The URL called.
        url: String,
        /// Why reading failed.
        cause: String,
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
    #[error("http call failed: failed to decode response from {url:?}: {source}")]
    Decode {
        /// The URL called.
        url: String,
        /// What did not decode.
        source: DecodeError,
    },
}

impl ExchangeError {
    /// True for errors communicating with the extension, the ones `Ignore` applies to.
    pub fn is_calling_error(&self) -> bool {
        !matches!(self, ExchangeError::Encode(_))
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
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallError {
    /// The hook is not in the client's catalog.
    #[error(
        "failed to call extension handler {handler:?}: failed to compute GroupVersionHook: {source}"
    )]
    HookNotInCatalog {
        /// The handler's full name (empty for calls to every handler).
        handler: String,
        /// The catalog's answer.
        source: CatalogError,
    },
    /// The registry is not ready or has no such handler.
    #[error("failed to call extension handler {handler:?}: {source}")]
    Registry {
        /// The handler's full name.
        handler: String,
        /// The registry's answer.
        source: RegistryError,
    },
    /// The handler is registered for another hook.
    #[error(
        "failed to call extension handler {handler:?}: handler does not match GroupHook \"{expected}\""
    )]
    HookMismatch {
        /// The handler's full name.
        handler: String,
        /// The hook of the call.
        expected: GroupHook,
        /// The hook the handler is registered for.
        registered: Box<GroupVersionHook>,
    },
    /// The handler speaks another version of the hook and the catalog cannot convert the
    /// request to it or the response from it. A misconfiguration: never ignored.
    #[error(
        "failed to call extension handler {handler:?}: no conversion between hook {caller} and the handler's version {registered}"
    )]
    NoConversion {
        /// The handler's full name.
        handler: String,
        /// The hook (and version) of the call.
        caller: Box<GroupVersionHook>,
        /// The hook version the handler is registered for.
        registered: Box<GroupVersionHook>,
    },
    /// The handler's namespace selector does not select the object's namespace.
    #[error(
        "failed to call extension handler {handler:?}: namespaceSelector did not match object {namespace}/{name}"
    )]
    NamespaceMismatch {
        /// The handler's full name.
        handler: String,
        /// The object's namespace.
        namespace: String,
        /// The object's name.
        name: String,
    },
    /// No HTTP client could be made for the handler's ExtensionConfig.
    #[error("failed to call extension handler {handler:?}: failed to get http client: {source}")]
    HttpClient {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<GroupVersionHook>,
        /// What is wrong with the client config.
        source: ClientConfigError,
    },
    /// The exchange failed and the failure policy is `Fail` (or the error is not a calling
    /// error).
    #[error("failed to call extension handler {handler:?}: {source}")]
    Exchange {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<GroupVersionHook>,
        /// What failed.
        source: ExchangeError,
    },
    /// The handler answered with status `Failure`. Never covered by the failure policy.
    #[error(
        "failed to call extension handler {handler:?}: got failure response with message: {message}"
    )]
    Failure {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<GroupVersionHook>,
        /// The URL called.
        url: String,
        /// The extension's message.
        message: String,
    },
    /// The handler answered with a status that is neither `Success` nor `Failure` (including
    /// none). Never covered by the failure policy.
    #[error(
        "failed to call extension handler {handler:?}: got unknown response status {status:?} with message: {message}"
    )]
    UnknownStatus {
        /// The handler's full name.
        handler: String,
        /// The hook called.
        hook: Box<GroupVersionHook>,
        /// The URL called.
        url: String,
        /// The status as written (empty when absent).
        status: String,
        /// The extension's message.
        message: String,
    },
    /// Calling the handlers of a hook failed before any call.
    #[error("failed to call extension handlers for hook \"{hook}\": {source}")]
    List {
        /// The hook.
        hook: GroupHook,
        /// The registry's answer.
        source: RegistryError,
    },
    /// One of the handlers of a hook failed; the first failure in handler-name order.
    #[error("failed to call extension handlers for hook \"{hook}\": {source}")]
    Handler {
        /// The hook.
        hook: GroupHook,
        /// The handler's error.
        source: Box<CallError>,
    },
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
            | CallError::HttpClient { handler, .. }
            | CallError::Exchange { handler, .. }
            | CallError::Failure { handler, .. }
            | CallError::UnknownStatus { handler, .. } => {
                Some(handler).filter(|h| !h.is_empty()).map(String::as_str)
            }
            CallError::List { .. } => None,
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
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DiscoveryError {
    /// The catalog has no Discovery hook.
    #[error("failed to discover extension {config:?}: failed to compute GVH of hook: {source}")]
    HookNotInCatalog {
        /// The ExtensionConfig's name.
        config: String,
        /// The catalog's answer.
        source: CatalogError,
    },
    /// The ExtensionConfig's name is not a DNS label, so its handler names would be
    /// ambiguous.
    #[error(
        "failed to discover extension {config:?}: the ExtensionConfig name is not a valid DNS-1123 label"
    )]
    InvalidName {
        /// The ExtensionConfig's name.
        config: String,
    },
    /// No HTTP client could be made for the client config.
    #[error("failed to discover extension {config:?}: failed to get http client: {source}")]
    HttpClient {
        /// The ExtensionConfig's name.
        config: String,
        /// What is wrong with the client config.
        source: ClientConfigError,
    },
    /// The exchange failed.
    #[error("failed to discover extension {config:?}: {source}")]
    Exchange {
        /// The ExtensionConfig's name.
        config: String,
        /// What failed.
        source: ExchangeError,
    },
    /// The extension answered with status `Failure`.
    #[error(
        "failed to discover extension {config:?}: got failure response with message: {message}"
    )]
    Failure {
        /// The ExtensionConfig's name.
        config: String,
        /// The extension's message.
        message: String,
    },
    /// The extension answered with a status that is neither `Success` nor `Failure`.
    #[error(
        "failed to discover extension {config:?}: got unknown response status {status:?} with message: {message}"
    )]
    UnknownStatus {
        /// The ExtensionConfig's name.
        config: String,
        /// The status as written.
        status: String,
        /// The extension's message.
        message: String,
    },
    /// The response breaks at least one rule; every violation is listed.
    #[error(
        "failed to discover extension {config:?}: failed to validate discovery response: {}",
        aggregate(errors)
    )]
    Invalid {
        /// The ExtensionConfig's name.
        config: String,
        /// One entry per violation.
        errors: Vec<ValidationError>,
    },
}

/// Why a [`Client`](super::Client) could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The client certificate could not be loaded.
    #[error("failed to create RuntimeSDK client: {0}")]
    Identity(#[from] TlsError),
}
