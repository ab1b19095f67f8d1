//! The labels of the namespace a call is about: where the client gets them, and whether a
//! handler's namespace selector matches them.
//!
//! Cluster API's client reads the Namespace (its metadata) from the API server whenever a
//! handler's selector is not empty, and matches the selector against its labels; a failed read
//! fails the call. This client does the same when it was given a [`NamespaceLabels`] source
//! (a `kube::Client` with the `kube-client` feature, a reflector store, a map), unless the
//! caller gave the labels on the [`ForObject`] itself. With neither, a selector that needs
//! labels other than the namespace's name fails the call with
//! [`NamespaceError::LabelsUnknown`]: never a silent skip.

use std::collections::{BTreeMap, HashMap};
use std::error::Error as StdError;
use std::fmt;

use futures::future::BoxFuture;

use super::target::ForObject;
use crate::api::runtime::validation::{NAMESPACE_NAME_LABEL, NamespaceSelector};
use crate::tls::Cause;

/// The labels of namespaces, looked up by name: where the client reads the labels a
/// handler's namespace selector is matched against
/// ([`ClientBuilder::namespace_labels`](super::ClientBuilder::namespace_labels)).
///
/// Implemented for a map of namespace names to labels, and, with the `kube-client` feature,
/// for `kube::Client` (a metadata GET of the Namespace, as Cluster API's client does) and for
/// a kube reflector `Store` of Namespaces (or of their metadata). A namespace the source does
/// not know is an error ([`NamespaceNotFound`] for the map and the store), as the API server's
/// `NotFound` is in Go.
pub trait NamespaceLabels: Send + Sync {
    /// The labels of the namespace named `namespace`, or why they could not be read.
    fn namespace_labels<'a>(
        &'a self,
        namespace: &'a str,
    ) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>>;
}

/// A namespace a [`NamespaceLabels`] source does not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("namespaces {namespace:?} not found")]
pub struct NamespaceNotFound {
    /// The namespace looked up.
    pub namespace: String,
}

/// The answer of a map source.
fn from_map<'a>(
    get: Option<&BTreeMap<String, String>>,
    namespace: &str,
) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>> {
    let answer = match get {
        Some(labels) => Ok(labels.clone()),
        None => Err(crate::tls::cause(NamespaceNotFound {
            namespace: namespace.to_string(),
        })),
    };
    Box::pin(std::future::ready(answer))
}

impl NamespaceLabels for BTreeMap<String, BTreeMap<String, String>> {
    fn namespace_labels<'a>(
        &'a self,
        namespace: &'a str,
    ) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>> {
        from_map(self.get(namespace), namespace)
    }
}

impl<S: std::hash::BuildHasher + Send + Sync> NamespaceLabels
    for HashMap<String, BTreeMap<String, String>, S>
{
    fn namespace_labels<'a>(
        &'a self,
        namespace: &'a str,
    ) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>> {
        from_map(self.get(namespace), namespace)
    }
}

impl<T: NamespaceLabels + ?Sized> NamespaceLabels for std::sync::Arc<T> {
    fn namespace_labels<'a>(
        &'a self,
        namespace: &'a str,
    ) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>> {
        (**self).namespace_labels(namespace)
    }
}

#[cfg(feature = "kube-client")]
mod kube_sources {
    use std::collections::BTreeMap;

    use futures::future::BoxFuture;
    use k8s_openapi::api::core::v1::Namespace;

    use super::{NamespaceLabels, NamespaceNotFound};
    use crate::tls::{Cause, cause};

    /// Reads the Namespace's metadata from the API server (`GET` of a `PartialObjectMetadata`,
    /// as Cluster API's client does); RBAC: `get` on `namespaces`. The API server's errors,
    /// `NotFound` included, are kube's [`kube::Error`], the cause.
    impl NamespaceLabels for kube::Client {
        fn namespace_labels<'a>(
            &'a self,
            namespace: &'a str,
        ) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>> {
            Box::pin(async move {
                let api: kube::Api<Namespace> = kube::Api::all(self.clone());
                let meta = api.get_metadata(namespace).await.map_err(cause)?;
                Ok(meta.metadata.labels.unwrap_or_default())
            })
        }
    }

    /// Reads the namespace from a reflector's store (of `Namespace`, or of
    /// `PartialObjectMetadata<Namespace>` from a metadata watcher). A namespace the store does
    /// not hold is [`NamespaceNotFound`]: wait for the store to be ready
    /// (`Store::wait_until_ready`) before calling hooks.
    impl<K> NamespaceLabels for kube::runtime::reflector::Store<K>
    where
        K: kube::Resource + Clone + Send + Sync + 'static,
        K::DynamicType: Default + Eq + std::hash::Hash + Clone + Send + Sync,
    {
        fn namespace_labels<'a>(
            &'a self,
            namespace: &'a str,
        ) -> BoxFuture<'a, Result<BTreeMap<String, String>, Cause>> {
            let answer = match self.get(&kube::runtime::reflector::ObjectRef::new(namespace)) {
                Some(object) => Ok(object.meta().labels.clone().unwrap_or_default()),
                None => Err(cause(NamespaceNotFound {
                    namespace: namespace.to_string(),
                })),
            };
            Box::pin(std::future::ready(answer))
        }
    }
}

/// Why a handler's namespace selector could not be matched against the object's namespace.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum NamespaceError {
    /// The selector needs labels of the namespace other than its name, and the client has no
    /// way to know them: no [`NamespaceLabels`] source on the client and no labels on the
    /// [`ForObject`].
    LabelsUnknown {
        /// The object's namespace.
        namespace: String,
        /// The selector, as apimachinery writes it.
        selector: String,
    },
    /// Reading the namespace's labels from the client's source failed (the source: the API
    /// server's error, `NotFound` included, or [`NamespaceNotFound`]).
    Lookup {
        /// The object's namespace.
        namespace: String,
        /// The source's error.
        source: Cause,
    },
}

impl fmt::Display for NamespaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NamespaceError::LabelsUnknown {
                namespace,
                selector,
            } => write!(
                f,
                "the labels of namespace {namespace:?} are not known and the namespaceSelector \
                 \"{selector}\" needs them: build the client with a namespace-labels source, or \
                 give them with ForObject::with_namespace_labels"
            ),
            NamespaceError::Lookup { namespace, .. } => {
                write!(f, "failed to get namespace {namespace}")
            }
        }
    }
}

impl StdError for NamespaceError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            NamespaceError::LabelsUnknown { .. } => None,
            NamespaceError::Lookup { source, .. } => Some(&**source),
        }
    }
}

/// True when the selector reads no label but the namespace's name, which the client knows
/// without a lookup.
fn needs_only_the_name(selector: &NamespaceSelector) -> bool {
    selector
        .selector()
        .requirements()
        .iter()
        .all(|r| r.key() == NAMESPACE_NAME_LABEL)
}

/// What can be said of a selector and an object before any lookup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Decided: the selector matches or not.
    Matches(bool),
    /// The labels must be read from the client's source.
    Lookup,
    /// The labels are needed and there is no source.
    Unknown,
}

/// The decision for `selector` on `for_object` before any lookup, `has_source` telling
/// whether the client has a [`NamespaceLabels`] source:
///
/// 1. an empty selector (`{}`, or absent) matches without labels, as in Go;
/// 2. labels given on the object are used (with `kubernetes.io/metadata.name` assumed when
///    they lack it), never looked up;
/// 3. else the source is asked, for every non-empty selector, as Go asks the API server (so
///    a namespace that does not exist fails the call there too);
/// 4. with no source, a selector that reads only `kubernetes.io/metadata.name` is matched
///    against that label, which the API server sets on every namespace;
/// 5. any other selector cannot be decided: [`NamespaceError::LabelsUnknown`].
pub(crate) fn decide(
    selector: &NamespaceSelector,
    for_object: &ForObject,
    has_source: bool,
) -> Decision {
    if selector.is_everything() {
        return Decision::Matches(true);
    }
    if for_object.namespace_labels_known() {
        return Decision::Matches(
            selector.matches_namespace(&for_object.namespace, &for_object.namespace_labels),
        );
    }
    if has_source {
        return Decision::Lookup;
    }
    if needs_only_the_name(selector) {
        return Decision::Matches(
            selector.matches_namespace(&for_object.namespace, &BTreeMap::new()),
        );
    }
    Decision::Unknown
}

/// Matches selectors against one object's namespace, reading its labels from the source at
/// most once (the first selector that needs them).
pub(crate) struct Matcher<'a> {
    for_object: &'a ForObject,
    source: Option<&'a dyn NamespaceLabels>,
    looked_up: Option<Result<BTreeMap<String, String>, Cause>>,
}

impl<'a> Matcher<'a> {
    pub(crate) fn new(for_object: &'a ForObject, source: Option<&'a dyn NamespaceLabels>) -> Self {
        Matcher {
            for_object,
            source,
            looked_up: None,
        }
    }

    /// Whether `selector` matches the object's namespace, or why that cannot be known.
    pub(crate) async fn matches(
        &mut self,
        selector: &NamespaceSelector,
    ) -> Result<bool, NamespaceError> {
        let namespace = &self.for_object.namespace;
        match decide(selector, self.for_object, self.source.is_some()) {
            Decision::Matches(matches) => Ok(matches),
            Decision::Unknown => Err(NamespaceError::LabelsUnknown {
                namespace: namespace.clone(),
                selector: selector.to_string(),
            }),
            Decision::Lookup => {
                let source = self.source.expect("a lookup is decided only with a source");
                if self.looked_up.is_none() {
                    self.looked_up = Some(source.namespace_labels(namespace).await);
                }
                match self.looked_up.as_ref().expect("looked up above") {
                    Ok(labels) => Ok(selector.matches_namespace(namespace, labels)),
                    Err(source) => Err(NamespaceError::Lookup {
                        namespace: namespace.clone(),
                        source: source.clone(),
                    }),
                }
            }
        }
    }

    /// Like [`Matcher::matches`] without reading the source: a selector that would need it
    /// is [`NamespaceError::LabelsUnknown`].
    pub(crate) fn matches_without_lookup(
        &self,
        selector: &NamespaceSelector,
    ) -> Result<bool, NamespaceError> {
        match decide(selector, self.for_object, false) {
            Decision::Matches(matches) => Ok(matches),
            Decision::Lookup | Decision::Unknown => Err(NamespaceError::LabelsUnknown {
                namespace: self.for_object.namespace.clone(),
                selector: selector.to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn selector(match_labels: &[(&str, &str)]) -> NamespaceSelector {
        NamespaceSelector::compile(Some(&metav1::LabelSelector {
            match_labels: Some(labels(match_labels)),
            match_expressions: None,
        }))
        .unwrap()
    }

    #[test]
    fn decisions() {
        let everything = NamespaceSelector::everything();
        let prod = selector(&[("env", "prod")]);
        let by_name = selector(&[(NAMESPACE_NAME_LABEL, "ns")]);
        let bare = ForObject::new("ns", "c");
        let labelled = ForObject::new("ns", "c").with_namespace_labels(labels(&[("env", "prod")]));
        let given_empty = ForObject::new("ns", "c").with_namespace_labels(BTreeMap::new());

        for has_source in [false, true] {
            // An empty selector never needs labels.
            assert_eq!(
                decide(&everything, &bare, has_source),
                Decision::Matches(true)
            );
            // Labels on the object are used as they are, the name assumed.
            assert_eq!(
                decide(&prod, &labelled, has_source),
                Decision::Matches(true)
            );
            assert_eq!(
                decide(&by_name, &labelled, has_source),
                Decision::Matches(true)
            );
            // Labels given empty are known: the namespace has none.
            assert_eq!(
                decide(&prod, &given_empty, has_source),
                Decision::Matches(false)
            );
        }
        // Without labels on the object: the source is asked for any non-empty selector.
        assert_eq!(decide(&prod, &bare, true), Decision::Lookup);
        assert_eq!(decide(&by_name, &bare, true), Decision::Lookup);
        // Without a source: the name is known, other labels are not.
        assert_eq!(decide(&by_name, &bare, false), Decision::Matches(true));
        assert_eq!(
            decide(&by_name, &ForObject::new("other", "c"), false),
            Decision::Matches(false)
        );
        assert_eq!(decide(&prod, &bare, false), Decision::Unknown);
        // Another label beside the name is still another label.
        let both = selector(&[(NAMESPACE_NAME_LABEL, "ns"), ("env", "prod")]);
        assert_eq!(decide(&both, &bare, false), Decision::Unknown);
    }

    #[tokio::test]
    async fn the_source_is_read_once_and_its_errors_are_kept() {
        let source: BTreeMap<String, BTreeMap<String, String>> =
            [("ns".to_string(), labels(&[("env", "prod")]))].into();
        let object = ForObject::new("ns", "c");
        let mut matcher = Matcher::new(&object, Some(&source));
        assert!(
            matcher
                .matches(&selector(&[("env", "prod")]))
                .await
                .unwrap()
        );
        assert!(!matcher.matches(&selector(&[("env", "dev")])).await.unwrap());
        // The name label is assumed on a source's labels that lack it.
        assert!(
            matcher
                .matches(&selector(&[(NAMESPACE_NAME_LABEL, "ns")]))
                .await
                .unwrap()
        );

        let missing = ForObject::new("gone", "c");
        let mut matcher = Matcher::new(&missing, Some(&source));
        let error = matcher
            .matches(&selector(&[("env", "prod")]))
            .await
            .unwrap_err();
        assert_eq!(
            crate::go::errors::chain(&error).to_string(),
            "failed to get namespace gone: namespaces \"gone\" not found"
        );
        assert!(
            error
                .source()
                .and_then(|e| e.downcast_ref::<NamespaceNotFound>())
                .is_some()
        );
        // An empty selector still needs no lookup.
        assert!(
            matcher
                .matches(&NamespaceSelector::everything())
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn without_a_source_labels_are_unknown() {
        let object = ForObject::new("ns", "c");
        let mut matcher = Matcher::new(&object, None);
        let error = matcher
            .matches(&selector(&[("env", "prod")]))
            .await
            .unwrap_err();
        assert!(matches!(error, NamespaceError::LabelsUnknown { .. }));
        assert!(error.source().is_none());
        assert!(error.to_string().contains("\"env=prod\""), "{error}");
        // The sync path never reads a source.
        let source: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        let matcher = Matcher::new(&object, Some(&source));
        assert!(matches!(
            matcher.matches_without_lookup(&selector(&[("env", "prod")])),
            Err(NamespaceError::LabelsUnknown { .. })
        ));
        assert!(
            matcher
                .matches_without_lookup(&selector(&[(NAMESPACE_NAME_LABEL, "ns")]))
                .unwrap()
        );
    }
}
