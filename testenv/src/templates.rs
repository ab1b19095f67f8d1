//! Typed templates of the providers the test environment's topologies name, for the
//! topology-mutation walker: register a function over one of them with
//! [`Walker::mutate`](capi_runtime::topology_mutation::Walker::mutate) or
//! [`validate`](capi_runtime::topology_mutation::Walker::validate), or read a request's
//! templates with [`templates`](capi_runtime::topology_mutation::templates), with no type of
//! your own.
//!
//! - [`TestInfraClusterTemplate`] and [`TestControlPlaneTemplate`]: the templates of the test
//!   providers [`ClusterApiBuilder::test_providers`](crate::ClusterApiBuilder::test_providers)
//!   installs ([`topology::TEST_PROVIDER_CRDS`](crate::topology::TEST_PROVIDER_CRDS)). Their
//!   CRDs keep every field of `spec.template.spec`, so the spec is an open JSON map here too;
//!   `spec.template.metadata` is Cluster API's template metadata (labels and annotations).
//!   They are also what to create: [`new`](TestControlPlaneTemplate::new) sets `apiVersion`,
//!   `kind`, name and namespace, and [`ClusterApi::create`](crate::ClusterApi::create) takes
//!   them as they are.
//! - [`DockerMachineTemplate`]: the machine template of Cluster API's Docker provider (CAPD,
//!   `infrastructure.cluster.x-k8s.io`), which the [quick-start fixture](crate::fixtures::Topology::quick_start)
//!   names for the control plane's machines and the workers'. Its fields are those of CAPD's
//!   v1beta2 CRD (`sigs.k8s.io/cluster-api/test` v1.14), with Go's JSON names.
//!
//! A type leaves out what it does not model; the walker patches only what a function changed,
//! so fields it leaves out are kept in the object all the same.
//!
//! ```
//! use capi_runtime::topology_mutation::{Walker, apply_answer, templates};
//! use capi_runtime_testenv::fixtures::Topology;
//! use capi_runtime_testenv::templates::DockerMachineTemplate;
//!
//! let walker = Walker::new().mutate(|machine: &mut DockerMachineTemplate, _ctx| {
//!     machine.spec.template.spec.custom_image = "kindest/node:v1.31.0".into();
//!     Ok::<_, std::convert::Infallible>(())
//! });
//! let mut request = Topology::quick_start().generate_patches_request();
//! let answer = walker.generate_patches(&request);
//! apply_answer(&mut request, &answer).unwrap();
//! let machines = templates::<DockerMachineTemplate>(&request).unwrap();
//! // The control plane's machines and the workers'.
//! assert_eq!(machines.len(), 2);
//! for (_holder, machine) in machines {
//!     assert_eq!(machine.spec.template.spec.custom_image, "kindest/node:v1.31.0");
//!     assert_eq!(machine.spec.template.spec.extra_mounts[0].host_path, "/var/run/docker.sock");
//! }
//! ```

use capi_runtime::api::core::v1beta2::ObjectMeta as TemplateMeta;
use capi_runtime::topology_mutation::Template;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::topology::{CONTROL_PLANE_GROUP, INFRA_GROUP, PROVIDER_VERSION};

/// `spec` of a test provider's template: the template of the objects made from it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TestTemplateSpec {
    /// `spec.template`.
    #[serde(default)]
    pub template: TestTemplateResource,
}

/// `spec.template` of a test provider's template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TestTemplateResource {
    /// `spec.template.metadata`: labels and annotations of the objects made from it.
    #[serde(default, skip_serializing_if = "is_empty_meta")]
    pub metadata: TemplateMeta,
    /// `spec.template.spec`: the spec of the objects made from it, any fields (the CRD keeps
    /// unknown fields).
    #[serde(default)]
    pub spec: Map<String, Value>,
}

fn is_empty_meta(meta: &TemplateMeta) -> bool {
    meta == &TemplateMeta::default()
}

/// Writes a template type: the object (type metadata, metadata, a spec of type `$spec`) and
/// its walker kind.
macro_rules! template_object {
    ($(#[$doc:meta])* $name:ident, $group:expr, $kind:literal, $spec:ty) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            /// `apiVersion`.
            #[serde(default, skip_serializing_if = "String::is_empty")]
            pub api_version: String,
            /// `kind`.
            #[serde(default, skip_serializing_if = "String::is_empty")]
            pub kind: String,
            /// `metadata` of the template itself.
            #[serde(default)]
            pub metadata: ObjectMeta,
            /// `spec`.
            #[serde(default)]
            pub spec: $spec,
        }

        impl Template for $name {
            const GROUP: &'static str = $group;
            const KIND: &'static str = $kind;
        }
    };
}

/// Writes a test provider's template type: [`template_object!`] with a [`TestTemplateSpec`],
/// and its constructor.
macro_rules! test_template {
    ($(#[$doc:meta])* $name:ident, $group:expr, $kind:literal) => {
        template_object!($(#[$doc])* $name, $group, $kind, TestTemplateSpec);

        impl $name {
            /// The template `name` in `namespace`, with an empty spec for its objects.
            pub fn new(namespace: &str, name: &str) -> Self {
                $name {
                    api_version: format!("{}/{PROVIDER_VERSION}", $group),
                    kind: $kind.to_string(),
                    metadata: ObjectMeta {
                        name: Some(name.to_string()),
                        namespace: Some(namespace.to_string()),
                        ..ObjectMeta::default()
                    },
                    spec: TestTemplateSpec::default(),
                }
            }

            /// The same template, whose objects get `field` = `value` in their spec.
            pub fn spec_field(mut self, field: &str, value: impl Into<Value>) -> Self {
                self.spec.template.spec.insert(field.to_string(), value.into());
                self
            }

            /// Field `field` of the spec its objects get, if set.
            pub fn field(&self, field: &str) -> Option<&Value> {
                self.spec.template.spec.get(field)
            }
        }
    };
}

test_template!(
    /// A `TestInfraClusterTemplate` of the test infrastructure provider (group
    /// [`INFRA_GROUP`]): what a ClusterClass's `spec.infrastructure` names.
    TestInfraClusterTemplate,
    INFRA_GROUP,
    "TestInfraClusterTemplate"
);

test_template!(
    /// A `TestControlPlaneTemplate` of the test control plane provider (group
    /// [`CONTROL_PLANE_GROUP`]): what a ClusterClass's `spec.controlPlane` names.
    TestControlPlaneTemplate,
    CONTROL_PLANE_GROUP,
    "TestControlPlaneTemplate"
);

template_object!(
    /// A `DockerMachineTemplate` of Cluster API's Docker provider (any version of
    /// `infrastructure.cluster.x-k8s.io`; the fields are v1beta2's).
    DockerMachineTemplate,
    "infrastructure.cluster.x-k8s.io",
    "DockerMachineTemplate",
    DockerMachineTemplateSpec
);

/// `spec` of a [`DockerMachineTemplate`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DockerMachineTemplateSpec {
    /// `spec.template`.
    #[serde(default)]
    pub template: DockerMachineTemplateResource,
}

/// `spec.template` of a [`DockerMachineTemplate`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DockerMachineTemplateResource {
    /// `spec.template.metadata`: labels and annotations of the DockerMachines made from it.
    #[serde(default, skip_serializing_if = "is_empty_meta")]
    pub metadata: TemplateMeta,
    /// `spec.template.spec`.
    #[serde(default)]
    pub spec: DockerMachineSpec,
}

/// The spec of a DockerMachine (`spec.template.spec` of its template).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DockerMachineSpec {
    /// `providerID`: the machine's provider ID, set by the provider.
    #[serde(
        rename = "providerID",
        default,
        skip_serializing_if = "String::is_empty"
    )]
    pub provider_id: String,
    /// `customImage`: the node image the machine's container runs (otherwise kind's image of
    /// the machine's Kubernetes version).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub custom_image: String,
    /// `preLoadImages`: images loaded into the node before it starts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pre_load_images: Vec<String>,
    /// `extraMounts`: host paths mounted into the machine's container.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_mounts: Vec<Mount>,
    /// `bootstrapTimeout`: how long bootstrapping may take, as a Go duration (`3m`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bootstrap_timeout: Option<String>,
}

/// A host path mounted into a Docker machine's container (`extraMounts[]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mount {
    /// `containerPath`: where it is mounted in the container.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub container_path: String,
    /// `hostPath`: the path on the host.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host_path: String,
    /// `readOnly`: mounted read-only.
    #[serde(
        rename = "readOnly",
        default,
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub read_only: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::Topology;
    use capi_runtime::topology_mutation::{Walker, apply_answer, templates};
    use serde_json::json;

    #[test]
    fn a_docker_machine_template_reads_and_writes_capd_fields_as_they_are() {
        let object = json!({
            "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
            "kind": "DockerMachineTemplate",
            "metadata": {"name": "m", "namespace": "ns"},
            "spec": {"template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {
                    "providerID": "docker:////m",
                    "customImage": "kindest/node:v1.31.0",
                    "preLoadImages": ["busybox"],
                    "extraMounts": [{"containerPath": "/c", "hostPath": "/h", "readOnly": true}],
                    "bootstrapTimeout": "3m0s",
                },
            }},
        });
        let typed: DockerMachineTemplate = serde_json::from_value(object.clone()).unwrap();
        assert_eq!(typed.spec.template.spec.extra_mounts[0].host_path, "/h");
        assert!(typed.spec.template.spec.extra_mounts[0].read_only);
        assert_eq!(serde_json::to_value(&typed).unwrap(), object);
    }

    #[test]
    fn the_walker_patches_the_quick_start_machines_through_the_typed_template() {
        let walker = Walker::new().mutate(|machine: &mut DockerMachineTemplate, _ctx| {
            machine
                .spec
                .template
                .spec
                .pre_load_images
                .push("busybox".into());
            Ok::<_, std::convert::Infallible>(())
        });
        let mut request = Topology::quick_start().generate_patches_request();
        let answer = walker.generate_patches(&request);
        // Only the two machine templates are patched, with what changed alone.
        let patched: Vec<_> = answer
            .items
            .iter()
            .map(|i| serde_json::from_slice::<Value>(&i.patch.0).unwrap())
            .filter(|p| p != &json!([]))
            .collect();
        assert_eq!(
            patched,
            vec![
                json!([{"op": "add", "path": "/spec/template/spec/preLoadImages", "value": ["busybox"]}]);
                2
            ]
        );
        apply_answer(&mut request, &answer).unwrap();
        let machines = templates::<DockerMachineTemplate>(&request).unwrap();
        assert_eq!(machines.len(), 2);
        for (_, machine) in machines {
            assert_eq!(machine.spec.template.spec.pre_load_images, ["busybox"]);
            // What the fixture wrote is read typed, and kept.
            assert_eq!(
                machine.spec.template.spec.extra_mounts,
                [Mount {
                    container_path: "/var/run/docker.sock".into(),
                    host_path: "/var/run/docker.sock".into(),
                    read_only: false,
                }]
            );
        }
    }

    #[test]
    fn a_test_provider_template_is_the_object_to_create_and_the_walkers_type() {
        let template = TestControlPlaneTemplate::new("ns", "cp").spec_field("replicas", 1);
        assert_eq!(
            serde_json::to_value(&template).unwrap(),
            json!({
                "apiVersion": "controlplane.capi-runtime.test/v1alpha1",
                "kind": "TestControlPlaneTemplate",
                "metadata": {"name": "cp", "namespace": "ns"},
                "spec": {"template": {"spec": {"replicas": 1}}},
            })
        );
        // The same shape as the JSON builder of `topology` writes.
        assert_eq!(
            serde_json::to_value(TestInfraClusterTemplate::new("ns", "i").spec_field("a", "b"))
                .unwrap(),
            crate::topology::infrastructure_cluster_template("ns", "i", json!({"a": "b"}))
        );
        assert_eq!(
            (
                TestControlPlaneTemplate::GROUP,
                TestControlPlaneTemplate::KIND
            ),
            (CONTROL_PLANE_GROUP, "TestControlPlaneTemplate")
        );
    }
}
