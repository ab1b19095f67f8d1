//! Errors of the registry, with messages that follow Cluster API's wording.

use std::error::Error as StdError;
use std::fmt;

use crate::api::runtime::validation::{GroupVersionError, SelectorError};
use crate::catalog::GroupHook;
use crate::go::errors::{aggregate_messages, chain};

/// Why a registry operation failed.
///
/// Each variant shows its own layer and returns its cause as its
/// [`source`](std::error::Error::source); Cluster API's one-line message is
/// [`chain(&err)`](crate::go::errors::chain). The variants with several causes
/// ([`RegistryError::WarmUp`], [`RegistryError::InvalidHandlers`]) list them in their own
/// message, as apimachinery's aggregate does (`[e1, e2]`, each with its causes), and have no
/// source: their field holds them.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum RegistryError {
    /// `warm_up` was called on a registry that is already ready.
    AlreadyWarmedUp,
    /// At least one ExtensionConfig could not be added during warm-up; nothing was added.
    WarmUp {
        /// The error of every ExtensionConfig that failed.
        errors: Vec<RegistryError>,
    },
    /// `add` was called before warm-up.
    AddNotReady {
        /// The ExtensionConfig's name.
        config: String,
    },
    /// `remove` was called before warm-up.
    RemoveNotReady {
        /// The ExtensionConfig's name.
        config: String,
    },
    /// `list` was called before warm-up.
    ListNotReady {
        /// The group and hook asked for.
        group_hook: GroupHook,
    },
    /// `get` was called before warm-up.
    GetNotReady {
        /// The handler asked for.
        handler: String,
    },
    /// `list` was called with an empty group or hook.
    EmptyGroupHook {
        /// `Group` or `Hook`.
        field: &'static str,
    },
    /// No handler of that name is registered.
    NotRegistered {
        /// The handler asked for.
        handler: String,
    },
    /// The ExtensionConfig's namespace selector is invalid.
    InvalidSelector {
        /// The ExtensionConfig's name.
        config: String,
        /// What is wrong with the selector (the source).
        error: Box<SelectorError>,
    },
    /// Handlers in the ExtensionConfig's status are invalid.
    InvalidHandlers {
        /// The ExtensionConfig's name.
        config: String,
        /// One error per invalid handler.
        errors: Vec<HandlerError>,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::AlreadyWarmedUp => f.write_str(
                "failed to warm up registry: invalid operation: WarmUp cannot be called on a registry which has already been warmed up",
            ),
            RegistryError::WarmUp { errors } => {
                write!(f, "failed to warm up registry: {}", aggregate(errors))
            }
            RegistryError::AddNotReady { config } => write!(
                f,
                "failed to add ExtensionConfig {config:?} to registry: invalid operation: Add cannot be called on a registry which has not been warmed up"
            ),
            RegistryError::RemoveNotReady { config } => write!(
                f,
                "failed to remove ExtensionConfig {config:?} from registry: invalid operation: Remove cannot be called on a registry which has not been warmed up"
            ),
            RegistryError::ListNotReady { group_hook } => write!(
                f,
                "failed to list extension handlers for GroupHook \"{group_hook}\": invalid operation: List cannot be called on a registry which has not been warmed up"
            ),
            RegistryError::GetNotReady { handler } => write!(
                f,
                "failed to get extension handler {handler:?} from registry: invalid operation: Get cannot be called on a registry not yet ready"
            ),
            RegistryError::EmptyGroupHook { field } => write!(
                f,
                "failed to list extension handlers: invalid argument: when calling List gh.{field} must not be empty"
            ),
            RegistryError::NotRegistered { handler } => write!(
                f,
                "failed to get extension handler {handler:?} from registry: handler with name {handler:?} has not been registered"
            ),
            RegistryError::InvalidSelector { config, .. } => write!(
                f,
                "failed to add ExtensionConfig {config:?} to registry: failed to create namespaceSelector"
            ),
            RegistryError::InvalidHandlers { config, errors } => write!(
                f,
                "failed to add ExtensionConfig {config:?} to registry: {}",
                aggregate(errors)
            ),
        }
    }
}

impl StdError for RegistryError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            RegistryError::InvalidSelector { error, .. } => Some(&**error),
            _ => None,
        }
    }
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

/// A handler in an ExtensionConfig's status that cannot be registered; the parse error of its
/// `apiVersion` is the source.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "failed to add extension handler {handler:?} to registry: failed to parse GroupVersion {:?} of handler {handler:?}",
    error.api_version
)]
#[non_exhaustive]
pub struct HandlerError {
    /// The handler's full name.
    pub handler: String,
    /// Why its `apiVersion` did not parse (it holds the `apiVersion` as written).
    #[source]
    pub error: GroupVersionError,
}

/// The text of several errors as apimachinery's aggregate writes it, each error with its
/// causes (see [`aggregate_messages`]).
fn aggregate<E: StdError + 'static>(errors: &[E]) -> String {
    aggregate_messages(errors.iter().map(|e| chain(e).to_string()))
}
