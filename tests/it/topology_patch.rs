//! JSON Patch and merge patch generation: applying a diff reproduces the target.

use capi_runtime::topology_mutation::{
    PatchOperation, apply, apply_merge, diff, json_patch_between, merge_diff, merge_patch_between,
};
use proptest::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

fn json_value(allow_null: bool) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::from),
        (-5i64..5).prop_map(Value::from),
        "[a-c/~]{0,2}".prop_map(Value::from),
        Just(if allow_null {
            Value::Null
        } else {
            Value::from(0)
        }),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-c/~]{1,2}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn json_patch_turns_before_into_after(before in json_value(true), after in json_value(true)) {
        let ops = diff(&before, &after);
        let mut patched = before.clone();
        apply(&mut patched, &ops).unwrap();
        prop_assert_eq!(patched, after);
    }

    // A merge patch cannot express a null value, so the target holds none.
    #[test]
    fn merge_patch_turns_before_into_after(before in json_value(true), after in json_value(false)) {
        let patch = merge_diff(&before, &after);
        let mut patched = before.clone();
        apply_merge(&mut patched, &patch);
        prop_assert_eq!(patched, after);
    }
}

#[test]
fn equal_values_give_empty_patches() {
    let v = json!({"a": [1, {"b": 2}]});
    assert!(diff(&v, &v).is_empty());
    assert_eq!(merge_diff(&v, &v), json!({}));
}

#[test]
fn typed_pairs_give_minimal_operations() {
    #[derive(Serialize, Clone)]
    struct Spec {
        replicas: u32,
        labels: std::collections::BTreeMap<String, String>,
        args: Vec<String>,
    }
    let before = Spec {
        replicas: 1,
        labels: [("a".to_string(), "1".to_string())].into(),
        args: vec!["x".into()],
    };
    let mut after = before.clone();
    after.replicas = 3;
    after.labels.insert("b".into(), "2".into());
    after.args.push("y".into());
    assert_eq!(
        json_patch_between(&before, &after).unwrap(),
        vec![
            PatchOperation::Add {
                path: "/args/1".into(),
                value: json!("y")
            },
            PatchOperation::Add {
                path: "/labels/b".into(),
                value: json!("2")
            },
            PatchOperation::Replace {
                path: "/replicas".into(),
                value: json!(3)
            },
        ]
    );
    assert_eq!(
        merge_patch_between(&before, &after).unwrap(),
        json!({"args": ["x", "y"], "labels": {"b": "2"}, "replicas": 3})
    );
    assert_eq!(
        serde_json::to_value(PatchOperation::Remove { path: "/a".into() }).unwrap(),
        json!({"op": "remove", "path": "/a"})
    );
}
