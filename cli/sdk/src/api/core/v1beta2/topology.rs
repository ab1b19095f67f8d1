//! The managed topology of a Cluster: control plane and worker classes, health checks and rollouts.

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::__private::is_default;
use crate::Schema;

/// Per-Cluster settings of the control plane in a managed topology. They are merged with, or take
/// the place of, what the ClusterClass defines for the control plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopology {
    /// Time limits for deleting control plane Machines.
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: ControlPlaneTopologyMachineDeletionSpec,
    /// Health checking and remediation of control plane Machines.
    #[serde(skip_serializing_if = "is_default")]
    pub health_check: ControlPlaneTopologyHealthCheck,
    /// Labels and annotations for the control plane object, and also for its Machines when the
    /// control plane is Machine based. Merged with the metadata from the ClusterClass.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// Additional conditions control plane Machines need before they count as ready. When unset,
    /// the list from the ClusterClass, if any, applies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// Number of control plane Machines. When unset, the control plane object is created without a
    /// replica count, for providers that do not support one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Settings that trigger a rollout of the control plane Machines.
    #[serde(skip_serializing_if = "is_default")]
    pub rollout: ControlPlaneTopologyRolloutSpec,
    /// Taints for the Nodes of control plane Machines, one per `key` and `effect` pair.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// Variable values that apply only to the control plane.
    #[serde(skip_serializing_if = "is_default")]
    pub variables: ControlPlaneVariables,
}

/// Health checking of the control plane Machines of a managed topology. Cluster API turns it into a
/// MachineHealthCheck; values set here win over those of the ClusterClass.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheck {
    /// What makes one of the control plane Machines count as unhealthy.
    #[serde(skip_serializing_if = "is_default")]
    pub checks: ControlPlaneTopologyHealthCheckChecks,
    /// Whether a MachineHealthCheck is created. `false`: never. `true`: always, and checks must
    /// then be defined here or in the ClusterClass. Unset: only when checks are defined in either
    /// place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// What happens to control plane Machines found unhealthy.
    #[serde(skip_serializing_if = "is_default")]
    pub remediation: ControlPlaneTopologyHealthCheckRemediation,
}

/// The signals that make one of the control plane Machines count as unhealthy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheckChecks {
    /// Seconds a new Machine may take to get a Node before it counts as unhealthy. `0` turns this
    /// check off; when unset, 10 minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_startup_timeout_seconds: Option<i32>,
    /// Machine conditions that mark a Machine unhealthy once they have held for their timeout. A
    /// Machine matching any entry is unhealthy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_machine_conditions: Vec<UnhealthyMachineCondition>,
    /// Node conditions that mark a Machine unhealthy once they have held on its Node for their
    /// timeout. A Machine matching any entry is unhealthy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_node_conditions: Vec<UnhealthyNodeCondition>,
}

/// How unhealthy control plane Machines are dealt with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheckRemediation {
    /// Template for external remediation. When set, each unhealthy Machine is handed to the
    /// remediation controller behind the template instead of being left to the control plane
    /// provider to replace.
    #[serde(skip_serializing_if = "is_default")]
    pub template_ref: MachineHealthCheckRemediationTemplateReference,
    /// Conditions on the number of unhealthy Machines that must hold before any remediation starts.
    #[serde(skip_serializing_if = "is_default")]
    pub trigger_if: ControlPlaneTopologyHealthCheckRemediationTriggerIf,
}

/// Holds back remediation of control plane Machines unless the number of unhealthy ones is
/// acceptable. Useful to avoid replacing Machines during a wider outage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheckRemediationTriggerIf {
    /// Remediate only while the count of unhealthy Machines lies in this inclusive range, written
    /// like `[3-5]`. Takes precedence over `unhealthyLessThanOrEqualTo`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub unhealthy_in_range: String,
    /// Remediate only while the count of unhealthy Machines is at most this value, given as a
    /// number or as a percentage of the Machines checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy_less_than_or_equal_to: Option<IntOrString>,
}

/// Time limits on the steps of deleting control plane Machines of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyMachineDeletionSpec {
    /// How long, in seconds, the controller keeps trying to delete the Node of a control plane
    /// Machine once the Machine is being deleted. `0` means keep trying forever; when unset, 10
    /// seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the time spent draining the Node of a control plane Machine.
    /// When unset or `0`, draining may take as long as it needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the wait for volumes to detach from the Node of a control plane
    /// Machine. When unset or `0`, the wait is unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
}

/// Rollout settings of the control plane in a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyRolloutSpec {
    /// Forces a rollout: once this time has passed, control plane Machines created before it are
    /// replaced, even if nothing else changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<metav1::Time>,
}

/// Variable values that apply only to the control plane of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneVariables {
    /// Values that replace the Cluster-wide values of the same variables when the control plane's
    /// templates are patched; one per `name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub overrides: Vec<ClusterVariable>,
}

/// One group of worker Machines in a managed topology, realised as a MachineDeployment built from a
/// MachineDeployment class of the ClusterClass.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopology {
    /// Name of the MachineDeployment class in the ClusterClass that this group is built from.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub class: String,
    /// How and in what order this group's Machines are deleted.
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachineDeploymentTopologyMachineDeletionSpec,
    /// Failure domain all Machines of this group are placed in.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_domain: String,
    /// Health checking and remediation of this group's Machines.
    #[serde(skip_serializing_if = "is_default")]
    pub health_check: MachineDeploymentTopologyHealthCheck,
    /// Labels and annotations for the MachineDeployment and its Machines, merged with those of the
    /// class.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// How many seconds a new Machine's Node has to be ready before the Machine counts as
    /// available. Defaults to 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// Identifier of this group, unique within the topology. It becomes part of the generated
    /// MachineDeployment's name, hashed if that would grow too long.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// Additional conditions this group's Machines need before they count as ready. When unset, the
    /// list from the class, if any, applies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// Number of worker Machines in this group. When unset, the MachineDeployment is created
    /// without a replica count, leaving it to something else such as the cluster autoscaler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Rollout strategy of this group, and a way to force a rollout.
    #[serde(skip_serializing_if = "is_default")]
    pub rollout: MachineDeploymentTopologyRolloutSpec,
    /// Taints for the Nodes of this group's Machines, one per `key` and `effect` pair.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// Variable values that apply only to this group.
    #[serde(skip_serializing_if = "is_default")]
    pub variables: MachineDeploymentVariables,
}

/// Health checking of the worker Machines of a managed topology. Cluster API turns it into a
/// MachineHealthCheck; values set here win over those of the ClusterClass.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheck {
    /// What makes one of the worker Machines count as unhealthy.
    #[serde(skip_serializing_if = "is_default")]
    pub checks: MachineDeploymentTopologyHealthCheckChecks,
    /// Whether a MachineHealthCheck is created. `false`: never. `true`: always, and checks must
    /// then be defined here or in the ClusterClass. Unset: only when checks are defined in either
    /// place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// What happens to worker Machines found unhealthy.
    #[serde(skip_serializing_if = "is_default")]
    pub remediation: MachineDeploymentTopologyHealthCheckRemediation,
}

/// The signals that make one of the worker Machines count as unhealthy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheckChecks {
    /// Seconds a new Machine may take to get a Node before it counts as unhealthy. `0` turns this
    /// check off; when unset, 10 minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_startup_timeout_seconds: Option<i32>,
    /// Machine conditions that mark a Machine unhealthy once they have held for their timeout. A
    /// Machine matching any entry is unhealthy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_machine_conditions: Vec<UnhealthyMachineCondition>,
    /// Node conditions that mark a Machine unhealthy once they have held on its Node for their
    /// timeout. A Machine matching any entry is unhealthy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_node_conditions: Vec<UnhealthyNodeCondition>,
}

/// How unhealthy worker Machines are dealt with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheckRemediation {
    /// How many Machines may be remediated at once, as a number or as a percentage of the group's
    /// Machines. When unset, there is no limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<IntOrString>,
    /// Template for external remediation. When set, each unhealthy Machine is handed to the
    /// remediation controller behind the template instead of being deleted and replaced by its
    /// MachineSet.
    #[serde(skip_serializing_if = "is_default")]
    pub template_ref: MachineHealthCheckRemediationTemplateReference,
    /// Conditions on the number of unhealthy Machines that must hold before any remediation starts.
    #[serde(skip_serializing_if = "is_default")]
    pub trigger_if: MachineDeploymentTopologyHealthCheckRemediationTriggerIf,
}

/// Holds back remediation of worker Machines unless the number of unhealthy ones is acceptable.
/// Useful to avoid replacing Machines during a wider outage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheckRemediationTriggerIf {
    /// Remediate only while the count of unhealthy Machines lies in this inclusive range, written
    /// like `[3-5]`. Takes precedence over `unhealthyLessThanOrEqualTo`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub unhealthy_in_range: String,
    /// Remediate only while the count of unhealthy Machines is at most this value, given as a
    /// number or as a percentage of the Machines checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy_less_than_or_equal_to: Option<IntOrString>,
}

/// How the Machines of a MachineDeployment in a managed topology are deleted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyMachineDeletionSpec {
    /// How long, in seconds, the controller keeps trying to delete the Node of a Machine of the
    /// group once the Machine is being deleted. `0` means keep trying forever; when unset, 10
    /// seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the time spent draining the Node of a Machine of the group. When
    /// unset or `0`, draining may take as long as it needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the wait for volumes to detach from the Node of a Machine of the
    /// group. When unset or `0`, the wait is unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
    /// Which Machines go first when the group shrinks: `Random` (the default), `Newest` or
    /// `Oldest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub order: String,
}

/// Rollout settings of a MachineDeployment in a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyRolloutSpec {
    /// Forces a rollout: once this time has passed, Machines of the group created before it are
    /// replaced, even if nothing else changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<metav1::Time>,
    /// How old Machines are replaced by new ones.
    #[serde(skip_serializing_if = "is_default")]
    pub strategy: MachineDeploymentTopologyRolloutStrategy,
}

/// The way a MachineDeployment swaps old Machines for new ones.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyRolloutStrategy {
    /// Tuning of the `RollingUpdate` strategy; only used with that type.
    #[serde(skip_serializing_if = "is_default")]
    pub rolling_update: MachineDeploymentTopologyRolloutStrategyRollingUpdate,
    /// `RollingUpdate` replaces Machines step by step; `OnDelete` creates a new Machine only after
    /// an old one has been deleted by someone else. Defaults to `RollingUpdate`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}

/// How far a rolling update may move the number of Machines away from the desired count.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyRolloutStrategyRollingUpdate {
    /// How many Machines may exist beyond the desired count during the update, as a number or a
    /// percentage of the desired count (rounded up). Defaults to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// How many Machines may be unavailable below the desired count during the update, as a number
    /// or a percentage (rounded down). Defaults to 0; it cannot be 0 when `maxSurge` is 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
}

/// Variable values that apply only to one MachineDeployment of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentVariables {
    /// Values that replace the Cluster-wide values of the same variables when this group's
    /// templates are patched; one per `name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub overrides: Vec<ClusterVariable>,
}

/// Points at a remediation template, in the Cluster's namespace, used for external remediation: for
/// each unhealthy Machine a remediation request is created from it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineHealthCheckRemediationTemplateReference {
    /// API version of the template, for example `infrastructure.cluster.x-k8s.io/v1beta1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub api_version: String,
    /// Kind of the template.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub kind: String,
    /// Name of the template.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// One pool of worker Machines in a managed topology, realised as a MachinePool built from a
/// MachinePool class of the ClusterClass.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolTopology {
    /// Name of the MachinePool class in the ClusterClass that this pool is built from.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub class: String,
    /// Time limits for deleting the pool's Machines.
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachinePoolTopologyMachineDeletionSpec,
    /// Failure domains the pool may spread its instances across.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub failure_domains: Vec<String>,
    /// Labels and annotations for the MachinePool, merged with those of the class.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// How many seconds a new instance's Node has to be ready before it counts as available.
    /// Defaults to 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// Identifier of this pool, unique within the topology. It becomes part of the generated
    /// MachinePool's name, hashed if that would grow too long.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// Number of instances in the pool. When unset, the MachinePool is created without a replica
    /// count, leaving it to something else such as the cluster autoscaler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Taints for the Nodes of the pool, one per `key` and `effect` pair.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// Variable values that apply only to this pool.
    #[serde(skip_serializing_if = "is_default")]
    pub variables: MachinePoolVariables,
}

/// Time limits on the steps of deleting the Machines of a MachinePool in a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolTopologyMachineDeletionSpec {
    /// How long, in seconds, the controller keeps trying to delete the Node of a Machine of the
    /// pool once the Machine is being deleted. `0` means keep trying forever; when unset, 10
    /// seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the time spent draining the Node of a Machine of the pool. When
    /// unset or `0`, draining may take as long as it needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the wait for volumes to detach from the Node of a Machine of the
    /// pool. When unset or `0`, the wait is unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
}

/// Variable values that apply only to one MachinePool of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolVariables {
    /// Values that replace the Cluster-wide values of the same variables when this pool's templates
    /// are patched; one per `name`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub overrides: Vec<ClusterVariable>,
}

/// A Machine condition that, once it has kept a given status long enough, makes a health check
/// treat the Machine as unhealthy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct UnhealthyMachineCondition {
    /// The status of the condition that counts as unhealthy: `True`, `False` or `Unknown`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub status: String,
    /// How many seconds the condition has to keep that status before the Machine counts as
    /// unhealthy.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required)]
    pub timeout_seconds: Option<i32>,
    /// Type of the Machine condition to watch.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}

/// A Node condition that, once it has kept a given status long enough, makes a health check treat
/// the Node's Machine as unhealthy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct UnhealthyNodeCondition {
    /// The status of the condition that counts as unhealthy: `True`, `False` or `Unknown`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub status: String,
    /// How many seconds the condition has to keep that status before the Machine counts as
    /// unhealthy.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required)]
    pub timeout_seconds: Option<i32>,
    /// Type of the Node condition to watch, for example `Ready`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}
