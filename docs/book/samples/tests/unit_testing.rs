//! The sample of the book's "Unit-testing handlers" page: the book's handlers called in
//! process with the requests Cluster API sends, as an extension author tests theirs.

// ANCHOR: unit_tests
use capi_runtime::hooks::v1alpha1::ResponseStatus;
use capi_runtime::server::{InProcess, Server};
use capi_runtime::topology_mutation::{apply_answer, templates};
use capi_runtime_book_samples::{topology, upgrade_plan};
use capi_runtime_testenv::fixtures::{Topology, validate_topology_request_from};
use capi_runtime_testenv::templates::DockerMachineTemplate;
use serde_json::json;

/// The extension as `main` builds it, minus the listener: its handlers, called in process.
fn extension() -> InProcess {
    Server::builder()
        .handle("generate-patches", topology::generate_patches)
        .handle("validate-topology", topology::validate_topology)
        .handle("upgrade-plan", upgrade_plan::generate_upgrade_plan)
        .build()
        .expect("every handler registers")
        .in_process()
}

#[tokio::test]
async fn worker_machines_get_the_node_image_of_their_version() {
    // Cluster API's quick-start ClusterClass and a Cluster of it that sets the variable.
    let cluster = Topology::quick_start()
        .kubernetes_version("v1.33.2")
        .variable(topology::IMAGE_REPOSITORY, json!("registry.example.com"));
    let mut request = cluster.generate_patches_request();

    let response = extension()
        .call("generate-patches", &request)
        .await
        .unwrap();
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );

    // Apply the answer to the templates, as Cluster API does (the walker answers for every
    // template of a kind it has a function for, with an empty patch where nothing changed).
    apply_answer(&mut request, &response).unwrap();
    // The workers' machine template, read back typed with the testing crate's type of the
    // Docker provider's machine template (the handler's own type would do as well).
    let machines = templates::<DockerMachineTemplate>(&request).unwrap();
    let (_, workers) = machines
        .iter()
        .find(|(holder, _)| holder.kind == "MachineDeployment")
        .unwrap();
    assert_eq!(
        workers.spec.template.spec.custom_image,
        "registry.example.com/node:v1.33.2"
    );

    // The patched templates pass ValidateTopology.
    let validate = validate_topology_request_from(&request);
    let verdict = extension()
        .call("validate-topology", &validate)
        .await
        .unwrap();
    assert_eq!(
        verdict.status,
        ResponseStatus::Success,
        "{}",
        verdict.message
    );
}

#[tokio::test]
async fn an_upgrade_across_two_minor_versions_has_two_steps() {
    let request = Topology::quick_start()
        .kubernetes_version("v1.32.4")
        .generate_upgrade_plan_request("v1.34.1");
    let plan = extension().call("upgrade-plan", &request).await.unwrap();
    let steps: Vec<&str> = plan
        .control_plane_upgrades
        .iter()
        .map(|s| s.version.as_str())
        .collect();
    assert_eq!(steps, ["v1.33.0", "v1.34.1"]);
}
// ANCHOR_END: unit_tests
