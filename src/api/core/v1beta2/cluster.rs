//! The Cluster object and what its spec and status hold.

use std::collections::BTreeMap;

use crate::raw::Json;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::__private::is_default;
use crate::Schema;

/// A network location where a Kubernetes API server answers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct APIEndpoint {
    /// Host name or IP address of the endpoint.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub host: String,
    /// TCP port of the endpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(by_value)]
    pub port: Option<i32>,
}

/// A Kubernetes cluster whose lifecycle Cluster API manages. Every lifecycle hook request carries
/// the affected Cluster in its `cluster` field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Cluster {
    /// API version of the object, normally `cluster.x-k8s.io/v1beta2`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// Object kind, `Cluster`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The usual Kubernetes object metadata: name, namespace, labels, annotations, owners and so
    /// on.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// What the user wants the cluster to look like.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: ClusterSpec,
    /// What the Cluster API controllers last observed about the cluster.
    #[serde(skip_serializing_if = "is_default")]
    pub status: ClusterStatus,
}

/// An additional condition, usually maintained by some other controller, that must be satisfied
/// before Cluster API reports the Cluster as available.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterAvailabilityGate {
    /// Type of the condition in the Cluster's `status.conditions` to look at. When the condition is
    /// absent, the gate counts as not satisfied.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub condition_type: String,
    /// Which status satisfies the gate: `Positive` (the default) wants the condition to be `True`,
    /// `Negative` wants it to be `False`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub polarity: String,
}

/// Replica counts and Kubernetes versions of a Cluster's control plane, mirrored from the control
/// plane object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterControlPlaneStatus {
    /// How many control plane Machines are available, i.e. have a true `Available` condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// How many control plane Machines the control plane provider is aiming for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// How many control plane Machines have a true `Ready` condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// How many control plane Machines exist, in any state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// How many control plane Machines already match the desired spec (true `UpToDate` condition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// During an upgrade of a managed topology, the Kubernetes versions the control plane still has
    /// to step through, in order, to reach `spec.topology.version`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub upgrade_plan: Vec<StatusUpgradePlanVersion>,
    /// For each Kubernetes version in use, how many control plane Machines run it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub versions: Vec<StatusVersion>,
}

/// Cluster status fields that survive only for clients of the older v1beta1 API.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterDeprecatedStatus {
    /// Deprecated: the status fields of the v1beta1 contract. They go away once v1beta1 support is
    /// dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta1: Option<ClusterV1Beta1DeprecatedStatus>,
}

/// One-way milestones reached while a Cluster comes up: each flag starts out false and, once set to
/// true, is never reset.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterInitializationStatus {
    /// Becomes true when the control plane provider reports that the API server can serve requests.
    /// Bootstrapping of worker Machines waits for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane_initialized: Option<bool>,
    /// Becomes true when the infrastructure provider reports that the cluster-wide infrastructure
    /// (networks, load balancers and the like) is in place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_provisioned: Option<bool>,
}

/// Networking settings of the workload cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterNetwork {
    /// Port the API server binds to. When unset, `6443` is used.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(by_value)]
    pub api_server_port: Option<i32>,
    /// Address ranges that Pod IPs are taken from.
    #[serde(skip_serializing_if = "is_default")]
    pub pods: NetworkRanges,
    /// DNS domain of Services, for example `cluster.local`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub service_domain: String,
    /// Address ranges that Service IPs are taken from.
    #[serde(skip_serializing_if = "is_default")]
    pub services: NetworkRanges,
}

/// Desired state of a Cluster: either references to the provider objects that make it up, or a
/// managed topology that Cluster API derives from a ClusterClass.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterSpec {
    /// Additional conditions that must be met before the Cluster's `Available` condition can turn
    /// true. A condition type may be listed only once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub availability_gates: Vec<ClusterAvailabilityGate>,
    /// Pod and Service networking of the workload cluster.
    #[serde(skip_serializing_if = "is_default")]
    pub cluster_network: ClusterNetwork,
    /// Address at which the control plane's API server is reached. Usually filled in by the
    /// infrastructure or control plane provider rather than by the user.
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane_endpoint: APIEndpoint,
    /// The object that runs the control plane, for example a KubeadmControlPlane. For a managed
    /// topology the topology controller sets it.
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane_ref: ContractVersionedObjectReference,
    /// The provider object describing cluster-wide infrastructure, for example an AWSCluster. For a
    /// managed topology the topology controller sets it.
    #[serde(skip_serializing_if = "is_default")]
    pub infrastructure_ref: ContractVersionedObjectReference,
    /// When true, Cluster API controllers leave this Cluster and the objects that belong to it
    /// alone until the flag is cleared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// The managed topology. When present, the Cluster is built from the referenced ClusterClass
    /// and Cluster API keeps the generated objects in line with it.
    #[serde(skip_serializing_if = "is_default")]
    pub topology: Topology,
}

/// Observed state of a Cluster, as reported by the Cluster API controllers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterStatus {
    /// The Cluster's current conditions, one per type, such as `Available`,
    /// `ControlPlaneAvailable`, `WorkersAvailable` and `RemoteConnectionProbe`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<metav1::Condition>,
    /// Replica counts of the control plane; only present when the control plane provider reports
    /// them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<ClusterControlPlaneStatus>,
    /// Deprecated status fields of the v1beta1 API, kept for backward compatibility only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<ClusterDeprecatedStatus>,
    /// The failure domains the infrastructure provider offers for placing Machines, one per `name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub failure_domains: Vec<FailureDomain>,
    /// Milestones reached while bringing the Cluster up.
    #[serde(skip_serializing_if = "is_default")]
    pub initialization: ClusterInitializationStatus,
    /// The `metadata.generation` that the controller most recently acted on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(by_value)]
    pub observed_generation: Option<i64>,
    /// A rough summary of the Cluster's lifecycle stage: `Pending`, `Provisioning`, `Provisioned`,
    /// `Deleting`, `Failed` or `Unknown`. Conditions carry the detail.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// Replica counts summed over all worker Machines, i.e. those outside the control plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<WorkersStatus>,
}

/// Cluster status fields as defined by the v1beta1 contract. Deprecated: present only so v1beta1
/// clients keep working, and removed together with v1beta1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterV1Beta1DeprecatedStatus {
    /// Deprecated: conditions in the v1beta1 format. Read `status.conditions` instead.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Deprecated: human-readable text describing a problem the controller could not recover from.
    /// Kept only for the v1beta1 contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_message: Option<String>,
    /// Deprecated: short code for a problem the controller could not recover from. Kept only for
    /// the v1beta1 contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
}

/// A value for one of the variables a ClusterClass declares. Appears in `spec.topology.variables`
/// and in the per-control-plane and per-worker overrides.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterVariable {
    /// Name of the variable; it has to match a variable of the ClusterClass.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// The value: any JSON that is valid against the schema of the variable.
    pub value: Json,
}

/// A fault-isolated location, such as an availability zone, in which Machines can be placed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct FailureDomain {
    /// Provider-specific key/value details about the failure domain.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// Whether control plane Machines may be placed in this failure domain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<bool>,
    /// Identifier of the failure domain, unique within the Cluster.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// A set of IP address ranges in CIDR notation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct NetworkRanges {
    /// The ranges, for example `10.96.0.0/12` or `fd00::/108`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(required, list_type = "atomic")]
    pub cidr_blocks: Vec<String>,
}

/// One stop on an upgrade path.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct StatusUpgradePlanVersion {
    /// Kubernetes version to upgrade to at this step.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
}

/// Counts the Machines running one particular Kubernetes version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct StatusVersion {
    /// Number of Machines that run `version`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(by_value)]
    pub replicas: Option<i32>,
    /// A Kubernetes version, for example `v1.34.1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
}

/// A Cluster's managed topology: the ClusterClass it follows, its Kubernetes version, and the
/// per-Cluster shape of its control plane and workers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Topology {
    /// The ClusterClass the topology is built from.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub class_ref: ClusterClassRef,
    /// Per-Cluster settings of the control plane, applied on top of the ClusterClass.
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane: ControlPlaneTopology,
    /// Values of the ClusterClass variables, one per `name`. They feed the ClusterClass patches and
    /// the topology mutation hooks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub variables: Vec<ClusterVariable>,
    /// Kubernetes version the Cluster should run. Raising it starts an upgrade: first the control
    /// plane, then the workers.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
    /// Worker MachineDeployments and MachinePools of the topology.
    #[serde(skip_serializing_if = "is_default")]
    pub workers: WorkersTopology,
}

/// Replica counts and Kubernetes versions summed over a Cluster's worker Machines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersStatus {
    /// How many worker Machines are available, i.e. have a true `Available` condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// Total number of worker Machines the Cluster is meant to have.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// How many worker Machines have a true `Ready` condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// How many worker Machines exist, in any state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// How many worker Machines already match their desired spec (true `UpToDate` condition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// During an upgrade of a managed topology, the Kubernetes versions the workers still have to
    /// step through, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub upgrade_plan: Vec<StatusUpgradePlanVersion>,
    /// For each Kubernetes version in use, how many worker Machines run it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub versions: Vec<StatusVersion>,
}

/// The groups of worker Machines in a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersTopology {
    /// MachineDeployments to create, each from a MachineDeployment class of the ClusterClass; one
    /// per `name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub machine_deployments: Vec<MachineDeploymentTopology>,
    /// MachinePools to create, each from a MachinePool class of the ClusterClass; one per `name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub machine_pools: Vec<MachinePoolTopology>,
}
