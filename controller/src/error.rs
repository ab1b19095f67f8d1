//! The controller's errors, as values that chain: each variant's `Display` says what its own
//! step failed to do and `source()` returns the cause (a [`KubeError`], a
//! [`DiscoveryError`], a [`RegistryError`], a [`CaError`], ...).
//!
//! Cluster API's one-line texts (condition messages, logs, the warm-up's error) are renderings
//! of the chain with [`capi_runtime::go::errors::chain`], never `to_string()`:
//!
//! ```
//! use capi_runtime::go::errors::chain;
//! use capi_runtime_controller::error::{CaError, Error};
//!
//! let e = Error::reconcile(Error::from(CaError::NoCaEntry("ns/ca".into())));
//! assert_eq!(e.to_string(), "failed to reconcile ExtensionConfig");
//! assert_eq!(
//!     chain(&e).to_string(),
//!     "failed to reconcile ExtensionConfig: failed to reconcile caBundle: secret ns/ca does not contain a \"ca.crt\" entry"
//! );
//! assert!(!e.is_transient(), "only a change of the Secret (which is watched) fixes it");
//! ```
//!
//! [`Error::is_transient`] is what the controller's error policy reads: a transient error is
//! retried with Cluster API's back-off, a permanent one waits for a change of the object (see
//! [`crate::controller`]).

use std::fmt;
use std::time::Duration;

use capi_runtime::client::DiscoveryError;
use capi_runtime::go::errors::Aggregate;
use capi_runtime::go::time::format_duration;
use capi_runtime::registry::RegistryError;

/// Why a reconcile, a warm-up or one of their steps failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading the ExtensionConfig from the API server failed (Cluster API returns the client's
    /// error as it is, so this layer adds no text).
    #[error(transparent)]
    Get(KubeError),
    /// Listing the ExtensionConfigs for warm-up failed.
    #[error("failed to list ExtensionConfigs")]
    List(#[source] KubeError),
    /// Removing the registrations of an ExtensionConfig failed.
    #[error("failed to unregister ExtensionConfig {name}")]
    Unregister {
        /// The ExtensionConfig's name.
        name: String,
        /// The registry's answer.
        #[source]
        source: RegistryError,
    },
    /// Registering the handlers of an ExtensionConfig failed.
    #[error("failed to register ExtensionConfig {key}")]
    Register {
        /// `<namespace>/<name>` (`/<name>` for the cluster-scoped ExtensionConfig).
        key: String,
        /// The registry's answer.
        #[source]
        source: RegistryError,
    },
    /// A read-only reconciler found the object not ready to register.
    #[error("failed to validate ExtensionConfig")]
    Validate(#[source] ReadOnlyError),
    /// CA injection, discovery or the status patch failed (the object was not registered).
    #[error("failed to reconcile ExtensionConfig")]
    Reconcile(#[source] Box<Error>),
    /// The CA bundle could not be injected.
    #[error(transparent)]
    CaBundle(#[from] CaError),
    /// Discovery failed.
    #[error("failed to discover ExtensionConfig {name}")]
    Discover {
        /// The ExtensionConfig's name.
        name: String,
        /// The runtime client's error (boxed: it is the largest cause).
        #[source]
        source: Box<DiscoveryError>,
    },
    /// Patching the ExtensionConfig (its status) failed.
    #[error("failed to patch ExtensionConfig {name}")]
    Patch {
        /// The ExtensionConfig's name.
        name: String,
        /// The API server's answer.
        #[source]
        source: KubeError,
    },
    /// Several steps failed (Cluster API aggregates them: `[e1, e2]`); each is an [`Error`].
    #[error(transparent)]
    Several(Aggregate),
    /// Loading the registry at the end of a warm-up pass failed.
    #[error(transparent)]
    WarmUpRegistry(RegistryError),
    /// Warm-up did not succeed in time; the cause is the last pass's error.
    #[error("ExtensionConfig registry warmup timed out after {}", format_duration(*.timeout))]
    WarmUpTimeout {
        /// The time warm-up had.
        timeout: Duration,
        /// The last pass's error, or [`Error::DeadlineExceeded`] when none finished.
        #[source]
        last: Box<Error>,
    },
    /// A deadline passed before the step finished (Go's `context deadline exceeded`).
    #[error("context deadline exceeded")]
    DeadlineExceeded,
    /// One reconcile took longer than the controller allows.
    #[error("reconcile of ExtensionConfig {name} did not finish within {}", format_duration(*.after))]
    Timeout {
        /// The ExtensionConfig's name.
        name: String,
        /// The limit.
        after: Duration,
    },
}

impl Error {
    /// `failed to reconcile ExtensionConfig: <cause>`.
    pub fn reconcile(cause: Error) -> Error {
        Error::Reconcile(Box::new(cause))
    }

    /// One error for several: `None` for none, the error itself for one, [`Error::Several`]
    /// otherwise.
    pub fn aggregate(mut errors: Vec<Error>) -> Option<Error> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Aggregate::new(errors).map(Error::Several),
        }
    }

    /// Whether trying again may succeed without any change the controller watches: API
    /// server hiccups (timeouts, 429, 5xx, conflicts, lost connections), an extension that
    /// cannot be reached or answers badly, a registry not warmed up yet, a reconcile that
    /// timed out. Not transient: what only a change of the ExtensionConfig or of its CA
    /// Secret fixes (both are watched, so the fix brings a reconcile): a malformed
    /// CA-injection annotation, a missing Secret or `ca.crt`, an invalid client config or
    /// handler list, a read-only check, and a warm-up that timed out (the process stops).
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Get(e) | Error::List(e) | Error::Patch { source: e, .. } => e.is_transient(),
            Error::Unregister { source, .. }
            | Error::Register { source, .. }
            | Error::WarmUpRegistry(source) => source.is_not_ready(),
            Error::Validate(_) | Error::WarmUpTimeout { .. } => false,
            Error::Reconcile(e) => e.is_transient(),
            Error::CaBundle(e) => e.is_transient(),
            Error::Discover { source, .. } => discovery_is_transient(source),
            Error::Several(all) => errors_of(all).any(|e| e.is_none_or(Error::is_transient)),
            Error::DeadlineExceeded | Error::Timeout { .. } => true,
        }
    }

    /// Whether the API server refused a write because the object changed meanwhile (409): the
    /// next reconcile, with the object as it is now, will most likely succeed.
    pub fn is_conflict(&self) -> bool {
        match self {
            Error::Get(e) | Error::List(e) | Error::Patch { source: e, .. } => e.is_conflict(),
            Error::Reconcile(e) => e.is_conflict(),
            Error::CaBundle(CaError::Patch { source, .. }) => source.is_conflict(),
            Error::Several(all) => errors_of(all).all(|e| e.is_some_and(Error::is_conflict)),
            _ => false,
        }
    }
}

/// The errors of an aggregate, as [`Error`]s where they are (`None` for another type).
fn errors_of(all: &Aggregate) -> impl Iterator<Item = Option<&Error>> {
    all.errors().iter().map(|e| e.downcast_ref::<Error>())
}

/// Discovery failures that only a change of the ExtensionConfig (or of the program) fixes are
/// permanent: a name that is not a DNS label, a client config no HTTP client can be made for
/// (bad URL, unreadable CA bundle), a catalog without the Discovery hook. Everything on the
/// extension's side (unreachable, TLS, timeouts, a `Failure`, an invalid answer) is
/// transient: the extension may be starting, rolling out or rotating its certificate.
fn discovery_is_transient(e: &DiscoveryError) -> bool {
    !matches!(
        e,
        DiscoveryError::HookNotInCatalog { .. }
            | DiscoveryError::InvalidName { .. }
            | DiscoveryError::HttpClient { .. }
    )
}

/// An error of the Kubernetes client, written as client-go writes it: an answer of the API
/// server is its Status message (`secrets "ca" not found`), anything else kube's text.
///
/// It ends a chain: kube's errors write their causes into their own text *and* return them
/// from `source()`, so a chain through them would print each cause twice. The kube error
/// itself is [`KubeError::kube`].
#[derive(Debug)]
pub struct KubeError(pub kube::Error);

impl KubeError {
    /// The kube error.
    pub fn kube(&self) -> &kube::Error {
        &self.0
    }

    /// The HTTP status code of the API server's answer, if it answered.
    pub fn code(&self) -> Option<u16> {
        match &self.0 {
            kube::Error::Api(status) => Some(status.code),
            _ => None,
        }
    }

    /// True for a 409 Conflict.
    pub fn is_conflict(&self) -> bool {
        self.code() == Some(409)
    }

    /// True unless the API server refused the request for what it is (400, 404, 405, 406,
    /// 413, 415, 422): trying the same request again would get the same answer. No answer at
    /// all (a connection, TLS or decoding failure) counts as transient.
    pub fn is_transient(&self) -> bool {
        !matches!(self.code(), Some(400 | 404 | 405 | 406 | 413 | 415 | 422))
    }
}

impl fmt::Display for KubeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            kube::Error::Api(status) => f.write_str(&status.message),
            other => write!(f, "{other}"),
        }
    }
}

impl std::error::Error for KubeError {}

impl From<kube::Error> for KubeError {
    fn from(e: kube::Error) -> Self {
        KubeError(e)
    }
}

/// Why an ExtensionConfig cannot be registered by a read-only controller; Cluster API's
/// messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadOnlyError {
    /// No CA bundle.
    #[error("caBundle is not set on ExtensionConfig {0}")]
    NoCaBundle(String),
    /// No `Discovered` condition yet.
    #[error("Discovered condition not yet set on ExtensionConfig {0}")]
    NotDiscoveredYet(String),
    /// `Discovered` is not true.
    #[error(
        "Discovered condition on ExtensionConfig {name} must have status: True (instead it has: {status})"
    )]
    NotTrue {
        /// The name.
        name: String,
        /// The condition's status.
        status: String,
    },
    /// `Discovered` is about an older generation.
    #[error(
        "Discovered condition on ExtensionConfig {name} must have observedGeneration: {generation} (instead it has: {observed})"
    )]
    Stale {
        /// The name.
        name: String,
        /// `metadata.generation`.
        generation: i64,
        /// The condition's observed generation.
        observed: i64,
    },
}

/// Why the CA bundle could not be injected (runtime.md §4.3); the layers are Cluster API's.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaError {
    /// The annotation is not `<namespace>/<name>`.
    #[error(
        "failed to reconcile caBundle: secret name {0:?} must be in the form <namespace>/<name>"
    )]
    BadReference(String),
    /// Reading the Secret failed.
    #[error("failed to reconcile caBundle: failed to get secret {reference:?}")]
    Get {
        /// The annotation's value.
        reference: String,
        /// The API server's answer.
        #[source]
        source: KubeError,
    },
    /// The Secret has no `ca.crt`.
    #[error("failed to reconcile caBundle: secret {0} does not contain a \"ca.crt\" entry")]
    NoCaEntry(String),
    /// Patching the ExtensionConfig with the new bundle failed.
    #[error("failed to patch ExtensionConfig {name}")]
    Patch {
        /// The ExtensionConfig's name.
        name: String,
        /// The API server's answer.
        #[source]
        source: KubeError,
    },
}

impl CaError {
    /// Whether trying again may help without a change of the object or the Secret (see
    /// [`Error::is_transient`]).
    pub fn is_transient(&self) -> bool {
        match self {
            CaError::BadReference(_) | CaError::NoCaEntry(_) => false,
            CaError::Get { source, .. } | CaError::Patch { source, .. } => source.is_transient(),
        }
    }
}

#[cfg(test)]
mod tests {
    use capi_runtime::go::errors::chain;
    use kube::core::Status;

    use super::*;

    fn api(code: u16, message: &str) -> KubeError {
        KubeError(kube::Error::Api(Box::new(
            Status::failure(message, "").with_code(code),
        )))
    }

    #[test]
    fn api_errors_read_as_client_go_writes_them() {
        let e = CaError::Get {
            reference: "ns/s".into(),
            source: api(404, "secrets \"s\" not found"),
        };
        assert_eq!(
            e.to_string(),
            "failed to reconcile caBundle: failed to get secret \"ns/s\""
        );
        assert_eq!(
            chain(&e).to_string(),
            "failed to reconcile caBundle: failed to get secret \"ns/s\": secrets \"s\" not found"
        );
        let e = Error::Patch {
            name: "ext1".into(),
            source: api(500, "boom"),
        };
        assert_eq!(
            chain(&e).to_string(),
            "failed to patch ExtensionConfig ext1: boom"
        );
    }

    #[test]
    fn conflicts_and_server_errors_are_transient_refusals_are_not() {
        for code in [409, 429, 500, 503, 504, 403] {
            assert!(api(code, "x").is_transient(), "{code}");
        }
        for code in [400, 404, 422] {
            assert!(!api(code, "x").is_transient(), "{code}");
        }
        let conflict = Error::reconcile(Error::Patch {
            name: "a".into(),
            source: api(409, "the object has been modified"),
        });
        assert!(conflict.is_conflict() && conflict.is_transient());
        let missing_secret = Error::reconcile(
            CaError::Get {
                reference: "ns/s".into(),
                source: api(404, "not found"),
            }
            .into(),
        );
        assert!(!missing_secret.is_transient() && !missing_secret.is_conflict());
    }

    #[test]
    fn several_errors_are_transient_if_one_is_and_a_conflict_if_all_are() {
        let conflict = || Error::Patch {
            name: "a".into(),
            source: api(409, "modified"),
        };
        let permanent = || Error::from(CaError::NoCaEntry("ns/s".into()));
        let both = Error::aggregate(vec![conflict(), permanent()]).unwrap();
        assert!(both.is_transient());
        assert!(!both.is_conflict());
        let conflicts = Error::aggregate(vec![
            conflict(),
            Error::Patch {
                name: "b".into(),
                source: api(409, "modified"),
            },
        ])
        .unwrap();
        assert!(conflicts.is_conflict());
        assert_eq!(
            chain(&conflicts).to_string(),
            "[failed to patch ExtensionConfig a: modified, failed to patch ExtensionConfig b: modified]"
        );
        assert!(Error::aggregate(Vec::new()).is_none());
        assert!(matches!(
            Error::aggregate(vec![permanent()]),
            Some(Error::CaBundle(_))
        ));
    }

    #[test]
    fn discovery_of_a_bad_name_is_permanent() {
        let e = Error::Discover {
            name: "a.b".into(),
            source: Box::new(DiscoveryError::InvalidName {
                config: "a.b".into(),
            }),
        };
        assert!(!e.is_transient());
        assert!(
            chain(&e)
                .to_string()
                .starts_with("failed to discover ExtensionConfig a.b: ")
        );
    }

    #[test]
    fn warm_up_timeouts_render_go_durations_and_the_last_error() {
        let e = Error::WarmUpTimeout {
            timeout: Duration::from_secs(60),
            last: Box::new(Error::DeadlineExceeded),
        };
        assert_eq!(
            chain(&e).to_string(),
            "ExtensionConfig registry warmup timed out after 1m0s: context deadline exceeded"
        );
        assert!(!e.is_transient());
        let e = Error::Timeout {
            name: "ext1".into(),
            after: Duration::from_millis(1500),
        };
        assert_eq!(
            e.to_string(),
            "reconcile of ExtensionConfig ext1 did not finish within 1.5s"
        );
        assert!(e.is_transient());
    }
}
