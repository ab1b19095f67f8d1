//! Label selectors: checked and compiled once, so that matching cannot fail.
//!
//! A compiled form of a Kubernetes `LabelSelector` (`matchLabels` and `matchExpressions` with
//! `In`, `NotIn`, `Exists` and `DoesNotExist`). The ExtensionConfig's namespace selector is one:
//! it decides which namespaces an extension serves.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;

use super::field::{FieldError, FieldPath};
use super::names::{label_value, qualified_name};

/// The label the API server puts on every namespace, holding the namespace's name.
pub const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// Why a label selector could not be compiled.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
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
        /// What is wrong with it, in Kubernetes' words (several reasons joined with `"; "`).
        reason: String,
    },
    /// A label value is not valid.
    #[error("invalid label value {value:?} for key {key:?}: {reason}")]
    InvalidValue {
        /// The key the value belongs to.
        key: String,
        /// The value as written.
        value: String,
        /// What is wrong with it, in Kubernetes' words (several reasons joined with `"; "`).
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

/// Where in a selector an error was found, so that it can become a [`FieldError`].
#[derive(Clone, Copy)]
enum Site {
    /// `matchLabels[key]`.
    Label,
    /// `matchExpressions[i]`.
    Expression(usize),
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

    /// Compiles an optional label selector; `None` matches everything. The first problem
    /// found is the error; [`label_selector`] lists all of them.
    pub fn compile(selector: Option<&metav1::LabelSelector>) -> Result<Self, SelectorError> {
        let mut first = None;
        let compiled = compile_all(selector, &mut |_, e| {
            first.get_or_insert(e);
        });
        match first {
            Some(e) => Err(e),
            None => Ok(compiled),
        }
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

/// Every problem of an optional label selector at `path` (e.g.
/// `spec.namespaceSelector`), as field errors; empty when it compiles.
pub fn label_selector(
    path: &FieldPath,
    selector: Option<&metav1::LabelSelector>,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    compile_all(selector, &mut |site, e| {
        let at = match site {
            Site::Label => path.child("matchLabels"),
            Site::Expression(i) => path.child("matchExpressions").index(i),
        };
        errors.push(to_field_error(&at, site, &e));
    });
    errors
}

fn to_field_error(at: &FieldPath, site: Site, e: &SelectorError) -> FieldError {
    let detail = e.to_string();
    match (e, site) {
        (SelectorError::InvalidKey { key, reason }, Site::Label) => {
            FieldError::invalid(at, key.as_str(), reason.as_str())
        }
        (SelectorError::InvalidKey { key, reason }, Site::Expression(_)) => {
            FieldError::invalid(&at.child("key"), key.as_str(), reason.as_str())
        }
        (SelectorError::InvalidValue { key, value, reason }, Site::Label) => {
            FieldError::invalid(&at.key(key), value.as_str(), reason.as_str())
        }
        (SelectorError::InvalidValue { value, reason, .. }, Site::Expression(_)) => {
            FieldError::invalid(&at.child("values"), value.as_str(), reason.as_str())
        }
        (SelectorError::InvalidOperator { operator }, _) => {
            FieldError::not_supported(&at.child("operator"), operator.as_str(), detail)
        }
        (SelectorError::EmptyValues { .. }, _) => FieldError::required(&at.child("values"), detail),
        (SelectorError::UnexpectedValues { .. }, _) => {
            FieldError::forbidden(&at.child("values"), detail)
        }
    }
}

/// Compiles what is valid and reports every problem to `report`.
fn compile_all(
    selector: Option<&metav1::LabelSelector>,
    report: &mut dyn FnMut(Site, SelectorError),
) -> NamespaceSelector {
    let Some(selector) = selector else {
        return NamespaceSelector::everything();
    };
    let mut requirements = Vec::new();
    for (key, value) in selector.match_labels.iter().flatten() {
        let key_ok = check_key(key).map_err(|e| report(Site::Label, e)).is_ok();
        let value_ok = check_value(key, value)
            .map_err(|e| report(Site::Label, e))
            .is_ok();
        if key_ok && value_ok {
            requirements.push(Requirement::In(
                key.clone(),
                BTreeSet::from([value.clone()]),
            ));
        }
    }
    for (i, expression) in selector.match_expressions.iter().flatten().enumerate() {
        match compile_requirement(expression) {
            Ok(r) => requirements.push(r),
            Err(e) => report(Site::Expression(i), e),
        }
    }
    NamespaceSelector { requirements }
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

fn check_key(key: &str) -> Result<(), SelectorError> {
    let reasons = qualified_name(key);
    if reasons.is_empty() {
        return Ok(());
    }
    Err(SelectorError::InvalidKey {
        key: key.to_string(),
        reason: reasons.join("; "),
    })
}

fn check_value(key: &str, value: &str) -> Result<(), SelectorError> {
    let reasons = label_value(value);
    if reasons.is_empty() {
        return Ok(());
    }
    Err(SelectorError::InvalidValue {
        key: key.to_string(),
        value: value.to_string(),
        reason: reasons.join("; "),
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

    #[test]
    fn every_problem_becomes_a_field_error() {
        let sel = metav1::LabelSelector {
            match_labels: Some(labels(&[("env", "-bad")])),
            match_expressions: Some(vec![
                expr("ok", "Exists", &[]),
                expr("a/b/c", "Exists", &[]),
                expr("env", "Sometimes", &["x"]),
                expr("env", "In", &[]),
            ]),
        };
        let path = FieldPath::new("spec").child("namespaceSelector");
        let errors = label_selector(&path, Some(&sel));
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "spec.namespaceSelector.matchLabels[env]",
                "spec.namespaceSelector.matchExpressions[1].key",
                "spec.namespaceSelector.matchExpressions[2].operator",
                "spec.namespaceSelector.matchExpressions[3].values",
            ]
        );
        assert!(errors[0].to_string().starts_with(
            "spec.namespaceSelector.matchLabels[env]: Invalid value: \"-bad\": a valid label must be"
        ));
        assert!(label_selector(&path, None).is_empty());
        // compile reports the first of them.
        assert!(matches!(
            NamespaceSelector::compile(Some(&sel)),
            Err(SelectorError::InvalidValue { .. })
        ));
    }
}
