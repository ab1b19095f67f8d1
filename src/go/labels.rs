//! apimachinery's label selectors: `metav1.LabelSelectorAsSelector` (a `LabelSelector` checked
//! and compiled, with Go's errors), the compiled selector's `String()` and matching, and
//! `metav1.FormatLabelSelector`.
//!
//! ```
//! use capi_runtime::go::labels::{format_label_selector, label_selector_as_selector};
//! use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::{
//!     LabelSelector, LabelSelectorRequirement,
//! };
//!
//! let selector = LabelSelector {
//!     match_labels: Some([("env".to_string(), "prod".to_string())].into()),
//!     match_expressions: Some(vec![LabelSelectorRequirement {
//!         key: "tier".into(),
//!         operator: "NotIn".into(),
//!         values: Some(vec!["b".into(), "a".into()]),
//!     }]),
//! };
//! assert_eq!(format_label_selector(Some(&selector)), "env=prod,tier notin (a,b)");
//! assert_eq!(format_label_selector(None), "<none>");
//!
//! let compiled = label_selector_as_selector(Some(&selector)).unwrap();
//! assert!(compiled.matches(&[("env".to_string(), "prod".to_string())].into()));
//! ```

use std::collections::BTreeMap;
use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;

use super::errors::aggregate_messages;
use super::field::{BadValue, FieldError, FieldPath};
use super::json::marshal_string;
use super::strconv::quote;
use super::validation::{label_value, qualified_name};

/// The operator of one [`Requirement`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operator {
    /// `key=value` (from `matchLabels`).
    Equals,
    /// `key in (values)`.
    In,
    /// `key notin (values)`.
    NotIn,
    /// `key`.
    Exists,
    /// `!key`.
    DoesNotExist,
}

/// One checked requirement of a selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    key: String,
    operator: Operator,
    values: Vec<String>,
}

impl Requirement {
    /// The label key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The operator.
    pub fn operator(&self) -> Operator {
        self.operator
    }

    /// The values, as given.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// Whether the labels satisfy the requirement (`labels.Requirement.Matches`).
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let value = labels.get(&self.key);
        match self.operator {
            Operator::Equals | Operator::In => value.is_some_and(|v| self.values.contains(v)),
            Operator::NotIn => value.is_none_or(|v| !self.values.contains(v)),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
        }
    }
}

impl fmt::Display for Requirement {
    /// `Requirement.String()`: `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`; several values
    /// are written sorted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.operator == Operator::DoesNotExist {
            f.write_str("!")?;
        }
        f.write_str(&self.key)?;
        let (open, close) = match self.operator {
            Operator::Equals => ("=", ""),
            Operator::In => (" in (", ")"),
            Operator::NotIn => (" notin (", ")"),
            Operator::Exists | Operator::DoesNotExist => return Ok(()),
        };
        f.write_str(open)?;
        if let [one] = self.values.as_slice() {
            f.write_str(one)?;
        } else {
            let mut sorted: Vec<&str> = self.values.iter().map(String::as_str).collect();
            sorted.sort_unstable();
            f.write_str(&sorted.join(","))?;
        }
        f.write_str(close)
    }
}

/// A compiled label selector (apimachinery's `labels.Selector` as `LabelSelectorAsSelector`
/// builds it): requirements sorted by key, all of which must hold.
///
/// An absent selector compiles to [`Selector::nothing`], which matches no labels; an empty one
/// (`{}`) to [`Selector::everything`]. Both are written as the empty string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    nothing: bool,
    requirements: Vec<Requirement>,
}

impl Selector {
    /// The selector that matches every set of labels.
    pub fn everything() -> Self {
        Self::default()
    }

    /// The selector that matches no labels at all.
    pub fn nothing() -> Self {
        Selector {
            nothing: true,
            requirements: Vec::new(),
        }
    }

    /// Whether it matches everything without looking at labels (`Selector.Empty()`).
    pub fn is_everything(&self) -> bool {
        !self.nothing && self.requirements.is_empty()
    }

    /// Whether it is the selector of an absent `LabelSelector`, which matches nothing.
    pub fn is_nothing(&self) -> bool {
        self.nothing
    }

    /// The requirements, sorted by key.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// Whether every requirement holds for the labels (never, for [`Selector::nothing`]).
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        !self.nothing && self.requirements.iter().all(|r| r.matches(labels))
    }
}

impl fmt::Display for Selector {
    /// `Selector.String()`: the requirements joined by `,`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

/// Why a `LabelSelector` does not compile; `Display` is Go's error text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SelectorError {
    /// An operator other than `In`, `NotIn`, `Exists`, `DoesNotExist`:
    /// `"<op>" is not a valid label selector operator`.
    #[error("{} is not a valid label selector operator", quote(.operator))]
    InvalidOperator {
        /// The operator as written.
        operator: String,
    },
    /// A requirement with a bad key, bad values or the wrong number of values
    /// (`labels.NewRequirement`'s field errors, paths relative to the requirement: `key`,
    /// `values`, `values[0][<key>]`), written as their aggregate.
    #[error("{}", aggregate_messages(.errors.iter().map(ToString::to_string)))]
    Requirement {
        /// The field errors, each message once, in Go's order.
        errors: Vec<FieldError>,
    },
}

/// `metav1.LabelSelectorAsSelector`: checks and compiles a selector, stopping at the first
/// requirement that is wrong. `matchLabels` come first (in key order; Go visits them in map
/// order, so with several bad ones Go's choice varies), then `matchExpressions` in order;
/// for each expression the operator is checked before the key and the values.
pub fn label_selector_as_selector(
    selector: Option<&metav1::LabelSelector>,
) -> Result<Selector, SelectorError> {
    let Some(selector) = selector else {
        return Ok(Selector::nothing());
    };
    let labels = selector.match_labels.as_ref();
    let expressions = selector.match_expressions.as_deref().unwrap_or_default();
    if labels.is_none_or(BTreeMap::is_empty) && expressions.is_empty() {
        return Ok(Selector::everything());
    }
    let mut requirements = Vec::new();
    for (key, value) in labels.into_iter().flatten() {
        requirements.push(new_requirement(
            key,
            Operator::Equals,
            Some(std::slice::from_ref(value)),
        )?);
    }
    for expression in expressions {
        let operator = match expression.operator.as_str() {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            other => {
                return Err(SelectorError::InvalidOperator {
                    operator: other.to_string(),
                });
            }
        };
        // Go copies the values with `append([]string(nil), values...)`: none is a nil slice.
        let values = expression.values.as_deref().filter(|v| !v.is_empty());
        requirements.push(new_requirement(&expression.key, operator, values)?);
    }
    // Go's sort.Sort by key; for the few requirements a selector has it keeps the order of
    // equal keys, as a stable sort does.
    requirements.sort_by(|a, b| a.key.as_bytes().cmp(b.key.as_bytes()));
    Ok(Selector {
        nothing: false,
        requirements,
    })
}

/// `labels.NewRequirement` for the operators a `LabelSelector` can hold.
fn new_requirement(
    key: &str,
    operator: Operator,
    values: Option<&[String]>,
) -> Result<Requirement, SelectorError> {
    let mut errors = Vec::new();
    let reasons = qualified_name(key);
    if !reasons.is_empty() {
        errors.push(FieldError::invalid(
            &FieldPath::new("key"),
            key,
            reasons.join("; "),
        ));
    }
    let values_path = FieldPath::new("values");
    let list = values.unwrap_or_default();
    let count_error = match operator {
        Operator::In | Operator::NotIn if list.is_empty() => {
            Some("for 'in', 'notin' operators, values set can't be empty")
        }
        Operator::Equals if list.len() != 1 => {
            Some("exact-match compatibility requires one single value")
        }
        Operator::Exists | Operator::DoesNotExist if !list.is_empty() => {
            Some("values set must be empty for exists and does not exist")
        }
        _ => None,
    };
    if let Some(detail) = count_error {
        errors.push(FieldError::invalid(
            &values_path,
            BadValue::strings(values),
            detail,
        ));
    }
    for (i, value) in list.iter().enumerate() {
        let reasons = label_value(value);
        if !reasons.is_empty() {
            errors.push(FieldError::invalid(
                &values_path.index(i).key(key),
                value.as_str(),
                reasons.join("; "),
            ));
        }
    }
    if errors.is_empty() {
        return Ok(Requirement {
            key: key.to_string(),
            operator,
            values: list.to_vec(),
        });
    }
    // `ErrorList.ToAggregate` keeps each message once.
    let mut unique: Vec<FieldError> = Vec::with_capacity(errors.len());
    for e in errors {
        if !unique.iter().any(|u| u.to_string() == e.to_string()) {
            unique.push(e);
        }
    }
    Err(SelectorError::Requirement { errors: unique })
}

/// `metav1.FormatLabelSelector`: the compiled selector's text, `<none>` when that is empty
/// (an absent or empty selector), `<error>` when it does not compile.
pub fn format_label_selector(selector: Option<&metav1::LabelSelector>) -> String {
    match label_selector_as_selector(selector) {
        Err(_) => "<error>".into(),
        Ok(s) => {
            let text = s.to_string();
            if text.is_empty() {
                "<none>".into()
            } else {
                text
            }
        }
    }
}

/// The JSON Go's `json.Marshal` writes for a `*metav1.LabelSelector` (`null` for none):
/// `matchLabels` (keys sorted) before `matchExpressions`, empty lists and maps left out. This
/// is how apimachinery shows a rejected selector in a field error ([`BadValue::Json`]).
pub fn label_selector_json(selector: Option<&metav1::LabelSelector>) -> String {
    let Some(selector) = selector else {
        return "null".into();
    };
    let mut members = Vec::new();
    if let Some(labels) = selector.match_labels.as_ref().filter(|m| !m.is_empty()) {
        let pairs: Vec<String> = labels
            .iter()
            .map(|(k, v)| format!("{}:{}", marshal_string(k), marshal_string(v)))
            .collect();
        members.push(format!("\"matchLabels\":{{{}}}", pairs.join(",")));
    }
    if let Some(expressions) = selector
        .match_expressions
        .as_ref()
        .filter(|e| !e.is_empty())
    {
        let items: Vec<String> = expressions
            .iter()
            .map(|e| {
                let mut s = format!(
                    "{{\"key\":{},\"operator\":{}",
                    marshal_string(&e.key),
                    marshal_string(&e.operator)
                );
                if let Some(values) = e.values.as_ref().filter(|v| !v.is_empty()) {
                    let values: Vec<String> = values.iter().map(|v| marshal_string(v)).collect();
                    s.push_str(&format!(",\"values\":[{}]", values.join(",")));
                }
                s.push('}');
                s
            })
            .collect();
        members.push(format!("\"matchExpressions\":[{}]", items.join(",")));
    }
    format!("{{{}}}", members.join(","))
}
