//! The CEL rules of a variable's schema (`x-kubernetes-validations`), evaluated as Cluster API
//! evaluates them on a Cluster's value (apiextensions' `cel.NewValidator` in
//! `cluster_variable_validation.go`): each rule with `self` bound to its field, `oldSelf` to
//! the old value's on an update (a rule that names `oldSelf` is not evaluated on create), the
//! message from `messageExpression`, else `message`, else `failed rule: <rule>`, at the
//! field plus the rule's `fieldPath`, of the kind its `reason` names.
//!
//! kube-cel (kube-rs) walks the schema and evaluates the rules with Kubernetes' CEL
//! libraries; this module only turns its errors into Cluster API's field errors. Its paths
//! write a map entry as `.key` where Kubernetes writes `[key]`.

use serde_json::Value;

use crate::api::core::v1beta2::JSONSchemaProps;
use crate::go::field::{BadValue, ErrorType, FieldError, FieldPath};

/// The errors of the rules of `schema` on `value` (`old`: the previous value), each at `base`
/// plus its path, showing `bad` as the rejected value.
pub(super) fn validate(
    schema: &JSONSchemaProps,
    value: &Value,
    old: Option<&Value>,
    base: &FieldPath,
    bad: &str,
) -> Vec<FieldError> {
    let Ok(schema) = serde_json::to_value(schema) else {
        return Vec::new();
    };
    let Err(errors) = kube_cel::validate(&schema, value, old) else {
        return Vec::new();
    };
    errors
        .into_vec()
        .into_iter()
        .map(|e| field_error(&e, base, bad))
        .collect()
}

/// A failed rule as apiextensions reports it (`fieldErrorForReason`).
fn field_error(e: &kube_cel::ValidationError, base: &FieldPath, bad: &str) -> FieldError {
    let field = at(base, &e.field_path);
    let kind = match (&e.kind, e.reason.as_deref()) {
        (kube_cel::ErrorKind::ValidationFailure, Some("FieldValueForbidden")) => {
            ErrorType::Forbidden
        }
        (kube_cel::ErrorKind::ValidationFailure, Some("FieldValueRequired")) => ErrorType::Required,
        (kube_cel::ErrorKind::ValidationFailure, Some("FieldValueDuplicate")) => {
            return FieldError::new(ErrorType::Duplicate, &field, bad, "");
        }
        _ => ErrorType::Invalid,
    };
    let bad = match kind {
        ErrorType::Invalid => BadValue::String(bad.to_string()),
        _ => BadValue::Omitted,
    };
    FieldError::new(kind, &field, bad, e.message.as_str())
}

/// `base` followed by kube-cel's path of the field (`a.b[0]`, or `.b` for a rule's
/// `fieldPath` at the root).
fn at(base: &FieldPath, path: &str) -> FieldPath {
    let path = path.strip_prefix('.').unwrap_or(path);
    if path.is_empty() {
        base.clone()
    } else if path.starts_with('[') {
        FieldPath::new(&format!("{base}{path}"))
    } else {
        base.child(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_below_the_value() {
        let base = FieldPath::new("spec").child("value");
        assert_eq!(at(&base, "").as_str(), "spec.value");
        assert_eq!(at(&base, ".zones").as_str(), "spec.value.zones");
        assert_eq!(at(&base, "a[0].b").as_str(), "spec.value.a[0].b");
        assert_eq!(at(&base, "[1]").as_str(), "spec.value[1]");
    }
}
