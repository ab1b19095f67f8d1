//! The object a hook call is about, and the options of calls to every handler of a hook.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;

/// The object a hook call is about (a Cluster, a Machine, ...): its namespace decides, through
/// each ExtensionConfig's namespace selector, which handlers are called.
///
/// A selector other than the empty one (`{}`, which matches every namespace) is matched
/// against the labels of the object's namespace, which the client gets, in this order:
///
/// 1. from the object itself, when the caller gave them with
///    [`with_namespace_labels`](ForObject::with_namespace_labels) (even empty) or set
///    [`namespace_labels`](ForObject::namespace_labels) to a non-empty map; the
///    `kubernetes.io/metadata.name` label, which the API server sets on every namespace, is
///    assumed when they lack it;
/// 2. else from the client's namespace-labels source, as Cluster API's client reads the
///    Namespace from the API server
///    ([`ClientBuilder::namespace_labels`](super::ClientBuilder::namespace_labels), or
///    `ClientBuilder::kube_client` with the `kube-client` feature); a failed read fails the
///    call ([`NamespaceError::Lookup`](super::NamespaceError::Lookup));
/// 3. else only the namespace's name is known: a selector that reads nothing but
///    `kubernetes.io/metadata.name` is matched against it, and any other selector fails the
///    call with [`NamespaceError::LabelsUnknown`](super::NamespaceError::LabelsUnknown), so
///    that a handler is never skipped for want of labels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ForObject {
    /// The object's namespace.
    pub namespace: String,
    /// The object's name (for messages).
    pub name: String,
    /// The labels of the object's namespace, when the caller gives them (see the type's
    /// documentation: an empty map counts as given only when set with
    /// [`with_namespace_labels`](ForObject::with_namespace_labels)).
    pub namespace_labels: BTreeMap<String, String>,
    /// True once `with_namespace_labels` gave the labels, an empty map included.
    namespace_labels_given: bool,
}

impl ForObject {
    /// An object in `namespace`. The labels of the namespace are not given: the client reads
    /// them from its source when a selector needs them (see the type's documentation).
    pub fn new(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        ForObject {
            namespace: namespace.into(),
            name: name.into(),
            namespace_labels: BTreeMap::new(),
            namespace_labels_given: false,
        }
    }

    /// The same object with the labels of its namespace, as the caller knows them (from a
    /// namespace informer, say). The client then matches selectors against these labels and
    /// never reads the namespace; an empty map says the namespace has no labels (its name
    /// label is assumed).
    pub fn with_namespace_labels(mut self, labels: BTreeMap<String, String>) -> Self {
        self.namespace_labels = labels;
        self.namespace_labels_given = true;
        self
    }

    /// True when the labels of the namespace were given on the object (with
    /// [`with_namespace_labels`](ForObject::with_namespace_labels), or a non-empty
    /// [`namespace_labels`](ForObject::namespace_labels)).
    pub fn namespace_labels_known(&self) -> bool {
        self.namespace_labels_given || !self.namespace_labels.is_empty()
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
