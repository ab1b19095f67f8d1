//! The namespace selector of an ExtensionConfig: checked as Cluster API's webhook checks it,
//! and compiled once, so that matching cannot fail.
//!
//! Compiling and matching are apimachinery's ([`crate::go::labels`]); this module adds the
//! Runtime SDK's reading of an absent selector and the namespace-name label.

use std::collections::BTreeMap;
use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;

use crate::go::field::{BadValue, FieldError, FieldPath};
use crate::go::labels::{self, Selector};

pub use crate::go::labels::SelectorError;

/// The label the API server puts on every namespace, holding the namespace's name.
pub const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// A compiled namespace selector.
///
/// An absent selector on an ExtensionConfig compiles to [`NamespaceSelector::everything`], the
/// same as `{}`. Cluster API's registry instead makes an absent selector match nothing
/// (apimachinery's `Nothing`); its admission webhook defaults the field to `{}` and refuses a
/// missing one, so in a real cluster the two only differ for objects written past the webhook,
/// and we follow the webhook.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamespaceSelector {
    selector: Selector,
}

impl NamespaceSelector {
    /// The selector that matches every namespace.
    pub fn everything() -> Self {
        Self::default()
    }

    /// Compiles an optional label selector; `None` matches everything. The error is
    /// apimachinery's (`LabelSelectorAsSelector`): the first wrong requirement.
    pub fn compile(selector: Option<&metav1::LabelSelector>) -> Result<Self, SelectorError> {
        match selector {
            None => Ok(Self::everything()),
            Some(s) => {
                labels::label_selector_as_selector(Some(s)).map(|selector| Self { selector })
            }
        }
    }

    /// True when the selector matches every namespace without looking at labels.
    pub fn is_everything(&self) -> bool {
        self.selector.is_everything()
    }

    /// True when every requirement holds for the labels.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.selector.matches(labels)
    }

    /// Matches a namespace given its name and labels. The API server labels every namespace
    /// with [`NAMESPACE_NAME_LABEL`]; when the caller's labels lack it, it is assumed.
    pub fn matches_namespace(&self, namespace: &str, labels: &BTreeMap<String, String>) -> bool {
        if self.is_everything() {
            return true;
        }
        if labels.contains_key(NAMESPACE_NAME_LABEL) {
            return self.matches(labels);
        }
        let mut labels = labels.clone();
        labels.insert(NAMESPACE_NAME_LABEL.to_string(), namespace.to_string());
        self.matches(&labels)
    }

    /// The compiled selector.
    pub fn selector(&self) -> &Selector {
        &self.selector
    }
}

impl fmt::Display for NamespaceSelector {
    /// apimachinery's `Selector.String()` (`a=x,b notin (y,z),!c`; empty for everything).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.selector.fmt(f)
    }
}

/// Cluster API's webhook rule for `spec.namespaceSelector` at `path`: it must be set
/// (`Required: must be defined`) and compile (`Invalid`, the value shown as Go's JSON of the
/// selector, the detail apimachinery's error).
pub fn label_selector(
    path: &FieldPath,
    selector: Option<&metav1::LabelSelector>,
) -> Vec<FieldError> {
    let Some(selector) = selector else {
        return vec![FieldError::required(path, "must be defined")];
    };
    match labels::label_selector_as_selector(Some(selector)) {
        Ok(_) => Vec::new(),
        Err(e) => vec![FieldError::invalid(
            path,
            BadValue::Json(labels::label_selector_json(Some(selector))),
            e.to_string(),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(key: &str, op: &str, values: &[&str]) -> metav1::LabelSelectorRequirement {
        metav1::LabelSelectorRequirement {
            key: key.to_string(),
            operator: op.to_string(),
            values: Some(values.iter().map(|v| v.to_string()).collect()),
        }
    }

    fn selector(exprs: Vec<metav1::LabelSelectorRequirement>) -> metav1::LabelSelector {
        metav1::LabelSelector {
            match_expressions: Some(exprs),
            match_labels: None,
        }
    }

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn absent_and_empty_selectors_match_everything() {
        let absent = NamespaceSelector::compile(None).unwrap();
        let empty = NamespaceSelector::compile(Some(&metav1::LabelSelector::default())).unwrap();
        assert!(absent.is_everything() && empty.is_everything());
        assert!(absent.matches_namespace("any", &BTreeMap::new()));
    }

    #[test]
    fn operators_follow_label_selector_semantics() {
        let ls = labels(&[("env", "prod"), ("team", "a")]);
        let cases = [
            (expr("env", "In", &["prod", "dev"]), true),
            (expr("env", "In", &["dev"]), false),
            (expr("env", "NotIn", &["dev"]), true),
            (expr("missing", "NotIn", &["dev"]), true),
            (expr("env", "NotIn", &["prod"]), false),
            (expr("team", "Exists", &[]), true),
            (expr("missing", "Exists", &[]), false),
            (expr("missing", "DoesNotExist", &[]), true),
            (expr("team", "DoesNotExist", &[]), false),
        ];
        for (e, want) in cases {
            let s = NamespaceSelector::compile(Some(&selector(vec![e.clone()]))).unwrap();
            assert_eq!(s.matches(&ls), want, "{e:?}");
        }
    }

    #[test]
    fn the_namespace_name_label_is_assumed() {
        let s = NamespaceSelector::compile(Some(&selector(vec![expr(
            NAMESPACE_NAME_LABEL,
            "In",
            &["foo"],
        )])))
        .unwrap();
        assert!(s.matches_namespace("foo", &BTreeMap::new()));
        assert!(!s.matches_namespace("different", &BTreeMap::new()));
        // Labels given by the caller win over the assumed one.
        assert!(!s.matches_namespace("foo", &labels(&[(NAMESPACE_NAME_LABEL, "bar")])));
    }

    #[test]
    fn the_webhook_rule_shows_the_selector_as_go_json() {
        let path = FieldPath::new("spec").child("namespaceSelector");
        assert_eq!(
            label_selector(&path, None)[0].to_string(),
            "spec.namespaceSelector: Required value: must be defined"
        );
        let bad = selector(vec![expr("foo", "bad-operator", &[])]);
        assert_eq!(
            label_selector(&path, Some(&bad))[0].to_string(),
            "spec.namespaceSelector: Invalid value: \
             {\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"bad-operator\"}]}: \
             \"bad-operator\" is not a valid label selector operator"
        );
        assert!(label_selector(&path, Some(&metav1::LabelSelector::default())).is_empty());
    }
}
