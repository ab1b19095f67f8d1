//! Comparing documents as parsed data, ignoring prose: the Rust counterpart of the conformance
//! `structdiff` tool. `description` and `summary` strings are dropped (except where a schema's
//! `properties` map has a property of that name); lists that are sets in meaning (`required`,
//! `enum`, `tags`) compare without order; integral floats equal integers.

use serde_json::Value;

/// One difference: a JSON-pointer-like path and what differs there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// Where, e.g. `/components/schemas/X/properties/status/default`.
    pub path: String,
    /// What: `missing` (expected only), `extra` (actual only), or `value` with both values.
    pub what: String,
}

/// Drops prose and normalizes numbers.
pub fn strip_prose(v: &Value) -> Value {
    strip(v, false)
}

fn strip(v: &Value, in_properties: bool) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, v)| {
                    in_properties
                        || !(matches!(k.as_str(), "description" | "summary") && v.is_string())
                })
                .map(|(k, v)| (k.clone(), strip(v, !in_properties && k == "properties")))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| strip(x, false)).collect()),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e15 => Value::from(f as i64),
            _ => v.clone(),
        },
        other => other.clone(),
    }
}

const SET_KEYS: &[&str] = &["required", "enum", "tags"];

/// Every difference between `expected` and `actual` (both already stripped).
pub fn diff(expected: &Value, actual: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    walk(expected, actual, String::new(), "", &mut out);
    out
}

fn walk(e: &Value, a: &Value, path: String, key: &str, out: &mut Vec<Difference>) {
    match (e, a) {
        (Value::Object(em), Value::Object(am)) => {
            let mut keys: Vec<&String> = em.keys().chain(am.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = format!("{path}/{k}");
                match (em.get(k), am.get(k)) {
                    (Some(ev), Some(av)) => walk(ev, av, p, k, out),
                    (Some(ev), None) => out.push(Difference {
                        path: p,
                        what: format!("missing (expected {ev})"),
                    }),
                    (None, Some(av)) => out.push(Difference {
                        path: p,
                        what: format!("extra ({av})"),
                    }),
                    (None, None) => unreachable!(),
                }
            }
        }
        (Value::Array(ea), Value::Array(aa)) if SET_KEYS.contains(&key) => {
            let key = |v: &Value| v.to_string();
            let mut es: Vec<String> = ea.iter().map(key).collect();
            let mut as_: Vec<String> = aa.iter().map(key).collect();
            es.sort();
            as_.sort();
            if es != as_ {
                out.push(Difference {
                    path,
                    what: format!("set differs: expected {es:?}, got {as_:?}"),
                });
            }
        }
        (Value::Array(ea), Value::Array(aa)) => {
            if ea.len() != aa.len() {
                out.push(Difference {
                    path: path.clone(),
                    what: format!("length {} vs {}", ea.len(), aa.len()),
                });
            }
            for (i, (ev, av)) in ea.iter().zip(aa).enumerate() {
                walk(ev, av, format!("{path}[{i}]"), "", out);
            }
        }
        _ if e == a => {}
        _ => out.push(Difference {
            path,
            what: format!("value: expected {e}, got {a}"),
        }),
    }
}

/// Reads a YAML file into a JSON value.
pub fn load_yaml(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
