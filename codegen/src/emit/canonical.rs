//! Documents in canonical form: every mapping with its keys in byte order, whatever map type
//! serde_json was built with.

use serde_json::{Map, Value};

/// Rebuilds every object with its keys in sorted order, whatever map type serde_json uses. A
/// value already in that order is returned as it is: without looking at it when serde_json's
/// maps keep their keys sorted (its default; another crate of the build can turn on its
/// `preserve_order` feature), else after one read-only walk.
pub fn canonical(v: Value) -> Value {
    if is_canonical(&v) {
        return v;
    }
    sorted(v)
}

/// True when serde_json's `Map` keeps its keys sorted, as it does unless its `preserve_order`
/// feature is on: then every [`Value`] is canonical, and no walk needs to prove it. Asked of
/// the map itself, since a dependency may turn the feature on without this crate's knowledge.
fn maps_are_sorted() -> bool {
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut probe = Map::new();
        probe.insert("b".into(), Value::Null);
        probe.insert("a".into(), Value::Null);
        probe.keys().next().is_some_and(|k| k == "a")
    })
}

/// True when every object in `v` lists its keys in sorted order: at once when serde_json's maps
/// keep them sorted, else after one read-only walk.
pub fn is_canonical(v: &Value) -> bool {
    maps_are_sorted() || keys_sorted(v)
}

fn keys_sorted(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            m.keys().zip(m.keys().skip(1)).all(|(a, b)| a < b) && m.values().all(keys_sorted)
        }
        Value::Array(a) => a.iter().all(keys_sorted),
        _ => true,
    }
}

fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}
