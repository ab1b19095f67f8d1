//! Managed topologies for tests: the smallest providers a ClusterClass can name, a
//! ClusterClass with external patches ([`ClusterClass`], [`ExternalPatch`]), a Cluster of that
//! class with typed variables ([`TopologyCluster`]), and reading what Cluster API's topology
//! controller made of it.
//!
//! The providers ([`TEST_PROVIDER_CRDS`], installed by
//! [`ClusterApiBuilder::test_providers`](crate::ClusterApiBuilder::test_providers)) are CRDs
//! only, with no controller: `TestInfraCluster` (group [`INFRA_GROUP`]) and `TestControlPlane`
//! (group [`CONTROL_PLANE_GROUP`]), each with its `...Template` kind, version `v1alpha1`,
//! labelled for Cluster API's v1beta2 contract, specs that keep unknown fields (so patches and
//! the contract fields the topology controller writes, `spec.version` and `spec.replicas` of
//! a control plane, stay).

use std::collections::BTreeMap;

use capi_runtime::api::core::v1beta2::{Cluster, ClusterClassVariable, ClusterVariable};
use capi_runtime::raw::Json;
use capi_runtime::variable::Variable;
use kube::api::{DynamicObject, Patch, PatchParams};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::error::BoxError;
use crate::object::{ObjectKey, ObjectRef};
use crate::{ClusterApi, Error, Result};

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

/// The handlers one external patch of a ClusterClass calls (`spec.patches[].external`): any
/// subset of GeneratePatches, ValidateTopology and DiscoverVariables, each by the name Cluster
/// API gives it, `<handler>.<ExtensionConfig>` ([`handler_name`]).
///
/// ```
/// use capi_runtime_testenv::topology::{ExternalPatch, handler_name};
///
/// let patch = ExternalPatch::new("my-patches")
///     .generate_patches(handler_name("generate-patches", "my-extension"))
///     .discover_variables(handler_name("discover-variables", "my-extension"));
/// # let _ = patch;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExternalPatch {
    name: String,
    generate_patches: Option<String>,
    validate_topology: Option<String>,
    discover_variables: Option<String>,
    settings: BTreeMap<String, String>,
}

impl ExternalPatch {
    /// Patch `name` (unique in its class; the `from` of the variables it declares), calling no
    /// handler yet.
    pub fn new(name: &str) -> ExternalPatch {
        ExternalPatch {
            name: name.to_string(),
            ..ExternalPatch::default()
        }
    }

    /// Calls the GeneratePatches handler `handler` (`generatePatchesExtension`).
    pub fn generate_patches(mut self, handler: impl Into<String>) -> ExternalPatch {
        self.generate_patches = Some(handler.into());
        self
    }

    /// Calls the ValidateTopology handler `handler` (`validateTopologyExtension`).
    pub fn validate_topology(mut self, handler: impl Into<String>) -> ExternalPatch {
        self.validate_topology = Some(handler.into());
        self
    }

    /// Asks the DiscoverVariables handler `handler` (`discoverVariablesExtension`) for the
    /// variables the patch declares.
    pub fn discover_variables(mut self, handler: impl Into<String>) -> ExternalPatch {
        self.discover_variables = Some(handler.into());
        self
    }

    /// Setting `key` of the calls (merged over the ExtensionConfig's settings).
    pub fn setting(mut self, key: &str, value: &str) -> ExternalPatch {
        self.settings.insert(key.to_string(), value.to_string());
        self
    }

    pub(crate) fn to_json(&self) -> Value {
        let mut external = Map::new();
        for (key, handler) in [
            ("generatePatchesExtension", &self.generate_patches),
            ("validateTopologyExtension", &self.validate_topology),
            ("discoverVariablesExtension", &self.discover_variables),
        ] {
            if let Some(h) = handler {
                external.insert(key.into(), json!(h));
            }
        }
        if !self.settings.is_empty() {
            external.insert("settings".into(), json!(self.settings));
        }
        json!({"name": self.name, "external": external})
    }
}

/// A template a ClusterClass names: `apiVersion`, kind, name.
#[derive(Clone, Debug, PartialEq, Eq)]
struct TemplateRef {
    api_version: String,
    kind: String,
    name: String,
}

impl TemplateRef {
    fn to_json(&self) -> Value {
        json!({"templateRef": {
            "apiVersion": self.api_version, "kind": self.kind, "name": self.name,
        }})
    }
}

/// A ClusterClass, by default over the test providers' templates
/// ([`infrastructure_cluster_template`], [`control_plane_template`]), with external patches,
/// variables declared inline, labels and annotations.
///
/// Cluster API's core has no Rust type of the ClusterClass object; this builds its JSON
/// ([`to_json`](Self::to_json)), and serializes as that object, so [`ClusterApi::create`]
/// takes it as it is.
///
/// ```
/// use capi_runtime_testenv::topology::{ClusterClass, ExternalPatch, handler_name};
///
/// let class = ClusterClass::new("ns", "my-class", "infra", "control-plane")
///     .patch(ExternalPatch::new("my-patches")
///         .generate_patches(handler_name("generate-patches", "my-extension")))
///     .label("team", "platform");
/// let cluster = class.cluster("c1", "v1.31.0").build();
/// assert_eq!(cluster.spec.topology.class_ref.name, "my-class");
/// assert_eq!(class.to_json()["metadata"]["labels"]["team"], "platform");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterClass {
    namespace: String,
    name: String,
    infrastructure: TemplateRef,
    control_plane: TemplateRef,
    patches: Vec<Value>,
    variables: Vec<ClusterClassVariable>,
    labels: BTreeMap<String, String>,
    annotations: BTreeMap<String, String>,
}

impl ClusterClass {
    /// Class `name` in `namespace` naming the `TestInfraClusterTemplate` and
    /// `TestControlPlaneTemplate` called `infrastructure` and `control_plane`.
    pub fn new(namespace: &str, name: &str, infrastructure: &str, control_plane: &str) -> Self {
        let provider = |group: &str, kind: &str, name: &str| TemplateRef {
            api_version: format!("{group}/{PROVIDER_VERSION}"),
            kind: kind.to_string(),
            name: name.to_string(),
        };
        ClusterClass {
            namespace: namespace.to_string(),
            name: name.to_string(),
            infrastructure: provider(INFRA_GROUP, "TestInfraClusterTemplate", infrastructure),
            control_plane: provider(
                CONTROL_PLANE_GROUP,
                "TestControlPlaneTemplate",
                control_plane,
            ),
            patches: Vec::new(),
            variables: Vec::new(),
            labels: BTreeMap::new(),
            annotations: BTreeMap::new(),
        }
    }

    /// The infrastructure cluster template of another provider instead of the test one.
    pub fn infrastructure_template(mut self, api_version: &str, kind: &str, name: &str) -> Self {
        self.infrastructure = TemplateRef {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
        };
        self
    }

    /// The control plane template of another provider instead of the test one.
    pub fn control_plane_template(mut self, api_version: &str, kind: &str, name: &str) -> Self {
        self.control_plane = TemplateRef {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
        };
        self
    }

    /// An external patch, after those added before.
    pub fn patch(mut self, patch: ExternalPatch) -> Self {
        self.patches.push(patch.to_json());
        self
    }

    /// An external patch `name` calling the handlers named `generate` (GeneratePatches) and
    /// `validate` (ValidateTopology), as [`handler_name`] makes them; either may be absent.
    /// [`patch`](Self::patch) names any subset of the three handlers.
    pub fn external_patch(
        self,
        name: &str,
        generate: Option<&str>,
        validate: Option<&str>,
    ) -> Self {
        let mut patch = ExternalPatch::new(name);
        patch.generate_patches = generate.map(str::to_string);
        patch.validate_topology = validate.map(str::to_string);
        self.patch(patch)
    }

    /// The variable `V` declares, declared by the class itself (`spec.variables`), as
    /// `V::definition()` writes it; a variable an external patch declares through
    /// DiscoverVariables needs no declaration here.
    pub fn variable<V: Variable>(mut self) -> Self {
        self.variables.retain(|v| v.name != V::NAME);
        self.variables.push(V::definition());
        self
    }

    /// Label `key` of the ClusterClass.
    pub fn label(mut self, key: &str, value: &str) -> Self {
        self.labels.insert(key.to_string(), value.to_string());
        self
    }

    /// Annotation `key` of the ClusterClass.
    pub fn annotation(mut self, key: &str, value: &str) -> Self {
        self.annotations.insert(key.to_string(), value.to_string());
        self
    }

    /// The class's namespace.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The class's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A Cluster `name` of this class, in its namespace, at Kubernetes `version` with one
    /// control plane machine.
    pub fn cluster(&self, name: &str, version: &str) -> TopologyCluster {
        TopologyCluster::new(&self.namespace, name, &self.name, version)
    }

    /// The object to create.
    pub fn to_json(&self) -> Value {
        let mut metadata = json!({"name": self.name, "namespace": self.namespace});
        if !self.labels.is_empty() {
            metadata["labels"] = json!(self.labels);
        }
        if !self.annotations.is_empty() {
            metadata["annotations"] = json!(self.annotations);
        }
        let mut spec = json!({
            "infrastructure": self.infrastructure.to_json(),
            "controlPlane": self.control_plane.to_json(),
        });
        // Cluster API's schema takes no empty list of patches.
        if !self.patches.is_empty() {
            spec["patches"] = json!(self.patches);
        }
        if !self.variables.is_empty() {
            spec["variables"] = json!(self.variables);
        }
        json!({
            "apiVersion": CLUSTER_API_VERSION,
            "kind": "ClusterClass",
            "metadata": metadata,
            "spec": spec,
        })
    }
}

/// As the ClusterClass object ([`ClusterClass::to_json`]).
impl Serialize for ClusterClass {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl ObjectRef for ClusterClass {
    fn object_key(&self) -> ObjectKey {
        ObjectKey::new(
            CLUSTER_API_VERSION,
            "ClusterClass",
            &self.namespace,
            &self.name,
        )
    }
}

/// A Cluster with a managed topology, as a user creates it: the SDK's typed [`Cluster`], with
/// its variables set from typed values.
///
/// ```
/// use capi_runtime::variable::Variable;
/// use capi_runtime_testenv::topology::TopologyCluster;
/// use serde::{Deserialize, Serialize};
///
/// /// Where the images come from.
/// #[derive(Serialize, Deserialize, Variable)]
/// #[variable(name = "registry")]
/// struct Registry(String);
///
/// let cluster = TopologyCluster::new("ns", "c1", "my-class", "v1.31.0")
///     .control_plane_replicas(3)
///     .variable(&Registry("registry.example.com".into()))
///     .annotation("note", "made by a test")
///     .build();
/// let variable = &cluster.spec.topology.variables[0];
/// assert_eq!(variable.name, "registry");
/// assert_eq!(variable.value.to_value().unwrap(), "registry.example.com");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TopologyCluster {
    cluster: Cluster,
}

impl TopologyCluster {
    /// Cluster `name` in `namespace` of ClusterClass `class` (in the same namespace) at
    /// Kubernetes `version`, with one control plane machine.
    pub fn new(namespace: &str, name: &str, class: &str, version: &str) -> TopologyCluster {
        let mut cluster = Cluster {
            api_version: CLUSTER_API_VERSION.to_string(),
            kind: "Cluster".to_string(),
            ..Cluster::default()
        };
        cluster.metadata.name = Some(name.to_string());
        cluster.metadata.namespace = Some(namespace.to_string());
        let topology = &mut cluster.spec.topology;
        topology.class_ref.name = class.to_string();
        topology.version = version.to_string();
        topology.control_plane.replicas = Some(1);
        TopologyCluster { cluster }
    }

    /// `replicas` control plane machines.
    pub fn control_plane_replicas(mut self, replicas: i32) -> TopologyCluster {
        self.cluster.spec.topology.control_plane.replicas = Some(replicas);
        self
    }

    /// The variable `V` declares (`V::NAME`) set to `value` in `spec.topology.variables`,
    /// replacing an earlier value of it.
    ///
    /// # Panics
    ///
    /// When `value` does not serialize to JSON (a map with keys that are not strings).
    pub fn variable<V: Variable + Serialize>(self, value: &V) -> TopologyCluster {
        let json = serde_json::to_value(value)
            .unwrap_or_else(|e| panic!("the value of variable {:?} serializes: {e}", V::NAME));
        self.variable_json(V::NAME, json)
    }

    /// Variable `name` set to the JSON `value`, replacing an earlier value of it: for a
    /// variable with no Rust type, or a value its type would not write (to see it refused).
    pub fn variable_json(mut self, name: &str, value: Value) -> TopologyCluster {
        let variables = &mut self.cluster.spec.topology.variables;
        let entry = ClusterVariable {
            name: name.to_string(),
            value: Json::from(value),
        };
        match variables.iter_mut().find(|v| v.name == name) {
            Some(v) => *v = entry,
            None => variables.push(entry),
        }
        self
    }

    /// Label `key` of the Cluster.
    pub fn label(mut self, key: &str, value: &str) -> TopologyCluster {
        self.cluster
            .metadata
            .labels
            .get_or_insert_with(BTreeMap::new)
            .insert(key.to_string(), value.to_string());
        self
    }

    /// Annotation `key` of the Cluster.
    pub fn annotation(mut self, key: &str, value: &str) -> TopologyCluster {
        self.cluster
            .metadata
            .annotations
            .get_or_insert_with(BTreeMap::new)
            .insert(key.to_string(), value.to_string());
        self
    }

    /// The Cluster's namespace.
    pub fn namespace(&self) -> &str {
        self.cluster
            .metadata
            .namespace
            .as_deref()
            .unwrap_or_default()
    }

    /// The Cluster's name.
    pub fn name(&self) -> &str {
        self.cluster.metadata.name.as_deref().unwrap_or_default()
    }

    /// The typed Cluster.
    pub fn build(&self) -> Cluster {
        self.cluster.clone()
    }

    /// The Cluster as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(&self.cluster).expect("a Cluster serializes")
    }
}

/// As the Cluster ([`TopologyCluster::build`]).
impl Serialize for TopologyCluster {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.cluster.serialize(serializer)
    }
}

impl ObjectRef for TopologyCluster {
    fn object_key(&self) -> ObjectKey {
        self.cluster.object_key()
    }
}

/// A Cluster `name` in `namespace` with a managed topology of `class` at Kubernetes
/// `version` and `replicas` control plane machines, as JSON
/// ([`TopologyCluster`] sets variables, labels and annotations too).
pub fn topology_cluster(
    namespace: &str,
    name: &str,
    class: &str,
    version: &str,
    replicas: i32,
) -> Value {
    TopologyCluster::new(namespace, name, class, version)
        .control_plane_replicas(replicas)
        .to_json()
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
        let cluster = ObjectKey::new(CLUSTER_API_VERSION, "Cluster", namespace, name);
        self.wait_for_condition(&cluster, type_, wanted).await
    }

    /// Waits until `object` (a typed Cluster, a builder of this module, a `DynamicObject`, an
    /// [`ObjectKey`]) has condition `type_` and `wanted` accepts it; returns the object as
    /// read and the condition. On time-out the error carries the conditions last seen.
    pub async fn wait_for_condition(
        &self,
        object: &impl ObjectRef,
        type_: &str,
        wanted: impl Fn(&Condition) -> bool,
    ) -> Result<(DynamicObject, Condition)> {
        let key = object.object_key();
        let api = self
            .api(&key.namespace, &key.api_version, &key.kind)
            .await?;
        let wanted = &wanted;
        let name = key.name.as_str();
        self.wait_for(
            &format!("{} {}/{name}: condition {type_}", key.kind, key.namespace),
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

    /// `object` as the API server holds it now.
    pub async fn get(&self, object: &impl ObjectRef) -> Result<DynamicObject> {
        let key = object.object_key();
        let api = self
            .api(&key.namespace, &key.api_version, &key.kind)
            .await?;
        api.get(&key.name).await.map_err(|source| Error::Request {
            what: format!("reading {key}"),
            source,
        })
    }

    /// Applies the JSON merge patch `patch` (RFC 7386: objects merge, `null` removes) to
    /// `object`; returns the object as changed.
    pub async fn patch(
        &self,
        object: &impl ObjectRef,
        patch: &impl Serialize,
    ) -> Result<DynamicObject> {
        let key = object.object_key();
        let patch = serde_json::to_value(patch).map_err(|e| Error::Io {
            what: format!("writing the patch of {key} as JSON"),
            source: std::io::Error::other(e),
        })?;
        let api = self
            .api(&key.namespace, &key.api_version, &key.kind)
            .await?;
        api.patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .map_err(|source| Error::Request {
                what: format!("patching {key}"),
                source,
            })
    }

    /// Sets annotation `key` of `object` to `value`; returns the object as changed.
    pub async fn annotate(
        &self,
        object: &impl ObjectRef,
        key: &str,
        value: &str,
    ) -> Result<DynamicObject> {
        self.patch(object, &json!({"metadata": {"annotations": {key: value}}}))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_external_patch_names_any_subset_of_the_handlers() {
        let class = ClusterClass::new("ns", "class", "infra", "cp")
            .patch(ExternalPatch::new("discover").discover_variables("discover-variables.ext"))
            .patch(
                ExternalPatch::new("generate")
                    .generate_patches("generate-patches.ext")
                    .setting("k", "v"),
            )
            .external_patch("old", None, Some("validate-topology.ext"))
            .label("l", "1")
            .annotation("a", "2");
        let json = class.to_json();
        assert_eq!(
            json["spec"]["patches"],
            json!([
                {"name": "discover", "external": {"discoverVariablesExtension": "discover-variables.ext"}},
                {"name": "generate", "external": {
                    "generatePatchesExtension": "generate-patches.ext", "settings": {"k": "v"},
                }},
                {"name": "old", "external": {"validateTopologyExtension": "validate-topology.ext"}},
            ])
        );
        assert_eq!(
            json["metadata"],
            json!({"name": "class", "namespace": "ns", "labels": {"l": "1"}, "annotations": {"a": "2"}})
        );
        assert_eq!(
            json["spec"]["infrastructure"]["templateRef"],
            json!({"apiVersion": "infrastructure.capi-runtime.test/v1alpha1",
                "kind": "TestInfraClusterTemplate", "name": "infra"})
        );
        assert_eq!(serde_json::to_value(&class).unwrap(), json);
        assert_eq!(
            class.object_key(),
            ObjectKey::new(CLUSTER_API_VERSION, "ClusterClass", "ns", "class")
        );
    }

    #[test]
    fn a_cluster_is_the_typed_cluster_with_its_variables_in_order() {
        let cluster = ClusterClass::new("ns", "class", "infra", "cp")
            .cluster("c1", "v1.31.0")
            .variable_json("a", json!(1))
            .variable_json("b", json!("x"))
            .variable_json("a", json!(2))
            .control_plane_replicas(3)
            .label("l", "1");
        assert_eq!(
            cluster.to_json(),
            json!({
                "apiVersion": "cluster.x-k8s.io/v1beta2",
                "kind": "Cluster",
                "metadata": {"name": "c1", "namespace": "ns", "labels": {"l": "1"}},
                "spec": {"topology": {
                    "classRef": {"name": "class"},
                    "version": "v1.31.0",
                    "controlPlane": {"replicas": 3},
                    "variables": [{"name": "a", "value": 2}, {"name": "b", "value": "x"}],
                }},
            })
        );
        assert_eq!(
            topology_cluster("ns", "c1", "class", "v1.31.0", 1),
            json!({
                "apiVersion": "cluster.x-k8s.io/v1beta2",
                "kind": "Cluster",
                "metadata": {"name": "c1", "namespace": "ns"},
                "spec": {"topology": {
                    "classRef": {"name": "class"},
                    "version": "v1.31.0",
                    "controlPlane": {"replicas": 1},
                }},
            })
        );
        assert_eq!(cluster.object_key(), cluster.build().object_key());
        assert_eq!(cluster.object_key().kind, "Cluster");
    }

    #[test]
    fn the_fixtures_class_names_the_patches_it_is_given() {
        let topology = crate::fixtures::Topology::quick_start();
        let only_generate = topology.cluster_class_with(&[
            ExternalPatch::new("p").generate_patches("generate-patches.ext")
        ]);
        assert_eq!(
            only_generate["spec"]["patches"],
            json!([{"name": "p", "external": {"generatePatchesExtension": "generate-patches.ext"}}])
        );
        let all = topology.cluster_class("ext");
        assert_eq!(
            all["spec"]["patches"][0]["external"]["discoverVariablesExtension"],
            "discover-variables.ext"
        );
    }
}
