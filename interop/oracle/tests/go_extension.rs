//! The Rust client against a Go extension written with Cluster API's own kit
//! (`interop/go-extension`, built by `cargo xtask testenv` with the published module of every
//! supported Cluster API version, `go-extension-<version>`), over HTTPS on loopback. Each
//! version's extension is checked the same way; the client sends every version what a v1.14
//! manager sends (a v1.12 extension reads the v1beta2 Cluster into its v1beta1 types, as it
//! would from a v1.14 manager):
//!
//! - Discovery: the handlers Cluster API's server reports become `status.handlers`, field for
//!   field (names suffixed with the ExtensionConfig's name, timeout and failure policy as
//!   registered in Go);
//! - every hook is called through the client (registered from the Go server's own Discovery
//!   answer, read raw) with a realistic request, and the typed answer
//!   is exactly what the Go handler wrote: the same request sent raw gives a JSON body whose
//!   every member the typed response carries with the same value (members Go writes with their
//!   zero value may be left out by Rust's serialization, nothing else), and the answers follow
//!   the Go program's documented rules (message, retryAfterSeconds, patches, variables);
//!   a v1.12 extension answers DiscoverVariables with v1beta1 variables (their metadata
//!   under `metadata`), whose variables the client reads.

use capi_runtime_test_pki as pki;

use capi_runtime::Hook;
use capi_runtime::api::runtime::v1beta2::{
    ClientConfig, ExtensionConfig, ExtensionConfigSpec, FailurePolicy,
};
use capi_runtime::catalog::gvh_to_path;
use capi_runtime::client::{Client, ForObject};
use capi_runtime::go::errors::{BoxError, Wrapped, chain};
use capi_runtime::hook::{HookResponse, Message, RequestOf};
use capi_runtime::hooks::v1alpha1 as hooks;
use capi_runtime_oracle::topology_cluster;
use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde_json::{Value, json};

const CONFIG: &str = "go-extension";
/// The Cluster API versions whose Go extension is called: every supported one.
const VERSIONS: &[&str] = capi_envtest::CLUSTER_API_VERSIONS;
const NAMESPACE: &str = "interop";
const CLUSTER: &str = "c1";

/// The Go extension of a Cluster API version, serving on a loopback port with a certificate
/// from `ca`.
struct GoExtension {
    _process: capi_runtime_oracle::GoExtension,
    _dir: tempfile::TempDir,
    url: String,
}

async fn start(ca: &pki::TestCa, version: &str) -> GoExtension {
    let dir = tempfile::tempdir().unwrap();
    ca.write_serving(dir.path());
    let process = capi_runtime_oracle::GoExtension::start_version(version, dir.path()).unwrap();
    GoExtension {
        url: process.url().to_string(),
        _process: process,
        _dir: dir,
    }
}

fn extension_config(url: &str, ca_pem: &str) -> ExtensionConfig {
    let spec = ExtensionConfigSpec {
        client_config: ClientConfig {
            url: url.into(),
            ca_bundle: ByteString(ca_pem.as_bytes().to_vec()),
            ..Default::default()
        },
        namespace_selector: Some(metav1::LabelSelector::default()),
        ..Default::default()
    };
    let mut config = ExtensionConfig::new(CONFIG, spec);
    config.metadata.resource_version = Some("1".into());
    config
}

/// The Go program's handlers: hook and handler name (each with timeout 5 and policy Fail).
const HANDLERS: [(&str, &str); 16] = [
    ("BeforeClusterCreate", "before-cluster-create"),
    (
        "AfterControlPlaneInitialized",
        "after-control-plane-initialized",
    ),
    ("BeforeClusterUpgrade", "before-cluster-upgrade"),
    ("BeforeControlPlaneUpgrade", "before-control-plane-upgrade"),
    ("AfterControlPlaneUpgrade", "after-control-plane-upgrade"),
    ("BeforeWorkersUpgrade", "before-workers-upgrade"),
    ("AfterWorkersUpgrade", "after-workers-upgrade"),
    ("AfterClusterUpgrade", "after-cluster-upgrade"),
    ("BeforeClusterDelete", "before-cluster-delete"),
    ("GeneratePatches", "generate-patches"),
    ("ValidateTopology", "validate-topology"),
    ("DiscoverVariables", "discover-variables"),
    ("CanUpdateMachine", "can-update-machine"),
    ("CanUpdateMachineSet", "can-update-machine-set"),
    ("UpdateMachine", "update-machine"),
    ("GenerateUpgradePlan", "generate-upgrade-plan"),
];

/// A Cluster with a managed topology, as Cluster API sends it, provisioned.
fn cluster() -> Value {
    let mut cluster = topology_cluster(NAMESPACE, CLUSTER);
    cluster["status"] = json!({ "phase": "Provisioned" });
    cluster
}

fn machine(name: &str) -> Value {
    json!({
        "apiVersion": "cluster.x-k8s.io/v1beta2",
        "kind": "Machine",
        "metadata": { "name": name, "namespace": NAMESPACE },
        "spec": {
            "clusterName": CLUSTER,
            "version": "v1.36.0",
            "bootstrap": { "dataSecretName": format!("{name}-bootstrap") },
            "infrastructureRef": { "apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerMachine", "name": name },
        },
    })
}

fn machine_set(name: &str) -> Value {
    json!({
        "apiVersion": "cluster.x-k8s.io/v1beta2",
        "kind": "MachineSet",
        "metadata": { "name": name, "namespace": NAMESPACE },
        "spec": {
            "clusterName": CLUSTER,
            "replicas": 2,
            "selector": { "matchLabels": { "set": name } },
            "template": {
                "metadata": { "labels": { "set": name } },
                "spec": {
                    "clusterName": CLUSTER,
                    "bootstrap": { "dataSecretName": "boot" },
                    "infrastructureRef": { "apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerMachineTemplate", "name": name },
                },
            },
        },
    })
}

fn template_item(uid: &str, kind: &str) -> Value {
    json!({
        "uid": uid,
        "holderReference": {
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "Cluster",
            "namespace": NAMESPACE,
            "name": CLUSTER,
            "fieldPath": "spec.infrastructureRef",
        },
        "object": {
            "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1",
            "kind": kind,
            "metadata": { "name": format!("{CLUSTER}-{uid}") },
            "spec": { "template": { "spec": { "customImage": "kindest/node:v1.36.0" } } },
        },
        "variables": [{ "name": "builtin", "value": { "cluster": { "name": CLUSTER } } }],
    })
}

fn settings() -> Value {
    json!({ "origin": "rust" })
}

/// The request of each hook, as JSON Cluster API would send.
fn request(hook: &str) -> Value {
    let upgrade = json!({
        "settings": settings(),
        "cluster": cluster(),
        "fromKubernetesVersion": "v1.35.2",
        "toKubernetesVersion": "v1.36.0",
        "controlPlaneUpgrades": [{ "version": "v1.36.0" }],
        "workersUpgrades": [{ "version": "v1.36.0" }],
    });
    match hook {
        "BeforeClusterCreate" | "AfterControlPlaneInitialized" | "BeforeClusterDelete" => {
            json!({ "settings": settings(), "cluster": cluster() })
        }
        "AfterControlPlaneUpgrade" | "AfterWorkersUpgrade" | "AfterClusterUpgrade" => json!({
            "settings": settings(),
            "cluster": cluster(),
            "kubernetesVersion": "v1.36.0",
            "controlPlaneUpgrades": [{ "version": "v1.36.0" }],
            "workersUpgrades": [{ "version": "v1.36.0" }],
        }),
        "BeforeClusterUpgrade" | "BeforeControlPlaneUpgrade" | "BeforeWorkersUpgrade" => upgrade,
        "GeneratePatches" | "ValidateTopology" => json!({
            "settings": settings(),
            "variables": [{ "name": "imageRepository", "value": "registry.example.com" }],
            "items": [template_item("infra-cluster", "DockerClusterTemplate"), template_item("cp", "KubeadmControlPlaneTemplate")],
        }),
        "DiscoverVariables" => json!({ "settings": settings() }),
        "CanUpdateMachine" => json!({
            "settings": settings(),
            "current": { "machine": machine("m-1") },
            "desired": { "machine": machine("m-1") },
        }),
        "CanUpdateMachineSet" => json!({
            "settings": settings(),
            "current": { "machineSet": machine_set("ms-1") },
            "desired": { "machineSet": machine_set("ms-1") },
        }),
        "UpdateMachine" => {
            json!({ "settings": settings(), "desired": { "machine": machine("m-1") } })
        }
        "GenerateUpgradePlan" => json!({
            "settings": settings(),
            "cluster": cluster(),
            "fromControlPlaneKubernetesVersion": "v1.35.2",
            "fromWorkersKubernetesVersion": "v1.35.2",
            "toKubernetesVersion": "v1.36.0",
        }),
        h => unreachable!("{h}"),
    }
}

/// The name the Go program puts in its message for `hook`.
fn subject(hook: &str) -> &'static str {
    match hook {
        "GeneratePatches" | "ValidateTopology" => "2 items",
        "DiscoverVariables" => "",
        "CanUpdateMachine" | "UpdateMachine" => "m-1",
        "CanUpdateMachineSet" => "ms-1",
        _ => CLUSTER,
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_zero),
    }
}

/// Where `typed` (the Rust answer, serialized) and `raw` (the Go answer) disagree: a member
/// with another value, a member only Rust has, or a member only Go has whose value is not
/// Go's zero value.
fn differences(typed: &Value, raw: &Value, at: &str, out: &mut Vec<String>) {
    match (typed, raw) {
        (Value::Object(t), Value::Object(r)) => {
            for (k, rv) in r {
                match t.get(k) {
                    Some(tv) => differences(tv, rv, &format!("{at}/{k}"), out),
                    None if is_zero(rv) => {}
                    None => out.push(format!("{at}/{k}: Go wrote {rv}, the Rust type lost it")),
                }
            }
            for k in t.keys().filter(|k| !r.contains_key(*k)) {
                out.push(format!("{at}/{k}: only in the Rust answer"));
            }
        }
        (Value::Array(t), Value::Array(r)) if t.len() == r.len() => {
            for (i, (tv, rv)) in t.iter().zip(r).enumerate() {
                differences(tv, rv, &format!("{at}/{i}"), out);
            }
        }
        (t, r) if t == r => {}
        (t, r) => out.push(format!("{at}: Rust {t}, Go {r}")),
    }
}

/// Calls `H` through the client and raw, and compares; the error says what differs, or which
/// step failed with its cause.
async fn check<H>(
    client: &Client,
    raw: &reqwest::Client,
    url: &str,
    handler: &str,
) -> Result<(H::Response, Value), BoxError>
where
    H: Hook,
    H::Request: RequestOf<Hook = H>,
{
    let mut request: H::Request =
        serde_json::from_value(request(H::NAME)).map_err(|e| Wrapped::new("request", e))?;
    let for_object = ForObject::new(NAMESPACE, CLUSTER);
    let name = format!("{handler}.{CONFIG}");
    let typed = client
        .call_extension(&name, &request, &for_object)
        .await
        .map_err(|e| Wrapped::new("call", e))?;
    request.set_type_meta(H::API_VERSION, H::REQUEST_KIND);
    let gvh = capi_runtime::catalog::HookId::new(H::GROUP, H::VERSION, H::NAME);
    let path = gvh_to_path(&gvh, handler);
    let body: Value = raw
        .post(format!("{url}{path}"))
        .json(&request)
        .send()
        .await
        .map_err(|e| Wrapped::new("raw call", e))?
        .json()
        .await
        .map_err(|e| Wrapped::new("raw answer", e))?;
    let mut problems = Vec::new();
    differences(
        &serde_json::to_value(&typed).unwrap(),
        &body,
        "",
        &mut problems,
    );
    if !problems.is_empty() {
        return Err(format!("{}\nGo answered {body}", problems.join("\n")).into());
    }
    if typed.status() != hooks::ResponseStatus::Success {
        return Err(format!("status {} ({})", typed.status(), typed.message()).into());
    }
    let want = format!("go {} {}", H::NAME, subject(H::NAME));
    if typed.message() != want {
        return Err(format!("message {:?}, want {want:?}", typed.message()).into());
    }
    let retry = H::NAME.len() as i32;
    match typed.retry_after_seconds() {
        Some(s) if s != retry => {
            return Err(format!("retryAfterSeconds {s}, want {retry}").into());
        }
        None if <H::Response as HookResponse>::RETRYABLE => {
            return Err("no retryAfterSeconds".into());
        }
        _ => {}
    }
    Ok((typed, body))
}

fn new_client() -> Client {
    Client::builder().without_controller().build().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_client_discovers_the_handlers_of_each_versions_go_extension() {
    let ca = pki::TestCa::new("go-extension-ca");
    let client = new_client();
    let mut expected: Vec<(String, String, String, i32, Option<FailurePolicy>)> = HANDLERS
        .iter()
        .map(|(hook, name)| {
            (
                format!("{name}.{CONFIG}"),
                "hooks.runtime.cluster.x-k8s.io/v1alpha1".to_string(),
                hook.to_string(),
                5,
                Some(FailurePolicy::Fail),
            )
        })
        .collect();
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    for version in VERSIONS {
        let go = start(&ca, version).await;
        let config = extension_config(&go.url, &ca.pem());
        let discovered = client.discover(&config).await.unwrap();
        let mut listed: Vec<(String, String, String, i32, Option<FailurePolicy>)> = discovered
            .status
            .handlers
            .iter()
            .map(|h| {
                (
                    h.name.clone(),
                    h.request_hook.api_version.clone(),
                    h.request_hook.hook.clone(),
                    h.timeout_seconds,
                    h.failure_policy,
                )
            })
            .collect();
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            listed, expected,
            "the Go extension of Cluster API {version}"
        );
        assert_eq!(discovered.spec, config.spec, "{version}");
    }
}

/// The ExtensionConfig with `status.handlers` as the Go server's own Discovery answer lists
/// them (read raw, so the calls below do not depend on the client's discovery).
async fn registered_from_raw_discovery(
    raw: &reqwest::Client,
    url: &str,
    config: &ExtensionConfig,
) -> ExtensionConfig {
    let body: Value = raw
        .post(format!(
            "{url}/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery"
        ))
        .json(&json!({
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "kind": "DiscoveryRequest",
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["status"], "Success", "{body}");
    let mut registered = config.clone();
    registered.status.handlers = body["handlers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let mut h = h.clone();
            h["name"] = json!(format!("{}.{CONFIG}", h["name"].as_str().unwrap()));
            serde_json::from_value(h).unwrap()
        })
        .collect();
    assert_eq!(registered.status.handlers.len(), HANDLERS.len());
    registered
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rust_client_calls_every_hook_of_each_versions_go_extension_and_decodes_its_answers() {
    let ca = pki::TestCa::new("go-extension-ca");
    let mut problems = Vec::new();
    for version in VERSIONS {
        let go = start(&ca, version).await;
        for problem in call_every_hook(&ca, &go.url, version).await {
            problems.push(format!("Cluster API {version}: {problem}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Calls every hook of the Go extension of Cluster API `version` at `url` through a new
/// client; what went wrong.
async fn call_every_hook(ca: &pki::TestCa, url: &str, version: &str) -> Vec<String> {
    let client = new_client();
    let raw = pki::https_client(&ca.pem());
    let registered =
        registered_from_raw_discovery(&raw, url, &extension_config(url, &ca.pem())).await;
    client.register(&registered).unwrap();

    // Every hook.
    let mut problems = Vec::new();
    macro_rules! each {
        ($($hook:ident => $handler:literal),* $(,)?) => {
            $(
                if let Err(e) = check::<hooks::$hook>(&client, &raw, url, $handler).await {
                    problems.push(format!("{}: {}", stringify!($hook), chain(&*e)));
                }
            )*
        };
    }
    each!(
        BeforeClusterCreate => "before-cluster-create",
        AfterControlPlaneInitialized => "after-control-plane-initialized",
        BeforeClusterUpgrade => "before-cluster-upgrade",
        BeforeControlPlaneUpgrade => "before-control-plane-upgrade",
        AfterControlPlaneUpgrade => "after-control-plane-upgrade",
        BeforeWorkersUpgrade => "before-workers-upgrade",
        AfterWorkersUpgrade => "after-workers-upgrade",
        AfterClusterUpgrade => "after-cluster-upgrade",
        BeforeClusterDelete => "before-cluster-delete",
        ValidateTopology => "validate-topology",
        CanUpdateMachineSet => "can-update-machine-set",
        UpdateMachine => "update-machine",
        GenerateUpgradePlan => "generate-upgrade-plan",
    );

    // The hooks whose answers carry more than a message.
    match check::<hooks::GeneratePatches>(&client, &raw, url, "generate-patches").await {
        Ok((r, _)) => {
            let uids: Vec<&str> = r.items.iter().map(|i| i.uid.as_str()).collect();
            if uids != ["infra-cluster", "cp"] {
                problems.push(format!("GeneratePatches: items {uids:?}"));
            }
            for item in &r.items {
                let patch: Value = serde_json::from_slice(&item.patch.0).unwrap();
                let want = json!([{"op": "add", "path": "/metadata/annotations",
                        "value": {"interop.capi-runtime/hook": "GeneratePatches"}}]);
                if patch != want {
                    problems.push(format!("GeneratePatches: patch {patch}, want {want}"));
                }
            }
        }
        Err(e) => problems.push(format!("GeneratePatches: {}", chain(&*e))),
    }
    match check::<hooks::DiscoverVariables>(&client, &raw, url, "discover-variables").await {
        Ok((r, body)) => {
            let v = serde_json::to_value(&r.variables).unwrap();
            let want = json!([{"name": "go-interop", "required": true,
                "schema": {"openAPIV3Schema": {"type": "string", "default": "go"}}}]);
            if v != want {
                problems.push(format!("DiscoverVariables: variables {v}, want {want}"));
            }
            // Which version's types answered: v1.12's variables are v1beta1's, whose metadata
            // Go writes (empty) under `metadata`; from v1.13 on they are v1beta2's, without it.
            let v1beta1 = version.starts_with("v1.12.");
            match (body["variables"][0].get("metadata"), v1beta1) {
                (Some(_), false) => {
                    problems.push("DiscoverVariables answered a v1beta1 variable".into())
                }
                (None, true) => {
                    problems.push("DiscoverVariables answered a v1beta2 variable".into())
                }
                _ => {}
            }
        }
        Err(e) => problems.push(format!("DiscoverVariables: {}", chain(&*e))),
    }
    match check::<hooks::CanUpdateMachine>(&client, &raw, url, "can-update-machine").await {
        Ok((r, _)) => {
            let patch: Value = serde_json::from_slice(&r.machine_patch.patch.0).unwrap();
            let want =
                json!({"metadata": {"labels": {"interop.capi-runtime/hook": "CanUpdateMachine"}}});
            if patch != want {
                problems.push(format!("CanUpdateMachine: patch {patch}, want {want}"));
            }
        }
        Err(e) => problems.push(format!("CanUpdateMachine: {}", chain(&*e))),
    }
    problems
}
