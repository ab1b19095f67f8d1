//! Checking a Cluster's value of a variable as Cluster API's Cluster webhook does, in its
//! order (`internal/topology/variables/cluster_variable_defaulting.go`, then
//! `cluster_variable_validation.go`): defaults from the schema, the structural schema, no
//! field the schema does not describe, and the CEL rules (feature `variable-cel`). Each stage
//! runs only when the one before found nothing, as in Cluster API.

use std::fmt;

use serde_json::Value;

use super::Variable;
use super::default::default_value;
use crate::api::core::v1beta2::ClusterClassVariable;
use crate::go::field::{FieldError, FieldPath};

/// Why a variable's value is refused: the field errors Cluster API's webhook would answer,
/// at least one. Displayed as Cluster API aggregates them: one error as it is, several as
/// `[e1, e2]` (repeats dropped).
///
/// Each error's path starts where a Cluster's variable is:
/// `spec.topology.variables[<name>].value` and the field inside (the unknown-field error is
/// at `spec.topology.variables[<name>]`, as Cluster API places it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableErrors {
    name: String,
    errors: Vec<FieldError>,
}

impl VariableErrors {
    /// The name of the variable whose value is refused.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The field errors, in the order Cluster API reports them.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }
}

impl fmt::Display for VariableErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let listed =
            crate::go::errors::aggregate_messages(self.errors.iter().map(ToString::to_string));
        f.write_str(&listed)
    }
}

/// The field errors are what went wrong, not a cause below this layer: `source()` is `None`,
/// and [`errors`](VariableErrors::errors) lists them (each one an error of its own).
impl std::error::Error for VariableErrors {}

/// Checks a Cluster's value of the variable `V` as Cluster API does when the Cluster is
/// created, and returns the value with its schema's defaults filled in.
///
/// The CEL rules (`x_validation`) are evaluated with the feature `variable-cel` only; without
/// it a value that breaks one passes.
///
/// ```
/// use capi_runtime::variable::{Variable, check};
/// use serde::{Deserialize, Serialize};
/// use serde_json::json;
///
/// /// Where the Cluster's images come from.
/// #[derive(Serialize, Deserialize, Variable)]
/// #[variable(name = "registry", required)]
/// pub struct Registry {
///     /// Host name of the registry.
///     #[schema(min_length = 1)]
///     pub host: String,
///     /// Port of the registry.
///     #[serde(skip_serializing_if = "Option::is_none")]
///     #[schema(minimum = 1, maximum = 65535, default = 443)]
///     pub port: Option<i32>,
/// }
///
/// let value = check::<Registry>(&json!({ "host": "registry.example.com" })).unwrap();
/// assert_eq!(value, json!({ "host": "registry.example.com", "port": 443 }));
///
/// let refused = check::<Registry>(&json!({ "host": "r", "port": 70000 })).unwrap_err();
/// assert_eq!(
///     refused.to_string(),
///     r#"spec.topology.variables[registry].value.port: Invalid value: "{\"host\":\"r\",\"port\":70000}": port in body should be less than or equal to 65535"#
/// );
/// ```
pub fn check<V: Variable>(value: &Value) -> Result<Value, VariableErrors> {
    check_variable(&V::definition(), value, None)
}

/// [`check`] of an update: `old` is the value the Cluster had, which the CEL transition rules
/// (those that name `oldSelf`) compare with; on create they are not evaluated.
pub fn check_update<V: Variable>(value: &Value, old: &Value) -> Result<Value, VariableErrors> {
    check_variable(&V::definition(), value, Some(old))
}

/// What Cluster API does for a Cluster that does not set the variable `V`: the value its
/// schema's top-level default gives (checked as [`check`] checks a value), `None` when there is
/// none, and an error when the variable is required (a Cluster's variables only; a
/// MachineDeployment's overrides may leave out any variable).
///
/// ```
/// use capi_runtime::variable::{Variable, check_unset};
/// use serde::{Deserialize, Serialize};
///
/// /// The image registry.
/// #[derive(Serialize, Deserialize, Variable)]
/// #[variable(name = "registry", required)]
/// pub struct Registry(pub String);
///
/// assert_eq!(
///     check_unset::<Registry>().unwrap_err().to_string(),
///     "spec.topology.variables: Required value: required variable \"registry\" must be set"
/// );
/// ```
pub fn check_unset<V: Variable>() -> Result<Option<Value>, VariableErrors> {
    check_variable_unset(&V::definition())
}

/// [`check_unset`] with any variable's definition.
pub fn check_variable_unset(
    definition: &ClusterClassVariable,
) -> Result<Option<Value>, VariableErrors> {
    match default_value(&definition.schema.open_apiv3_schema, None) {
        Some(value) => check_variable(definition, &value, None).map(Some),
        None if definition.required == Some(true) => {
            let at = FieldPath::new("spec").child("topology").child("variables");
            let detail = format!(
                "required variable {} must be set",
                crate::go::strconv::quote(&definition.name)
            );
            Err(VariableErrors {
                name: definition.name.clone(),
                errors: vec![FieldError::required(&at, detail)],
            })
        }
        None => Ok(None),
    }
}

/// [`check`] with any variable's definition, e.g. one whose schema is written by hand or read
/// from a ClusterClass: `old` is the previous value on an update, `None` on create.
pub fn check_variable(
    definition: &ClusterClassVariable,
    value: &Value,
    old: Option<&Value>,
) -> Result<Value, VariableErrors> {
    let schema = &definition.schema.open_apiv3_schema;
    let name = definition.name.as_str();
    let refuse = |errors: Vec<FieldError>| VariableErrors {
        name: name.to_string(),
        errors,
    };
    let value = default_value(schema, Some(value.clone())).unwrap_or(Value::Null);
    // Cluster API shows the variable's whole JSON text, as its defaulting wrote it, as the
    // rejected value of every error.
    let raw = super::json::marshal(&value);
    let at = FieldPath::new("spec")
        .child("topology")
        .child("variables")
        .key(name);
    let errors = super::structural::validate(schema, &value, &at.child("value"), &raw);
    if !errors.is_empty() {
        return Err(refuse(errors));
    }
    let unknown = super::unknown::unknown_fields(schema, &value);
    if !unknown.is_empty() {
        let fields = crate::go::strconv::quote(&unknown.join(","));
        let detail = format!(
            "failed validation: {fields} field(s) are not specified in the variable schema of \
             variable {}",
            crate::go::strconv::quote(name)
        );
        return Err(refuse(vec![FieldError::invalid(&at, raw, detail)]));
    }
    #[cfg(feature = "variable-cel")]
    {
        let errors = super::cel::validate(schema, &value, old, &at.child("value"), &raw);
        if !errors.is_empty() {
            return Err(refuse(errors));
        }
    }
    #[cfg(not(feature = "variable-cel"))]
    let _ = old;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn variable(schema: Value) -> ClusterClassVariable {
        serde_json::from_value(json!({
            "name": "v",
            "required": false,
            "schema": { "openAPIV3Schema": schema },
        }))
        .unwrap()
    }

    #[test]
    fn stages_run_in_cluster_apis_order() {
        // A type error hides the unknown field: the structural check runs first.
        let v = variable(json!({
            "type": "object",
            "properties": { "a": { "type": "integer" } },
        }));
        let errors = check_variable(&v, &json!({ "a": "x", "b": 1 }), None).unwrap_err();
        assert_eq!(errors.errors().len(), 1);
        assert_eq!(
            errors.to_string(),
            r#"spec.topology.variables[v].value.a: Invalid value: "{\"a\":\"x\",\"b\":1}": a in body must be of type integer: "string""#
        );
        let errors = check_variable(&v, &json!({ "a": 1, "b": 1 }), None).unwrap_err();
        assert_eq!(
            errors.to_string(),
            r#"spec.topology.variables[v]: Invalid value: "{\"a\":1,\"b\":1}": failed validation: "b" field(s) are not specified in the variable schema of variable "v""#
        );
    }

    #[test]
    fn a_null_value_gets_the_default_or_is_refused() {
        let v = variable(json!({ "type": "string", "default": "d" }));
        assert_eq!(check_variable(&v, &Value::Null, None), Ok(json!("d")));
        let v = variable(json!({ "type": "string" }));
        assert_eq!(
            check_variable(&v, &Value::Null, None)
                .unwrap_err()
                .to_string(),
            r#"spec.topology.variables[v].value: Invalid value: "null": must be of type string: "null""#
        );
    }
}
