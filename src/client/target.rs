//! The object a hook call is about, and the options of calls to every handler of a hook.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;

/// The object a hook call is about (a Cluster, a Machine, ...): its namespace decides, through
/// each ExtensionConfig's namespace selector, which handlers are called.
///
/// The client does not read namespaces from the API server: the caller, which usually has a
/// namespace informer, passes the namespace's labels. The `kubernetes.io/metadata.name` label,
/// which the API server sets on every namespace, is assumed when missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ForObject {
    /// The object's namespace.
    pub namespace: String,
    /// The object's name (for messages).
    pub name: String,
    /// The labels of the object's namespace.
    pub namespace_labels: BTreeMap<String, String>,
}

impl ForObject {
    /// An object in `namespace`, whose namespace has no labels besides its name.
    pub fn new(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        ForObject {
            namespace: namespace.into(),
            name: name.into(),
            namespace_labels: BTreeMap::new(),
        }
    }

    /// The same object with the labels of its namespace.
    pub fn with_namespace_labels(mut self, labels: BTreeMap<String, String>) -> Self {
        self.namespace_labels = labels;
        self
    }
}

/// How [`Client::call_all_extensions`](super::Client::call_all_extensions) calls the handlers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallAllOptions {
    /// `None` calls the handlers one after the other, as Cluster API does. `Some(n)` keeps up
    /// to `n` calls in flight; the result is the same, only faster.
    pub concurrency: Option<NonZeroUsize>,
}

impl CallAllOptions {
    /// One call at a time, in handler-name order.
    pub fn sequential() -> Self {
        CallAllOptions { concurrency: None }
    }

    /// Up to `limit` calls at a time (a limit of 0 means 1).
    pub fn concurrent(limit: usize) -> Self {
        CallAllOptions {
            concurrency: Some(NonZeroUsize::new(limit).unwrap_or(NonZeroUsize::MIN)),
        }
    }
}
