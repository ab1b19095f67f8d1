//! Namespace selectors: which namespaces an ExtensionConfig serves.
//!
//! A compiled form of a Kubernetes `LabelSelector` (`matchLabels` and `matchExpressions` with
//! `In`, `NotIn`, `Exists` and `DoesNotExist`), checked once when a registration is built so
//! that matching at call time cannot fail.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;

/// The label the API server puts on every namespace, holding the namespace's name.
pub const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// Why a label selector could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    /// The operator is not one of `In`, `NotIn`, `Exists`, `DoesNotExist`.
    #[error("{operator:?} is not a valid label selector operator")]
    InvalidOperator {
        /// The operator as written.
        operator: String,
    },
    /// A label key is not a qualified name.
    #[error("invalid label key {key:?}: {reason}")]
    InvalidKey {
        /// The key as written.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A label value is not valid.
    #[error("invalid label value {value:?} for key {key:?}: {reason}")]
    InvalidValue {
        /// The key the value belongs to.
        key: String,
        /// The value as written.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `In` or `NotIn` without values.
    #[error("for 'in', 'notin' operators, values set can't be empty (key {key:?})")]
    EmptyValues {
        /// The key of the requirement.
        key: String,
    },
    /// `Exists` or `DoesNotExist` with values.
    #[error("values set must be empty for exists and does not exist (key {key:?})")]
    UnexpectedValues {
        /// The key of the requirement.
        key: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Requirement {
    In(String, BTreeSet<String>),
    NotIn(String, BTreeSet<String>),
    Exists(String),
    DoesNotExist(String),
}

impl Requirement {
    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Requirement::In(key, values) => labels.get(key).is_some_and(|v| values.contains(v)),
            Requirement::NotIn(key, values) => labels.get(key).is_none_or(|v| !values.contains(v)),
            Requirement::Exists(key) => labels.contains_key(key),
            Requirement::DoesNotExist(key) => !labels.contains_key(key),
        }
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |values: &BTreeSet<String>| values.iter().cloned().collect::<Vec<_>>().join(",");
        match self {
            Requirement::In(k, v) if v.len() == 1 => write!(f, "{k}={}", set(v)),
            Requirement::In(k, v) => write!(f, "{k} in ({})", set(v)),
            Requirement::NotIn(k, v) => write!(f, "{k} notin ({})", set(v)),
            Requirement::Exists(k) => f.write_str(k),
            Requirement::DoesNotExist(k) => write!(f, "!{k}"),
        }
    }
}

/// A compiled namespace selector.
///
/// An absent selector on an ExtensionConfig compiles to [`NamespaceSelector::everything`], the
/// same as `{}`. Cluster API's registry instead makes an absent selector match nothing; its
/// admission webhook defaults the field to `{}`, so in a real cluster the two only differ for
/// objects written past the webhook, and we follow the webhook.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamespaceSelector {
    requirements: Vec<Requirement>,
}

impl NamespaceSelector {
    /// The selector that matches every namespace.
    pub fn everything() -> Self {
        Self::default()
    }

    /// Compiles an optional label selector; `None` matches everything.
    pub fn compile(selector: Option<&metav1::LabelSelector>) -> Result<Self, SelectorError> {
        let Some(selector) = selector else {
            return Ok(Self::everything());
        };
        let mut requirements = Vec::new();
        for (key, value) in selector.match_labels.iter().flatten() {
            check_key(key)?;
            check_value(key, value)?;
            requirements.push(Requirement::In(
                key.clone(),
                BTreeSet::from([value.clone()]),
            ));
        }
        for expression in selector.match_expressions.iter().flatten() {
            requirements.push(compile_requirement(expression)?);
        }
        Ok(NamespaceSelector { requirements })
    }

    /// True when the selector matches every namespace without looking at labels.
    pub fn is_everything(&self) -> bool {
        self.requirements.is_empty()
    }

    /// True when every requirement holds for the labels.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
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
}

impl fmt::Display for NamespaceSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.requirements.iter().map(ToString::to_string).collect();
        f.write_str(&parts.join(","))
    }
}

fn compile_requirement(
    expression: &metav1::LabelSelectorRequirement,
) -> Result<Requirement, SelectorError> {
    let key = &expression.key;
    check_key(key)?;
    let values = expression.values.as_deref().unwrap_or_default();
    for value in values {
        check_value(key, value)?;
    }
    let set = || values.iter().cloned().collect::<BTreeSet<_>>();
    match expression.operator.as_str() {
        "In" | "NotIn" if values.is_empty() => Err(SelectorError::EmptyValues { key: key.clone() }),
        "In" => Ok(Requirement::In(key.clone(), set())),
        "NotIn" => Ok(Requirement::NotIn(key.clone(), set())),
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            Err(SelectorError::UnexpectedValues { key: key.clone() })
        }
        "Exists" => Ok(Requirement::Exists(key.clone())),
        "DoesNotExist" => Ok(Requirement::DoesNotExist(key.clone())),
        other => Err(SelectorError::InvalidOperator {
            operator: other.to_string(),
        }),
    }
}

/// A label name: at most 63 characters, alphanumeric at both ends, `-`, `_` and `.` inside.
fn is_label_name(s: &str) -> bool {
    let bytes = s.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// A DNS-1123 subdomain: at most 253 characters, dot-separated lowercase labels.
fn is_dns_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|part| {
            let b = part.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        })
}

fn check_key(key: &str) -> Result<(), SelectorError> {
    let invalid = |reason: &str| SelectorError::InvalidKey {
        key: key.to_string(),
        reason: reason.to_string(),
    };
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix
        && !is_dns_subdomain(prefix)
    {
        return Err(invalid("the prefix must be a DNS-1123 subdomain"));
    }
    if !is_label_name(name) {
        return Err(invalid(
            "the name must be 63 characters or less, begin and end with an alphanumeric \
             character and contain only alphanumerics, '-', '_' or '.'",
        ));
    }
    Ok(())
}

fn check_value(key: &str, value: &str) -> Result<(), SelectorError> {
    if value.is_empty() || is_label_name(value) {
        return Ok(());
    }
    Err(SelectorError::InvalidValue {
        key: key.to_string(),
        value: value.to_string(),
        reason: "a label value must be empty or 63 characters or less, begin and end with an \
                 alphanumeric character and contain only alphanumerics, '-', '_' or '.'"
            .to_string(),
    })
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
    fn match_labels_and_expressions_are_anded() {
        let mut sel = selector(vec![expr("team", "Exists", &[])]);
        sel.match_labels = Some(labels(&[("env", "prod")]));
        let s = NamespaceSelector::compile(Some(&sel)).unwrap();
        assert!(s.matches(&labels(&[("env", "prod"), ("team", "x")])));
        assert!(!s.matches(&labels(&[("env", "prod")])));
        assert!(!s.matches(&labels(&[("env", "dev"), ("team", "x")])));
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
    fn invalid_selectors_are_rejected() {
        let bad = [
            expr("env", "bad-operator", &["x"]),
            expr("env", "In", &[]),
            expr("env", "NotIn", &[]),
            expr("env", "Exists", &["x"]),
            expr("env", "DoesNotExist", &["x"]),
            expr("", "Exists", &[]),
            expr("Bad_Prefix/name", "Exists", &[]),
            expr("-leading", "Exists", &[]),
            expr(&"a".repeat(64), "Exists", &[]),
            expr("env", "In", &["not valid"]),
        ];
        for e in bad {
            assert!(
                NamespaceSelector::compile(Some(&selector(vec![e.clone()]))).is_err(),
                "{e:?}"
            );
        }
        let sel = metav1::LabelSelector {
            match_labels: Some(labels(&[("env", "-bad")])),
            ..Default::default()
        };
        assert!(NamespaceSelector::compile(Some(&sel)).is_err());
        assert!(
            NamespaceSelector::compile(Some(&selector(vec![expr(
                "example.com/env",
                "In",
                &["", "a.b_c-d"]
            )])))
            .is_ok()
        );
    }

    #[test]
    fn display_is_readable() {
        let s = NamespaceSelector::compile(Some(&selector(vec![
            expr("a", "In", &["x"]),
            expr("b", "NotIn", &["y", "z"]),
            expr("c", "DoesNotExist", &[]),
        ])))
        .unwrap();
        assert_eq!(s.to_string(), "a=x,b notin (y,z),!c");
    }
}
