//! Defaulting a variable's value from its schema, as apiextensions' structural defaulting
//! (`k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting`) does for Cluster API
//! (`internal/topology/variables/cluster_variable_defaulting.go`).
//!
//! A property that is missing, or null, gets a copy of its schema's `default`; then every
//! property, list item and map value is defaulted by its own schema, the ones just set from a
//! default included, so a default gets the defaults of the properties it leaves out. Cluster
//! API defaults the value wrapped as the property of an object, so the value itself, missing or
//! null, gets the root schema's default the same way. (Cluster API's `JSONSchemaProps` has no
//! `nullable`: a null is always replaced when a default exists.)

use serde_json::Value;

use crate::api::core::v1beta2::JSONSchemaProps;

/// The deepest nesting defaulted; a value nested deeper is left as it is (the check refuses it
/// before it could matter, and the walk cannot exhaust the stack).
pub(super) const MAX_DEPTH: usize = 256;

/// `value` (`None` when the variable is not set) with the defaults of `schema` filled in:
/// `None` when it is not set and the schema has no default.
///
/// ```
/// use capi_runtime::variable::{default_value, schema_of, Variable};
/// use serde::{Deserialize, Serialize};
/// use serde_json::json;
///
/// #[derive(Serialize, Deserialize, Variable)]
/// #[variable(name = "registry")]
/// pub struct Registry {
///     pub host: String,
///     #[serde(skip_serializing_if = "Option::is_none")]
///     #[schema(default = 443)]
///     pub port: Option<i32>,
/// }
///
/// let schema = schema_of::<Registry>();
/// let value = default_value(&schema, Some(json!({ "host": "r.example.com" })));
/// assert_eq!(value, Some(json!({ "host": "r.example.com", "port": 443 })));
/// assert_eq!(default_value(&schema, None), None);
/// ```
pub fn default_value(schema: &JSONSchemaProps, value: Option<Value>) -> Option<Value> {
    let mut value = match value {
        None | Some(Value::Null) => match schema_default(schema) {
            Some(default) => default,
            None => return value,
        },
        Some(value) => value,
    };
    fill(&mut value, schema, 0);
    Some(value)
}

/// The schema's `default` as JSON (a default that is not valid JSON counts as none).
fn schema_default(schema: &JSONSchemaProps) -> Option<Value> {
    schema.r#default.as_ref().and_then(|d| d.to_value().ok())
}

/// Fills the defaults of `schema` into `value`, recursively.
fn fill(value: &mut Value, schema: &JSONSchemaProps, depth: usize) {
    if depth >= MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(map) => {
            for (name, property) in &schema.properties {
                if map.get(name).is_none_or(Value::is_null)
                    && let Some(default) = schema_default(property)
                {
                    map.insert(name.clone(), default);
                }
            }
            for (name, item) in map.iter_mut() {
                if let Some(property) = schema.properties.get(name) {
                    fill(item, property, depth + 1);
                } else if let Some(additional) = &schema.additional_properties {
                    if item.is_null()
                        && let Some(default) = schema_default(additional)
                    {
                        *item = default;
                    }
                    fill(item, additional, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(schema) = &schema.items {
                for item in items {
                    if item.is_null()
                        && let Some(default) = schema_default(schema)
                    {
                        *item = default;
                    }
                    fill(item, schema, depth + 1);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(json: Value) -> JSONSchemaProps {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_default_gets_the_defaults_of_what_it_leaves_out() {
        let s = schema(json!({
            "type": "object",
            "properties": {
                "proxy": {
                    "type": "object",
                    "default": { "host": "p" },
                    "properties": {
                        "host": { "type": "string" },
                        "port": { "type": "integer", "default": 3128 },
                    },
                },
            },
        }));
        assert_eq!(
            default_value(&s, Some(json!({}))),
            Some(json!({ "proxy": { "host": "p", "port": 3128 } }))
        );
    }

    #[test]
    fn a_null_is_replaced_and_a_set_value_kept() {
        let s = schema(json!({
            "type": "array",
            "default": [null],
            "items": { "type": "string", "default": "x" },
        }));
        assert_eq!(default_value(&s, None), Some(json!(["x"])));
        assert_eq!(default_value(&s, Some(Value::Null)), Some(json!(["x"])));
        assert_eq!(
            default_value(&s, Some(json!(["a", null]))),
            Some(json!(["a", "x"]))
        );
    }

    #[test]
    fn map_values_are_defaulted_but_no_entry_is_invented() {
        let s = schema(json!({
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": { "on": { "type": "boolean", "default": true } },
            },
        }));
        assert_eq!(
            default_value(&s, Some(json!({ "a": {} }))),
            Some(json!({ "a": { "on": true } }))
        );
        assert_eq!(default_value(&s, Some(json!({}))), Some(json!({})));
    }
}
