//! Managed topologies for tests: the smallest providers a ClusterClass can name, a
//! ClusterClass with external patches, a Cluster of that class, and reading what Cluster API's
//! topology controller made of it.
//!
//! The providers ([`TEST_PROVIDER_CRDS`], installed by
//! [`ClusterApiBuilder::test_providers`](crate::ClusterApiBuilder::test_providers)) are CRDs
//! only, with no controller: `TestInfraCluster` (group [`INFRA_GROUP`]) and `TestControlPlane`
//! (group [`CONTROL_PLANE_GROUP`]), each with its `...Template` kind, version `v1alpha1`,
//! labelled for Cluster API's v1beta2 contract, specs that keep unknown fields (so patches and
//! the contract fields the topology controller writes, `spec.version` and `spec.replicas` of
//! a control plane, stay).

use kube::api::DynamicObject;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::BoxError;
use crate::{ClusterApi, Result};

/// The CRDs of the test providers (YAML, four documents).
pub const TEST_PROVIDER_CRDS: &str = include_str!("../crds/test-providers.yaml");
/// The test infrastructure provider's API group.
pub const INFRA_GROUP: &str = "infrastructure.capi-runtime.test";
/// The test control plane provider's API group.
pub const CONTROL_PLANE_GROUP: &str = "controlplane.capi-runtime.test";
/// The test providers' API version.
pub const PROVIDER_VERSION: &str = "v1alpha1";
/// Cluster API's core API version the helpers write.
pub const CLUSTER_API_VERSION: &str = "cluster.x-k8s.io/v1beta2";

/// The name Cluster API gives a handler `handler` of the extension registered as
/// `extension_config` (what a ClusterClass's external patch names).
pub fn handler_name(handler: &str, extension_config: &str) -> String {
    format!("{handler}.{extension_config}")
}

/// A `TestInfraClusterTemplate` `name` in `namespace` whose objects get `spec`.
pub fn infrastructure_cluster_template(namespace: &str, name: &str, spec: Value) -> Value {
    template(
        INFRA_GROUP,
        "TestInfraClusterTemplate",
        namespace,
        name,
        spec,
    )
}

/// A `TestControlPlaneTemplate` `name` in `namespace` whose objects get `spec`.
pub fn control_plane_template(namespace: &str, name: &str, spec: Value) -> Value {
    template(
        CONTROL_PLANE_GROUP,
        "TestControlPlaneTemplate",
        namespace,
        name,
        spec,
    )
}

fn template(group: &str, kind: &str, namespace: &str, name: &str, spec: Value) -> Value {
    json!({
        "apiVersion": format!("{group}/{PROVIDER_VERSION}"),
        "kind": kind,
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"template": {"spec": spec}},
    })
}

/// A ClusterClass over the test providers' templates, with external patches.
#[derive(Clone, Debug)]
pub struct ClusterClass {
    namespace: String,
    name: String,
    infrastructure: String,
    control_plane: String,
    patches: Vec<Value>,
}

impl ClusterClass {
    /// Class `name` in `namespace` naming the `TestInfraClusterTemplate` and
    /// `TestControlPlaneTemplate` called `infrastructure` and `control_plane`.
    pub fn new(namespace: &str, name: &str, infrastructure: &str, control_plane: &str) -> Self {
        ClusterClass {
            namespace: namespace.to_string(),
            name: name.to_string(),
            infrastructure: infrastructure.to_string(),
            control_plane: control_plane.to_string(),
            patches: Vec::new(),
        }
    }

    /// An external patch `name` calling the handlers named `generate` (GeneratePatches) and
    /// `validate` (ValidateTopology), as [`handler_name`] makes them; either may be absent.
    pub fn external_patch(
        mut self,
        name: &str,
        generate: Option<&str>,
        validate: Option<&str>,
    ) -> Self {
        let mut external = serde_json::Map::new();
        if let Some(g) = generate {
            external.insert("generatePatchesExtension".into(), json!(g));
        }
        if let Some(v) = validate {
            external.insert("validateTopologyExtension".into(), json!(v));
        }
        self.patches
            .push(json!({"name": name, "external": Value::Object(external)}));
        self
    }

    /// The object to create.
    pub fn to_json(&self) -> Value {
        json!({
            "apiVersion": CLUSTER_API_VERSION,
            "kind": "ClusterClass",
            "metadata": {"name": self.name, "namespace": self.namespace},
            "spec": {
                "infrastructure": {"templateRef": {
                    "apiVersion": format!("{INFRA_GROUP}/{PROVIDER_VERSION}"),
                    "kind": "TestInfraClusterTemplate",
                    "name": self.infrastructure,
                }},
                "controlPlane": {"templateRef": {
                    "apiVersion": format!("{CONTROL_PLANE_GROUP}/{PROVIDER_VERSION}"),
                    "kind": "TestControlPlaneTemplate",
                    "name": self.control_plane,
                }},
                "patches": self.patches,
            },
        })
    }
}

/// A Cluster `name` in `namespace` with a managed topology of `class` at Kubernetes
/// `version` and `replicas` control plane machines.
pub fn topology_cluster(
    namespace: &str,
    name: &str,
    class: &str,
    version: &str,
    replicas: i32,
) -> Value {
    json!({
        "apiVersion": CLUSTER_API_VERSION,
        "kind": "Cluster",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"topology": {
            "classRef": {"name": class},
            "version": version,
            "controlPlane": {"replicas": replicas},
        }},
    })
}

/// One Cluster API (v1beta2, metav1-style) condition of an object's status.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// Its type (`TopologyReconciled`, ...).
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// Its reason.
    #[serde(default)]
    pub reason: String,
    /// Its message.
    #[serde(default)]
    pub message: String,
    /// The generation it was written for.
    #[serde(default)]
    pub observed_generation: Option<i64>,
}

/// The condition `type_` of `object`'s `status.conditions`, if it has one.
pub fn condition(object: &DynamicObject, type_: &str) -> Option<Condition> {
    object.data["status"]["conditions"]
        .as_array()?
        .iter()
        .filter_map(|c| Condition::deserialize(c).ok())
        .find(|c| c.type_ == type_)
}

/// What the topology controller made for a Cluster.
#[derive(Clone, Debug)]
pub struct TopologyObjects {
    /// The Cluster as read after both references were set.
    pub cluster: DynamicObject,
    /// Its infrastructure cluster (`spec.infrastructureRef`).
    pub infrastructure_cluster: DynamicObject,
    /// Its control plane (`spec.controlPlaneRef`).
    pub control_plane: DynamicObject,
}

impl ClusterApi {
    /// Waits until Cluster `name` in `namespace` has condition `type_` and `wanted` accepts it
    /// (say, `|c| c.status == "False" && c.reason == "ClusterCreating"`); returns the Cluster
    /// and the condition. On time-out the error carries the conditions last seen.
    pub async fn wait_for_cluster_condition(
        &self,
        namespace: &str,
        name: &str,
        type_: &str,
        wanted: impl Fn(&Condition) -> bool,
    ) -> Result<(DynamicObject, Condition)> {
        self.wait_for_condition(
            namespace,
            CLUSTER_API_VERSION,
            "Cluster",
            name,
            type_,
            wanted,
        )
        .await
    }

    /// [`ClusterApi::wait_for_cluster_condition`] for an object of any kind.
    pub async fn wait_for_condition(
        &self,
        namespace: &str,
        api_version: &str,
        kind: &str,
        name: &str,
        type_: &str,
        wanted: impl Fn(&Condition) -> bool,
    ) -> Result<(DynamicObject, Condition)> {
        let api = self.api(namespace, api_version, kind).await?;
        let wanted = &wanted;
        self.wait_for(
            &format!("{kind} {namespace}/{name}: condition {type_}"),
            || {
                let api = api.clone();
                async move {
                    let object = api.get(name).await?;
                    match condition(&object, type_) {
                        Some(c) if wanted(&c) => Ok((object, c)),
                        _ => Err(BoxError::from(format!(
                            "conditions {}",
                            object.data["status"]["conditions"]
                        ))),
                    }
                }
            },
        )
        .await
    }

    /// Waits until Cluster `name` in `namespace` references its infrastructure cluster and
    /// control plane, and reads both.
    pub async fn topology_objects(&self, namespace: &str, name: &str) -> Result<TopologyObjects> {
        let clusters = self.api(namespace, CLUSTER_API_VERSION, "Cluster").await?;
        let cluster = self
            .wait_for(
                &format!("Cluster {namespace}/{name}: infrastructureRef and controlPlaneRef"),
                || {
                    let clusters = clusters.clone();
                    async move {
                        let c = clusters.get(name).await?;
                        let spec = &c.data["spec"];
                        if spec["infrastructureRef"]["name"].is_string()
                            && spec["controlPlaneRef"]["name"].is_string()
                        {
                            Ok(c)
                        } else {
                            Err(BoxError::from(format!(
                                "spec {spec}, conditions {}",
                                c.data["status"]["conditions"]
                            )))
                        }
                    }
                },
            )
            .await?;
        let infrastructure_cluster = self
            .referenced(namespace, &cluster.data["spec"]["infrastructureRef"])
            .await?;
        let control_plane = self
            .referenced(namespace, &cluster.data["spec"]["controlPlaneRef"])
            .await?;
        Ok(TopologyObjects {
            cluster,
            infrastructure_cluster,
            control_plane,
        })
    }

    /// The object a v1beta2 contract reference (`apiGroup`, `kind`, `name`) names, at the
    /// version the API server prefers.
    async fn referenced(&self, namespace: &str, reference: &Value) -> Result<DynamicObject> {
        let group = reference["apiGroup"].as_str().unwrap_or_default();
        let kind = reference["kind"].as_str().unwrap_or_default();
        let name = reference["name"].as_str().unwrap_or_default();
        let client = self.client().await?;
        let request = |source| crate::Error::Request {
            what: format!("reading {kind}.{group} {namespace}/{name}"),
            source,
        };
        let found = kube::discovery::group(&client, group)
            .await
            .map_err(request)?
            .recommended_kind(kind);
        let Some((resource, _)) = found else {
            return Err(request(kube::Error::Discovery(
                kube::error::DiscoveryError::MissingKind(format!("{kind}.{group}")),
            )));
        };
        kube::Api::<DynamicObject>::namespaced_with(client, namespace, &resource)
            .get(name)
            .await
            .map_err(request)
    }
}
