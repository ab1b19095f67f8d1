//! The errors of discovery: [`DiscoveryError`], and [`ValidationError`] for each rule a
//! Discovery response breaks.

use std::error::Error as StdError;
use std::fmt;

use super::error::{ClientConfigError, ExchangeError};
use crate::api::runtime::validation::FieldError;
use crate::catalog::CatalogError;
use crate::go::errors::{aggregate_messages, chain};

/// Why discovering an extension failed. Discovery has no failure policy: any error fails it,
/// and a failed discovery changes nothing.
///
/// Like [`CallError`](super::CallError), each variant shows its own layer and returns its
/// cause as its [`source`](StdError::source); Cluster API's one-line message is
/// [`chain(&err)`](crate::go::errors::chain). [`DiscoveryError::Invalid`] has several causes:
/// it lists them in its own message, as apimachinery's aggregate does, and has no source.
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
        /// What is wrong with the client config (its URL or TLS error is the source).
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
            DiscoveryError::HookNotInCatalog { config, .. } => write!(
                f,
                "failed to discover extension {config:?}: failed to compute GVH of hook"
            ),
            DiscoveryError::InvalidName { config } => write!(
                f,
                "failed to discover extension {config:?}: the ExtensionConfig name is not a valid DNS-1123 label"
            ),
            DiscoveryError::HttpClient { config, .. } => write!(
                f,
                "failed to discover extension {config:?}: failed to get http client"
            ),
            DiscoveryError::Exchange { config, .. } => {
                write!(f, "failed to discover extension {config:?}")
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
                aggregate_messages(errors.iter().map(|e| chain(e).to_string()))
            ),
        }
    }
}

impl StdError for DiscoveryError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            DiscoveryError::HookNotInCatalog { source, .. } => Some(source),
            DiscoveryError::HttpClient { source, .. } => Some(source.as_cause()),
            DiscoveryError::Exchange { source, .. } => Some(source),
            DiscoveryError::InvalidName { .. }
            | DiscoveryError::Failure { .. }
            | DiscoveryError::UnknownStatus { .. }
            | DiscoveryError::Invalid { .. } => None,
        }
    }
}

/// One rule a Discovery response breaks, in Cluster API's wording; [`ValidationError::field`]
/// gives the same problem as a field error (`handlers[i].<field>`).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    /// Two handlers have the same name (reported for the second and later ones).
    #[error("duplicate name for handler {name} found")]
    DuplicateName {
        /// The handler's name.
        name: String,
        /// The rule broken.
        field: FieldError,
    },
    /// The name is not a DNS-1123 label.
    #[error("handler name {name} is not valid: [{}]", field.detail)]
    InvalidName {
        /// The handler's name.
        name: String,
        /// The rule broken; its detail lists Kubernetes' reasons.
        field: FieldError,
    },
    /// The timeout is outside 0..=30 seconds.
    #[error("handler {name} timeoutSeconds {timeout} {}", field.detail)]
    Timeout {
        /// The handler's name.
        name: String,
        /// The timeout asked for.
        timeout: i64,
        /// The rule broken.
        field: FieldError,
    },
    /// The failure policy is neither `Ignore` nor `Fail`.
    #[error("handler {name} failurePolicy {policy} {}", field.detail)]
    FailurePolicy {
        /// The handler's name.
        name: String,
        /// The policy asked for.
        policy: String,
        /// The rule broken.
        field: FieldError,
    },
    /// The hook's apiVersion is not `<group>/<version>`.
    #[error("handler {name} requestHook APIVersion {api_version} is not valid: {}", field.detail)]
    ApiVersion {
        /// The handler's name.
        name: String,
        /// The apiVersion as written.
        api_version: String,
        /// The rule broken; its detail says why it does not parse.
        field: FieldError,
    },
    /// The hook is not in the catalog (in that version).
    #[error("handler {name} requestHook {api_version}/{hook} is not in the Runtime SDK catalog")]
    NotInCatalog {
        /// The handler's name.
        name: String,
        /// The apiVersion as written.
        api_version: String,
        /// The hook as written.
        hook: String,
        /// The rule broken.
        field: FieldError,
    },
}

impl ValidationError {
    /// The problem as an apimachinery-style field error.
    pub fn field(&self) -> &FieldError {
        match self {
            ValidationError::DuplicateName { field, .. }
            | ValidationError::InvalidName { field, .. }
            | ValidationError::Timeout { field, .. }
            | ValidationError::FailurePolicy { field, .. }
            | ValidationError::ApiVersion { field, .. }
            | ValidationError::NotInCatalog { field, .. } => field,
        }
    }
}
