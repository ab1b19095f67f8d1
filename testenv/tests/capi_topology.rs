//! Cluster API's topology controller calling a Rust extension, written with the testing
//! crate's public API only, as an extension's author would write it. Cluster API v1.14.2's
//! core manager (RuntimeSDK and ClusterTopology gates) runs against the test control plane with
//! every core CRD of the module, plus the smallest infrastructure and control plane providers a
//! ClusterClass can use (`ClusterApiBuilder::test_providers`: CRDs only, no controllers). An
//! extension built with `capi_runtime::server`, in this test process over HTTPS on loopback
//! (`caBundle` set), answers BeforeClusterCreate, GeneratePatches, ValidateTopology and
//! DiscoverVariables and records every request. It declares one ClusterClass variable as a Rust
//! type with `#[derive(Variable)]` (`ImageRegistry`). A ClusterClass whose external patch names
//! that extension's three topology handlers (`topology::ClusterClass` with an `ExternalPatch`),
//! and a Cluster with a managed topology of that class setting the variable from a value of its
//! type (`topology::TopologyCluster::variable`), then show:
//!
//! - Cluster API's ClusterClass controller asks DiscoverVariables and keeps the variable in the
//!   class's `status.variables`, its schema the one the derive wrote, attributed to our patch;
//! - while BeforeClusterCreate answers `retryAfterSeconds`, Cluster API calls it again and
//!   again, creates nothing, and the Cluster's `TopologyReconciled` condition is False with
//!   reason `ClusterCreating` and a message naming the hook and our message;
//! - the Cluster reads with `kube::Api` into the SDK's own `Cluster` type, the one hook requests
//!   carry;
//! - once it answers 0, Cluster API calls GeneratePatches with the two templates (holders,
//!   template content, builtin variables) and the Cluster's value of our variable, which
//!   GeneratePatches reads into `ImageRegistry` through `Variables::variable`; then
//!   ValidateTopology with the patched templates,
//!   and creates the infrastructure cluster and control plane with our patches in them;
//!   `TopologyReconciled` turns True;
//! - once ValidateTopology answers Failure, a change of the topology (control plane replicas,
//!   with `ClusterApi::patch`) reaches GeneratePatches and ValidateTopology but not the control
//!   plane, and the condition is False with reason `ReconcileFailed` and our message;
//! - `ClusterApi::annotate` and `ClusterApi::get` change and read the Cluster by its builder.
//!
//! Cluster API's webhooks do not run here, so what their defaulting would add is written out
//! (`ClusterApi::register_extension` sets the ExtensionConfig's empty `namespaceSelector`).
//!
//! The manager's log is kept under `target/testenv/logs/capi-topology/`.
//!
//! `lifecycle_flow_against_cluster_api_*` run the lifecycle flow with the same extension
//! against each supported Cluster API's manager (`ClusterApiBuilder::cluster_api_version`):
//! DiscoverVariables feeds the ClusterClass's variables, BeforeClusterCreate holds the Cluster
//! back and lets it go, GeneratePatches's patches are in the objects made,
//! AfterControlPlaneInitialized arrives once the test plays the providers' part (the
//! infrastructure provisioned with an endpoint, the control plane initialized), and
//! BeforeClusterDelete holds the deletion and lets it go. Every lifecycle handler's typed
//! Cluster shows the same values at the fields all versions carry; the raw requests are kept
//! under `target/tmp/capi-versions/<version>/`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use capi_runtime::go::errors::{BoxError, chain};
use capi_runtime::hook::ResponseStatus;
use capi_runtime::hooks::v1alpha1::{
    AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, BeforeClusterDeleteRequest,
    BeforeClusterDeleteResponse, GeneratePatchesRequest, GeneratePatchesResponse, HolderReference,
    ValidateTopologyRequest, ValidateTopologyResponse,
};
use capi_runtime::topology_mutation::{VariableError, Variables, Walker, templates};
use capi_runtime::variable::Variable;
use capi_runtime_testenv::topology::{
    CONTROL_PLANE_GROUP, ClusterClass, ExternalPatch, INFRA_GROUP, PROVIDER_VERSION,
    TopologyCluster, condition, handler_name,
};
use capi_runtime_testenv::{
    Api, ClusterApi, Result, TestControlPlaneTemplate, TestInfraClusterTemplate,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

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

/// The registry the workload cluster's images come from: the ClusterClass variable the
/// extension declares, its schema written by the derive from these fields and markers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Variable)]
#[serde(rename_all = "camelCase")]
#[variable(name = "imageRegistry", required)]
struct ImageRegistry {
    /// Host name of the registry.
    #[schema(min_length = 1, max_length = 253, pattern = "^[a-z0-9.-]+$")]
    host: String,
    /// Port of the registry, 443 unless set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 65535, default = 443)]
    port: Option<i32>,
    /// How the images are fetched.
    #[serde(default)]
    scheme: Scheme,
    /// Other registries with the same images, tried in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 3)]
    mirrors: Vec<Mirror>,
}

/// Another registry with the same images.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Variable)]
struct Mirror {
    /// Its host name.
    #[schema(min_length = 1)]
    host: String,
}

/// The protocol of a registry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Variable)]
#[serde(rename_all = "lowercase")]
enum Scheme {
    /// Plain HTTP.
    Http,
    /// HTTP over TLS.
    #[default]
    Https,
}

/// What the Cluster sets `imageRegistry` to (every field, as no defaulting webhook runs here).
fn registry_value() -> ImageRegistry {
    ImageRegistry {
        host: "registry.example.com".to_string(),
        port: Some(5000),
        scheme: Scheme::Http,
        mirrors: vec![Mirror {
            host: "mirror.example.com".to_string(),
        }],
    }
}

/// The value of `r`, or a panic with its error and causes.
fn must<T>(r: Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("{}", chain(&e)))
}

/// What the extension was asked, and what BeforeClusterCreate answers next.
#[derive(Default)]
struct Recorder {
    retry_after: AtomicI32,
    /// When set, ValidateTopology answers Failure with this message.
    reject: Mutex<Option<String>>,
    before_create: Mutex<Vec<BeforeClusterCreateRequest>>,
    generate: Mutex<Vec<GeneratePatchesRequest>>,
    /// What each GeneratePatches call read as `ImageRegistry` from its global variables.
    registry: Mutex<Vec<std::result::Result<ImageRegistry, String>>>,
    validate: Mutex<Vec<ValidateTopologyRequest>>,
    /// What BeforeClusterDelete answers as `retryAfterSeconds` (the lifecycle flow).
    delete_retry_after: AtomicI32,
    initialized: Mutex<Vec<AfterControlPlaneInitializedRequest>>,
    delete: Mutex<Vec<BeforeClusterDeleteRequest>>,
    /// Every request body as it arrived, with its path (the lifecycle flow's server).
    raw: Mutex<Vec<(String, Vec<u8>)>>,
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

/// `spec.template.spec.patchedBy` on both templates and, on the infrastructure cluster
/// template, the Cluster's name taken from the builtin variable: the test providers' typed
/// templates, patched through the walker.
fn generate_patches(request: &GeneratePatchesRequest) -> GeneratePatchesResponse {
    Walker::new()
        .mutate(|template: &mut TestInfraClusterTemplate, ctx| {
            let cluster_name = ctx.variables.get_string("builtin.cluster.name")?;
            let spec = &mut template.spec.template.spec;
            spec.insert("patchedBy".into(), PATCHED_BY.into());
            spec.insert("clusterName".into(), cluster_name.into());
            Ok::<_, VariableError>(())
        })
        .mutate(|template: &mut TestControlPlaneTemplate, _ctx| {
            let spec = &mut template.spec.template.spec;
            spec.insert("patchedBy".into(), PATCHED_BY.into());
            Ok::<_, VariableError>(())
        })
        .generate_patches(request)
}

/// Our extension, served in this process on an OS-assigned loopback port.
async fn start_extension(
    recorder: &Arc<Recorder>,
    cert_dir: &Path,
) -> capi_runtime::server::RunningServer {
    handlers(recorder)
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(cert_dir)
        .build()
        .unwrap()
        .start()
        .await
        .unwrap()
}

/// Our extension's handlers, recording into `recorder`: BeforeClusterCreate and
/// BeforeClusterDelete answer the `retryAfterSeconds` the recorder holds, GeneratePatches
/// patches both templates, ValidateTopology rejects when told to, DiscoverVariables declares
/// `ImageRegistry`, AfterControlPlaneInitialized records.
fn handlers(recorder: &Arc<Recorder>) -> capi_runtime::server::ServerBuilder {
    let r = recorder.clone();
    let builder = capi_runtime::server::ServerBuilder::new().handle(
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
    );
    let r = recorder.clone();
    let builder = builder.handle(
        "generate-patches",
        move |request: GeneratePatchesRequest| {
            let r = r.clone();
            async move {
                let response = generate_patches(&request);
                // The typed read an extension's template function does.
                let registry = Variables::from_list(&request.variables)
                    .and_then(|v| v.variable::<ImageRegistry>())
                    .map_err(|e| chain(&e).to_string());
                r.registry.lock().unwrap().push(registry);
                r.generate.lock().unwrap().push(request);
                Ok::<_, String>(response)
            }
        },
    );
    let r = recorder.clone();
    let builder = builder.handle(
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
    );
    let r = recorder.clone();
    let builder = builder.handle(
        "after-control-plane-initialized",
        move |request: AfterControlPlaneInitializedRequest| {
            let r = r.clone();
            async move {
                r.initialized.lock().unwrap().push(request);
                Ok::<_, String>(AfterControlPlaneInitializedResponse::default())
            }
        },
    );
    let r = recorder.clone();
    let builder = builder.handle(
        "before-cluster-delete",
        move |request: BeforeClusterDeleteRequest| {
            let r = r.clone();
            async move {
                r.delete.lock().unwrap().push(request);
                Ok::<_, String>(BeforeClusterDeleteResponse {
                    retry_after_seconds: r.delete_retry_after.load(Ordering::SeqCst),
                    ..Default::default()
                })
            }
        },
    );
    // DiscoverVariables, answered from the declared type.
    builder
        .variable::<ImageRegistry>()
        .discover_variables("discover-variables")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn topology_controller_calls_before_cluster_create_generate_patches_and_validate_topology() {
    let capi = must(
        ClusterApi::builder("capi-topology")
            .test_providers()
            .start()
            .await,
    );
    let (control_plane_ready, manager_ready) = capi.startup_times();
    let webhooks = capi.webhooks_startup_time();
    let (etcd_kib, apiserver_kib, manager_kib) = capi.rss_kib();
    eprintln!(
        "Cluster API environment: control plane ready after {control_plane_ready:?}, manager \
         and webhooks ready after {manager_ready:?} (webhooks installed and called in \
         {webhooks:?}); RSS etcd {etcd_kib} KiB, kube-apiserver {apiserver_kib} KiB, manager \
         {manager_kib} KiB"
    );
    assert!(webhooks.is_some(), "Cluster API's webhooks run by default");
    let kube = must(capi.client().await);

    // The extension's certificate, signed by the environment's CA (its caBundle).
    let cert_dir = tempfile::tempdir().unwrap();
    must(capi.write_serving_certificate(cert_dir.path()));
    let recorder = Arc::new(Recorder::default());
    recorder.retry_after.store(RETRY_AFTER, Ordering::SeqCst);
    let extension = start_extension(&recorder, cert_dir.path()).await;
    let url = format!("https://127.0.0.1:{}", extension.local_addr().port());

    // Registered and discovered first: the ClusterClass and the Cluster need its handlers.
    let config = must(
        capi.register_extension(EXTENSION, &url, capi.ca_pem())
            .await,
    );
    let mut handlers: Vec<&str> = config
        .status
        .handlers
        .iter()
        .map(|h| h.name.as_str())
        .collect();
    handlers.sort();
    assert_eq!(
        handlers,
        [
            "after-control-plane-initialized.topology-extension",
            "before-cluster-create.topology-extension",
            "before-cluster-delete.topology-extension",
            "discover-variables.topology-extension",
            "generate-patches.topology-extension",
            "validate-topology.topology-extension",
        ]
    );

    let ns = "topology";
    must(capi.create_namespace(ns).await);
    let provider = |group: &str| format!("{group}/{PROVIDER_VERSION}");
    let infra_clusters = must(
        capi.api(ns, &provider(INFRA_GROUP), "TestInfraCluster")
            .await,
    );
    let control_planes = must(
        capi.api(ns, &provider(CONTROL_PLANE_GROUP), "TestControlPlane")
            .await,
    );
    let classes = must(
        capi.api(ns, "cluster.x-k8s.io/v1beta2", "ClusterClass")
            .await,
    );
    let clusters = must(capi.api(ns, "cluster.x-k8s.io/v1beta2", "Cluster").await);

    let class = "loopback-class";
    let patch_name = PATCH;
    create_class(&capi, ns, class).await;
    // Cluster API's ClusterClass controller accepts the templates (found, contract labels
    // read) and the variables.
    let started = Instant::now();
    must(
        capi.wait_for("the ClusterClass reconciled", || {
            let classes = classes.clone();
            async move {
                let c = classes.get(class).await?;
                let ready = ["VariablesReady", "RefVersionsUpToDate"]
                    .iter()
                    .all(|t| condition(&c, t).is_some_and(|c| c.status == "True"));
                let observed = c.data["status"]["observedGeneration"].as_i64();
                if ready && observed == c.metadata.generation {
                    Ok(())
                } else {
                    Err(BoxError::from(format!("{}", c.data["status"])))
                }
            }
        })
        .await,
    );
    eprintln!("ClusterClass reconciled after {:?}", started.elapsed());
    check_class_variables(&classes.get(class).await.unwrap().data, patch_name);

    let cluster = "c1";
    let created = Instant::now();
    // The Cluster sets our variable from a value of its type.
    let c1 = TopologyCluster::new(ns, cluster, class, "v1.31.0").variable(&registry_value());
    must(capi.create(&c1).await);

    // Held back: the condition says so, and the hook is called again after RETRY_AFTER.
    let held = capi.wait_for(
        "TopologyReconciled False/ClusterCreating and BeforeClusterCreate called twice",
        || {
            let clusters = clusters.clone();
            let recorder = recorder.clone();
            async move {
                let c = clusters.get(cluster).await?;
                let cond = condition(&c, "TopologyReconciled");
                let calls = recorder.counts().0;
                match cond {
                    Some(cond)
                        if cond.status == "False"
                            && cond.reason == "ClusterCreating"
                            && calls >= 2 =>
                    {
                        Ok((c, cond))
                    }
                    other => Err(BoxError::from(format!(
                        "condition {other:?}, {calls} calls"
                    ))),
                }
            }
        },
    );
    let held = must(held.await);
    eprintln!(
        "held back: condition after {:?}, {} BeforeClusterCreate calls",
        created.elapsed(),
        recorder.counts().0
    );
    let (held_cluster, held_condition) = held;
    assert_eq!(
        held_condition.message,
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
    let made = must(capi.topology_objects(ns, cluster).await);
    eprintln!(
        "objects referenced {:?} after the release; calls (BeforeClusterCreate, GeneratePatches, ValidateTopology) = {:?}",
        released.elapsed(),
        recorder.counts()
    );

    // What Cluster API sent, kept for reading (and compared with the testing crate's fixtures).
    let recorded = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("capi-topology-recorded");
    std::fs::create_dir_all(&recorded).unwrap();
    for (name, json) in [
        (
            "before-cluster-create.json",
            serde_json::to_string_pretty(&recorder.before_create.lock().unwrap().last()).unwrap(),
        ),
        (
            "generate-patches.json",
            serde_json::to_string_pretty(&recorder.generate.lock().unwrap().first()).unwrap(),
        ),
        (
            "validate-topology.json",
            serde_json::to_string_pretty(&recorder.validate.lock().unwrap().first()).unwrap(),
        ),
    ] {
        std::fs::write(recorded.join(name), json).unwrap();
    }
    compare_with_fixtures(&recorder, ns, cluster, class);

    // Our variable reached GeneratePatches among the global variables, and reads back into its
    // type as the Cluster set it, in every call.
    {
        let reads = recorder.registry.lock().unwrap();
        assert!(!reads.is_empty());
        for read in reads.iter() {
            assert_eq!(read.as_ref(), Ok(&registry_value()));
        }
    }

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
    let sent = generate
        .variables
        .iter()
        .find(|v| v.name == ImageRegistry::NAME)
        .expect("our variable among the global variables")
        .value
        .to_value()
        .unwrap();
    assert_eq!(sent, serde_json::to_value(registry_value()).unwrap());
    // The templates GeneratePatches was asked about, read typed: as created, each with its
    // holder, the Cluster.
    let holder = |r: &HolderReference| {
        (
            r.api_version.clone(),
            r.kind.clone(),
            r.namespace.clone(),
            r.name.clone(),
            r.field_path.clone(),
        )
    };
    let cluster_holder = |field: &str| {
        (
            "cluster.x-k8s.io/v1beta2".to_string(),
            "Cluster".to_string(),
            ns.to_string(),
            cluster.to_string(),
            field.to_string(),
        )
    };
    let asked_control_plane = templates::<TestControlPlaneTemplate>(&generate).unwrap();
    let asked_infrastructure = templates::<TestInfraClusterTemplate>(&generate).unwrap();
    assert_eq!(generate.items.len(), 2);
    let asked: Vec<_> = asked_control_plane
        .iter()
        .map(|(r, t)| (holder(r), &t.spec.template.spec))
        .chain(
            asked_infrastructure
                .iter()
                .map(|(r, t)| (holder(r), &t.spec.template.spec)),
        )
        .collect();
    assert_eq!(
        asked,
        [
            (
                cluster_holder("spec.controlPlaneRef"),
                &control_plane(ns).spec.template.spec
            ),
            (
                cluster_holder("spec.infrastructureRef"),
                &infrastructure_template(ns).spec.template.spec
            ),
        ]
    );
    // Cluster API sends the templates with the metadata of the objects it makes from them.
    for metadata in [
        &asked_control_plane[0].1.spec.template.metadata,
        &asked_infrastructure[0].1.spec.template.metadata,
    ] {
        assert_eq!(
            metadata
                .labels
                .get("cluster.x-k8s.io/cluster-name")
                .map(String::as_str),
            Some(cluster)
        );
    }
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
    let infra_name = made.infrastructure_cluster.metadata.name.clone().unwrap();
    let cp_name = made.control_plane.metadata.name.clone().unwrap();
    let infra = infra_clusters.get(&infra_name).await.unwrap();
    assert_eq!(infra.metadata.uid, made.infrastructure_cluster.metadata.uid);
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
    must(
        capi.wait_for_condition(&c1, "TopologyReconciled", |c| {
            c.status == "True" && c.reason == "ReconcileSucceeded"
        })
        .await,
    );

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
    must(
        capi.patch(
            &c1,
            &json!({"spec": {"topology": {"controlPlane": {"replicas": 3}}}}),
        )
        .await,
    );
    let rejected = Instant::now();
    // Waits for a rejected call that saw the new replicas (a reconcile that started before
    // the change may have been rejected first).
    let message = capi.wait_for(
        "TopologyReconciled False/ReconcileFailed, ValidateTopology asked about 3 replicas",
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
                        if asked && cond.status == "False" && cond.reason == "ReconcileFailed" =>
                    {
                        Ok(cond.message)
                    }
                    other => Err(BoxError::from(format!(
                        "{other:?}, asked about 3 replicas: {asked}"
                    ))),
                }
            }
        },
    );
    let message = must(message.await);
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
    // An annotation set on the Cluster as it is, and read back.
    must(capi.annotate(&c1, "capi-runtime.test/checked", "yes").await);
    let annotated = must(capi.get(&c1).await);
    assert_eq!(
        annotated
            .metadata
            .annotations
            .unwrap_or_default()
            .get("capi-runtime.test/checked")
            .map(String::as_str),
        Some("yes")
    );

    capi.stop_manager();
    extension.shutdown().await.unwrap();
}

/// The external patch's name in the ClusterClass.
const PATCH: &str = "rust-patches";

/// Creates the two templates and ClusterClass `class` in `ns`, with one external patch
/// ([`PATCH`]) calling all three topology handlers of the extension.
async fn create_class(capi: &ClusterApi, ns: &str, class: &str) {
    must(capi.create(&infrastructure_template(ns)).await);
    must(capi.create(&control_plane(ns)).await);
    let cluster_class = ClusterClass::new(ns, class, "infra", "control-plane").patch(
        ExternalPatch::new(PATCH)
            .generate_patches(handler_name("generate-patches", EXTENSION))
            .validate_topology(handler_name("validate-topology", EXTENSION))
            .discover_variables(handler_name("discover-variables", EXTENSION)),
    );
    must(capi.create(&cluster_class).await);
}

/// The ClusterClass's `status.variables` (in `class`) lists `ImageRegistry` as our
/// DiscoverVariables answer declared it: one definition, from external patch `patch`, with
/// the schema the derive wrote and its `required`, and no conflict.
fn check_class_variables(class: &Value, patch: &str) {
    let declared = ImageRegistry::definition();
    let listed = class["status"]["variables"]
        .as_array()
        .unwrap_or_else(|| panic!("no status.variables: {}", class["status"]));
    let entry = listed
        .iter()
        .find(|v| v["name"] == ImageRegistry::NAME)
        .unwrap_or_else(|| {
            panic!(
                "{} not in status.variables: {listed:?}",
                ImageRegistry::NAME
            )
        });
    assert!(
        matches!(
            entry.get("definitionsConflict"),
            None | Some(Value::Bool(false))
        ),
        "{entry}"
    );
    let definitions = entry["definitions"].as_array().expect("definitions");
    assert_eq!(definitions.len(), 1, "{entry}");
    let definition = &definitions[0];
    assert_eq!(definition["from"], patch);
    assert_eq!(definition["required"], json!(declared.required.unwrap()));
    assert_eq!(
        definition["schema"]["openAPIV3Schema"],
        serde_json::to_value(&declared.schema.open_apiv3_schema).unwrap(),
        "the schema Cluster API stored (left) and the one the derive wrote (right)"
    );
}

/// The testing crate's fixtures (`capi_runtime_testenv::fixtures`) built for this test's
/// topology are what Cluster API sent, up to the values the API server and Cluster API draw
/// (uids, resource versions, creation times, the control plane's generated name) and, for
/// ValidateTopology, up to what our patches changed in the templates.
fn compare_with_fixtures(recorder: &Recorder, ns: &str, cluster: &str, class: &str) {
    use capi_runtime_testenv::fixtures::Topology;

    let topology = Topology::new(
        ns,
        cluster,
        class,
        serde_json::to_value(infrastructure_template(ns)).unwrap(),
        serde_json::to_value(control_plane(ns)).unwrap(),
    )
    .kubernetes_version("v1.31.0")
    .typed_variable(&registry_value());

    /// Blanks what is drawn at random: every uid, resource version, creation time, and the
    /// control plane's generated name in its builtins. Leaves out the Cluster's finalizers:
    /// Cluster API's Cluster controller adds its own while the topology controller calls
    /// BeforeClusterCreate, so a call may carry it or not.
    fn drawn(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("finalizers");
                for (key, v) in map.iter_mut() {
                    if ["uid", "resourceVersion", "creationTimestamp"].contains(&key.as_str()) {
                        *v = json!("<drawn>");
                    } else {
                        drawn(v);
                    }
                }
                if let Some(name) = map
                    .get_mut("controlPlane")
                    .and_then(|cp| cp.get_mut("name"))
                {
                    *name = json!("<drawn>");
                }
            }
            Value::Array(items) => items.iter_mut().for_each(drawn),
            _ => {}
        }
    }
    // Raw values (objects, variable values) become plain JSON first.
    let plain = |v: &dyn erased::Json| -> Value {
        let mut v: Value = serde_json::from_str(&v.text()).unwrap();
        drawn(&mut v);
        v
    };

    let sent = recorder
        .before_create
        .lock()
        .unwrap()
        .first()
        .cloned()
        .unwrap();
    assert_eq!(
        plain(&sent),
        plain(&topology.before_cluster_create_request()),
        "BeforeClusterCreate: what Cluster API sent (left) and the fixture (right)"
    );
    let sent = recorder.generate.lock().unwrap().first().cloned().unwrap();
    assert_eq!(
        plain(&sent),
        plain(&topology.generate_patches_request()),
        "GeneratePatches: what Cluster API sent (left) and the fixture (right)"
    );
    let sent = recorder.validate.lock().unwrap().first().cloned().unwrap();
    let mut fixture = plain(&topology.validate_topology_request());
    // Our patches' changes, taken from what was sent.
    let sent = plain(&sent);
    for (item, patched) in fixture["items"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .zip(sent["items"].as_array().unwrap())
    {
        item["object"]["spec"]["template"]["spec"] =
            patched["object"]["spec"]["template"]["spec"].clone();
    }
    assert_eq!(
        sent, fixture,
        "ValidateTopology: what Cluster API sent (left) and the fixture with our patches (right)"
    );
}

/// A message as JSON text, whatever its type.
mod erased {
    pub trait Json {
        fn text(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn text(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}

// ----------------------------------------------------------------------------------------------
// The lifecycle flow against every supported Cluster API.
// ----------------------------------------------------------------------------------------------

/// A label and an annotation the flow's Cluster carries, to find in every hook's Cluster.
const FLOW_LABEL: (&str, &str) = ("capi-runtime.test/flow", "lifecycle");
const FLOW_ANNOTATION: (&str, &str) = ("capi-runtime.test/owner", "capi-topology");
/// The control plane endpoint the test's infrastructure cluster reports.
const ENDPOINT: (&str, i32) = ("cp.example.com", 6443);

/// Serves `router` (the extension's hook routes) over HTTPS on a loopback port with the
/// certificate in `cert_dir`, recording every request body in `recorder` before the SDK's server
/// reads it. Returns the URL and the server's handle.
async fn serve_recording(
    router: axum::Router,
    cert_dir: &Path,
    recorder: &Arc<Recorder>,
) -> (String, axum_server::Handle<std::net::SocketAddr>) {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    let r = recorder.clone();
    let record = move |request: axum::extract::Request, next: axum::middleware::Next| {
        let r = r.clone();
        async move {
            let (parts, body) = request.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
            r.raw
                .lock()
                .unwrap()
                .push((parts.uri.path().to_string(), bytes.to_vec()));
            next.run(axum::extract::Request::from_parts(parts, bytes.into()))
                .await
        }
    };
    let app = router.layer(axum::middleware::from_fn(record));
    let tls = axum_server::tls_rustls::RustlsConfig::from_pem_file(
        cert_dir.join("tls.crt"),
        cert_dir.join("tls.key"),
    )
    .await
    .unwrap();
    let handle = axum_server::Handle::new();
    let server = axum_server::bind_rustls(SocketAddr::from(([127, 0, 0, 1], 0)), tls)
        .handle(handle.clone())
        .serve(app.into_make_service());
    tokio::spawn(server);
    let addr = handle.listening().await.expect("the extension listens");
    (format!("https://127.0.0.1:{}", addr.port()), handle)
}

/// The typed Cluster a lifecycle handler received, at the fields every supported version
/// carries, as JSON pointers and values (absent fields as null).
fn typed_view(cluster: &capi_runtime::api::core::v1beta2::Cluster, pointers: &[String]) -> Value {
    let value = serde_json::to_value(cluster).unwrap();
    pointers
        .iter()
        .map(|p| (p.clone(), value.pointer(p).cloned().unwrap_or(Value::Null)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// JSON pointers to a label's or annotation's value (`/` and `~` escaped).
fn meta_pointer(map: &str, key: &str) -> String {
    format!(
        "/metadata/{map}/{}",
        key.replace('~', "~0").replace('/', "~1")
    )
}

/// The whole flow against Cluster API `version`: DiscoverVariables feeds the ClusterClass's
/// variables; BeforeClusterCreate holds the Cluster back, then lets it go; GeneratePatches's
/// patches are in the objects made; once the test marks the infrastructure provisioned and the
/// control plane initialized (no provider controllers run), AfterControlPlaneInitialized
/// arrives; BeforeClusterDelete holds the deletion, then lets it go and the Cluster is gone.
/// Each lifecycle handler's typed Cluster shows the same fields with the same values whatever
/// the version (v1.12's v1beta1 Cluster converted to the v1beta2 view). The raw requests are written
/// to `target/tmp/capi-versions/<version>/`.
async fn lifecycle_flow(version: &str) {
    use std::sync::atomic::Ordering::SeqCst;
    let started = Instant::now();
    let name = format!("capi-versions-{version}");
    let capi = must(
        ClusterApi::builder(&name)
            .cluster_api_version(version)
            .test_providers()
            .start()
            .await,
    );
    eprintln!(
        "Cluster API {version}: manager ready after {:?}",
        capi.startup_times().1
    );
    let cert_dir = tempfile::tempdir().unwrap();
    must(capi.write_serving_certificate(cert_dir.path()));
    let flow = Arc::new(Recorder::default());
    flow.retry_after.store(RETRY_AFTER, SeqCst);
    flow.delete_retry_after.store(RETRY_AFTER, SeqCst);
    let server = handlers(&flow).build().unwrap();
    let (url, handle) = serve_recording(server.router(), cert_dir.path(), &flow).await;
    let config = must(
        capi.register_extension(EXTENSION, &url, capi.ca_pem())
            .await,
    );
    assert_eq!(config.status.handlers.len(), 6, "{:?}", config.status);

    let ns = "flow";
    must(capi.create_namespace(ns).await);
    let class = "flow-class";
    let patch_name = PATCH;
    create_class(&capi, ns, class).await;
    let classes = must(
        capi.api(ns, "cluster.x-k8s.io/v1beta2", "ClusterClass")
            .await,
    );
    // DiscoverVariables feeds the ClusterClass's variables.
    let reconciled = must(
        capi.wait_for("the ClusterClass's variables", || {
            let classes = classes.clone();
            async move {
                let c = classes.get(class).await?;
                let ready = condition(&c, "VariablesReady").is_some_and(|c| c.status == "True");
                if ready && c.metadata.generation == c.data["status"]["observedGeneration"].as_i64()
                {
                    Ok(c)
                } else {
                    Err(BoxError::from(format!("{}", c.data["status"])))
                }
            }
        })
        .await,
    );
    check_class_variables(&reconciled.data, patch_name);

    // BeforeClusterCreate holds the Cluster back, then lets it go.
    let cluster = "c1";
    let c1 = TopologyCluster::new(ns, cluster, class, "v1.31.0")
        .variable(&registry_value())
        .label(FLOW_LABEL.0, FLOW_LABEL.1)
        .annotation(FLOW_ANNOTATION.0, FLOW_ANNOTATION.1);
    must(capi.create(&c1).await);
    let clusters = must(capi.api(ns, "cluster.x-k8s.io/v1beta2", "Cluster").await);
    must(
        capi.wait_for("BeforeClusterCreate called twice, nothing made", || {
            let clusters = clusters.clone();
            let flow = flow.clone();
            async move {
                let calls = flow.before_create.lock().unwrap().len();
                let c = clusters.get(cluster).await?;
                if c.data["spec"].get("controlPlaneRef").is_some() {
                    return Ok(Err(format!("made while held back: {}", c.data["spec"])));
                }
                if calls >= 2 {
                    Ok(Ok(()))
                } else {
                    Err(BoxError::from(format!("{calls} calls")))
                }
            }
        })
        .await,
    )
    .unwrap();
    assert!(
        flow.generate.lock().unwrap().is_empty(),
        "GeneratePatches while held back"
    );
    flow.retry_after.store(0, SeqCst);
    let made = must(capi.topology_objects(ns, cluster).await);

    // GeneratePatches's patches are in the objects made, and our variable read back.
    assert_eq!(
        made.infrastructure_cluster.data["spec"],
        json!({"region": "loopback", "patchedBy": PATCHED_BY, "clusterName": cluster})
    );
    assert_eq!(made.control_plane.data["spec"]["patchedBy"], PATCHED_BY);
    for read in flow.registry.lock().unwrap().iter() {
        assert_eq!(read.as_ref(), Ok(&registry_value()));
    }

    // The providers' part, done by the test: the infrastructure is provisioned with an
    // endpoint, the control plane initialized. AfterControlPlaneInitialized arrives.
    let status = |object: &kube::api::DynamicObject, value: Value| {
        let capi = &capi;
        let object = object.clone();
        async move {
            let resource = kube::discovery::ApiResource::from_gvk(
                &object.types.as_ref().unwrap().try_into().unwrap(),
            );
            let api: Api<kube::api::DynamicObject> =
                Api::namespaced_with(capi.client().await.unwrap(), ns, &resource);
            let name = object.metadata.name.clone().unwrap();
            api.patch_status(
                &name,
                &kube::api::PatchParams::default(),
                &kube::api::Patch::Merge(json!({"status": value})),
            )
            .await
            .unwrap();
            api
        }
    };
    let infra = status(
        &made.infrastructure_cluster,
        json!({"initialization": {"provisioned": true}}),
    )
    .await;
    infra
        .patch(
            made.infrastructure_cluster
                .metadata
                .name
                .as_deref()
                .unwrap(),
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(
                json!({"spec": {"controlPlaneEndpoint": {"host": ENDPOINT.0, "port": ENDPOINT.1}}}),
            ),
        )
        .await
        .unwrap();
    // The Cluster takes the endpoint from its infrastructure before the control plane is
    // marked initialized: a manager may call AfterControlPlaneInitialized as soon as it sees
    // the control plane initialized, with the Cluster as it is then.
    must(
        capi.wait_for("the Cluster has the control plane endpoint", || {
            let clusters = clusters.clone();
            async move {
                let c = clusters.get(cluster).await?;
                let host = c.data["spec"]["controlPlaneEndpoint"]["host"].clone();
                if host == json!(ENDPOINT.0) {
                    Ok(())
                } else {
                    Err(BoxError::from(format!("endpoint host {host}")))
                }
            }
        })
        .await,
    );
    status(
        &made.control_plane,
        json!({"initialization": {"controlPlaneInitialized": true}}),
    )
    .await;
    must(
        capi.wait_for("AfterControlPlaneInitialized called", || {
            let flow = flow.clone();
            async move {
                if flow.initialized.lock().unwrap().is_empty() {
                    Err(BoxError::from("not yet"))
                } else {
                    Ok(())
                }
            }
        })
        .await,
    );

    // BeforeClusterDelete holds the deletion, then lets it go.
    clusters.delete(cluster, &Default::default()).await.unwrap();
    must(
        capi.wait_for("BeforeClusterDelete called twice, the Cluster kept", || {
            let clusters = clusters.clone();
            let flow = flow.clone();
            async move {
                let calls = flow.delete.lock().unwrap().len();
                let c = clusters.get(cluster).await?;
                if calls >= 2 && c.metadata.deletion_timestamp.is_some() {
                    Ok(())
                } else {
                    Err(BoxError::from(format!("{calls} calls")))
                }
            }
        })
        .await,
    );
    flow.delete_retry_after.store(0, SeqCst);
    must(
        capi.wait_for("the Cluster deleted", || {
            let clusters = clusters.clone();
            async move {
                match clusters.get_opt(cluster).await? {
                    None => Ok(()),
                    Some(c) => Err(BoxError::from(format!("{:?}", c.metadata.finalizers))),
                }
            }
        })
        .await,
    );

    // What every lifecycle handler saw of the Cluster.
    let pointers: Vec<String> = vec![
        "/metadata/name".into(),
        "/metadata/namespace".into(),
        meta_pointer("labels", FLOW_LABEL.0),
        meta_pointer("annotations", FLOW_ANNOTATION.0),
        "/spec/topology/classRef/name".into(),
        "/spec/topology/version".into(),
        "/spec/topology/controlPlane/replicas".into(),
        "/spec/topology/variables".into(),
    ];
    let mut expected = serde_json::Map::new();
    for (pointer, value) in [
        ("/metadata/name", json!(cluster)),
        ("/metadata/namespace", json!(ns)),
        (&*meta_pointer("labels", FLOW_LABEL.0), json!(FLOW_LABEL.1)),
        (
            &*meta_pointer("annotations", FLOW_ANNOTATION.0),
            json!(FLOW_ANNOTATION.1),
        ),
        ("/spec/topology/classRef/name", json!(class)),
        ("/spec/topology/version", json!("v1.31.0")),
        ("/spec/topology/controlPlane/replicas", json!(1)),
        (
            "/spec/topology/variables",
            json!([{"name": ImageRegistry::NAME, "value": registry_value()}]),
        ),
    ] {
        if pointers.iter().any(|p| p == pointer) {
            expected.insert(pointer.to_string(), value);
        }
    }
    let expected = Value::Object(expected);
    let create = flow
        .before_create
        .lock()
        .unwrap()
        .last()
        .unwrap()
        .cluster
        .clone();
    assert_eq!(
        typed_view(&create, &pointers),
        expected,
        "BeforeClusterCreate, {version}"
    );
    let mut with_endpoint = pointers.clone();
    with_endpoint.extend([
        "/spec/controlPlaneEndpoint/host".into(),
        "/spec/controlPlaneEndpoint/port".into(),
    ]);
    let mut expected_endpoint = expected.clone();
    expected_endpoint["/spec/controlPlaneEndpoint/host"] = json!(ENDPOINT.0);
    expected_endpoint["/spec/controlPlaneEndpoint/port"] = json!(ENDPOINT.1);
    let initialized = flow.initialized.lock().unwrap()[0].cluster.clone();
    assert_eq!(
        typed_view(&initialized, &with_endpoint),
        expected_endpoint,
        "AfterControlPlaneInitialized, {version}"
    );
    let deleted = flow.delete.lock().unwrap().last().unwrap().cluster.clone();
    assert_eq!(
        typed_view(&deleted, &with_endpoint),
        expected_endpoint,
        "BeforeClusterDelete, {version}"
    );
    // The requests as the manager sent them, one file per handler (the last of each).
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("capi-versions")
        .join(version);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mut kept = std::collections::BTreeMap::new();
    for (path, body) in flow.raw.lock().unwrap().iter() {
        let handler = path.rsplit('/').next().unwrap_or_default();
        let handler = handler.split('.').next().unwrap_or(handler).to_string();
        kept.insert(handler, body.clone());
    }
    for (handler, body) in &kept {
        let value: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        std::fs::write(
            out.join(format!("{handler}.json")),
            serde_json::to_string_pretty(&value).unwrap(),
        )
        .unwrap();
    }
    eprintln!(
        "Cluster API {version}: flow done in {:?}; {} requests, the last of each handler in {}",
        started.elapsed(),
        flow.raw.lock().unwrap().len(),
        out.display()
    );
    capi.stop_manager();
    handle.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_flow_against_cluster_api_v1_12_5() {
    lifecycle_flow("v1.12.5").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_flow_against_cluster_api_v1_13_6() {
    lifecycle_flow("v1.13.6").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_flow_against_cluster_api_v1_14_2() {
    lifecycle_flow("v1.14.2").await;
}

/// The infrastructure cluster template the class names.
fn infrastructure_template(ns: &str) -> TestInfraClusterTemplate {
    TestInfraClusterTemplate::new(ns, "infra").spec_field("region", "loopback")
}

/// The control plane template the class names.
fn control_plane(ns: &str) -> TestControlPlaneTemplate {
    TestControlPlaneTemplate::new(ns, "control-plane").spec_field("flavour", "minimal")
}
