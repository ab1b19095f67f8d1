//! JSON patches between two versions of an object: RFC 6902 JSON Patch and RFC 7386 merge
//! patch, computed from a before/after pair, plus the functions that apply them.
//!
//! The json-patch crate computes JSON Patches and applies both kinds; this module keeps the
//! public operation type of its own ([`PatchOperation`], the three operations a diff writes)
//! and computes merge patches, which json-patch does not.

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

/// Why a patch could not be computed or applied. The serializer's or json-patch's error is the
/// [`source`](std::error::Error::source).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PatchError {
    /// A typed value did not serialize to JSON.
    #[error("failed to marshal object")]
    Serialize(#[from] serde_json::Error),
    /// The path of an operation is not a JSON Pointer (RFC 6901).
    #[error("invalid path {path:?} of operation {index} of the JSON patch")]
    InvalidPath {
        /// The position of the operation in the patch.
        index: usize,
        /// The path as given.
        path: String,
        /// Why it is not a JSON Pointer.
        source: json_patch::jsonptr::ParseError,
    },
    /// An operation names a location that does not exist (or cannot be added to).
    #[error("failed to apply the JSON patch")]
    Apply(#[source] json_patch::PatchError),
}

/// The RFC 6902 operations that turn `before` into `after`, as the json-patch crate computes
/// them: objects key by key (changed and added keys first, then removed ones), arrays element
/// by element (added and removed elements at the tail). The operations are not always the
/// ones Go's `jsonpatch.CreatePatch` (gomodules.xyz/jsonpatch), which Cluster API's walker
/// uses, would write (for arrays of scalars Go computes an edit script), but applied to
/// `before` they give the same `after`, and that is all a GeneratePatches answer promises.
pub fn diff(before: &Value, after: &Value) -> Vec<PatchOperation> {
    json_patch::diff(before, after)
        .0
        .into_iter()
        .map(from_library)
        .collect()
}

/// Our operation for one of the three json-patch's diff writes.
fn from_library(op: json_patch::PatchOperation) -> PatchOperation {
    use json_patch::PatchOperation as Op;
    match op {
        Op::Add(op) => PatchOperation::Add {
            path: op.path.as_str().to_owned(),
            value: op.value,
        },
        Op::Remove(op) => PatchOperation::Remove {
            path: op.path.as_str().to_owned(),
        },
        Op::Replace(op) => PatchOperation::Replace {
            path: op.path.as_str().to_owned(),
            value: op.value,
        },
        // `json_patch::diff` writes nothing else (its `diff.rs` pushes only these three).
        other => unreachable!("json_patch::diff wrote an operation it never writes: {other}"),
    }
}

/// json-patch's operation for one of ours, its path checked as a JSON Pointer.
fn to_library(index: usize, op: &PatchOperation) -> Result<json_patch::PatchOperation, PatchError> {
    use json_patch::PatchOperation as Op;
    use json_patch::jsonptr::Pointer;
    let pointer = |path: &str| {
        Pointer::parse(path)
            .map(Pointer::to_buf)
            .map_err(|source| PatchError::InvalidPath {
                index,
                path: path.to_owned(),
                source,
            })
    };
    Ok(match op {
        PatchOperation::Add { path, value } => Op::Add(json_patch::AddOperation {
            path: pointer(path)?,
            value: value.clone(),
        }),
        PatchOperation::Remove { path } => Op::Remove(json_patch::RemoveOperation {
            path: pointer(path)?,
        }),
        PatchOperation::Replace { path, value } => Op::Replace(json_patch::ReplaceOperation {
            path: pointer(path)?,
            value: value.clone(),
        }),
    })
}

/// The RFC 7386 merge patch that turns `before` into `after`: changed members of objects,
/// `null` for removed members, and the whole new value for anything that is not an object on
/// both sides (Go's `CreateMergePatch` of evanphx/json-patch, which Cluster API's walker uses,
/// writes the same).
// Written here: the json-patch crate applies merge patches ([`apply_merge`]) but does not
// compute them, and no crate of the workspace does.
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

/// Applies `ops` to `target` in order, with the json-patch crate. All or nothing: on error
/// `target` is left as it was.
pub fn apply(target: &mut Value, ops: &[PatchOperation]) -> Result<(), PatchError> {
    let ops = ops
        .iter()
        .enumerate()
        .map(|(index, op)| to_library(index, op))
        .collect::<Result<Vec<_>, _>>()?;
    json_patch::patch(target, &ops).map_err(PatchError::Apply)
}

/// Applies an RFC 7386 merge patch to `target`, with the json-patch crate.
pub fn apply_merge(target: &mut Value, patch: &Value) {
    json_patch::merge(target, patch);
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
    fn a_patch_that_does_not_apply_changes_nothing_and_keeps_the_cause() {
        let mut target = json!({"a": 1});
        let ops = [
            PatchOperation::Add {
                path: "/b".into(),
                value: json!(2),
            },
            PatchOperation::Remove {
                path: "/missing/x".into(),
            },
        ];
        let err = apply(&mut target, &ops).unwrap_err();
        assert_eq!(target, json!({"a": 1}), "the first operation is undone");
        let source = std::error::Error::source(&err).expect("a source");
        let cause = source
            .downcast_ref::<json_patch::PatchError>()
            .expect("json-patch's error is the source");
        assert_eq!(cause.operation, 1);
        assert_eq!(cause.path.as_str(), "/missing/x");

        let err = apply(&mut target, &[PatchOperation::Remove { path: "a".into() }]).unwrap_err();
        assert!(
            matches!(&err, PatchError::InvalidPath { index: 0, path, .. } if path == "a"),
            "{err}"
        );
        let source = std::error::Error::source(&err).expect("a source");
        assert!(
            source
                .downcast_ref::<json_patch::jsonptr::ParseError>()
                .is_some()
        );
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
