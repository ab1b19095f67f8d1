//! Structural validation of a variable's value: what kube-openapi's schema validator checks
//! (`k8s.io/kube-openapi/pkg/validation/validate`) for Cluster API
//! (`validation.ValidateCustomResource` in `cluster_variable_validation.go`), with its messages
//! turned into field errors as `k8s.io/apiextensions-apiserver/pkg/apiserver/validation` does.
//!
//! Written keyword by keyword rather than with a JSON Schema crate: the `jsonschema` crate
//! knows neither `x-kubernetes-int-or-string` nor Kubernetes' formats and wording, and
//! kube-cel's validator evaluates only the CEL rules. Each error names the field with
//! kube-openapi's path (`mirrors[0].url`, map entries as `headers.key`) and says
//! `<path> in body <problem>`, as Cluster API shows it (nothing before `should...` at the
//! value's root).

use std::collections::HashMap;

use regex::Regex;
use serde_json::{Number, Value};

use super::default::MAX_DEPTH;
use crate::api::core::v1beta2::JSONSchemaProps;
use crate::go::field::{BadValue, ErrorType, FieldError, FieldPath};

/// Checks `value` against `schema`; each error is at `base` (the field of the value) and
/// shows `bad` (Cluster API shows the variable's whole JSON text as the rejected value).
pub(super) fn validate(
    schema: &JSONSchemaProps,
    value: &Value,
    base: &FieldPath,
    bad: &str,
) -> Vec<FieldError> {
    let mut walk = Walk {
        base,
        bad,
        errors: Vec::new(),
        patterns: HashMap::new(),
    };
    walk.value(schema, value, "", 0);
    walk.errors
}

struct Walk<'a> {
    base: &'a FieldPath,
    bad: &'a str,
    errors: Vec<FieldError>,
    /// Each pattern compiled once (`None`: it does not compile).
    patterns: HashMap<String, Option<Regex>>,
}

/// The JSON type kube-openapi infers for a value.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if is_integer_text(n) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether Go reads the number as an integer (apimachinery's JSON decoding keeps an `int64`
/// when the text is one, a `float64` otherwise).
fn is_integer_text(n: &Number) -> bool {
    n.is_i64()
}

/// A number that is not an integer, but whose value is one, passes `type: integer`
/// (kube-openapi's `isFloatInt`).
fn is_whole(n: &Number) -> bool {
    n.as_f64()
        .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// `<path> in body <message>`, or the message alone at the value's root (Cluster API trims
/// the ` in body ` that kube-openapi writes after an empty path).
fn body(path: &str, message: &str) -> String {
    if path.is_empty() {
        message.to_string()
    } else {
        format!("{path} in body {message}")
    }
}

/// The bound as Go's `%v` prints a `float64` holding an integer.
fn bound(n: i64) -> String {
    let f = n as f64;
    if f.abs() >= 1e21 {
        format!("{f:e}").replace('e', "e+")
    } else {
        n.to_string()
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

impl Walk<'_> {
    fn push(&mut self, kind: ErrorType, path: &str, detail: String) {
        let field = if path.is_empty() {
            self.base.clone()
        } else {
            self.base.child(path)
        };
        let bad = match kind {
            ErrorType::Required | ErrorType::TooLong => BadValue::Omitted,
            _ => BadValue::String(self.bad.to_string()),
        };
        self.errors.push(FieldError::new(kind, &field, bad, detail));
    }

    fn invalid(&mut self, path: &str, message: &str) {
        self.push(ErrorType::Invalid, path, body(path, message));
    }

    fn value(&mut self, schema: &JSONSchemaProps, value: &Value, path: &str, depth: usize) {
        if depth >= MAX_DEPTH {
            self.invalid(path, "is nested too deeply to be checked");
            return;
        }
        if !self.type_matches(schema, value, path) {
            return;
        }
        if let Value::String(s) = value {
            self.string(schema, s, path);
        }
        if let Value::Number(n) = value {
            self.number(schema, n, path);
        }
        if let Value::Array(items) = value {
            self.array(schema, items, path, depth);
        }
        if !schema.r#enum.is_empty() {
            self.one_of_enum(schema, value, path);
        }
        if let Value::Object(map) = value {
            self.object(schema, map, path, depth);
        }
    }

    /// The type, int-or-string; `false` when the value is of another type (nothing else is
    /// checked then).
    fn type_matches(&mut self, schema: &JSONSchemaProps, value: &Value, path: &str) -> bool {
        let actual = type_name(value);
        if schema.x_kubernetes_int_or_string == Some(true) && schema.r#type.is_empty() {
            if matches!(actual, "integer" | "string") {
                return true;
            }
            // kube-openapi reports the type (both types it allows), the failed anyOf and the
            // errors of its first branch, in that order (as Cluster API answered in
            // testenv/tests/capi_variables.rs).
            self.push(
                ErrorType::TypeInvalid,
                path,
                body(
                    path,
                    &format!("must be of type integer,string: \"{actual}\""),
                ),
            );
            let quoted = crate::go::strconv::quote(path);
            self.invalid(
                "",
                &format!("{quoted} must validate at least one schema (anyOf)"),
            );
            self.push(
                ErrorType::TypeInvalid,
                path,
                body(path, &format!("must be of type integer: \"{actual}\"")),
            );
            return false;
        }
        let wanted = schema.r#type.as_str();
        let fits = match (wanted, value) {
            ("", _) => true,
            ("integer", Value::Number(n)) => is_integer_text(n) || is_whole(n),
            ("number", Value::Number(_)) => true,
            _ => wanted == actual,
        };
        if !fits {
            self.push(
                ErrorType::TypeInvalid,
                path,
                body(path, &format!("must be of type {wanted}: \"{actual}\"")),
            );
        }
        fits
    }

    /// maxLength, minLength and pattern, in kube-openapi's order and, as there, only the first
    /// that fails (its string validator returns at the first error): an empty string under
    /// both `minLength: 1` and a pattern gets the length error alone, as Cluster API answered
    /// in the test environment (testenv/tests/capi_variables.rs).
    fn string_bounds(&mut self, schema: &JSONSchemaProps, s: &str, path: &str) {
        // kube-openapi counts runes (utf8.RuneCount), not bytes; the message says bytes.
        let len = s.chars().count() as i64;
        if let Some(max) = schema.max_length
            && len > max
        {
            let unit = if max == 1 { "byte" } else { "bytes" };
            return self.push(
                ErrorType::TooLong,
                path,
                format!("may not be more than {max} {unit}"),
            );
        }
        if let Some(min) = schema.min_length
            && len < min
        {
            return self.invalid(path, &format!("should be at least {min} chars long"));
        }
        if !schema.pattern.is_empty() {
            let pattern = &schema.pattern;
            let compiled = self
                .patterns
                .entry(pattern.clone())
                .or_insert_with(|| Regex::new(pattern).ok());
            // A pattern that does not compile cannot reach a Cluster: Cluster API refuses the
            // ClusterClass that declares it.
            if compiled.as_ref().is_some_and(|re| !re.is_match(s)) {
                self.invalid(path, &format!("should match '{pattern}'"));
            }
        }
    }

    fn string(&mut self, schema: &JSONSchemaProps, s: &str, path: &str) {
        self.string_bounds(schema, s, path);
        // The format is a validator of its own in kube-openapi: checked whatever the above.
        if !schema.format.is_empty() && !super::format::is_valid(&schema.format, s) {
            let value = crate::go::strconv::quote(s);
            let message = format!("must be of type {}: {value}", schema.format);
            self.push(ErrorType::TypeInvalid, path, body(path, &message));
        }
    }

    fn number(&mut self, schema: &JSONSchemaProps, n: &Number, path: &str) {
        let below = |m: i64| match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.cmp(&m),
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => n
                .as_f64()
                .and_then(|f| f.partial_cmp(&(m as f64)))
                .unwrap_or(std::cmp::Ordering::Equal),
        };
        use std::cmp::Ordering::{Equal, Greater, Less};
        if let Some(max) = schema.maximum {
            let exclusive = schema.exclusive_maximum == Some(true);
            match (below(max), exclusive) {
                (Greater, false) => self.invalid(
                    path,
                    &format!("should be less than or equal to {}", bound(max)),
                ),
                (Greater | Equal, true) => {
                    self.invalid(path, &format!("should be less than {}", bound(max)))
                }
                _ => {}
            }
        }
        if let Some(min) = schema.minimum {
            let exclusive = schema.exclusive_minimum == Some(true);
            match (below(min), exclusive) {
                (Less, false) => self.invalid(
                    path,
                    &format!("should be greater than or equal to {}", bound(min)),
                ),
                (Less | Equal, true) => {
                    self.invalid(path, &format!("should be greater than {}", bound(min)))
                }
                _ => {}
            }
        }
    }

    fn array(&mut self, schema: &JSONSchemaProps, items: &[Value], path: &str, depth: usize) {
        let len = items.len() as i64;
        self.count(path, len, (schema.min_items, schema.max_items), "items");
        if schema.unique_items == Some(true)
            && items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].contains(a))
        {
            self.invalid(path, "shouldn't contain duplicates");
        }
        if let Some(item_schema) = &schema.items {
            for (i, item) in items.iter().enumerate() {
                self.value(item_schema, item, &format!("{path}[{i}]"), depth + 1);
            }
        }
    }

    /// minItems/maxItems or minProperties/maxProperties: `len` against `(min, max)`. Too few
    /// says `what` (`items`, `properties`); too many says items either way, as apimachinery's
    /// `TooMany` does.
    fn count(&mut self, path: &str, len: i64, (min, max): (Option<i64>, Option<i64>), what: &str) {
        if let Some(min) = min
            && len < min
        {
            self.invalid(path, &format!("should have at least {min} {what}"));
        }
        if let Some(max) = max
            && len > max
        {
            let unit = if max == 1 { "item" } else { "items" };
            self.push(
                ErrorType::TooMany,
                path,
                format!("must have at most {max} {unit}"),
            );
        }
    }

    fn one_of_enum(&mut self, schema: &JSONSchemaProps, value: &Value, path: &str) {
        let allowed: Vec<Value> = schema
            .r#enum
            .iter()
            .filter_map(|v| v.to_value().ok())
            .collect();
        if allowed.iter().any(|a| same(a, value)) {
            return;
        }
        let listed: Vec<String> = allowed
            .iter()
            .map(|a| match a {
                Value::String(s) => crate::go::strconv::quote(s),
                other => crate::go::strconv::quote(&super::json::marshal(other)),
            })
            .collect();
        let detail = if listed.is_empty() {
            String::new()
        } else {
            format!("supported values: {}", listed.join(", "))
        };
        self.push(ErrorType::NotSupported, path, detail);
    }

    fn object(
        &mut self,
        schema: &JSONSchemaProps,
        map: &serde_json::Map<String, Value>,
        path: &str,
        depth: usize,
    ) {
        let len = map.len() as i64;
        let bounds = (schema.min_properties, schema.max_properties);
        self.count(path, len, bounds, "properties");
        for (name, item) in map {
            if let Some(property) = schema.properties.get(name) {
                self.value(property, item, &join(path, name), depth + 1);
            } else if let Some(additional) = &schema.additional_properties {
                self.value(additional, item, &join(path, name), depth + 1);
            }
        }
        for name in &schema.required {
            if !map.contains_key(name) {
                self.push(ErrorType::Required, &join(path, name), String::new());
            }
        }
    }
}

/// Whether a value is an enum's: kube-openapi converts the value to the enum value's Go type
/// before comparing, so numbers compare by value (`1` is `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(schema: Value, value: Value) -> Vec<String> {
        let schema: JSONSchemaProps = serde_json::from_value(schema).unwrap();
        validate(&schema, &value, &FieldPath::new("v"), "raw")
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_whole_number_is_an_integer_and_an_integer_a_number() {
        assert!(errors(json!({ "type": "integer" }), json!(3.0)).is_empty());
        assert!(errors(json!({ "type": "number" }), json!(3)).is_empty());
        assert_eq!(
            errors(json!({ "type": "integer" }), json!(3.5)),
            [r#"v: Invalid value: "raw": must be of type integer: "number""#]
        );
    }

    #[test]
    fn map_entries_and_items_are_named_as_kube_openapi_names_them() {
        let schema = json!({
            "type": "object",
            "properties": {
                "m": { "type": "object", "additionalProperties": { "type": "string" } },
                "l": { "type": "array", "items": { "type": "object", "required": ["x"] } },
            },
        });
        assert_eq!(
            errors(schema, json!({ "m": { "k": 1 }, "l": [{}] })),
            [
                "v.l[0].x: Required value",
                r#"v.m.k: Invalid value: "raw": m.k in body must be of type string: "integer""#,
            ]
        );
    }

    #[test]
    fn an_enum_compares_numbers_by_value_and_lists_values_as_json() {
        let schema = json!({ "enum": [1, "a", { "b": true }] });
        assert!(errors(schema.clone(), json!(1.0)).is_empty());
        assert_eq!(
            errors(schema, json!(2)),
            [r#"v: Unsupported value: "raw": supported values: "1", "a", "{\"b\":true}""#]
        );
    }

    #[test]
    fn bounds_are_inclusive_unless_exclusive() {
        let schema = json!({ "type": "integer", "minimum": 1, "maximum": 3 });
        assert!(errors(schema.clone(), json!(1)).is_empty());
        assert!(errors(schema, json!(3)).is_empty());
        let schema = json!({ "type": "number", "maximum": 3, "exclusiveMaximum": true });
        assert_eq!(
            errors(schema, json!(3)),
            [r#"v: Invalid value: "raw": should be less than 3"#]
        );
    }

    #[test]
    fn lengths_count_characters() {
        let schema = json!({ "type": "string", "maxLength": 2, "minLength": 2 });
        assert!(errors(schema.clone(), json!("éé")).is_empty());
        assert_eq!(
            errors(schema, json!("ééé")),
            ["v: Too long: may not be more than 2 bytes"]
        );
    }
}
