//! The fields of a value that its schema does not describe: those apiextensions' structural
//! pruning (`k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning`) would drop, which
//! Cluster API refuses instead (`validateUnknownFields` in `cluster_variable_validation.go`).
//!
//! Below `x-kubernetes-preserve-unknown-fields: true` fields the schema does not name are
//! kept, but the properties it does name are still pruned by their own schemas. A list
//! without an `items` schema, or an object without `properties` and `additionalProperties`,
//! describes no field: every key inside is unknown.

use serde_json::Value;

use super::default::MAX_DEPTH;
use crate::api::core::v1beta2::JSONSchemaProps;

/// Cluster API prunes the value as the property `variableValue` of a wrapping object and
/// trims `variableValue.` from each path it reports; a path that goes through a list at the
/// root keeps it (`variableValue[0].x`), as Cluster API's message does.
const WRAPPER: &str = "variableValue";

/// The paths of the unknown fields of `value`, in the order met (Go reports them in its map
/// order, which varies).
pub(super) fn unknown_fields(schema: &JSONSchemaProps, value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    prune(value, Some(schema), WRAPPER, &mut found, 0);
    let prefix = format!("{WRAPPER}.");
    found
        .into_iter()
        .map(|p| p.strip_prefix(&prefix).map(str::to_string).unwrap_or(p))
        .collect()
}

fn key(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

/// Go's `prune`: every field not named by the schema is unknown.
fn prune(
    value: &Value,
    schema: Option<&JSONSchemaProps>,
    path: &str,
    found: &mut Vec<String>,
    depth: usize,
) {
    if depth >= MAX_DEPTH {
        return;
    }
    if let Some(s) = schema
        && s.x_kubernetes_preserve_unknown_fields == Some(true)
    {
        return skip_prune(value, s, path, found, depth);
    }
    match value {
        Value::Object(map) => {
            for (name, item) in map {
                match schema.and_then(|s| known(s, name)) {
                    Some(s) => prune(item, Some(s), &key(path, name), found, depth + 1),
                    None => found.push(key(path, name)),
                }
            }
        }
        Value::Array(items) => {
            let item_schema = schema.and_then(|s| s.items.as_deref());
            for (i, item) in items.iter().enumerate() {
                prune(item, item_schema, &format!("{path}[{i}]"), found, depth + 1);
            }
        }
        _ => {}
    }
}

/// Go's `skipPrune`, below `x-kubernetes-preserve-unknown-fields`: fields the schema does not
/// name are kept; those it names, and list items with a schema, are still walked.
fn skip_prune(
    value: &Value,
    schema: &JSONSchemaProps,
    path: &str,
    found: &mut Vec<String>,
    depth: usize,
) {
    if depth >= MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(map) => {
            for (name, item) in map {
                if let Some(s) = known(schema, name) {
                    prune(item, Some(s), &key(path, name), found, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.items.as_deref() {
                for (i, item) in items.iter().enumerate() {
                    let at = format!("{path}[{i}]");
                    skip_prune(item, item_schema, &at, found, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// The schema of the field `name` of an object of `schema`: its property, else its map value.
fn known<'s>(schema: &'s JSONSchemaProps, name: &str) -> Option<&'s JSONSchemaProps> {
    schema
        .properties
        .get(name)
        .or(schema.additional_properties.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(json: Value) -> JSONSchemaProps {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn unknown_fields_are_named_below_the_value() {
        let s = schema(json!({
            "type": "object",
            "properties": {
                "test": { "type": "object", "properties": { "known": { "type": "boolean" } } },
                "list": { "type": "array", "items": { "type": "object" } },
            },
        }));
        let value = json!({ "test": { "known": true, "unknown": 1 }, "list": [{ "a": 1 }] });
        assert_eq!(unknown_fields(&s, &value), ["list[0].a", "test.unknown"]);
    }

    #[test]
    fn preserved_fields_are_kept_but_known_ones_still_checked() {
        let s = schema(json!({
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {
                "known": { "type": "object", "properties": {} },
            },
        }));
        let value = json!({ "anything": { "x": 1 }, "known": { "y": 2 } });
        assert_eq!(unknown_fields(&s, &value), ["known.y"]);
    }

    #[test]
    fn a_list_at_the_root_keeps_the_wrappers_name() {
        let s = schema(json!({ "type": "array", "items": { "type": "object" } }));
        assert_eq!(
            unknown_fields(&s, &json!([{ "x": 1 }])),
            ["variableValue[0].x"]
        );
    }
}
