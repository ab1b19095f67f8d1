//! Every hook the example serves, called as an outside author would test their extension: the
//! server the binary runs ([`capi_test_extension::server_builder`]), built and called in
//! process (`Server::in_process`: the path a request from Cluster API takes, without sockets),
//! with the requests Cluster API sends (`capi_runtime_testenv::fixtures`). Only public API.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use capi_runtime::hook::{HookResponse, RequestOf, ResponseOf};
use capi_runtime::hooks::v1alpha1::*;
use capi_runtime::server::{InProcess, InProcessError};
use capi_runtime::topology_mutation::apply_answer;
use capi_runtime_testenv::fixtures::{
    self, KUBERNETES_VERSION, Topology, UPGRADE_VERSION, validate_topology_request_from,
};
use capi_test_extension::lifecycle::{BLOCKING_SETTING, DEFAULT_BLOCKING_RETRY_SECONDS, Script};
use capi_test_extension::{HANDLERS, handler_name, server_builder, topology};
use serde_json::{Value, json};

/// The extension with its scripted responses file, and the calls into it.
struct Extension {
    dir: tempfile::TempDir,
    script: Arc<Script>,
    calls: InProcess,
}

impl Extension {
    /// The example as its binary builds it, scripted by `responses` (a YAML map, see
    /// `capi_test_extension::lifecycle`).
    fn start(responses: &str) -> Extension {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("responses.yaml"), responses).unwrap();
        let script = Script::new(
            dir.path().join("responses.yaml"),
            dir.path().join("record.yaml"),
        );
        let calls = server_builder(&script).build().unwrap().in_process();
        Extension { dir, script, calls }
    }

    /// Calls the example's handler of the hook whose request `request` is.
    async fn call<R: RequestOf>(&self, request: &R) -> Result<ResponseOf<R>, InProcessError> {
        self.calls.call(handler_name::<R::Hook>(), request).await
    }

    /// The record of answers the extension keeps: the latest answer per key.
    fn record(&self) -> BTreeMap<String, String> {
        let text = std::fs::read_to_string(self.dir.path().join("record.yaml")).unwrap_or_default();
        serde_saphyr::from_str::<Option<BTreeMap<String, String>>>(&text)
            .unwrap()
            .unwrap_or_default()
    }

    /// The recorded answer of key stem `stem`.
    fn recorded(&self, stem: &str) -> Option<String> {
        self.record()
            .remove(&format!("{stem}-actualResponseStatus"))
    }
}

/// The quick-start topology with the variables the example's ClusterClass uses.
fn topology() -> Topology {
    Topology::quick_start()
        .variable(topology::IMAGE_REPOSITORY, json!("kindest"))
        .variable(topology::PRE_KUBEADM_COMMANDS, json!(["echo hello"]))
}

fn blocking() -> Topology {
    topology().settings(BTreeMap::from([(
        BLOCKING_SETTING.to_string(),
        "true".to_string(),
    )]))
}

#[tokio::test]
async fn discovery_lists_every_handler_of_the_example() {
    let ext = Extension::start("");
    let discovery = ext.calls.discovery().await.unwrap();
    assert_eq!(discovery.status, ResponseStatus::Success);
    let mut served: Vec<(String, String)> = discovery
        .handlers
        .iter()
        .map(|h| (h.request_hook.hook.clone(), h.name.clone()))
        .collect();
    let mut expected: Vec<(String, String)> = HANDLERS
        .iter()
        .map(|(hook, name)| (hook.to_string(), name.to_string()))
        .collect();
    served.sort();
    expected.sort();
    assert_eq!(served, expected);
    // The request Cluster API sends decodes as the server's Discovery request.
    let answer = ext
        .calls
        .call("", &fixtures::discovery_request())
        .await
        .unwrap();
    assert_eq!(answer.handlers.len(), HANDLERS.len());
}

#[tokio::test]
async fn before_cluster_create_blocks_when_the_settings_say_so() {
    let ext = Extension::start("");
    let free = ext
        .call(&topology().before_cluster_create_request())
        .await
        .unwrap();
    assert_eq!(
        (free.status, free.blocks_for()),
        (ResponseStatus::Success, None)
    );
    let held = ext
        .call(&blocking().before_cluster_create_request())
        .await
        .unwrap();
    assert_eq!(
        held.blocks_for(),
        Some(Duration::from_secs(
            DEFAULT_BLOCKING_RETRY_SECONDS.unsigned_abs().into()
        ))
    );
    assert_eq!(
        ext.recorded("BeforeClusterCreate").as_deref(),
        Some("Status: Success, RetryAfterSeconds: 5")
    );
}

#[tokio::test]
async fn after_control_plane_initialized_is_recorded() {
    let ext = Extension::start("");
    let answer = ext
        .call(&topology().after_control_plane_initialized_request())
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    assert_eq!(
        ext.recorded("AfterControlPlaneInitialized").as_deref(),
        Some("Success")
    );
}

#[tokio::test]
async fn before_cluster_upgrade_answers_the_scripted_response_of_its_versions() {
    let ext = Extension::start(&format!(
        "BeforeClusterUpgrade-{KUBERNETES_VERSION}-{UPGRADE_VERSION}-preloadedResponse: \
         '{{\"Status\": \"Failure\", \"Message\": \"not today\"}}'\n"
    ));
    let answer = ext
        .call(&topology().before_cluster_upgrade_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(
        (answer.status, answer.message.as_str()),
        (ResponseStatus::Failure, "not today")
    );
    // Another upgrade has no scripted answer.
    let other = ext
        .call(&topology().before_cluster_upgrade_request("v1.35.0"))
        .await
        .unwrap();
    assert_eq!(other.status, ResponseStatus::Success);
}

#[tokio::test]
async fn before_control_plane_upgrade_blocks_when_the_settings_say_so() {
    let ext = Extension::start("");
    let answer = ext
        .call(&blocking().before_control_plane_upgrade_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(answer.retry_after_seconds, DEFAULT_BLOCKING_RETRY_SECONDS);
    let stem = format!("BeforeControlPlaneUpgrade-{KUBERNETES_VERSION}-{UPGRADE_VERSION}");
    assert_eq!(
        ext.recorded(&stem).as_deref(),
        Some("Status: Success, RetryAfterSeconds: 5"),
        "{:?}",
        ext.record()
    );
}

#[tokio::test]
async fn after_control_plane_upgrade_is_recorded_under_its_version() {
    let ext = Extension::start("");
    let answer = ext
        .call(&topology().after_control_plane_upgrade_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    let stem = format!("AfterControlPlaneUpgrade-{UPGRADE_VERSION}");
    assert_eq!(
        ext.recorded(&stem).as_deref(),
        Some("Status: Success, RetryAfterSeconds: 0")
    );
}

#[tokio::test]
async fn before_workers_upgrade_answers_the_scripted_retry() {
    let ext = Extension::start(&format!(
        "BeforeWorkersUpgrade-{KUBERNETES_VERSION}-{UPGRADE_VERSION}-preloadedResponse:\n  Status: Success\n  RetryAfterSeconds: 7\n"
    ));
    let answer = ext
        .call(&topology().before_workers_upgrade_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(
        (answer.status, answer.retry_after_seconds),
        (ResponseStatus::Success, 7)
    );
}

#[tokio::test]
async fn after_workers_upgrade_blocks_when_the_settings_say_so() {
    let ext = Extension::start("");
    let answer = ext
        .call(&blocking().after_workers_upgrade_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(answer.retry_after_seconds, DEFAULT_BLOCKING_RETRY_SECONDS);
}

#[tokio::test]
async fn after_cluster_upgrade_is_recorded_under_its_version() {
    let ext = Extension::start("");
    let answer = ext
        .call(&topology().after_cluster_upgrade_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    let stem = format!("AfterClusterUpgrade-{UPGRADE_VERSION}");
    assert_eq!(
        ext.recorded(&stem).as_deref(),
        Some("Status: Success, RetryAfterSeconds: 0")
    );
}

#[tokio::test]
async fn before_cluster_delete_answers_a_scripted_failure() {
    let ext = Extension::start(
        "BeforeClusterDelete-preloadedResponse: {\"Status\": \"Failure\", \"Message\": \"keep it\"}\n",
    );
    let answer = ext
        .call(&topology().before_cluster_delete_request())
        .await
        .unwrap();
    assert_eq!(
        (answer.status, answer.message.as_str()),
        (ResponseStatus::Failure, "keep it")
    );
    // A response file changed while the extension runs is read again.
    std::fs::write(ext.script.responses_file(), "").unwrap();
    ext.script.reload();
    let answer = ext
        .call(&topology().before_cluster_delete_request())
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
}

/// The templates of a GeneratePatches request with the response's JSON patches applied, by
/// item uid.
fn patched(
    request: &GeneratePatchesRequest,
    response: &GeneratePatchesResponse,
) -> GeneratePatchesRequest {
    // The example answers every template, with a JSON Patch.
    for item in &request.items {
        let answer = response
            .items
            .iter()
            .find(|a| a.uid == item.uid)
            .unwrap_or_else(|| panic!("no patch for item {}", item.uid));
        assert_eq!(answer.patch_type, PatchType::JsonPatch);
    }
    let mut request = request.clone();
    apply_answer(&mut request, response).unwrap();
    request
}

fn object_of(request: &GeneratePatchesRequest, kind: &str, field_path: &str) -> Value {
    request
        .items
        .iter()
        .find(|i| {
            i.object.to_value().unwrap()["kind"] == kind
                && i.holder_reference.field_path == field_path
        })
        .unwrap_or_else(|| panic!("no {kind} at {field_path}"))
        .object
        .to_value()
        .unwrap()
}

#[tokio::test]
async fn generate_patches_sets_images_and_kubeadm_settings_from_the_variables() {
    let ext = Extension::start("");
    let request = topology().generate_patches_request();
    let response = ext.call(&request).await.unwrap();
    assert_eq!(
        response.status,
        ResponseStatus::Success,
        "{}",
        response.message
    );
    assert_eq!(response.items.len(), request.items.len());
    let after = patched(&request, &response);

    let cp_machines = object_of(
        &after,
        "DockerMachineTemplate",
        "spec.machineTemplate.spec.infrastructureRef",
    );
    assert_eq!(
        cp_machines["spec"]["template"]["spec"]["customImage"],
        format!("kindest/node:{KUBERNETES_VERSION}")
    );
    let workers = object_of(
        &after,
        "DockerMachineTemplate",
        "spec.template.spec.infrastructureRef",
    );
    assert_eq!(
        workers["spec"]["template"]["spec"]["customImage"],
        format!("kindest/node:{KUBERNETES_VERSION}")
    );
    let cluster = object_of(&after, "DockerClusterTemplate", "spec.infrastructureRef");
    assert_eq!(
        cluster["spec"]["template"]["spec"]["loadBalancer"]["imageRepository"],
        "kindest"
    );
    let kcp = object_of(
        &after,
        "KubeadmControlPlaneTemplate",
        "spec.controlPlaneRef",
    );
    let kubeadm = &kcp["spec"]["template"]["spec"]["kubeadmConfigSpec"];
    assert_eq!(kubeadm["preKubeadmCommands"], json!(["echo hello"]));
    assert_eq!(
        kubeadm["initConfiguration"]["nodeRegistration"]["kubeletExtraArgs"],
        json!([{"name": "v", "value": "2"}])
    );
    let bootstrap = object_of(
        &after,
        "KubeadmConfigTemplate",
        "spec.template.spec.bootstrap.configRef",
    );
    assert_eq!(
        bootstrap["spec"]["template"]["spec"]["joinConfiguration"]["nodeRegistration"]["kubeletExtraArgs"],
        json!([{"name": "node-labels", "value": format!("kubernetesVersion={KUBERNETES_VERSION}")}])
    );
}

#[tokio::test]
async fn generate_patches_fails_without_the_required_image_repository() {
    let ext = Extension::start("");
    let request = Topology::quick_start().generate_patches_request();
    let response = ext.call(&request).await.unwrap();
    assert_eq!(response.status, ResponseStatus::Failure);
    assert!(
        response.message.contains(topology::IMAGE_REPOSITORY),
        "{}",
        response.message
    );
}

#[tokio::test]
async fn validate_topology_accepts_the_patched_templates_and_refuses_others() {
    let ext = Extension::start("");
    let request = topology().generate_patches_request();
    let response = ext.call(&request).await.unwrap();
    let after = validate_topology_request_from(&patched(&request, &response));
    let ok = ext.call(&after).await.unwrap();
    assert_eq!(ok.status, ResponseStatus::Success, "{}", ok.message);

    // The templates as they are have no image from the repository.
    let refused = ext
        .call(&topology().validate_topology_request())
        .await
        .unwrap();
    assert_eq!(refused.status, ResponseStatus::Failure);
    assert!(
        refused
            .message
            .contains("not from the image repository \"kindest\""),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn discover_variables_declares_the_variables_the_patches_read() {
    let ext = Extension::start("");
    let answer = ext
        .call(&topology().discover_variables_request())
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    let names: Vec<&str> = answer.variables.iter().map(|v| v.name.as_str()).collect();
    for name in [
        topology::IMAGE_REPOSITORY,
        topology::MAX_SURGE,
        topology::FILES,
        topology::PRE_KUBEADM_COMMANDS,
        topology::CONFIG_TEMPLATE_ANNOTATIONS,
    ] {
        assert!(names.contains(&name), "{name} is not in {names:?}");
    }
}

fn json_patch(patch: &Patch) -> Value {
    assert_eq!(patch.patch_type, Some(PatchType::JsonPatch));
    serde_json::from_slice(&patch.patch.0).unwrap()
}

#[tokio::test]
async fn can_update_machine_patches_the_version_in_place() {
    let ext = Extension::start("");
    let answer = ext
        .call(&topology().can_update_machine_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    assert_eq!(
        json_patch(&answer.machine_patch),
        json!([{"op": "add", "path": "/spec/version", "value": UPGRADE_VERSION}])
    );
}

#[tokio::test]
async fn can_update_machine_set_patches_the_template_version_in_place() {
    let ext = Extension::start("");
    let answer = ext
        .call(&topology().can_update_machine_set_request(UPGRADE_VERSION))
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success);
    assert_eq!(
        json_patch(&answer.machine_set_patch),
        json!([{"op": "add", "path": "/spec/template/spec/version", "value": UPGRADE_VERSION}])
    );
}

#[tokio::test]
async fn update_machine_asks_to_come_back_then_reports_done() {
    let ext = Extension::start("");
    let request = topology().update_machine_request(UPGRADE_VERSION);
    let first = ext.call(&request).await.unwrap();
    assert_eq!(
        (first.status, first.retry_after_seconds),
        (
            ResponseStatus::Success,
            capi_test_extension::in_place::UPDATE_RETRY_SECONDS
        )
    );
    let second = ext.call(&request).await.unwrap();
    assert_eq!(
        (second.retry_after_seconds, second.message.as_str()),
        (0, "Extension completed updating Machine")
    );
}

#[tokio::test]
async fn generate_upgrade_plan_steps_through_every_minor_version() {
    let ext = Extension::start("");
    let answer = ext
        .call(&topology().generate_upgrade_plan_request("v1.36.2"))
        .await
        .unwrap();
    assert_eq!(answer.status, ResponseStatus::Success, "{}", answer.message);
    let versions =
        |steps: &[UpgradeStep]| steps.iter().map(|s| s.version.clone()).collect::<Vec<_>>();
    assert_eq!(
        versions(&answer.control_plane_upgrades),
        ["v1.34.0", "v1.35.0", "v1.36.2"]
    );
    assert_eq!(
        versions(&answer.workers_upgrades),
        ["v1.34.0", "v1.35.0", "v1.36.2"]
    );
    let backwards = ext
        .call(&topology().generate_upgrade_plan_request("v1.32.0"))
        .await
        .unwrap();
    assert_eq!(backwards.status, ResponseStatus::Failure);
    assert_eq!(
        backwards.message,
        format!("cannot plan an upgrade from {KUBERNETES_VERSION} to v1.32.0")
    );
}
