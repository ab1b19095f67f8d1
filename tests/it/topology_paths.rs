//! Every name in `topology_mutation::paths` exists in the v1beta2 schema it points into: the
//! builtin variable's paths in this crate's `Builtins`, the Cluster's holder fields in this
//! crate's `Cluster`, the other holder fields and the template pointers in the reduced upstream
//! field lists of the example extension's `testdata/v1beta2-fields.yaml`.

use crate::support::topology_fields;

use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::hooks::v1alpha1::{BUILTINS_NAME, Builtins};
use capi_runtime::topology_mutation::paths;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use topology_fields::{Fields, PathError};

/// `(module, name, value)` of the listed constants of `paths`.
macro_rules! constants {
    ($($module:ident: [$($name:ident),* $(,)?]),* $(,)?) => {
        vec![$($((stringify!($module), stringify!($name), paths::$module::$name)),*),*]
    };
}

fn listed() -> Vec<(&'static str, &'static str, &'static str)> {
    constants!(
        builtin: [
            BUILTIN,
            CLUSTER_NAME,
            CLUSTER_NAMESPACE,
            CLUSTER_UID,
            CLUSTER_TOPOLOGY_VERSION,
            CLUSTER_TOPOLOGY_CLASS_NAME,
            CLUSTER_TOPOLOGY_CLASS_NAMESPACE,
            CLUSTER_NETWORK_SERVICE_DOMAIN,
            CLUSTER_NETWORK_SERVICES,
            CLUSTER_NETWORK_PODS,
            CONTROL_PLANE_VERSION,
            CONTROL_PLANE_NAME,
            CONTROL_PLANE_REPLICAS,
            CONTROL_PLANE_MACHINE_TEMPLATE_INFRASTRUCTURE_REF_NAME,
            MACHINE_DEPLOYMENT_VERSION,
            MACHINE_DEPLOYMENT_CLASS,
            MACHINE_DEPLOYMENT_NAME,
            MACHINE_DEPLOYMENT_TOPOLOGY_NAME,
            MACHINE_DEPLOYMENT_REPLICAS,
            MACHINE_POOL_VERSION,
            MACHINE_POOL_CLASS,
            MACHINE_POOL_NAME,
            MACHINE_POOL_TOPOLOGY_NAME,
            MACHINE_POOL_REPLICAS,
        ],
        holder_kind: [CLUSTER, MACHINE_DEPLOYMENT, MACHINE_POOL],
        holder_field: [
            CLUSTER_INFRASTRUCTURE_REF,
            CLUSTER_CONTROL_PLANE_REF,
            CONTROL_PLANE_MACHINE_INFRASTRUCTURE_REF,
            MACHINE_INFRASTRUCTURE_REF,
            MACHINE_BOOTSTRAP_CONFIG_REF,
        ],
        pointer: [
            METADATA_LABELS,
            METADATA_ANNOTATIONS,
            SPEC_TEMPLATE_SPEC,
            SPEC_TEMPLATE_METADATA_LABELS,
            SPEC_TEMPLATE_METADATA_ANNOTATIONS,
        ],
    )
}

/// `(module, name, value)` of every `pub const` in the source of `paths`, so a constant added
/// there without being checked here fails the test.
fn in_source() -> Vec<(String, String, String)> {
    let source = include_str!("../../src/topology_mutation/paths.rs");
    let mut module = String::new();
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find("pub ") {
        rest = &rest[start + 4..];
        if let Some(after) = rest.strip_prefix("mod ") {
            module = after[..after.find(' ').unwrap()].to_string();
        } else if let Some(after) = rest.strip_prefix("const ") {
            let name = &after[..after.find(':').unwrap()];
            let value = &after[after.find('=').unwrap()..];
            let open = value.find('"').unwrap() + 1;
            let close = open + value[open..].find('"').unwrap();
            found.push((
                module.clone(),
                name.to_string(),
                value[open..close].to_string(),
            ));
        }
    }
    found
}

#[test]
fn every_constant_of_paths_is_checked() {
    let listed: Vec<(String, String, String)> = listed()
        .into_iter()
        .map(|(m, n, v)| (m.to_string(), n.to_string(), v.to_string()))
        .collect();
    assert_eq!(listed, in_source());
}

/// Whether a value placed at `path` survives decoding into `T` and encoding again: a path `T`
/// does not have is dropped on the way. Tries a few leaf values, since the field's type is
/// not known here.
fn survives<T: DeserializeOwned + Serialize>(path: &[&str]) -> bool {
    let pointer: String = path.iter().map(|s| format!("/{s}")).collect();
    [
        json!("x"),
        json!(1),
        json!(true),
        json!(["x"]),
        json!({"name": "x"}),
    ]
    .into_iter()
    .any(|leaf| {
        let object = path
            .iter()
            .rev()
            .fold(leaf.clone(), |inner, segment| json!({ *segment: inner }));
        serde_json::from_value::<T>(object)
            .ok()
            .and_then(|typed| serde_json::to_value(typed).ok())
            .is_some_and(|back| back.pointer(&pointer) == Some(&leaf))
    })
}

fn in_builtins(path: &str) -> bool {
    let Some(rest) = path.strip_prefix("builtin.") else {
        return false;
    };
    survives::<Builtins>(&rest.split('.').collect::<Vec<_>>())
}

#[test]
fn builtin_paths_exist_in_the_builtin_variable() {
    assert_eq!(paths::builtin::BUILTIN, BUILTINS_NAME);
    for (module, name, value) in listed() {
        if module == "builtin" && name != "BUILTIN" {
            assert!(
                in_builtins(value),
                "{name} = {value:?} is not a Builtins field"
            );
        }
    }
    // The check can fail: a v1beta1 name, a typo, a missing prefix.
    assert!(!in_builtins(
        "builtin.controlPlane.machineTemplate.infrastructureRef.nam"
    ));
    assert!(!in_builtins("builtin.cluster.topology.class.name"));
    assert!(!in_builtins("cluster.name"));
}

/// The kinds each holder field path is used on.
fn holders_of(name: &str) -> &'static [&'static str] {
    match name {
        "CLUSTER_INFRASTRUCTURE_REF" | "CLUSTER_CONTROL_PLANE_REF" => &["Cluster"],
        "CONTROL_PLANE_MACHINE_INFRASTRUCTURE_REF" => &["KubeadmControlPlane"],
        "MACHINE_INFRASTRUCTURE_REF" | "MACHINE_BOOTSTRAP_CONFIG_REF" => {
            &["MachineDeployment", "MachinePool"]
        }
        other => panic!("say which kinds holder_field::{other} applies to"),
    }
}

#[test]
fn holder_kinds_and_fields_exist_in_v1beta2() {
    let fields = Fields::load();
    for (module, name, value) in listed() {
        match module {
            "holder_kind" => assert!(
                value == "Cluster" || fields.kinds().any(|k| k == value),
                "holder kind {value} is neither this crate's Cluster nor in v1beta2-fields.yaml"
            ),
            "holder_field" => {
                for kind in holders_of(name) {
                    if *kind == "Cluster" {
                        assert!(
                            survives::<Cluster>(&value.split('.').collect::<Vec<_>>()),
                            "{name} = {value:?} is not a field of Cluster"
                        );
                    } else {
                        let node = fields
                            .at_field_path(kind, value)
                            .unwrap_or_else(|e| panic!("{name}: {e}"));
                        // A holder field is an object reference.
                        assert!(node.get("name").is_some(), "{name} on {kind}: {node}");
                    }
                }
            }
            _ => {}
        }
    }
    // The v1beta1 place of the control plane's machine template reference, and a typo.
    assert!(
        fields
            .at_field_path(
                "KubeadmControlPlane",
                "spec.machineTemplate.infrastructureRef"
            )
            .is_err()
    );
    assert!(!survives::<Cluster>(&["spec", "infrastructureReference"]));
}

#[test]
fn template_pointers_exist_in_every_template_kind() {
    let fields = Fields::load();
    let templates: Vec<&str> = fields.kinds().filter(|k| k.ends_with("Template")).collect();
    assert!(templates.len() >= 4, "{templates:?}");
    for (module, name, value) in listed() {
        if module == "pointer" {
            for kind in &templates {
                if let Err(e) = fields.at_pointer(kind, value) {
                    panic!("{name}: {e}");
                }
            }
        }
    }
    // The v1beta1 rollout strategy of a KubeadmControlPlaneTemplate is not a v1beta2 field.
    let error = fields
        .at_pointer(
            "KubeadmControlPlaneTemplate",
            "/spec/template/spec/rolloutStrategy/rollingUpdate/maxSurge",
        )
        .unwrap_err();
    assert!(
        matches!(&error, PathError::NoField { segment, walked, .. }
            if segment == "rolloutStrategy" && walked == "/spec/template/spec"),
        "{error}"
    );
    assert_eq!(
        fields
            .at_pointer(
                "KubeadmControlPlaneTemplate",
                "/spec/template/spec/rollout/strategy/rollingUpdate/maxSurge",
            )
            .unwrap(),
        &Value::from("int-or-string")
    );
}
