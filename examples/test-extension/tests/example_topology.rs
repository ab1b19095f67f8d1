//! The example's topology handlers on the sample ClusterClass in `clusterclass.yaml`: the
//! templates go through GeneratePatches as Cluster API would send them, the patches are
//! applied, and the result passes ValidateTopology.

use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::hooks::v1alpha1::{
    GeneratePatchesRequest, GeneratePatchesRequestItem, HolderReference, ResponseStatus,
    ValidateTopologyRequest, ValidateTopologyRequestItem, Variable,
};
use capi_runtime::raw::Json;
use capi_runtime::raw::RawExtension;
use capi_runtime::topology_mutation::{PatchOperation, apply, paths};
use capi_test_extension::topology;
use serde_json::{Value, json};
use topology_fields::Fields;

#[path = "../../../tests/it/support/topology_fields.rs"]
mod topology_fields;

fn documents() -> Vec<Value> {
    let text = include_str!("../clusterclass.yaml");
    serde_saphyr::from_multiple::<Value>(text).unwrap()
}

fn find<'a>(docs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["kind"] == kind && d["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("{kind}/{name} is in clusterclass.yaml"))
}

fn holder(api_version: &str, kind: &str, name: &str, field_path: &str) -> HolderReference {
    HolderReference {
        api_version: api_version.into(),
        kind: kind.into(),
        namespace: "default".into(),
        name: name.into(),
        field_path: field_path.into(),
    }
}

fn variable(name: &str, value: Value) -> Variable {
    Variable {
        name: name.into(),
        value: Json::from(value),
    }
}

/// The request Cluster API would build for the sample Cluster: its variables plus the global
/// builtins, and one item per template with the builtins of what holds it.
fn request(docs: &[Value]) -> GeneratePatchesRequest {
    let cluster = find(docs, "Cluster", "my-cluster");
    let version = cluster["spec"]["topology"]["version"].as_str().unwrap();
    let mut variables: Vec<Variable> = cluster["spec"]["topology"]["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| variable(v["name"].as_str().unwrap(), v["value"].clone()))
        .collect();
    variables.push(variable(
        "builtin",
        json!({"cluster": {"name": "my-cluster", "namespace": "default",
            "topology": {"version": version, "classRef": {"name": "quick-start-runtimesdk", "namespace": "default"}}}}),
    ));
    let cp_builtin = variable(
        "builtin",
        json!({"controlPlane": {"version": version, "name": "my-cluster-cp"}}),
    );
    let md_builtin = variable(
        "builtin",
        json!({"machineDeployment": {"version": version, "class": "default-worker", "name": "my-cluster-md-0", "topologyName": "md-0"}}),
    );
    let item = |uid: &str, kind: &str, name: &str, holder: HolderReference, vars: Vec<Variable>| {
        GeneratePatchesRequestItem {
            uid: uid.into(),
            holder_reference: holder,
            object: RawExtension::from(find(docs, kind, name).clone()),
            variables: vars,
        }
    };
    GeneratePatchesRequest {
        variables,
        items: vec![
            item(
                "infra-cluster",
                "DockerClusterTemplate",
                "quick-start-cluster",
                holder(
                    "cluster.x-k8s.io/v1beta2",
                    "Cluster",
                    "my-cluster",
                    paths::holder_field::CLUSTER_INFRASTRUCTURE_REF,
                ),
                vec![],
            ),
            item(
                "control-plane",
                "KubeadmControlPlaneTemplate",
                "quick-start-control-plane",
                holder(
                    "cluster.x-k8s.io/v1beta2",
                    "Cluster",
                    "my-cluster",
                    paths::holder_field::CLUSTER_CONTROL_PLANE_REF,
                ),
                vec![cp_builtin.clone()],
            ),
            item(
                "control-plane-machines",
                "DockerMachineTemplate",
                "quick-start-control-plane",
                holder(
                    "controlplane.cluster.x-k8s.io/v1beta2",
                    "KubeadmControlPlane",
                    "my-cluster-cp",
                    paths::holder_field::CONTROL_PLANE_MACHINE_INFRASTRUCTURE_REF,
                ),
                vec![cp_builtin],
            ),
            item(
                "worker-machines",
                "DockerMachineTemplate",
                "quick-start-default-worker-machinetemplate",
                holder(
                    "cluster.x-k8s.io/v1beta2",
                    "MachineDeployment",
                    "my-cluster-md-0",
                    paths::holder_field::MACHINE_INFRASTRUCTURE_REF,
                ),
                vec![md_builtin.clone()],
            ),
            item(
                "worker-bootstrap",
                "KubeadmConfigTemplate",
                "quick-start-default-worker-bootstraptemplate",
                holder(
                    "cluster.x-k8s.io/v1beta2",
                    "MachineDeployment",
                    "my-cluster-md-0",
                    paths::holder_field::MACHINE_BOOTSTRAP_CONFIG_REF,
                ),
                vec![md_builtin],
            ),
        ],
        ..Default::default()
    }
}

#[test]
fn patches_make_the_sample_templates_what_the_variables_ask() {
    let docs = documents();
    let request = request(&docs);
    let response = topology::walker().generate_patches(&request);
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );
    assert_eq!(response.items.len(), request.items.len());

    let mut patched = Vec::new();
    for (item, patch) in request.items.iter().zip(&response.items) {
        assert_eq!(item.uid, patch.uid);
        let ops: Vec<PatchOperation> = serde_json::from_slice(&patch.patch.0).unwrap();
        let mut object = item.object.to_value().unwrap();
        apply(&mut object, &ops).unwrap();
        patched.push(object);
    }
    let [cluster, cp, cp_machines, workers, bootstrap] = patched.try_into().unwrap();
    assert_eq!(
        cluster["spec"]["template"]["spec"]["loadBalancer"]["imageRepository"],
        "kindest"
    );
    let image = "kindest/node:v1.31.0_k3s1";
    assert_eq!(
        cp_machines["spec"]["template"]["spec"]["customImage"],
        image
    );
    assert_eq!(workers["spec"]["template"]["spec"]["customImage"], image);
    // Fields the typed templates do not model are untouched.
    assert_eq!(
        workers["spec"]["template"]["spec"]["extraMounts"][0]["hostPath"],
        "/var/run/docker.sock"
    );
    let cp_spec = &cp["spec"]["template"]["spec"];
    assert_eq!(
        cp_spec["rollout"]["strategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}})
    );
    assert!(cp_spec.get("rolloutStrategy").is_none(), "{cp_spec}");
    assert_eq!(
        cp_spec["kubeadmConfigSpec"]["preKubeadmCommands"],
        json!(["echo hello"])
    );
    assert_eq!(
        cp_spec["kubeadmConfigSpec"]["files"][0]["path"],
        "/etc/motd"
    );
    assert_eq!(
        cp_spec["kubeadmConfigSpec"]["initConfiguration"]["nodeRegistration"]["kubeletExtraArgs"],
        json!([{"name": "v", "value": "2"}])
    );
    assert_eq!(
        cp_spec["kubeadmConfigSpec"]["clusterConfiguration"]["apiServer"]["certSANs"],
        json!(["localhost", "127.0.0.1"])
    );
    assert_eq!(
        bootstrap["metadata"]["annotations"]["example.invalid/patched"],
        "true"
    );
    let node_registration =
        &bootstrap["spec"]["template"]["spec"]["joinConfiguration"]["nodeRegistration"];
    assert_eq!(
        node_registration["kubeletExtraArgs"],
        json!([{"name": "node-labels", "value": "kubernetesVersion=v1.31.0_k3s1"}])
    );

    // The patched topology validates; a machine image from elsewhere does not.
    let validate = |objects: Vec<Value>| ValidateTopologyRequest {
        variables: request.variables.clone(),
        items: request
            .items
            .iter()
            .zip(objects)
            .map(|(item, object)| ValidateTopologyRequestItem {
                holder_reference: item.holder_reference.clone(),
                object: RawExtension::from(object),
                variables: item.variables.clone(),
            })
            .collect(),
        ..Default::default()
    };
    let walker = topology::walker();
    let ok = validate(vec![
        cluster.clone(),
        cp.clone(),
        cp_machines.clone(),
        workers.clone(),
        bootstrap.clone(),
    ]);
    let response = walker.validate_topology(&ok);
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );
    let mut foreign = workers;
    foreign["spec"]["template"]["spec"]["customImage"] = json!("docker.io/evil/node:v1");
    let response = walker.validate_topology(&validate(vec![
        cluster,
        cp,
        cp_machines,
        foreign,
        bootstrap,
    ]));
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "cluster.x-k8s.io/v1beta2/MachineDeployment/default/my-cluster-md-0 uses image \
         \"docker.io/evil/node:v1\", which is not from the image repository \"kindest\""
    );
}

#[test]
fn a_missing_required_variable_fails_generate_patches() {
    let docs = documents();
    let mut request = request(&docs);
    request
        .variables
        .retain(|v| v.name != topology::IMAGE_REPOSITORY);
    let response = topology::walker().generate_patches(&request);
    assert_eq!(response.status, ResponseStatus::Failure);
    assert_eq!(
        response.message,
        "variable \"imageRepository\" does not exist"
    );
}

#[test]
fn discovered_variables_describe_what_the_patches_read() {
    let response = topology::discover_variables();
    let names: Vec<_> = response.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "kubeadmControlPlaneMaxSurge",
            "files",
            "preKubeadmCommands",
            "kubeadmConfigTemplateAnnotations",
            "imageRepository"
        ]
    );
    let required: Vec<_> = response
        .variables
        .iter()
        .filter(|v| v.required == Some(true))
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(required, ["imageRepository"]);
    // Every variable the sample Cluster sets is declared.
    let docs = documents();
    for v in find(&docs, "Cluster", "my-cluster")["spec"]["topology"]["variables"]
        .as_array()
        .unwrap()
    {
        assert!(names.contains(&v["name"].as_str().unwrap()), "{v}");
    }
}

/// The example's templates after its patches, with the JSON Pointers its patches wrote.
fn patched_templates() -> Vec<(Value, Vec<String>)> {
    let docs = documents();
    let request = request(&docs);
    let response = topology::walker().generate_patches(&request);
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );
    request
        .items
        .iter()
        .zip(&response.items)
        .map(|(item, patch)| {
            let ops: Vec<PatchOperation> = serde_json::from_slice(&patch.patch.0).unwrap();
            let mut object = item.object.to_value().unwrap();
            apply(&mut object, &ops).unwrap();
            let pointers = serde_json::to_value(&ops)
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|op| op["path"].as_str().unwrap().to_string())
                .collect();
            (object, pointers)
        })
        .collect()
}

#[test]
fn every_field_the_example_names_exists_in_v1beta2() {
    let fields = Fields::load();
    let docs = documents();
    // clusterclass.yaml: every object but the Cluster against the reduced upstream field lists,
    // the Cluster against this crate's own v1beta2 type (a field it lacks is dropped on the
    // round trip).
    for doc in &docs {
        let kind = doc["kind"].as_str().unwrap();
        if kind == "Cluster" {
            let typed: Cluster = serde_json::from_value(doc.clone()).unwrap();
            let back = serde_json::to_value(typed).unwrap();
            for (key, value) in doc.as_object().unwrap() {
                assert_eq!(
                    back.get(key),
                    Some(value),
                    "Cluster.{key} survives decoding"
                );
            }
            continue;
        }
        assert_eq!(doc["apiVersion"], fields.api_version(kind), "{kind}");
        let wrong = fields.mismatches(kind, doc);
        assert!(wrong.is_empty(), "clusterclass.yaml:\n{}", wrong.join("\n"));
    }
    // What GeneratePatches writes: every patch path, and the patched objects as a whole.
    for (object, pointers) in patched_templates() {
        let kind = object["kind"].as_str().unwrap();
        assert_eq!(object["apiVersion"], fields.api_version(kind), "{kind}");
        for pointer in &pointers {
            if let Err(e) = fields.at_pointer(kind, pointer) {
                panic!("a patch of the example: {e}");
            }
        }
        let wrong = fields.mismatches(kind, &object);
        assert!(wrong.is_empty(), "patched {kind}:\n{}", wrong.join("\n"));
    }
}

#[test]
fn the_field_check_rejects_the_v1beta1_rollout_strategy() {
    let fields = Fields::load();
    let v1beta1_shape = json!({
        "apiVersion": "controlplane.cluster.x-k8s.io/v1beta2",
        "kind": "KubeadmControlPlaneTemplate",
        "spec": {"template": {"spec": {"rolloutStrategy": {"rollingUpdate": {"maxSurge": 1}}}}}
    });
    assert_eq!(
        fields.mismatches("KubeadmControlPlaneTemplate", &v1beta1_shape),
        [
            "KubeadmControlPlaneTemplate spec.template.spec.rolloutStrategy: no such field in v1beta2"
        ]
    );
    let wrong_type = json!({"spec": {"template": {"spec": {"rollout": {"strategy": {"rollingUpdate": {"maxSurge": true}}}}}}});
    assert_eq!(
        fields
            .mismatches("KubeadmControlPlaneTemplate", &wrong_type)
            .len(),
        1
    );
}
