//! Errors of the registry, with messages that follow Cluster API's wording.

use crate::api::runtime::validation::{GroupVersionError, SelectorError};
use crate::catalog::GroupHook;

/// Why a registry operation failed.
///
/// Messages carry their causes in Cluster API's wording (one line, like Go's wrapped errors);
/// the causes are kept as values in the variants, and are not also returned by
/// [`source`](std::error::Error::source), so that a chain reporter prints each once.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// `warm_up` was called on a registry that is already ready.
    #[error(
        "failed to warm up registry: invalid operation: WarmUp cannot be called on a registry which has already been warmed up"
    )]
    AlreadyWarmedUp,
    /// At least one ExtensionConfig could not be added during warm-up; nothing was added.
    #[error("failed to warm up registry: {}", aggregate(errors))]
    WarmUp {
        /// The error of every ExtensionConfig that failed.
        errors: Vec<RegistryError>,
    },
    /// `add` was called before warm-up.
    #[error(
        "failed to add ExtensionConfig {config:?} to registry: invalid operation: Add cannot be called on a registry which has not been warmed up"
    )]
    AddNotReady {
        /// The ExtensionConfig's name.
        config: String,
    },
    /// `remove` was called before warm-up.
    #[error(
        "failed to remove ExtensionConfig {config:?} from registry: invalid operation: Remove cannot be called on a registry which has not been warmed up"
    )]
    RemoveNotReady {
        /// The ExtensionConfig's name.
        config: String,
    },
    /// `list` was called before warm-up.
    #[error(
        "failed to list extension handlers for GroupHook \"{group_hook}\": invalid operation: List cannot be called on a registry which has not been warmed up"
    )]
    ListNotReady {
        /// The group and hook asked for.
        group_hook: GroupHook,
    },
    /// `get` was called before warm-up.
    #[error(
        "failed to get extension handler {handler:?} from registry: invalid operation: Get cannot be called on a registry not yet ready"
    )]
    GetNotReady {
        /// The handler asked for.
        handler: String,
    },
    /// `list` was called with an empty group or hook.
    #[error(
        "failed to list extension handlers: invalid argument: when calling List gh.{field} must not be empty"
    )]
    EmptyGroupHook {
        /// `Group` or `Hook`.
        field: &'static str,
    },
    /// No handler of that name is registered.
    #[error(
        "failed to get extension handler {handler:?} from registry: handler with name {handler:?} has not been registered"
    )]
    NotRegistered {
        /// The handler asked for.
        handler: String,
    },
    /// The ExtensionConfig's namespace selector is invalid.
    #[error(
        "failed to add ExtensionConfig {config:?} to registry: failed to create namespaceSelector: {error}"
    )]
    InvalidSelector {
        /// The ExtensionConfig's name.
        config: String,
        /// What is wrong with the selector.
        error: Box<SelectorError>,
    },
    /// Handlers in the ExtensionConfig's status are invalid.
    #[error(
        "failed to add ExtensionConfig {config:?} to registry: {}",
        aggregate(errors)
    )]
    InvalidHandlers {
        /// The ExtensionConfig's name.
        config: String,
        /// One error per invalid handler.
        errors: Vec<HandlerError>,
    },
}

impl RegistryError {
    /// True for the errors a registry returns before it has been warmed up.
    pub fn is_not_ready(&self) -> bool {
        matches!(
            self,
            RegistryError::AddNotReady { .. }
                | RegistryError::RemoveNotReady { .. }
                | RegistryError::ListNotReady { .. }
                | RegistryError::GetNotReady { .. }
        )
    }
}

/// A handler in an ExtensionConfig's status that cannot be registered.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "failed to add extension handler {handler:?} to registry: failed to parse GroupVersion {:?} of handler {handler:?}: {error}",
    error.api_version
)]
#[non_exhaustive]
pub struct HandlerError {
    /// The handler's full name.
    pub handler: String,
    /// Why its `apiVersion` did not parse (it holds the `apiVersion` as written).
    pub error: GroupVersionError,
}

/// Formats several errors the way Kubernetes aggregates them: one message stays as it is,
/// several become `[m1, m2]` with repeated messages dropped.
pub(crate) fn aggregate<E: ToString>(errors: &[E]) -> String {
    let mut messages: Vec<String> = Vec::with_capacity(errors.len());
    for e in errors {
        let m = e.to_string();
        if !messages.contains(&m) {
            messages.push(m);
        }
    }
    match messages.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}
