//! Cluster API's topology controller calling a Rust extension. Cluster API v1.14.2's core
//! manager (`target/testenv/bin/core`, RuntimeSDK and ClusterTopology gates) runs against the
//! test control plane with every core CRD of the module, plus the smallest infrastructure and
//! control plane providers a ClusterClass can use (`testdata/topology/provider-crds.yaml`: CRDs
//! only, no controllers). An extension built with `capi_runtime::server`, in this test process
//! over HTTPS on loopback (`caBundle` set), answers BeforeClusterCreate, GeneratePatches and
//! ValidateTopology and records every request. A ClusterClass whose external patch names that
//! extension, and a Cluster with a managed topology of that class, then show:
//!
//! - while BeforeClusterCreate answers `retryAfterSeconds`, Cluster API calls it again and
//!   again, creates nothing, and the Cluster's `TopologyReconciled` condition is False with
//!   reason `ClusterCreating` and a message naming the hook and our message;
//! - the Cluster reads with `kube::Api` into the SDK's own `Cluster` type, the one hook requests
//!   carry;
//! - once it answers 0, Cluster API calls GeneratePatches with the two templates (holders,
//!   template content, builtin variables), then ValidateTopology with the patched templates,
//!   and creates the infrastructure cluster and control plane with our patches in them;
//!   `TopologyReconciled` turns True;
//! - once ValidateTopology answers Failure, a change of the topology (control plane replicas)
//!   reaches GeneratePatches and ValidateTopology but not the control plane, and the condition
//!   is False with reason `ReconcileFailed` and our message.
//!
//! Cluster API's webhooks do not run here, so what their defaulting would add is written out:
//! the ExtensionConfig's empty `namespaceSelector` (without it Cluster API's registry matches no
//! namespace at all, skips the extension for BeforeClusterCreate and refuses to call its
//! GeneratePatches: "namespaceSelector did not match object").
//!
//! The manager's log is kept under `target/testenv/logs/capi-topology/`.

use capi_runtime_test_pki as pki;

mod support;

use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::{ClientConfig, ExtensionConfig, ExtensionConfigSpec};
use capi_runtime::go::errors::{BoxError, chain};
use capi_runtime::hook::ResponseStatus;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreate, BeforeClusterCreateRequest, BeforeClusterCreateResponse, GeneratePatches,
    GeneratePatchesRequest, GeneratePatchesResponse, GeneratePatchesResponseItem, PatchType,
    ValidateTopology, ValidateTopologyRequest, ValidateTopologyResponse,
};
use capi_runtime_testenv::{Process, TestEnv};
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams};
use kube::{Api, Client};
use serde_json::{Value, json};

/// How long every wait of this test may take.
const WAIT: Duration = Duration::from_secs(120);
/// The `retryAfterSeconds` BeforeClusterCreate answers while it holds the Cluster back.
const RETRY_AFTER: i32 = 2;
/// The message it answers with meanwhile.
const HOLD_MESSAGE: &str = "held back by capi_topology";
/// The ExtensionConfig's name; Cluster API names the handlers `<handler>.<this>`.
const EXTENSION: &str = "topology-extension";
/// What ValidateTopology answers, with Failure, in the last part.
const REJECTION: &str = "rejected by capi_topology";
/// What our patches write into the templates' specs.
const PATCHED_BY: &str = "capi-runtime generate-patches";

/// Every CRD file of Cluster API's core, and the test's provider CRDs.
fn crds() -> Vec<PathBuf> {
    let mut files = support::cluster_api_crds();
    files.push(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/topology/provider-crds.yaml"),
    );
    files
}

/// Starts Cluster API's core manager with the RuntimeSDK and ClusterTopology gates against
/// `env`.
async fn start_manager(env: &TestEnv, webhook_dir: &Path) -> Process {
    let extra = [
        "--feature-gates=RuntimeSDK=true,ClusterTopology=true".to_string(),
        "--v=2".to_string(),
    ];
    support::start_manager(
        "Cluster API's manager",
        "core",
        "capi-topology",
        env,
        webhook_dir,
        &extra,
    )
    .await
    .0
}

/// What the extension was asked, and what BeforeClusterCreate answers next.
#[derive(Default)]
struct Recorder {
    retry_after: AtomicI32,
    /// When set, ValidateTopology answers Failure with this message.
    reject: Mutex<Option<String>>,
    before_create: Mutex<Vec<BeforeClusterCreateRequest>>,
    generate: Mutex<Vec<GeneratePatchesRequest>>,
    validate: Mutex<Vec<ValidateTopologyRequest>>,
}

impl Recorder {
    fn counts(&self) -> (usize, usize, usize) {
        (
            self.before_create.lock().unwrap().len(),
            self.generate.lock().unwrap().len(),
            self.validate.lock().unwrap().len(),
        )
    }
}

/// One JSON patch per template: `spec.template.spec.patchedBy` and, on the infrastructure
/// cluster template, the Cluster's name taken from the builtin variable.
fn generate_patches(request: &GeneratePatchesRequest) -> GeneratePatchesResponse {
    let cluster_name = request
        .variables
        .iter()
        .find(|v| v.name == "builtin")
        .and_then(|v| {
            v.value
                .to_value()
                .unwrap()
                .pointer("/cluster/name")
                .cloned()
        })
        .unwrap_or(Value::Null);
    let items = request
        .items
        .iter()
        .map(|item| {
            let mut ops = vec![json!({
                "op": "add", "path": "/spec/template/spec/patchedBy", "value": PATCHED_BY,
            })];
            if item.object.to_value().unwrap()["kind"] == "TestInfraClusterTemplate" {
                ops.push(json!({
                    "op": "add", "path": "/spec/template/spec/clusterName", "value": cluster_name,
                }));
            }
            GeneratePatchesResponseItem {
                uid: item.uid.clone(),
                patch_type: PatchType::JsonPatch,
                patch: ByteString(serde_json::to_vec(&ops).unwrap()),
            }
        })
        .collect();
    GeneratePatchesResponse {
        status: ResponseStatus::Success,
        items,
        ..Default::default()
    }
}

/// Our extension, served in this process on an OS-assigned loopback port.
async fn start_extension(
    recorder: &Arc<Recorder>,
    cert_dir: &Path,
) -> capi_runtime::server::RunningServer {
    let r = recorder.clone();
    let builder = capi_runtime::server::ServerBuilder::new()
        .handle(
            BeforeClusterCreate,
            "before-cluster-create",
            move |request: BeforeClusterCreateRequest| {
                let r = r.clone();
                async move {
                    r.before_create.lock().unwrap().push(request);
                    let retry = r.retry_after.load(Ordering::SeqCst);
                    Ok::<_, String>(BeforeClusterCreateResponse {
                        status: ResponseStatus::Success,
                        message: if retry > 0 {
                            HOLD_MESSAGE.to_string()
                        } else {
                            String::new()
                        },
                        retry_after_seconds: retry,
                        ..Default::default()
                    })
                }
            },
        )
        .unwrap();
    let r = recorder.clone();
    let builder = builder
        .handle(
            GeneratePatches,
            "generate-patches",
            move |request: GeneratePatchesRequest| {
                let r = r.clone();
                async move {
                    let response = generate_patches(&request);
                    r.generate.lock().unwrap().push(request);
                    Ok::<_, String>(response)
                }
            },
        )
        .unwrap();
    let r = recorder.clone();
    let builder = builder
        .handle(
            ValidateTopology,
            "validate-topology",
            move |request: ValidateTopologyRequest| {
                let r = r.clone();
                async move {
                    r.validate.lock().unwrap().push(request);
                    let reject = r.reject.lock().unwrap().clone();
                    Ok::<_, String>(ValidateTopologyResponse {
                        status: if reject.is_some() {
                            ResponseStatus::Failure
                        } else {
                            ResponseStatus::Success
                        },
                        message: reject.unwrap_or_default(),
                        ..Default::default()
                    })
                }
            },
        )
        .unwrap();
    builder
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(cert_dir)
        .build()
        .start()
        .await
        .unwrap()
}

fn api(
    client: &Client,
    namespace: &str,
    group: &str,
    version: &str,
    kind: &str,
) -> Api<DynamicObject> {
    let gvk = GroupVersionKind::gvk(group, version, kind);
    // Every kind here pluralizes with an "s", but ClusterClass.
    let plural = match kind {
        "ClusterClass" => "clusterclasses".to_string(),
        _ => format!("{}s", kind.to_lowercase()),
    };
    Api::namespaced_with(
        client.clone(),
        namespace,
        &ApiResource::from_gvk_with_plural(&gvk, &plural),
    )
}

async fn create(api: &Api<DynamicObject>, object: Value) {
    let object: DynamicObject = serde_json::from_value(object).unwrap();
    api.create(&PostParams::default(), &object)
        .await
        .unwrap_or_else(|e| panic!("creating {:?}: {e}", object.metadata.name));
}

/// The Cluster API (v1beta2) condition `type_` of an object, if it has one.
fn condition(object: &DynamicObject, type_: &str) -> Option<Value> {
    object.data["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == type_)
        .cloned()
}

/// Polls `check` every 200 ms until it returns `Ok`, for at most [`WAIT`]; on time-out,
/// fails with `what`, the last reason `check` gave (a state not reached yet, or a failed read
/// with its causes) and the manager's log tail.
async fn wait_for<T, F, Fut>(what: &str, manager: &mut Process, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, BoxError>>,
{
    let deadline = Instant::now() + WAIT;
    loop {
        let last = match check().await {
            Ok(t) => return t,
            Err(last) => chain(&*last).to_string(),
        };
        if manager.exited().is_some() {
            panic!(
                "Cluster API's manager exited while waiting for {what}: {}",
                manager.report()
            );
        }
        assert!(
            Instant::now() < deadline,
            "{what}: not after {WAIT:?} (last seen: {last}): {}",
            manager.report()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn topology_controller_calls_before_cluster_create_generate_patches_and_validate_topology() {
    let env = support::start_env("capi-topology", crds()).await;
    let kube = env.client().await.unwrap();

    let ca = pki::TestCa::new("capi-topology-ca");
    let cert_dir = tempfile::tempdir().unwrap();
    ca.write_serving(cert_dir.path());
    let recorder = Arc::new(Recorder::default());
    recorder.retry_after.store(RETRY_AFTER, Ordering::SeqCst);
    let extension = start_extension(&recorder, cert_dir.path()).await;
    let url = format!("https://127.0.0.1:{}", extension.local_addr().port());

    let webhook_dir = tempfile::tempdir().unwrap();
    ca.write_serving(webhook_dir.path());
    let mut manager = start_manager(&env, webhook_dir.path()).await;

    // Registered and discovered first: the ClusterClass and the Cluster need its handlers.
    let configs: Api<ExtensionConfig> = Api::all(kube.clone());
    let config = ExtensionConfig::new(
        EXTENSION,
        ExtensionConfigSpec {
            client_config: ClientConfig {
                url,
                ca_bundle: ByteString(ca.pem().into_bytes()),
                ..Default::default()
            },
            // What Cluster API's defaulting webhook (not running here) would set: without it,
            // Cluster API's registry reads a missing selector as "no namespace", skips the
            // extension for BeforeClusterCreate and refuses to call its GeneratePatches.
            namespace_selector: Some(metav1::LabelSelector::default()),
            ..Default::default()
        },
    );
    configs
        .create(&PostParams::default(), &config)
        .await
        .unwrap();
    wait_for(
        "the ExtensionConfig Discovered with 3 handlers",
        &mut manager,
        || {
            let configs = configs.clone();
            async move {
                let c = configs.get(EXTENSION).await?;
                let discovered = c
                    .status
                    .conditions
                    .iter()
                    .any(|c| c.type_ == "Discovered" && c.status == "True");
                if discovered && c.status.handlers.len() == 3 {
                    Ok(())
                } else {
                    Err(format!("{:?}", c.status).into())
                }
            }
        },
    )
    .await;

    let ns = "topology";
    let namespaces: Api<Namespace> = Api::all(kube.clone());
    namespaces
        .create(
            &PostParams::default(),
            &serde_json::from_value(json!({"metadata": {"name": ns}})).unwrap(),
        )
        .await
        .unwrap();
    let infra_group = "infrastructure.capi-runtime.test";
    let cp_group = "controlplane.capi-runtime.test";
    let infra_templates = api(
        &kube,
        ns,
        infra_group,
        "v1alpha1",
        "TestInfraClusterTemplate",
    );
    let cp_templates = api(&kube, ns, cp_group, "v1alpha1", "TestControlPlaneTemplate");
    let infra_clusters = api(&kube, ns, infra_group, "v1alpha1", "TestInfraCluster");
    let control_planes = api(&kube, ns, cp_group, "v1alpha1", "TestControlPlane");
    let classes = api(&kube, ns, "cluster.x-k8s.io", "v1beta2", "ClusterClass");
    let clusters = api(&kube, ns, "cluster.x-k8s.io", "v1beta2", "Cluster");

    create(
        &infra_templates,
        json!({
            "apiVersion": format!("{infra_group}/v1alpha1"),
            "kind": "TestInfraClusterTemplate",
            "metadata": {"name": "infra", "namespace": ns},
            "spec": {"template": {"spec": {"region": "loopback"}}},
        }),
    )
    .await;
    create(
        &cp_templates,
        json!({
            "apiVersion": format!("{cp_group}/v1alpha1"),
            "kind": "TestControlPlaneTemplate",
            "metadata": {"name": "control-plane", "namespace": ns},
            "spec": {"template": {"spec": {"flavour": "minimal"}}},
        }),
    )
    .await;
    let class = "loopback-class";
    create(
        &classes,
        json!({
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "ClusterClass",
            "metadata": {"name": class, "namespace": ns},
            "spec": {
                "infrastructure": {"templateRef": {
                    "apiVersion": format!("{infra_group}/v1alpha1"),
                    "kind": "TestInfraClusterTemplate",
                    "name": "infra",
                }},
                "controlPlane": {"templateRef": {
                    "apiVersion": format!("{cp_group}/v1alpha1"),
                    "kind": "TestControlPlaneTemplate",
                    "name": "control-plane",
                }},
                "patches": [{
                    "name": "rust-patches",
                    "external": {
                        "generatePatchesExtension": format!("generate-patches.{EXTENSION}"),
                        "validateTopologyExtension": format!("validate-topology.{EXTENSION}"),
                    },
                }],
            },
        }),
    )
    .await;
    // Cluster API's ClusterClass controller accepts the templates (found, contract labels
    // read) and the variables.
    let started = Instant::now();
    wait_for("the ClusterClass reconciled", &mut manager, || {
        let classes = classes.clone();
        async move {
            let c = classes.get(class).await?;
            let ready = ["VariablesReady", "RefVersionsUpToDate"]
                .iter()
                .all(|t| condition(&c, t).is_some_and(|c| c["status"] == "True"));
            let observed = c.data["status"]["observedGeneration"].as_i64();
            if ready && observed == c.metadata.generation {
                Ok(())
            } else {
                Err(format!("{}", c.data["status"]).into())
            }
        }
    })
    .await;
    eprintln!("ClusterClass reconciled after {:?}", started.elapsed());

    let cluster = "c1";
    let created = Instant::now();
    create(
        &clusters,
        json!({
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "Cluster",
            "metadata": {"name": cluster, "namespace": ns},
            "spec": {"topology": {
                "classRef": {"name": class},
                "version": "v1.31.0",
                "controlPlane": {"replicas": 1},
            }},
        }),
    )
    .await;

    // Held back: the condition says so, and the hook is called again after RETRY_AFTER.
    let held = wait_for(
        "TopologyReconciled False/ClusterCreating and BeforeClusterCreate called twice",
        &mut manager,
        || {
            let clusters = clusters.clone();
            let recorder = recorder.clone();
            async move {
                let c = clusters.get(cluster).await?;
                let cond = condition(&c, "TopologyReconciled");
                let calls = recorder.counts().0;
                match cond {
                    Some(cond)
                        if cond["status"] == "False"
                            && cond["reason"] == "ClusterCreating"
                            && calls >= 2 =>
                    {
                        Ok((c, cond))
                    }
                    other => Err(format!("condition {other:?}, {calls} calls").into()),
                }
            }
        },
    )
    .await;
    eprintln!(
        "held back: condition after {:?}, {} BeforeClusterCreate calls",
        created.elapsed(),
        recorder.counts().0
    );
    let (held_cluster, held_condition) = held;
    assert_eq!(
        held_condition["message"],
        format!(
            "Following hooks are blocking Cluster topology creation: BeforeClusterCreate: {HOLD_MESSAGE}"
        )
    );
    assert!(
        held_cluster.data["spec"].get("infrastructureRef").is_none()
            && held_cluster.data["spec"].get("controlPlaneRef").is_none(),
        "Cluster API went on while the hook held it back: {}",
        held_cluster.data["spec"]
    );
    assert_eq!(
        recorder.counts().1,
        0,
        "GeneratePatches called while held back"
    );
    assert!(
        infra_clusters
            .list(&Default::default())
            .await
            .unwrap()
            .items
            .is_empty()
    );
    {
        let calls = recorder.before_create.lock().unwrap();
        for call in calls.iter() {
            assert_eq!(call.cluster.metadata.name.as_deref(), Some(cluster));
            assert_eq!(call.cluster.metadata.namespace.as_deref(), Some(ns));
            assert_eq!(call.cluster.spec.topology.version, "v1.31.0");
        }
    }

    // Let it go.
    recorder.retry_after.store(0, Ordering::SeqCst);
    let released = Instant::now();
    let (infra_name, cp_name) = wait_for(
        "the Cluster's infrastructureRef and controlPlaneRef",
        &mut manager,
        || {
            let clusters = clusters.clone();
            async move {
                let c = clusters.get(cluster).await?;
                let infra = c.data["spec"]["infrastructureRef"]["name"].as_str();
                let cp = c.data["spec"]["controlPlaneRef"]["name"].as_str();
                match (infra, cp) {
                    (Some(i), Some(p)) => Ok((i.to_string(), p.to_string())),
                    _ => Err(format!(
                        "spec {}, conditions {}",
                        c.data["spec"], c.data["status"]["conditions"]
                    )
                    .into()),
                }
            }
        },
    )
    .await;
    eprintln!(
        "objects referenced {:?} after the release; calls (BeforeClusterCreate, GeneratePatches, ValidateTopology) = {:?}",
        released.elapsed(),
        recorder.counts()
    );

    // What GeneratePatches was asked: both templates as they are, with their holders.
    let generate = recorder.generate.lock().unwrap().first().cloned();
    let generate = generate.expect("the objects exist, so GeneratePatches was called");
    let builtin = generate
        .variables
        .iter()
        .find(|v| v.name == "builtin")
        .expect("a builtin variable")
        .value
        .to_value()
        .unwrap();
    assert_eq!(builtin["cluster"]["name"], cluster);
    assert_eq!(builtin["cluster"]["namespace"], ns);
    assert_eq!(builtin["cluster"]["topology"]["version"], "v1.31.0");
    assert_eq!(builtin["cluster"]["topology"]["classRef"]["name"], class);
    let mut items: Vec<_> = generate
        .items
        .iter()
        .map(|i| {
            (
                i.object.to_value().unwrap()["kind"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                i.object.to_value().unwrap()["spec"]["template"]["spec"].clone(),
                (
                    i.holder_reference.api_version.clone(),
                    i.holder_reference.kind.clone(),
                    i.holder_reference.namespace.clone(),
                    i.holder_reference.name.clone(),
                    i.holder_reference.field_path.clone(),
                ),
            )
        })
        .collect();
    items.sort_by(|a, b| a.0.cmp(&b.0));
    let holder = |field: &str| {
        (
            "cluster.x-k8s.io/v1beta2".to_string(),
            "Cluster".to_string(),
            ns.to_string(),
            cluster.to_string(),
            field.to_string(),
        )
    };
    assert_eq!(
        items,
        vec![
            (
                "TestControlPlaneTemplate".to_string(),
                json!({"flavour": "minimal"}),
                holder("spec.controlPlaneRef"),
            ),
            (
                "TestInfraClusterTemplate".to_string(),
                json!({"region": "loopback"}),
                holder("spec.infrastructureRef"),
            ),
        ]
    );
    assert!(generate.items.iter().all(|i| !i.uid.is_empty()));
    let cp_item = generate
        .items
        .iter()
        .find(|i| i.object.to_value().unwrap()["kind"] == "TestControlPlaneTemplate")
        .unwrap();
    let cp_builtin = &cp_item
        .variables
        .iter()
        .find(|v| v.name == "builtin")
        .expect("the control plane item's builtin variable")
        .value
        .to_value()
        .unwrap();
    assert_eq!(cp_builtin["controlPlane"]["version"], "v1.31.0");
    assert_eq!(cp_builtin["controlPlane"]["replicas"], 1);

    // What ValidateTopology was asked: the templates with our patches applied.
    let validate = recorder.validate.lock().unwrap().first().cloned();
    let validate = validate.expect("the objects exist, so ValidateTopology was called");
    let mut patched: Vec<_> = validate
        .items
        .iter()
        .map(|i| {
            (
                i.object.to_value().unwrap()["kind"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                i.object.to_value().unwrap()["spec"]["template"]["spec"].clone(),
                i.holder_reference.field_path.clone(),
            )
        })
        .collect();
    patched.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        patched,
        vec![
            (
                "TestControlPlaneTemplate".to_string(),
                json!({"flavour": "minimal", "patchedBy": PATCHED_BY}),
                "spec.controlPlaneRef".to_string(),
            ),
            (
                "TestInfraClusterTemplate".to_string(),
                json!({"region": "loopback", "patchedBy": PATCHED_BY, "clusterName": cluster}),
                "spec.infrastructureRef".to_string(),
            ),
        ]
    );

    // The objects Cluster API made from the patched templates.
    let infra = infra_clusters.get(&infra_name).await.unwrap();
    assert_eq!(
        infra.data["spec"],
        json!({"region": "loopback", "patchedBy": PATCHED_BY, "clusterName": cluster})
    );
    let labels = infra.metadata.labels.clone().unwrap_or_default();
    assert_eq!(
        labels
            .get("cluster.x-k8s.io/cluster-name")
            .map(String::as_str),
        Some(cluster)
    );
    assert!(labels.contains_key("topology.cluster.x-k8s.io/owned"));
    let cp = control_planes.get(&cp_name).await.unwrap();
    assert_eq!(cp.data["spec"]["patchedBy"], PATCHED_BY);
    assert_eq!(cp.data["spec"]["flavour"], "minimal");
    // Contract fields the topology controller sets itself.
    assert_eq!(cp.data["spec"]["version"], "v1.31.0");
    assert_eq!(cp.data["spec"]["replicas"], 1);

    // With the objects in place, the topology is reconciled.
    wait_for("TopologyReconciled True", &mut manager, || {
        let clusters = clusters.clone();
        async move {
            let c = clusters.get(cluster).await?;
            match condition(&c, "TopologyReconciled") {
                Some(cond)
                    if cond["status"] == "True" && cond["reason"] == "ReconcileSucceeded" =>
                {
                    Ok(())
                }
                other => Err(format!("{other:?}").into()),
            }
        }
    })
    .await;

    // The SDK's own Cluster type is a kube Resource: the Cluster Cluster API reconciled reads
    // with a typed Api and goes into a hook request as it is, with no second type.
    let typed: Api<capi_runtime::api::core::v1beta2::Cluster> = Api::namespaced(kube.clone(), ns);
    let read = typed.get(cluster).await.unwrap();
    let dynamic = clusters.get(cluster).await.unwrap();
    assert_eq!(read.metadata.uid, dynamic.metadata.uid);
    assert_eq!(
        json!(read.spec.topology.class_ref.name),
        dynamic.data["spec"]["topology"]["classRef"]["name"]
    );
    assert_eq!(read.spec.topology.control_plane.replicas, Some(1));
    let request = BeforeClusterCreateRequest {
        cluster: read,
        ..Default::default()
    };
    assert_eq!(request.cluster.metadata.name.as_deref(), Some(cluster));

    // ValidateTopology says no: a change of the topology is not applied, and the condition
    // carries our message.
    *recorder.reject.lock().unwrap() = Some(REJECTION.to_string());
    clusters
        .patch(
            cluster,
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"topology": {"controlPlane": {"replicas": 3}}}})),
        )
        .await
        .unwrap();
    let rejected = Instant::now();
    // Waits for a rejected call that saw the new replicas (a reconcile that started before
    // the change may have been rejected first).
    let message = wait_for(
        "TopologyReconciled False/ReconcileFailed, ValidateTopology asked about 3 replicas",
        &mut manager,
        || {
            let clusters = clusters.clone();
            let recorder = recorder.clone();
            async move {
                let asked = recorder.validate.lock().unwrap().iter().any(|r| {
                    r.items.iter().any(|i| {
                        i.object.to_value().unwrap()["kind"] == "TestControlPlaneTemplate"
                            && i.variables.iter().any(|v| {
                                v.name == "builtin"
                                    && v.value.to_value().unwrap()["controlPlane"]["replicas"] == 3
                            })
                    })
                });
                let c = clusters.get(cluster).await?;
                match condition(&c, "TopologyReconciled") {
                    Some(cond)
                        if asked
                            && cond["status"] == "False"
                            && cond["reason"] == "ReconcileFailed" =>
                    {
                        Ok(cond["message"].as_str().unwrap_or_default().to_string())
                    }
                    other => Err(format!("{other:?}, asked about 3 replicas: {asked}").into()),
                }
            }
        },
    )
    .await;
    eprintln!("rejection on the condition after {:?}", rejected.elapsed());
    assert!(
        message.contains(&format!(
            "validation of patch \"rust-patches\" failed: failed to call extension handler \"validate-topology.{EXTENSION}\": got failure response with message: {REJECTION}"
        )),
        "{message}"
    );
    let cp = control_planes.get(&cp_name).await.unwrap();
    assert_eq!(
        cp.data["spec"]["replicas"], 1,
        "applied despite the rejection"
    );

    manager.stop();
    extension.shutdown().await.unwrap();
}
