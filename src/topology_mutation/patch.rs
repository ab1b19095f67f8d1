//! JSON patches between two versions of an object: RFC 6902 JSON Patch and RFC 7386 merge
//! patch, computed from a before/after pair, plus the functions that apply them.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One RFC 6902 operation. Only the three operations a diff needs are produced; applying
/// supports the same three.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum PatchOperation {
    /// Adds `value` at `path` (appends with index `-` or the array length).
    Add {
        /// JSON Pointer of the target location.
        path: String,
        /// The value to add.
        value: Value,
    },
    /// Removes the value at `path`.
    Remove {
        /// JSON Pointer of the value to remove.
        path: String,
    },
    /// Replaces the value at `path` with `value`.
    Replace {
        /// JSON Pointer of the value to replace.
        path: String,
        /// The new value.
        value: Value,
    },
}

/// Why a patch could not be computed or applied.
#[derive(Debug, thiserror::Error)]
pub enum PatchError {
    /// A typed value did not serialize to JSON.
    #[error("failed to marshal object: {0}")]
    Serialize(#[from] serde_json::Error),
    /// An operation names a location that does not exist.
    #[error("cannot apply {op} at \"{path}\": {reason}")]
    Apply {
        /// The operation.
        op: &'static str,
        /// Its path.
        path: String,
        /// What is wrong.
        reason: &'static str,
    },
}

/// The RFC 6902 operations that turn `before` into `after`. Objects are compared key by key;
/// arrays element by element when only their tails differ in length, and replaced whole
/// otherwise.
pub fn diff(before: &Value, after: &Value) -> Vec<PatchOperation> {
    let mut ops = Vec::new();
    diff_into(&mut ops, String::new(), before, after);
    ops
}

fn diff_into(ops: &mut Vec<PatchOperation>, path: String, before: &Value, after: &Value) {
    if before == after {
        return;
    }
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            for (key, bv) in b {
                let child = format!("{path}/{}", escape(key));
                match a.get(key) {
                    Some(av) => diff_into(ops, child, bv, av),
                    None => ops.push(PatchOperation::Remove { path: child }),
                }
            }
            for (key, av) in a {
                if !b.contains_key(key) {
                    ops.push(PatchOperation::Add {
                        path: format!("{path}/{}", escape(key)),
                        value: av.clone(),
                    });
                }
            }
        }
        (Value::Array(b), Value::Array(a)) if b.len() == a.len() => {
            for (i, (bv, av)) in b.iter().zip(a).enumerate() {
                diff_into(ops, format!("{path}/{i}"), bv, av);
            }
        }
        (Value::Array(b), Value::Array(a)) if a.len() > b.len() && a.starts_with(b) => {
            for (i, av) in a.iter().enumerate().skip(b.len()) {
                ops.push(PatchOperation::Add {
                    path: format!("{path}/{i}"),
                    value: av.clone(),
                });
            }
        }
        (Value::Array(b), Value::Array(a)) if b.len() > a.len() && b.starts_with(a) => {
            // Highest index first, so every index still points at the element meant.
            for i in (a.len()..b.len()).rev() {
                ops.push(PatchOperation::Remove {
                    path: format!("{path}/{i}"),
                });
            }
        }
        _ => ops.push(PatchOperation::Replace {
            path,
            value: after.clone(),
        }),
    }
}

/// The RFC 7386 merge patch that turns `before` into `after`: changed members of objects,
/// `null` for removed members, and the whole new value for anything that is not an object on
/// both sides.
pub fn merge_diff(before: &Value, after: &Value) -> Value {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let mut patch = Map::new();
            for key in b.keys() {
                if !a.contains_key(key) {
                    patch.insert(key.clone(), Value::Null);
                }
            }
            for (key, av) in a {
                match b.get(key) {
                    Some(bv) if bv == av => {}
                    Some(bv) => {
                        patch.insert(key.clone(), merge_diff(bv, av));
                    }
                    None => {
                        patch.insert(key.clone(), av.clone());
                    }
                }
            }
            Value::Object(patch)
        }
        _ => after.clone(),
    }
}

/// The JSON Patch between two typed values.
pub fn json_patch_between<T: Serialize>(
    before: &T,
    after: &T,
) -> Result<Vec<PatchOperation>, PatchError> {
    Ok(diff(
        &serde_json::to_value(before)?,
        &serde_json::to_value(after)?,
    ))
}

/// The merge patch between two typed values.
pub fn merge_patch_between<T: Serialize>(before: &T, after: &T) -> Result<Value, PatchError> {
    Ok(merge_diff(
        &serde_json::to_value(before)?,
        &serde_json::to_value(after)?,
    ))
}

/// Applies `ops` to `target` in order. On error `target` may be partly patched.
pub fn apply(target: &mut Value, ops: &[PatchOperation]) -> Result<(), PatchError> {
    for op in ops {
        match op {
            PatchOperation::Add { path, value } => add(target, path, value.clone())?,
            PatchOperation::Remove { path } => {
                remove(target, path)?;
            }
            PatchOperation::Replace { path, value } => {
                if path.is_empty() {
                    *target = value.clone();
                } else {
                    let slot = target.pointer_mut(path).ok_or_else(|| PatchError::Apply {
                        op: "replace",
                        path: path.clone(),
                        reason: "no value at path",
                    })?;
                    *slot = value.clone();
                }
            }
        }
    }
    Ok(())
}

/// Applies an RFC 7386 merge patch to `target`.
pub fn apply_merge(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) => {
            if !target.is_object() {
                *target = Value::Object(Map::new());
            }
            let t = target.as_object_mut().expect("made an object above");
            for (key, pv) in p {
                if pv.is_null() {
                    t.remove(key);
                } else {
                    apply_merge(t.entry(key.clone()).or_insert(Value::Null), pv);
                }
            }
        }
        _ => *target = patch.clone(),
    }
}

/// Copies onto `target` the changes between `before` and `after`, leaving everything else in
/// `target` alone. Used to carry a mutation of a typed object (whose serialization may lack
/// fields the type does not model, or add defaulted ones) back onto the raw object it was
/// decoded from.
pub(crate) fn overlay(target: &mut Value, before: &Value, after: &Value) {
    if before == after {
        return;
    }
    match (before, after, target.as_object_mut()) {
        (Value::Object(b), Value::Object(a), Some(t)) => {
            for (key, av) in a {
                match (b.get(key), t.get_mut(key)) {
                    (Some(bv), _) if bv == av => {}
                    (Some(bv), Some(tv)) => overlay(tv, bv, av),
                    _ => {
                        t.insert(key.clone(), av.clone());
                    }
                }
            }
            for key in b.keys() {
                if !a.contains_key(key) {
                    t.remove(key);
                }
            }
        }
        _ => *target = after.clone(),
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

fn split_parent(path: &str) -> Option<(&str, String)> {
    let (parent, last) = path.rsplit_once('/')?;
    Some((parent, unescape(last)))
}

fn add(target: &mut Value, path: &str, value: Value) -> Result<(), PatchError> {
    if path.is_empty() {
        *target = value;
        return Ok(());
    }
    let fail = |reason| PatchError::Apply {
        op: "add",
        path: path.to_string(),
        reason,
    };
    let (parent, key) = split_parent(path).ok_or_else(|| fail("path must start with /"))?;
    match target
        .pointer_mut(parent)
        .ok_or_else(|| fail("no parent at path"))?
    {
        Value::Object(map) => {
            map.insert(key, value);
            Ok(())
        }
        Value::Array(items) => {
            let index = if key == "-" {
                items.len()
            } else {
                key.parse::<usize>()
                    .map_err(|_| fail("invalid array index"))?
            };
            if index > items.len() {
                return Err(fail("array index out of range"));
            }
            items.insert(index, value);
            Ok(())
        }
        _ => Err(fail("parent is not an object or array")),
    }
}

fn remove(target: &mut Value, path: &str) -> Result<Value, PatchError> {
    let fail = |reason| PatchError::Apply {
        op: "remove",
        path: path.to_string(),
        reason,
    };
    let (parent, key) = split_parent(path).ok_or_else(|| fail("path must start with /"))?;
    match target
        .pointer_mut(parent)
        .ok_or_else(|| fail("no parent at path"))?
    {
        Value::Object(map) => map.remove(&key).ok_or_else(|| fail("no value at path")),
        Value::Array(items) => {
            let index = key
                .parse::<usize>()
                .map_err(|_| fail("invalid array index"))?;
            if index >= items.len() {
                return Err(fail("array index out of range"));
            }
            Ok(items.remove(index))
        }
        _ => Err(fail("parent is not an object or array")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn pointer_tokens_are_escaped() {
        let ops = diff(&json!({}), &json!({"a/b": 1, "c~d": 2}));
        let paths: Vec<_> = ops
            .iter()
            .map(|o| match o {
                PatchOperation::Add { path, .. } => path.as_str(),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(paths, ["/a~1b", "/c~0d"]);
        let mut target = json!({});
        apply(&mut target, &ops).unwrap();
        assert_eq!(target, json!({"a/b": 1, "c~d": 2}));
    }

    #[test]
    fn overlay_keeps_what_the_type_does_not_model() {
        let mut raw = json!({"spec": {"known": 1, "unknown": true}, "extra": "x"});
        let before = json!({"spec": {"known": 1, "defaulted": ""}});
        let after = json!({"spec": {"known": 2, "defaulted": ""}});
        overlay(&mut raw, &before, &after);
        assert_eq!(
            raw,
            json!({"spec": {"known": 2, "unknown": true}, "extra": "x"})
        );
    }
}
