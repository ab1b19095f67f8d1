//! The v1beta1 Cluster and what its spec and status hold (Cluster API v1.12's Go types, field
//! for field, with the same JSON names and the same fields left out when empty).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};

use crate::__private::is_default;
use crate::Schema;
use crate::api::core::v1beta2;
use crate::raw::Json;

/// A Cluster of `cluster.x-k8s.io/v1beta1`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::Cluster,
    to_hub = "super::conversion::cluster_to_hub",
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct Cluster {
    /// `cluster.x-k8s.io/v1beta1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `Cluster`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Standard object metadata.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// What the Cluster should be.
    #[serde(skip_serializing_if = "is_default")]
    pub spec: ClusterSpec,
    /// What the controllers observed.
    #[serde(skip_serializing_if = "is_default")]
    pub status: ClusterStatus,
}

/// The v1beta1 Cluster's spec.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterSpec {
    /// Whether reconciliation is paused.
    #[serde(skip_serializing_if = "is_default")]
    pub paused: bool,
    /// The cluster's network.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_network: Option<ClusterNetwork>,
    /// Where the control plane's API server answers.
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane_endpoint: APIEndpoint,
    /// The control plane object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane_ref: Option<ObjectReference>,
    /// The infrastructure object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_ref: Option<ObjectReference>,
    /// The managed topology.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,
    /// Conditions the Cluster needs besides Cluster API's own to be available.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub availability_gates: Vec<ClusterAvailabilityGate>,
}

/// The cluster's network settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterNetwork {
    /// Port the API server listens on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_server_port: Option<i32>,
    /// Service address ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub services: Option<NetworkRanges>,
    /// Pod address ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods: Option<NetworkRanges>,
    /// The services' DNS domain.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub service_domain: String,
}

/// Address ranges in CIDR notation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct NetworkRanges {
    /// The ranges (always written, as Go does).
    pub cidr_blocks: Vec<String>,
}

/// Host and port of an API server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct APIEndpoint {
    /// Host name or address.
    pub host: String,
    /// Port.
    pub port: i32,
}

/// Kubernetes' `ObjectReference`, which v1beta1 uses for the control plane and infrastructure
/// objects and for remediation templates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "k8s.io/api/core/v1",
    hub = v1beta2::ContractVersionedObjectReference,
    to_hub = "super::conversion::reference_to_hub"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectReference {
    /// Kind of the object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Namespace of the object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Name of the object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// UID of the object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// Group and version of the object's API.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// Resource version the reference was taken at.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// A field inside the object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field_path: String,
}

/// A condition the Cluster needs to be available.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterAvailabilityGate {
    /// Condition type.
    pub condition_type: String,
    /// `Positive` or `Negative`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub polarity: String,
}

/// The v1beta1 managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::Topology,
    to_hub = "super::conversion::topology_to_hub"
)]
#[serde(default, rename_all = "camelCase")]
pub struct Topology {
    /// Name of the ClusterClass (v1beta2: `classRef.name`).
    pub class: String,
    /// Namespace of the ClusterClass (v1beta2: `classRef.namespace`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub class_namespace: String,
    /// Kubernetes version.
    pub version: String,
    /// Roll out after this time (v1beta2 has no such field on the topology).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollout_after: Option<metav1::Time>,
    /// The control plane.
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane: ControlPlaneTopology,
    /// The workers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<WorkersTopology>,
    /// Variable values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<ClusterVariable>,
}

/// The control plane of a v1beta1 topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::ControlPlaneTopology,
    to_hub = "super::conversion::control_plane_to_hub"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopology {
    /// Labels and annotations.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// Number of control plane Machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Health checking (v1beta2: `healthCheck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_health_check: Option<MachineHealthCheckTopology>,
    /// Drain time limit, a Go duration (v1beta2: `deletion.nodeDrainTimeoutSeconds`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout: Option<String>,
    /// Volume detach time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout: Option<String>,
    /// Node deletion time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout: Option<String>,
    /// Readiness gates.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// Variable overrides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<ControlPlaneVariables>,
}

/// Labels and annotations for generated objects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::ObjectMeta
)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectMeta {
    /// Labels.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Annotations.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// A MachineHealthCheck of a v1beta1 topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineHealthCheckTopology {
    /// Whether the check is created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// Node conditions that make a Machine unhealthy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unhealthy_conditions: Vec<UnhealthyCondition>,
    /// Remediation stops above this many unhealthy Machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unhealthy: Option<IntOrString>,
    /// Remediation happens only within this range of unhealthy Machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy_range: Option<String>,
    /// How long a node may take to join, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_startup_timeout: Option<String>,
    /// The remediation template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediation_template: Option<ObjectReference>,
}

/// A node condition that makes a Machine unhealthy after a time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct UnhealthyCondition {
    /// Condition type.
    pub r#type: String,
    /// Condition status.
    pub status: String,
    /// A Go duration.
    pub timeout: String,
}

/// A condition a Machine needs to be ready.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::MachineReadinessGate
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineReadinessGate {
    /// Condition type.
    pub condition_type: String,
    /// `Positive` or `Negative`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub polarity: String,
}

/// Variable overrides of the control plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneVariables {
    /// The overrides.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<ClusterVariable>,
}

/// A variable value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterVariable {
    /// Name of the variable.
    pub name: String,
    /// Which definition the value is for (v1beta2 has no such field).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub definition_from: String,
    /// The value.
    pub value: Json,
}

/// The workers of a v1beta1 topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersTopology {
    /// MachineDeployments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub machine_deployments: Vec<MachineDeploymentTopology>,
    /// MachinePools.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub machine_pools: Vec<MachinePoolTopology>,
}

/// A MachineDeployment of a v1beta1 topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::MachineDeploymentTopology,
    to_hub = "super::conversion::machine_deployment_to_hub"
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopology {
    /// Labels and annotations.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// The MachineDeployment class.
    pub class: String,
    /// Name, unique in the topology.
    pub name: String,
    /// Failure domain of the Machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_domain: Option<String>,
    /// Number of Machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Health checking (v1beta2: `healthCheck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_health_check: Option<MachineHealthCheckTopology>,
    /// Drain time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout: Option<String>,
    /// Volume detach time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout: Option<String>,
    /// Node deletion time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout: Option<String>,
    /// Seconds a new node must be ready to count as available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// Readiness gates.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// Rollout strategy (v1beta2: `rollout.strategy`, `deletion.order`,
    /// `healthCheck.remediation.maxInFlight`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<MachineDeploymentStrategy>,
    /// Variable overrides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<MachineDeploymentVariables>,
}

/// How a MachineDeployment replaces Machines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentStrategy {
    /// `RollingUpdate` or `OnDelete`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub r#type: String,
    /// Rolling update settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<MachineRollingUpdateDeployment>,
    /// Remediation settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediation: Option<RemediationStrategy>,
}

/// Rolling update settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineRollingUpdateDeployment {
    /// Machines that may be unavailable during the update.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    /// Machines that may be created above the desired number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// Which Machines go first (v1beta2: `deletion.order`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delete_policy: Option<String>,
}

/// Remediation settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct RemediationStrategy {
    /// Machines remediated at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<IntOrString>,
}

/// Variable overrides of a MachineDeployment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentVariables {
    /// The overrides.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<ClusterVariable>,
}

/// A MachinePool of a v1beta1 topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::MachinePoolTopology,
    to_hub = "super::conversion::machine_pool_to_hub"
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolTopology {
    /// Labels and annotations.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// The MachinePool class.
    pub class: String,
    /// Name, unique in the topology.
    pub name: String,
    /// Failure domains of the Machines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failure_domains: Vec<String>,
    /// Drain time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout: Option<String>,
    /// Volume detach time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout: Option<String>,
    /// Node deletion time limit, a Go duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout: Option<String>,
    /// Seconds a new node must be ready to count as available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// Number of Machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Variable overrides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<MachinePoolVariables>,
}

/// Variable overrides of a MachinePool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolVariables {
    /// The overrides.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<ClusterVariable>,
}

/// The v1beta1 Cluster's status.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::ClusterStatus,
    to_hub = "super::conversion::status_to_hub"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterStatus {
    /// Failure domains by name (v1beta2: a list).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub failure_domains: BTreeMap<String, FailureDomainSpec>,
    /// Terminal failure reason (v1beta2: `deprecated.v1beta1.failureReason`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// Terminal failure message (v1beta2: `deprecated.v1beta1.failureMessage`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_message: Option<String>,
    /// Phase.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// v1beta2: `initialization.infrastructureProvisioned`.
    pub infrastructure_ready: bool,
    /// v1beta2: `initialization.controlPlaneInitialized`.
    pub control_plane_ready: bool,
    /// Cluster API's older conditions (v1beta2: `deprecated.v1beta1.conditions`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Generation observed.
    #[serde(skip_serializing_if = "is_default")]
    pub observed_generation: i64,
    /// The newer status (v1beta2: `conditions`, `controlPlane`, `workers`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta2: Option<ClusterV1Beta2Status>,
}

/// A failure domain's attributes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct FailureDomainSpec {
    /// Whether control plane Machines may go there.
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane: bool,
    /// Provider-specific attributes.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
}

/// One of Cluster API's older conditions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/core/v1beta1",
    hub = v1beta2::Condition
)]
#[serde(default, rename_all = "camelCase")]
pub struct Condition {
    /// Condition type.
    pub r#type: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// `Error`, `Warning` or `Info`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub severity: String,
    /// When the status last changed.
    pub last_transition_time: Option<metav1::Time>,
    /// Reason.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// The v1beta2 conditions and counters a v1beta1 status carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterV1Beta2Status {
    /// Standard conditions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<metav1::Condition>,
    /// Control plane counters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<ClusterControlPlaneStatus>,
    /// Worker counters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<WorkersStatus>,
}

/// Replica counters of the control plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterControlPlaneStatus {
    /// Desired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// Existing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Up to date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// Ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// Available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
}

/// Replica counters of the workers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta1")]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersStatus {
    /// Desired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// Existing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Up to date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// Ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// Available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
}
