//! The example's topology handlers on the sample ClusterClass in `clusterclass.yaml`: the
//! templates go through GeneratePatches as Cluster API sends them (the request built by the
//! testing crate's fixtures from the file's ClusterClass, templates and Cluster), the patches
//! are applied, and the result passes ValidateTopology.

use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::hooks::v1alpha1::{
    GeneratePatchesRequest, ResponseStatus, ValidateTopologyRequest, ValidateTopologyRequestItem,
};
use capi_runtime::raw::RawExtension;
use capi_runtime::topology_mutation::{PatchOperation, apply};
use capi_runtime_testenv::fixtures::Topology;
use capi_test_extension::topology;
use serde_json::{Value, json};
use topology_fields::Fields;

#[path = "support/v1beta2_fields.rs"]
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

/// The sample ClusterClass, its templates and its Cluster, as the testing crate's fixtures
/// model them.
fn sample(docs: &[Value]) -> Topology {
    let cluster = find(docs, "Cluster", "my-cluster");
    let template = |kind: &str, name: &str| find(docs, kind, name).clone();
    let mut sample = Topology::new(
        "default",
        "my-cluster",
        "quick-start-runtimesdk",
        template("DockerClusterTemplate", "quick-start-cluster"),
        template("KubeadmControlPlaneTemplate", "quick-start-control-plane"),
    )
    .kubernetes_version(cluster["spec"]["topology"]["version"].as_str().unwrap())
    .cluster_network(cluster["spec"]["clusterNetwork"].clone())
    .control_plane_machine_template(template(
        "DockerMachineTemplate",
        "quick-start-control-plane",
    ))
    .machine_deployment(
        "default-worker",
        "md-0",
        template(
            "KubeadmConfigTemplate",
            "quick-start-default-worker-bootstraptemplate",
        ),
        template(
            "DockerMachineTemplate",
            "quick-start-default-worker-machinetemplate",
        ),
    );
    for v in cluster["spec"]["topology"]["variables"].as_array().unwrap() {
        sample = sample.variable(v["name"].as_str().unwrap(), v["value"].clone());
    }
    sample
}

/// The request Cluster API sends for the sample Cluster: its variables plus the global
/// builtins, and one item per template with the builtins of what holds it (infrastructure
/// cluster, control plane, control plane machines, worker bootstrap, worker machines).
fn request(docs: &[Value]) -> GeneratePatchesRequest {
    sample(docs).generate_patches_request()
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
    let [cluster, cp, cp_machines, bootstrap, workers] = patched.try_into().unwrap();
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
        bootstrap.clone(),
        workers.clone(),
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
        bootstrap,
        foreign,
    ]));
    assert_eq!(response.status, ResponseStatus::Failure);
    let machine_deployment = &request.items[4].holder_reference.name;
    assert_eq!(
        response.message,
        format!(
            "cluster.x-k8s.io/v1beta2/MachineDeployment/default/{machine_deployment} uses image \
             \"docker.io/evil/node:v1\", which is not from the image repository \"kindest\""
        )
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
    // The surge is a string whose default is empty, as upstream declares it: the newtype's
    // type-level default at the root of its schema.
    let surge = serde_json::to_value(&response.variables[0].schema.open_apiv3_schema).unwrap();
    assert_eq!(
        (&surge["type"], &surge["default"]),
        (&json!("string"), &json!(""))
    );
    // A newtype as a list item or map value describes it with its doc comment.
    let schema =
        |i: usize| serde_json::to_value(&response.variables[i].schema.open_apiv3_schema).unwrap();
    assert_eq!(schema(2)["items"]["description"], "A shell command.");
    assert_eq!(
        schema(3)["additionalProperties"]["description"],
        "An annotation value."
    );
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
    for (mut object, pointers) in patched_templates() {
        let kind = object["kind"].as_str().unwrap().to_string();
        let kind = kind.as_str();
        assert_eq!(object["apiVersion"], fields.api_version(kind), "{kind}");
        for pointer in &pointers {
            if let Err(e) = fields.at_pointer(kind, pointer) {
                panic!("a patch of the example: {e}");
            }
        }
        // The field lists model the metadata a user writes; what the API server adds to the
        // templates Cluster API sends is left out.
        let metadata = object["metadata"].as_object_mut().unwrap();
        for server_set in [
            "creationTimestamp",
            "generation",
            "ownerReferences",
            "resourceVersion",
            "uid",
        ] {
            metadata.remove(server_set);
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
