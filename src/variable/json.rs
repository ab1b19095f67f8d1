//! A value's JSON text as Go's `encoding/json` writes it: Cluster API shows a refused
//! variable's value as the text its defaulting marshalled, and an enum's values in the
//! message as `json.Marshal` writes them.

use serde_json::Value;

/// The JSON text Go's `json.Marshal` writes for a decoded value: compact, object keys sorted,
/// `<`, `>` and `&` escaped, floats as Go formats a `float64`.
pub(super) fn marshal(value: &Value) -> String {
    let mut out = String::new();
    write_go(value, &mut out);
    out
}

fn write_go(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) if n.is_i64() || n.is_u64() => out.push_str(&n.to_string()),
        Value::Number(n) => out.push_str(&go_float(n.as_f64().unwrap_or(0.0))),
        Value::String(s) => out.push_str(&crate::go::json::marshal_string(s)),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&crate::go::json::marshal_string(key));
                out.push(':');
                write_go(&map[key], out);
            }
            out.push('}');
        }
    }
}

/// A `float64` as `encoding/json` writes it: the shortest text that reads back, in exponent
/// form below 1e-6 and from 1e21 (`1e+21`, `1e-7`).
fn go_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let text = format!("{f:e}");
        match text.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
            _ => text,
        }
    } else {
        f.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_as_go_writes_them() {
        let value: Value = serde_json::from_str(
            r#"{"b": [1, 2.5, 3.0, 1e21, 1.5e-7, -0.0], "a": "<&>", "c": null}"#,
        )
        .unwrap();
        assert_eq!(
            marshal(&value),
            r#"{"a":"\u003c\u0026\u003e","b":[1,2.5,3,1e+21,1.5e-7,-0],"c":null}"#
        );
    }
}
