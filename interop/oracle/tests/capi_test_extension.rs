//! Cluster API's own test extension (`sigs.k8s.io/cluster-api/test/extension` of v1.14.2, the
//! extension Cluster API's end-to-end tests run, built by `cargo xtask testenv` into
//! `target/testenv/bin/extension`) against this SDK's client, over HTTPS on loopback.
//!
//! The extension is a controller-runtime manager: it needs a kubeconfig (the test control
//! plane's), serves its hooks on `--webhook-port` with the certificate in
//! `--webhook-cert-dir`, and reports ready on `--health-addr` once that server is up. Its
//! lifecycle handlers answer from a ConfigMap `<cluster>-<extensionConfigName>-test-extension-
//! hookresponses` in the Cluster's namespace (key `<hook>[-<versions>]-preloadedResponse`,
//! created empty when missing; no entry is Success, not blocking) and record each answer in
//! the same ConfigMap (`…-actualResponseStatus`); the ExtensionConfig's name reaches them
//! through the `extensionConfigName` setting, which the client adds to every request from the
//! ExtensionConfig's `spec.settings`, as Cluster API's does.
//!
//! Checked: Discovery lists the handlers under the names this SDK's example extension copies
//! (with Cluster API's defaults, 10 s and `Fail`, as upstream registers none); the lifecycle
//! hooks answer what the ConfigMap says and record it there; DiscoverVariables,
//! GeneratePatches, ValidateTopology and GenerateUpgradePlan answer what upstream's handlers
//! compute. The extension's log is kept under `target/testenv/logs/capi-test-extension/`.

use capi_runtime_test_pki as pki;

mod support;

use std::collections::BTreeMap;

use capi_runtime::Hook;
use capi_runtime::api::runtime::v1beta2::{ClientConfig, ExtensionConfig, ExtensionConfigSpec};
use capi_runtime::client::{Client, ForObject};
use capi_runtime::hook::HookResponse;
use capi_runtime::hooks::v1alpha1 as hooks;
use capi_runtime::topology_mutation::{PatchOperation, apply};
use capi_runtime_testenv::{Process, TestEnv};
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use kube::Api;
use kube::api::PostParams;
use serde_json::{Value, json};

/// The ExtensionConfig's name, the Cluster's namespace and name.
const CONFIG: &str = "upstream";
const NAMESPACE: &str = "interop";
const CLUSTER: &str = "c1";

/// The ConfigMap the lifecycle handlers answer from.
fn responses_name() -> String {
    format!("{CLUSTER}-{CONFIG}-test-extension-hookresponses")
}

/// Starts Cluster API's test extension against `env` with the serving certificate in
/// `cert_dir`; returns it and its hook server's URL.
async fn start_extension(env: &TestEnv, cert_dir: &std::path::Path) -> (Process, String) {
    let (extension, ports) = support::start_manager(
        "Cluster API's test extension",
        "extension",
        "capi-test-extension",
        env,
        cert_dir,
        &[],
    )
    .await;
    (extension, format!("https://127.0.0.1:{}", ports.webhook))
}

fn cluster() -> Value {
    json!({
        "apiVersion": "cluster.x-k8s.io/v1beta2",
        "kind": "Cluster",
        "metadata": { "name": CLUSTER, "namespace": NAMESPACE, "uid": "6f1e7f43-2a55-4d0e-9b41-2f5d1b0c7a10" },
        "spec": {
            "topology": {
                "classRef": { "name": "quick-start" },
                "version": "v1.36.0",
                "controlPlane": { "replicas": 1 },
            },
        },
    })
}

/// A request of hook `H` from its JSON.
fn request<H: Hook>(body: Value) -> H::Request {
    serde_json::from_value(body).unwrap_or_else(|e| panic!("{} request: {e}", H::NAME))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_client_discovers_and_calls_cluster_apis_test_extension() {
    let env =
        tokio::task::spawn_blocking(|| TestEnv::builder("capi-test-extension").start().unwrap())
            .await
            .unwrap();
    let kube = env.client().await.unwrap();
    let namespaces: Api<Namespace> = Api::all(kube.clone());
    namespaces
        .create(
            &PostParams::default(),
            &Namespace {
                metadata: metav1::ObjectMeta {
                    name: Some(NAMESPACE.into()),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
        .await
        .unwrap();
    // What the lifecycle handlers should answer: BeforeClusterCreate blocks for 7 s, the
    // upgrade from v1.35.2 to v1.36.0 is refused.
    let config_maps: Api<ConfigMap> = Api::namespaced(kube, NAMESPACE);
    config_maps
        .create(
            &PostParams::default(),
            &ConfigMap {
                metadata: metav1::ObjectMeta {
                    name: Some(responses_name()),
                    ..Default::default()
                },
                data: Some(BTreeMap::from([
                    (
                        "BeforeClusterCreate-preloadedResponse".to_string(),
                        r#"{"Status": "Success", "RetryAfterSeconds": 7}"#.to_string(),
                    ),
                    (
                        "BeforeClusterUpgrade-v1.35.2-v1.36.0-preloadedResponse".to_string(),
                        r#"{"Status": "Failure", "Message": "not before the freeze ends"}"#
                            .to_string(),
                    ),
                ])),
                ..Default::default()
            },
        )
        .await
        .unwrap();

    let ca = pki::TestCa::new("capi-test-extension-ca");
    let certs = tempfile::tempdir().unwrap();
    ca.write_serving(certs.path());
    let (mut extension, url) = start_extension(&env, certs.path()).await;

    // Discovery.
    let client = Client::builder().without_controller().build().unwrap();
    let mut config = ExtensionConfig::new(
        CONFIG,
        ExtensionConfigSpec {
            client_config: ClientConfig {
                url: url.clone(),
                ca_bundle: ByteString(ca.pem().into_bytes()),
                ..Default::default()
            },
            namespace_selector: Some(metav1::LabelSelector::default()),
            settings: BTreeMap::from([("extensionConfigName".to_string(), CONFIG.to_string())]),
        },
    );
    config.metadata.resource_version = Some("1".into());
    let discovered = client
        .discover(&config)
        .await
        .unwrap_or_else(|e| panic!("{e}: {}", extension.report()));
    let mut listed: Vec<(String, String, String, i32, Value)> = discovered
        .status
        .handlers
        .iter()
        .map(|h| {
            (
                h.name.clone(),
                h.request_hook.api_version.clone(),
                h.request_hook.hook.clone(),
                h.timeout_seconds,
                serde_json::to_value(h.failure_policy).unwrap(),
            )
        })
        .collect();
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut expected: Vec<(String, String, String, i32, Value)> = capi_test_extension::HANDLERS
        .iter()
        .map(|(hook, name)| {
            (
                format!("{name}.{CONFIG}"),
                "hooks.runtime.cluster.x-k8s.io/v1alpha1".to_string(),
                hook.to_string(),
                10,
                json!("Fail"),
            )
        })
        .collect();
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(listed, expected);
    client.register(&discovered).unwrap();
    let for_object = ForObject::new(NAMESPACE, CLUSTER);

    // Lifecycle hooks, answered from the ConfigMap.
    let created = client
        .call_extension(
            &format!("before-cluster-create.{CONFIG}"),
            &request::<hooks::BeforeClusterCreate>(json!({ "cluster": cluster() })),
            &for_object,
        )
        .await
        .unwrap_or_else(|e| panic!("BeforeClusterCreate: {e}: {}", extension.report()));
    assert_eq!(created.status(), hooks::ResponseStatus::Success);
    assert_eq!(created.retry_after_seconds(), Some(7));

    let refused = client
        .call_extension(
            &format!("before-cluster-upgrade.{CONFIG}"),
            &request::<hooks::BeforeClusterUpgrade>(json!({
                "cluster": cluster(),
                "fromKubernetesVersion": "v1.35.2",
                "toKubernetesVersion": "v1.36.0",
            })),
            &for_object,
        )
        .await
        .expect_err("the preloaded answer is a Failure");
    assert!(
        refused.to_string().contains("not before the freeze ends"),
        "{refused}"
    );

    let initialized = client
        .call_extension(
            &format!("after-control-plane-initialized.{CONFIG}"),
            &request::<hooks::AfterControlPlaneInitialized>(json!({ "cluster": cluster() })),
            &for_object,
        )
        .await
        .unwrap_or_else(|e| panic!("AfterControlPlaneInitialized: {e}: {}", extension.report()));
    assert_eq!(initialized.status(), hooks::ResponseStatus::Success);

    // The request's own settings are merged over the ExtensionConfig's: all handlers blocking
    // by default.
    let deleting = client
        .call_extension(
            &format!("before-cluster-delete.{CONFIG}"),
            &request::<hooks::BeforeClusterDelete>(json!({
                "settings": { "defaultAllHandlersToBlocking": "true" },
                "cluster": cluster(),
            })),
            &for_object,
        )
        .await
        .unwrap_or_else(|e| panic!("BeforeClusterDelete: {e}: {}", extension.report()));
    assert_eq!(deleting.status(), hooks::ResponseStatus::Success);
    assert_eq!(deleting.retry_after_seconds(), Some(5));

    // What the handlers recorded.
    let recorded = config_maps.get(&responses_name()).await.unwrap();
    let data = recorded.data.unwrap_or_default();
    let status = |key: &str| data.get(key).map(String::as_str);
    assert_eq!(
        status("BeforeClusterCreate-actualResponseStatus"),
        Some("Status: Success, RetryAfterSeconds: 7"),
        "{data:#?}"
    );
    assert_eq!(
        status("BeforeClusterUpgrade-v1.35.2-v1.36.0-actualResponseStatus"),
        Some("Status: Failure, RetryAfterSeconds: 0"),
        "{data:#?}"
    );
    assert_eq!(
        status("AfterControlPlaneInitialized-actualResponseStatus"),
        Some("Success"),
        "{data:#?}"
    );
    assert_eq!(
        status("BeforeClusterDelete-actualResponseStatus"),
        Some("Status: Success, RetryAfterSeconds: 5"),
        "{data:#?}"
    );

    // DiscoverVariables: upstream's five variables, field for field where they carry more
    // than a type.
    let variables = client
        .call_extension(
            &format!("discover-variables.{CONFIG}"),
            &request::<hooks::DiscoverVariables>(json!({})),
            &for_object,
        )
        .await
        .unwrap_or_else(|e| panic!("DiscoverVariables: {e}: {}", extension.report()));
    let variables = serde_json::to_value(&variables.variables).unwrap();
    let names: Vec<&str> = variables
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
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
    let surge = &variables[0]["schema"]["openAPIV3Schema"];
    assert_eq!(variables[0]["required"], false, "{variables:#}");
    assert_eq!(surge["default"], "", "{surge:#}");
    assert_eq!(surge["example"], "0", "{surge:#}");
    assert_eq!(
        surge["x-kubernetes-validations"],
        json!([{
            "rule": "self == \"\" || self != \"\"",
            "messageExpression": "'just a test expression, got %s'.format([self])",
        }]),
        "{surge:#}"
    );
    let files = &variables[1]["schema"]["openAPIV3Schema"];
    assert_eq!(
        files["items"]["properties"]["contentFormat"]["type"],
        "string"
    );
    let image = &variables[4];
    assert_eq!(image["required"], true, "{image:#}");
    assert_eq!(
        image["schema"]["openAPIV3Schema"]["x-metadata"]["labels"],
        json!({ "objects": "DevCluster" }),
        "{image:#}"
    );
    assert_eq!(
        image["deprecatedV1Beta1Metadata"]["labels"],
        json!({ "objects": "DevCluster" }),
        "{image:#}"
    );

    // GeneratePatches: a DevClusterTemplate gets upstream's labels, annotations and the load
    // balancer's image repository from the variable.
    let template = json!({
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
        "kind": "DevClusterTemplate",
        "metadata": { "name": "quick-start-cluster", "namespace": NAMESPACE },
        "spec": { "template": { "spec": { "backend": { "docker": { "loadBalancer": { "imageTag": "v0.5" } } } } } },
    });
    let items = json!([{
        "uid": "infra-cluster",
        "holderReference": {
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "Cluster",
            "namespace": NAMESPACE,
            "name": CLUSTER,
            "fieldPath": "spec.infrastructureRef",
        },
        "object": template,
        "variables": [{ "name": "builtin", "value": { "cluster": { "name": CLUSTER, "namespace": NAMESPACE } } }],
    }]);
    let patched = client
        .call_extension(
            &format!("generate-patches.{CONFIG}"),
            &request::<hooks::GeneratePatches>(json!({
                "variables": [{ "name": "imageRepository", "value": "registry.example.com" }],
                "items": items,
            })),
            &for_object,
        )
        .await
        .unwrap_or_else(|e| panic!("GeneratePatches: {e}: {}", extension.report()));
    assert_eq!(patched.items.len(), 1);
    let item = &patched.items[0];
    assert_eq!(item.uid, "infra-cluster");
    assert_eq!(serde_json::to_value(&item.patch_type).unwrap(), "JSONPatch");
    let ops: Vec<PatchOperation> = serde_json::from_slice(&item.patch.0).unwrap();
    let mut object = template.clone();
    apply(&mut object, &ops).unwrap();
    let resource = &object["spec"]["template"];
    assert_eq!(
        resource["metadata"]["labels"]["top-level-label-1"], "top-level-label-value-1",
        "{object:#}"
    );
    assert_eq!(
        resource["metadata"]["annotations"]["top-level-annotation-1"],
        "top-level-annotation-value-1",
        "{object:#}"
    );
    let balancer = &resource["spec"]["backend"]["docker"]["loadBalancer"];
    assert_eq!(
        balancer["imageRepository"], "registry.example.com",
        "{object:#}"
    );
    assert_eq!(balancer["imageTag"], "v0.5", "{object:#}");

    let validated = client
        .call_extension(
            &format!("validate-topology.{CONFIG}"),
            &request::<hooks::ValidateTopology>(json!({ "items": items })),
            &for_object,
        )
        .await
        .unwrap_or_else(|e| panic!("ValidateTopology: {e}: {}", extension.report()));
    assert_eq!(validated.status(), hooks::ResponseStatus::Success);

    // GenerateUpgradePlan: the control plane through the newest patch of each minor on the
    // way that kind publishes images for (a list pinned with the module), then the target;
    // no steps for the workers, which may follow in one go.
    let plan = client
        .call_extension(
            &format!("generate-upgrade-plan.{CONFIG}"),
            &request::<hooks::GenerateUpgradePlan>(json!({
                "cluster": cluster(),
                "fromControlPlaneKubernetesVersion": "v1.34.1",
                "fromWorkersKubernetesVersion": "v1.34.1",
                "toKubernetesVersion": "v1.36.4",
            })),
            &for_object,
        )
        .await
        .unwrap_or_else(|e| panic!("GenerateUpgradePlan: {e}: {}", extension.report()));
    let versions = |steps: &[hooks::UpgradeStep]| -> Vec<String> {
        steps.iter().map(|s| s.version.clone()).collect()
    };
    assert_eq!(
        versions(&plan.control_plane_upgrades),
        ["v1.35.8", "v1.36.4"]
    );
    assert_eq!(versions(&plan.workers_upgrades), Vec::<String>::new());

    extension.stop();
}
