//! Reading and merging topology-mutation variables.

use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{Builtins, Variable};
use capi_runtime::raw::Json;
use capi_runtime::topology_mutation::{VariableError, Variables, paths};
use serde::Deserialize;
use serde_json::{Value, json};

fn variables(pairs: &[(&str, Value)]) -> Variables {
    let list: Vec<Variable> = pairs
        .iter()
        .map(|(name, value)| Variable {
            name: name.to_string(),
            value: Json::from(value.clone()),
        })
        .collect();
    Variables::from_list(&list).unwrap()
}

fn sample() -> Variables {
    variables(&[
        ("replicas", json!(3)),
        ("enabled", json!(true)),
        ("one", json!(1)),
        ("name", json!("<tag>")),
        (
            "files",
            json!([{"path": "/etc/a", "content": "x"}, {"path": "/etc/b"}]),
        ),
        ("matrix", json!([[1, 2], [3, 4]])),
        (
            "builtin",
            json!({"cluster": {"name": "c1", "topology": {"version": "v1.31.0", "classRef": {"name": "cc", "namespace": "ns"}}}}),
        ),
    ])
}

#[test]
fn paths_select_fields_and_elements() {
    let vars = sample();
    assert_eq!(vars.get("replicas").unwrap(), &json!(3));
    assert_eq!(vars.get("files[1].path").unwrap(), &json!("/etc/b"));
    assert_eq!(vars.get("matrix[1][0]").unwrap(), &json!(3));
    assert_eq!(
        vars.get_string(paths::builtin::CLUSTER_TOPOLOGY_VERSION)
            .unwrap(),
        "v1.31.0"
    );
    assert_eq!(
        vars.get_string(paths::builtin::CLUSTER_TOPOLOGY_CLASS_NAME)
            .unwrap(),
        "cc"
    );
}

#[test]
fn missing_variables_are_not_found_and_malformed_paths_are_not() {
    let vars = sample();
    for path in ["absent", "builtin.controlPlane.version", "files[0].mode"] {
        let error = vars.get(path).unwrap_err();
        assert!(error.is_not_found(), "{path}: {error}");
    }
    assert_eq!(
        vars.get("absent").unwrap_err().to_string(),
        "variable \"absent\" does not exist"
    );
    for path in [
        "invalid[",
        "files[x]",
        "files[-1]",
        "files]0[",
        "a..b",
        "files[0]x",
    ] {
        let error = vars.get(path).unwrap_err();
        assert!(!error.is_not_found(), "{path}: {error}");
    }
    // Indexing past the end or into a non-array is an error, not a missing variable.
    assert!(!vars.get("files[5]").unwrap_err().is_not_found());
    assert!(!vars.get("replicas[0]").unwrap_err().is_not_found());
}

#[test]
fn typed_getters_decode_values() {
    let vars = sample();
    assert!(vars.get_bool("enabled").unwrap());
    assert!(vars.get_bool("one").unwrap());
    assert!(vars.get_bool("name").is_err());
    assert!(vars.get_string("replicas").is_err());
    // Escaped characters decode as JSON says, with no sanitizing of backslashes.
    let escaped: Variables = serde_json::from_str::<Vec<Variable>>(
        r#"[{"name": "html", "value": "\u003cb\u003e \\ \""}]"#,
    )
    .map(|list| Variables::from_list(&list).unwrap())
    .unwrap();
    assert_eq!(escaped.get_string("html").unwrap(), "<b> \\ \"");

    #[derive(Debug, Deserialize, PartialEq)]
    struct File {
        path: String,
        #[serde(default)]
        content: String,
    }
    let files: Vec<File> = vars.get_into("files").unwrap();
    assert_eq!(
        files[0],
        File {
            path: "/etc/a".into(),
            content: "x".into()
        }
    );
    let error = vars.get_into::<Vec<File>>("matrix").unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("failed to unmarshal variable json \"[[1,2],[3,4]]\" into"),
        "{error}"
    );
}

#[test]
fn later_maps_win_and_builtins_merge_deeply() {
    let global = variables(&[
        ("a", json!("global")),
        ("b", json!("global")),
        (
            "builtin",
            json!({"cluster": {"name": "old", "topology": {"version": "v1.30.0", "classRef": {"name": "cc", "namespace": "ns"}}}}),
        ),
    ]);
    let item = variables(&[
        ("b", json!("item")),
        (
            "builtin",
            json!({"cluster": {"name": "new"}, "controlPlane": {"version": "v1.30.1", "replicas": 3}, "unknownField": 1}),
        ),
    ]);
    let merged = Variables::merge(&[&global, &item]).unwrap();
    assert_eq!(merged.get_string("a").unwrap(), "global");
    assert_eq!(merged.get_string("b").unwrap(), "item");
    let builtins: Builtins = merged.builtins().unwrap();
    let cluster = builtins.cluster.unwrap();
    assert_eq!(cluster.name, "new");
    assert_eq!(cluster.topology.unwrap().version, "v1.30.0");
    assert_eq!(builtins.control_plane.unwrap().replicas, Some(3));
    // Unknown builtin fields are dropped, as decoding into the typed builtins does.
    assert!(
        merged
            .get("builtin.unknownField")
            .unwrap_err()
            .is_not_found()
    );
}

#[test]
fn invalid_builtin_fails_the_merge() {
    let global = variables(&[("builtin", json!({"cluster": {"name": "c"}}))]);
    let item = variables(&[("builtin", json!({"controlPlane": {"replicas": "three"}}))]);
    let error = Variables::merge(&[&global, &item]).unwrap_err();
    assert!(
        chain(&error).to_string().starts_with(
            "failed to merge builtin variables: failed to unmarshal builtin variable: "
        ),
        "{error}"
    );
}

#[test]
fn a_builtin_on_one_side_only_is_kept_as_it_came() {
    // Fields Builtins does not model, and a value it could not decode, as a newer Cluster API
    // might send them: with nothing to merge with, nothing is checked or dropped.
    let lone = json!({
        "cluster": {"name": "c", "futureField": {"a": [1, 2]}},
        "controlPlane": {"replicas": "three"},
        "somethingNew": true
    });
    let plain = variables(&[("a", json!(1))]);
    for maps in [
        [&plain, &variables(&[("builtin", lone.clone())])],
        [&variables(&[("builtin", lone.clone())]), &plain],
    ] {
        let merged = Variables::merge(&maps).unwrap();
        assert_eq!(merged.raw("builtin"), Some(&lone));
        assert_eq!(
            merged.get("builtin.cluster.futureField.a[1]").unwrap(),
            &json!(2)
        );
        assert_eq!(
            merged.get_string(paths::builtin::CLUSTER_NAME).unwrap(),
            "c"
        );
    }
    let alone = Variables::merge(&[&variables(&[("builtin", lone.clone())])]).unwrap();
    assert_eq!(alone.raw("builtin"), Some(&lone));
}

#[test]
fn builtins_on_both_sides_are_checked_and_merged() {
    // The first piece is checked too once there is something to merge it with.
    let global = variables(&[("builtin", json!({"controlPlane": {"replicas": "three"}}))]);
    let item = variables(&[("builtin", json!({"cluster": {"name": "c"}}))]);
    let error = Variables::merge(&[&global, &item]).unwrap_err();
    assert!(matches!(error, VariableError::MergeBuiltins(_)), "{error}");
    // Three maps, two of them with a builtin: merged, the third map's variables win.
    let middle = variables(&[("x", json!("middle"))]);
    let first = variables(&[("builtin", json!({"cluster": {"name": "a", "uid": "u"}}))]);
    let last = variables(&[
        ("x", json!("last")),
        ("builtin", json!({"cluster": {"name": "b"}})),
    ]);
    let merged = Variables::merge(&[&first, &middle, &last]).unwrap();
    assert_eq!(merged.get_string("x").unwrap(), "last");
    assert_eq!(
        merged.raw("builtin"),
        Some(&json!({"cluster": {"name": "b", "uid": "u"}}))
    );
}

#[test]
fn absent_builtins_are_empty() {
    assert_eq!(
        Variables::default().builtins().unwrap(),
        Builtins::default()
    );
}
