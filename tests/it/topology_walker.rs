//! Walking GeneratePatches and ValidateTopology items with typed template functions.

use std::collections::BTreeMap;

use capi_runtime::api::runtime::validation::GroupVersionError;
use capi_runtime::go::errors::{BoxError, Wrapped, chain};
use capi_runtime::hooks::v1alpha1::{
    GeneratePatchesRequest, GeneratePatchesRequestItem, HolderReference, PatchType, ResponseStatus,
    ValidateTopologyRequest, ValidateTopologyRequestItem, Variable,
};
use capi_runtime::raw::Json;
use capi_runtime::raw::RawExtension;
use capi_runtime::topology_mutation::{
    Template, TemplateContext, VariableError, WalkError, Walker, holder_ref, paths,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::error::Error as _;

/// A partial model of a machine template: only metadata annotations and the image.
#[derive(Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct MachineTemplate {
    #[serde(default)]
    metadata: Metadata,
    #[serde(default)]
    spec: MachineTemplateSpec,
}

#[derive(Serialize, Deserialize, Default)]
struct Metadata {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    annotations: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct MachineTemplateSpec {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    custom_image: String,
}

impl Template for MachineTemplate {
    const GROUP: &'static str = "infrastructure.cluster.x-k8s.io";
    const KIND: &'static str = "TestMachineTemplate";
}

fn holder(kind: &str) -> HolderReference {
    HolderReference {
        api_version: "cluster.x-k8s.io/v1beta2".into(),
        kind: kind.into(),
        namespace: "ns".into(),
        name: "holder".into(),
        field_path: paths::holder_field::MACHINE_INFRASTRUCTURE_REF.into(),
    }
}

fn object(kind: &str) -> Value {
    json!({
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1",
        "kind": kind,
        "metadata": {"name": "t"},
        "spec": {"template": {"spec": {"extra": 1}}}
    })
}

fn item(uid: &str, kind: &str, holder_kind: &str, builtin: Value) -> GeneratePatchesRequestItem {
    GeneratePatchesRequestItem {
        uid: uid.into(),
        holder_reference: holder(holder_kind),
        object: RawExtension::from(object(kind)),
        variables: vec![Variable {
            name: "builtin".into(),
            value: Json::from(builtin),
        }],
    }
}

fn request(items: Vec<GeneratePatchesRequestItem>) -> GeneratePatchesRequest {
    GeneratePatchesRequest {
        variables: vec![Variable {
            name: "builtin".into(),
            value: Json::from(json!({"cluster": {"name": "c1"}})),
        }],
        items,
        ..Default::default()
    }
}

fn annotate(t: &mut MachineTemplate, ctx: &TemplateContext<'_>) -> Result<(), VariableError> {
    let cluster = ctx.variables.get_string(paths::builtin::CLUSTER_NAME)?;
    t.metadata.annotations.insert("cluster".into(), cluster);
    Ok(())
}

fn patch_of(response: &capi_runtime::hooks::v1alpha1::GeneratePatchesResponse, i: usize) -> Value {
    serde_json::from_slice(&response.items[i].patch.0).unwrap()
}

#[test]
fn json_patches_carry_only_what_the_function_changed() {
    let walker = Walker::new().mutate(annotate);
    let response = walker.generate_patches(&request(vec![
        item("1", "TestMachineTemplate", "MachineDeployment", json!({})),
        item("2", "TestMachineTemplate", "Cluster", json!({})),
    ]));
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );
    assert_eq!(response.items.len(), 2);
    for (i, uid) in ["1", "2"].into_iter().enumerate() {
        assert_eq!(response.items[i].uid, uid);
        assert_eq!(response.items[i].patch_type, PatchType::JsonPatch);
        // The type does not model `spec.template` or `metadata.name`; nothing removes them.
        assert_eq!(
            patch_of(&response, i),
            json!([{"op": "add", "path": "/metadata/annotations", "value": {"cluster": "c1"}}])
        );
    }
}

#[test]
fn merge_patches_on_request() {
    let walker = Walker::new()
        .patch_format(PatchType::JsonMergePatch)
        .mutate(annotate);
    let response = walker.generate_patches(&request(vec![item(
        "1",
        "TestMachineTemplate",
        "MachineDeployment",
        json!({}),
    )]));
    assert_eq!(response.items[0].patch_type, PatchType::JsonMergePatch);
    assert_eq!(
        patch_of(&response, 0),
        json!({"metadata": {"annotations": {"cluster": "c1"}}})
    );
}

#[test]
fn holder_kind_selects_functions_and_unchanged_items_get_empty_patches() {
    let walker = Walker::new().mutate_held_by(
        paths::holder_kind::MACHINE_DEPLOYMENT,
        |t: &mut MachineTemplate, ctx| {
            let version: String = ctx
                .variables
                .get_into(paths::builtin::MACHINE_DEPLOYMENT_VERSION)?;
            t.spec.custom_image = format!("kindest/node:{version}");
            Ok::<_, capi_runtime::topology_mutation::VariableError>(())
        },
    );
    let response = walker.generate_patches(&request(vec![
        item(
            "md",
            "TestMachineTemplate",
            "MachineDeployment",
            json!({"machineDeployment": {"version": "v1.31.0"}}),
        ),
        item(
            "cp",
            "TestMachineTemplate",
            "KubeadmControlPlane",
            json!({}),
        ),
    ]));
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );
    assert_eq!(
        patch_of(&response, 0),
        json!([{"op": "add", "path": "/spec/customImage", "value": "kindest/node:v1.31.0"}])
    );
    assert_eq!(patch_of(&response, 1), json!([]));
}

#[test]
fn unknown_kinds_are_skipped_or_fail() {
    let items = vec![item("1", "Unknown", "Cluster", json!({}))];
    let response = Walker::new()
        .mutate(annotate)
        .generate_patches(&request(items.clone()));
    assert_eq!(response.status, ResponseStatus::Success);
    assert!(response.items.is_empty());

    let walker = Walker::new().mutate(annotate).fail_for_unknown_types(true);
    let response = walker.generate_patches(&request(items.clone()));
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "no kind \"Unknown\" is registered for version \"infrastructure.cluster.x-k8s.io/v1beta1\""
    );
    let error = walker.try_generate_patches(&request(items)).unwrap_err();
    assert!(
        matches!(&error, WalkError::UnknownKind { api_version, kind }
            if api_version == "infrastructure.cluster.x-k8s.io/v1beta1" && kind == "Unknown"),
        "{error:?}"
    );
}

#[test]
fn invalid_holder_api_version_fails() {
    let mut bad = item("1", "TestMachineTemplate", "Cluster", json!({}));
    bad.holder_reference.api_version = "invalid/cluster.x-k8s.io/vx".into();
    let walker = Walker::new().mutate(annotate);
    let response = walker.generate_patches(&request(vec![bad.clone()]));
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "error generating patches - HolderReference apiVersion \"invalid/cluster.x-k8s.io/vx\" \
         is not in valid format: unexpected GroupVersion string: invalid/cluster.x-k8s.io/vx"
    );
    // The error is a value: its own layer, and the parse error as its cause.
    let error = walker
        .try_generate_patches(&request(vec![bad]))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "error generating patches - HolderReference apiVersion \"invalid/cluster.x-k8s.io/vx\" \
         is not in valid format"
    );
    let cause = error.source().expect("the parse error");
    assert!(cause.is::<GroupVersionError>(), "{cause:?}");
    assert_eq!(chain(&error).to_string(), response.message);
}

#[test]
fn invalid_builtin_in_an_item_fails_and_keeps_earlier_patches() {
    let response = Walker::new()
        .mutate(annotate)
        .generate_patches(&request(vec![
            item("1", "TestMachineTemplate", "Cluster", json!({})),
            item(
                "2",
                "TestMachineTemplate",
                "Cluster",
                json!({"cluster": {"name": 5}}),
            ),
        ]));
    assert_eq!(response.status, ResponseStatus::Failure);
    assert!(
        response
            .message
            .starts_with("failed to merge builtin variables: failed to unmarshal builtin variable"),
        "{}",
        response.message
    );
    assert_eq!(response.items.len(), 1);
    let error = Walker::new()
        .mutate(annotate)
        .try_generate_patches(&request(vec![item(
            "2",
            "TestMachineTemplate",
            "Cluster",
            json!({"cluster": {"name": 5}}),
        )]))
        .unwrap_err();
    assert!(
        matches!(error, WalkError::Variables(VariableError::MergeBuiltins(_))),
        "{error:?}"
    );
}

fn one_item() -> GeneratePatchesRequest {
    request(vec![item("1", "TestMachineTemplate", "Cluster", json!({}))])
}

#[test]
fn function_errors_of_any_error_type_fail_the_walk() {
    let walker = Walker::new().mutate(|_: &mut MachineTemplate, _| Err("no way"));
    let response = walker.generate_patches(&one_item());
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(response.message, "no way");

    let walker = Walker::new()
        .mutate(|_: &mut MachineTemplate, ctx| Err(format!("{} is not welcome", ctx.holder_ref())));
    assert_eq!(
        walker.generate_patches(&one_item()).message,
        "cluster.x-k8s.io/v1beta2/Cluster/ns/holder is not welcome"
    );

    // A boxed error keeps its causes in the message, as Go's `err.Error()` of a wrapped error.
    let walker = Walker::new().mutate(|_: &mut MachineTemplate, _| {
        let cause = std::io::Error::other("disk full");
        Err::<(), BoxError>(Box::new(Wrapped::new("cannot read the image list", cause)))
    });
    assert_eq!(
        walker.generate_patches(&one_item()).message,
        "cannot read the image list: disk full"
    );
    let Err(WalkError::Function(error)) = walker.try_generate_patches(&one_item()) else {
        panic!("the function's error")
    };
    assert!(error.is::<Wrapped>(), "{error:?}");
}

#[test]
fn a_variable_error_of_a_function_carries_its_cause() {
    let walker = Walker::new().mutate(|t: &mut MachineTemplate, ctx| {
        let port: u16 = ctx.variables.get_into(paths::builtin::CLUSTER_NAME)?;
        t.spec.custom_image = format!("registry:{port}/node");
        Ok::<_, VariableError>(())
    });
    let response = walker.generate_patches(&one_item());
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "failed to unmarshal variable json \"\\\"c1\\\"\" into \"u16\": \
         invalid type: string \"c1\", expected u16"
    );
    // The function's own error type is still there for the caller.
    let Err(WalkError::Function(error)) = walker.try_generate_patches(&one_item()) else {
        panic!("the function's error")
    };
    let variable = error
        .downcast_ref::<VariableError>()
        .expect("a VariableError");
    assert!(
        matches!(variable, VariableError::Decode { .. }),
        "{variable:?}"
    );
}

#[test]
fn a_template_that_does_not_decode_fails() {
    let mut bad = item("1", "TestMachineTemplate", "Cluster", json!({}));
    let mut object = bad.object.to_value().unwrap();
    object["spec"]["customImage"] = json!(5);
    bad.object = RawExtension::from(object);
    let walker = Walker::new().mutate(annotate);
    let response = walker.generate_patches(&request(vec![bad.clone()]));
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "failed to decode infrastructure.cluster.x-k8s.io/v1beta1/TestMachineTemplate: \
         invalid type: number, expected a string at .spec.customImage (byte 131)"
    );
    let error = walker
        .try_generate_patches(&request(vec![bad]))
        .unwrap_err();
    assert!(matches!(error, WalkError::Decode { .. }), "{error:?}");
    // The template is read from its text with the wire codec's rules.
    assert!(
        error
            .source()
            .unwrap()
            .is::<capi_runtime::wire::DecodeError>()
    );
}

#[test]
fn an_unknown_patch_format_fails() {
    let walker = Walker::new()
        .patch_format(PatchType::Other("StrategicMergePatch".into()))
        .mutate(annotate);
    let response = walker.generate_patches(&one_item());
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "unknown patch format \"StrategicMergePatch\""
    );
    assert!(response.items.is_empty());
}

#[test]
fn json_functions_see_the_raw_object() {
    let walker = Walker::new().mutate_json(
        "infrastructure.cluster.x-k8s.io",
        "TestMachineTemplate",
        |object, _| {
            object["spec"]["template"]["spec"]["extra"] = json!(2);
            Ok::<_, String>(())
        },
    );
    let response = walker.generate_patches(&request(vec![item(
        "1",
        "TestMachineTemplate",
        "Cluster",
        json!({}),
    )]));
    assert_eq!(
        patch_of(&response, 0),
        json!([{"op": "replace", "path": "/spec/template/spec/extra", "value": 2}])
    );
}

#[test]
fn validation_reports_every_failing_template() {
    let walker = Walker::new().validate(|t: &MachineTemplate, ctx| {
        if t.spec.custom_image.is_empty() {
            Err(format!("{} has no custom image", ctx.holder_ref()))
        } else {
            Ok(())
        }
    });
    let validate_item = |image: &str, name: &str| {
        let mut object = object("TestMachineTemplate");
        if !image.is_empty() {
            object["spec"]["customImage"] = json!(image);
        }
        let mut holder = holder("MachineDeployment");
        holder.name = name.into();
        ValidateTopologyRequestItem {
            holder_reference: holder,
            object: RawExtension::from(object),
            variables: vec![],
        }
    };
    let request = ValidateTopologyRequest {
        items: vec![
            validate_item("", "a"),
            validate_item("img", "b"),
            validate_item("", "c"),
        ],
        ..Default::default()
    };
    let response = walker.validate_topology(&request);
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "cluster.x-k8s.io/v1beta2/MachineDeployment/ns/a has no custom image\n\
         cluster.x-k8s.io/v1beta2/MachineDeployment/ns/c has no custom image"
    );
    let errors = walker.validation_errors(&request);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|e| matches!(e, WalkError::Function(_))));
    let ok = ValidateTopologyRequest {
        items: vec![validate_item("img", "b")],
        ..Default::default()
    };
    assert_eq!(
        walker.validate_topology(&ok).status,
        ResponseStatus::Success
    );
    assert!(walker.validation_errors(&ok).is_empty());

    // Each line carries its error's causes.
    let walker = Walker::new()
        .validate(|_: &MachineTemplate, ctx| ctx.variables.get_into::<u16>("port").map(drop));
    let mut request = request;
    request.variables = vec![Variable {
        name: "port".into(),
        value: Json::from(json!(-1)),
    }];
    assert_eq!(
        walker.validate_topology(&request).message,
        ["failed to unmarshal variable json \"-1\" into \"u16\": \
          invalid value: integer `-1`, expected u16"; 3]
            .join("\n")
    );
}

#[test]
fn holder_ref_renders_group_version_kind_namespace_name() {
    assert_eq!(
        holder_ref(&holder("MachineDeployment")),
        "cluster.x-k8s.io/v1beta2/MachineDeployment/ns/holder"
    );
    let core = HolderReference {
        api_version: "v1".into(),
        kind: "ConfigMap".into(),
        name: "x".into(),
        ..Default::default()
    };
    assert_eq!(holder_ref(&core), "v1/ConfigMap/x");
}
