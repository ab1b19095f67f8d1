//! apimachinery's field errors (`k8s.io/apimachinery/pkg/util/validation/field`): which field,
//! what kind of problem, the rejected value and why, written as Go writes them
//! (`spec.clientConfig.url: Invalid value: "http://x": <detail>`); and the message of the
//! status that reports them for an object ([`invalid_message`], `errors.NewInvalid`).

use std::fmt;

use super::strconv::quote;

/// The path of a field inside an object, rendered as Kubernetes does: `spec.handlers[0].name`,
/// `metadata.labels[app]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(String);

impl FieldPath {
    /// A path starting at the field `root` (empty for the object itself).
    pub fn new(root: &str) -> Self {
        FieldPath(root.to_string())
    }

    /// The field `name` below this one.
    pub fn child(&self, name: &str) -> Self {
        if self.0.is_empty() {
            FieldPath(name.to_string())
        } else {
            FieldPath(format!("{}.{name}", self.0))
        }
    }

    /// The element `index` of this list.
    pub fn index(&self, index: usize) -> Self {
        FieldPath(format!("{}[{index}]", self.0))
    }

    /// The entry `key` of this map.
    pub fn key(&self, key: &str) -> Self {
        FieldPath(format!("{}[{key}]", self.0))
    }

    /// The path as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What kind of problem a [`FieldError`] reports; the same set as apimachinery's
/// `field.ErrorType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorType {
    /// A value that should exist does not (a lookup failed).
    NotFound,
    /// A required field is missing or empty.
    Required,
    /// A value that must be unique is repeated.
    Duplicate,
    /// The value is malformed or out of range.
    Invalid,
    /// The value is not one of a fixed set.
    NotSupported,
    /// The field may not be set (here, or together with another).
    Forbidden,
    /// The value is longer than allowed.
    TooLong,
    /// A list has more items than allowed.
    TooMany,
    /// A list has fewer items than required.
    TooFew,
    /// The value is shorter than required.
    TooShort,
    /// Checking the field failed for a reason unrelated to the value.
    Internal,
    /// The value has the wrong type.
    TypeInvalid,
}

impl ErrorType {
    /// The wording Kubernetes uses in messages, e.g. `Invalid value`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::TooShort => "Too short",
            ErrorType::Internal => "Internal error",
            ErrorType::TypeInvalid => "Invalid value",
        }
    }

    /// The `reason` a Kubernetes API status carries for it, e.g. `FieldValueInvalid`.
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::TooShort => "FieldValueTooShort",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The value a [`FieldError`] rejects.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BadValue {
    /// Not shown (a missing value, or one the message should not repeat).
    Omitted,
    /// A string, shown quoted as Go's `%q` quotes it.
    String(String),
    /// An integer.
    Int(i64),
    /// Any other value, shown as the JSON text Go's `json.Marshal` writes for it (how
    /// apimachinery shows a rejected structure or list), already rendered.
    Json(String),
}

impl BadValue {
    /// A list of strings as Go shows a `[]string`: `["a","b"]`, and `null` for a nil slice
    /// (`None`).
    pub fn strings<S: AsRef<str>>(values: Option<&[S]>) -> Self {
        BadValue::Json(match values {
            None => "null".into(),
            Some(values) => {
                let items: Vec<String> = values
                    .iter()
                    .map(|v| super::json::marshal_string(v.as_ref()))
                    .collect();
                format!("[{}]", items.join(","))
            }
        })
    }
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::Omitted => f.write_str("<omitted>"),
            BadValue::String(s) => f.write_str(&quote(s)),
            BadValue::Int(i) => write!(f, "{i}"),
            BadValue::Json(text) => f.write_str(text),
        }
    }
}

impl From<&str> for BadValue {
    fn from(s: &str) -> Self {
        BadValue::String(s.to_string())
    }
}

impl From<String> for BadValue {
    fn from(s: String) -> Self {
        BadValue::String(s)
    }
}

impl From<i64> for BadValue {
    fn from(i: i64) -> Self {
        BadValue::Int(i)
    }
}

impl From<i32> for BadValue {
    fn from(i: i32) -> Self {
        BadValue::Int(i.into())
    }
}

/// One rule a field breaks. Displayed as apimachinery prints a `field.Error`:
/// `<field>: <kind>[: <value>][: <detail>]` (the field is written even when empty), e.g.
/// `spec.clientConfig.url: Invalid value: "http://x": expected https scheme, got http`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FieldError {
    /// What kind of problem it is.
    pub kind: ErrorType,
    /// The path of the field.
    pub field: String,
    /// The rejected value.
    pub bad_value: BadValue,
    /// Why it is rejected (may be empty).
    pub detail: String,
}

impl FieldError {
    /// An error of any kind.
    pub fn new(
        kind: ErrorType,
        field: &FieldPath,
        bad_value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            kind,
            field: field.to_string(),
            bad_value: bad_value.into(),
            detail: detail.into(),
        }
    }

    /// A malformed or out-of-range value.
    pub fn invalid(
        field: &FieldPath,
        bad_value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(ErrorType::Invalid, field, bad_value, detail)
    }

    /// A missing required value.
    pub fn required(field: &FieldPath, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, field, BadValue::Omitted, detail)
    }

    /// A value that is repeated where it must be unique.
    pub fn duplicate(field: &FieldPath, bad_value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::Duplicate, field, bad_value, String::new())
    }

    /// A value that names something that does not exist.
    pub fn not_found(field: &FieldPath, bad_value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::NotFound, field, bad_value, String::new())
    }

    /// A value outside a fixed set; `detail` says which values are allowed.
    pub fn not_supported(
        field: &FieldPath,
        bad_value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(ErrorType::NotSupported, field, bad_value, detail)
    }

    /// A field that may not be set.
    pub fn forbidden(field: &FieldPath, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, field, BadValue::Omitted, detail)
    }

    /// The same error with another detail.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = detail.into();
        self
    }
}

impl FieldError {
    /// The message without the field path (apimachinery's `ErrorBody`, the `message` of a
    /// status cause): `<kind>[: <value>][: <detail>]`.
    pub fn body(&self) -> String {
        let mut s = self.kind.as_str().to_string();
        let shows_value = !matches!(
            self.kind,
            ErrorType::Required
                | ErrorType::Forbidden
                | ErrorType::TooLong
                | ErrorType::TooShort
                | ErrorType::Internal
        );
        if shows_value && self.bad_value != BadValue::Omitted {
            s.push_str(": ");
            s.push_str(&self.bad_value.to_string());
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl std::error::Error for FieldError {}

/// The message of apimachinery's `errors.NewInvalid(kind, name, errors)`, the status an API
/// server or an admission webhook answers an invalid object with:
/// `<Kind.group> "<name>" is invalid: <errors>`, the errors aggregated as `ToAggregate` does
/// (one shown as it is, several as `[e1, e2]`, repeats dropped), and without the `: <errors>`
/// when there are none.
///
/// ```
/// use capi_runtime::go::field::{FieldError, FieldPath, invalid_message};
///
/// let url = FieldPath::new("spec").child("clientConfig").child("url");
/// let errors = [FieldError::invalid(&url, "http://x", "expected https scheme, got http")];
/// assert_eq!(
///     invalid_message("ExtensionConfig.runtime.cluster.x-k8s.io", "ext", &errors),
///     "ExtensionConfig.runtime.cluster.x-k8s.io \"ext\" is invalid: \
///      spec.clientConfig.url: Invalid value: \"http://x\": expected https scheme, got http"
/// );
/// ```
pub fn invalid_message(qualified_kind: &str, name: &str, errors: &[FieldError]) -> String {
    let invalid = format!("{qualified_kind} {} is invalid", quote(name));
    if errors.is_empty() {
        return invalid;
    }
    let listed = super::errors::aggregate_messages(errors.iter().map(ToString::to_string));
    format!("{invalid}: {listed}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_like_kubernetes() {
        let p = FieldPath::new("spec")
            .child("handlers")
            .index(2)
            .child("labels")
            .key("app");
        assert_eq!(p.as_str(), "spec.handlers[2].labels[app]");
        assert_eq!(FieldPath::new("").child("a").as_str(), "a");
    }

    #[test]
    fn errors_render_like_field_error() {
        let p = FieldPath::new("spec").child("x");
        assert_eq!(
            FieldError::invalid(&p, "v", "bad").to_string(),
            "spec.x: Invalid value: \"v\": bad"
        );
        assert_eq!(
            FieldError::invalid(&p, 31, "").to_string(),
            "spec.x: Invalid value: 31"
        );
        assert_eq!(
            FieldError::required(&p, "must not be empty").to_string(),
            "spec.x: Required value: must not be empty"
        );
        assert_eq!(
            FieldError::new(ErrorType::Forbidden, &p, "hidden", "no").to_string(),
            "spec.x: Forbidden: no",
            "forbidden never shows the value"
        );
        assert_eq!(
            FieldError::duplicate(&p, "a").to_string(),
            "spec.x: Duplicate value: \"a\""
        );
        assert_eq!(ErrorType::NotSupported.reason(), "FieldValueNotSupported");
    }

    #[test]
    fn an_invalid_object_lists_its_errors_once() {
        let p = FieldPath::new("spec").child("x");
        let kind = "Thing.example.io";
        assert_eq!(
            invalid_message(kind, "a\"b", &[]),
            r#"Thing.example.io "a\"b" is invalid"#
        );
        let e = FieldError::required(&p, "must be set");
        let f = FieldError::forbidden(&p, "no");
        assert_eq!(
            invalid_message(kind, "t", &[e.clone(), f.clone(), e]),
            "Thing.example.io \"t\" is invalid: [spec.x: Required value: must be set, spec.x: Forbidden: no]"
        );
        assert_eq!(
            invalid_message(kind, "t", &[f]),
            "Thing.example.io \"t\" is invalid: spec.x: Forbidden: no"
        );
    }
}
