//! The managed topology of a Cluster: control plane and worker classes, health checks and rollouts.

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::_private::{is_default, is_zero};
use crate::Schema;

/// TODO doc ControlPlaneTopology
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopology {
    /// TODO doc ControlPlaneTopology.deletion
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: ControlPlaneTopologyMachineDeletionSpec,
    /// TODO doc ControlPlaneTopology.healthCheck
    #[serde(skip_serializing_if = "is_default")]
    pub health_check: ControlPlaneTopologyHealthCheck,
    /// TODO doc ControlPlaneTopology.metadata
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// TODO doc ControlPlaneTopology.readinessGates
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// TODO doc ControlPlaneTopology.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc ControlPlaneTopology.rollout
    #[serde(skip_serializing_if = "is_default")]
    pub rollout: ControlPlaneTopologyRolloutSpec,
    /// TODO doc ControlPlaneTopology.taints
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// TODO doc ControlPlaneTopology.variables
    #[serde(skip_serializing_if = "is_default")]
    pub variables: ControlPlaneVariables,
}

/// TODO doc ControlPlaneTopologyHealthCheck
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheck {
    /// TODO doc ControlPlaneTopologyHealthCheck.checks
    #[serde(skip_serializing_if = "is_default")]
    pub checks: ControlPlaneTopologyHealthCheckChecks,
    /// TODO doc ControlPlaneTopologyHealthCheck.enabled
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// TODO doc ControlPlaneTopologyHealthCheck.remediation
    #[serde(skip_serializing_if = "is_default")]
    pub remediation: ControlPlaneTopologyHealthCheckRemediation,
}

/// TODO doc ControlPlaneTopologyHealthCheckChecks
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheckChecks {
    /// TODO doc ControlPlaneTopologyHealthCheckChecks.nodeStartupTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_startup_timeout_seconds: Option<i32>,
    /// TODO doc ControlPlaneTopologyHealthCheckChecks.unhealthyMachineConditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_machine_conditions: Vec<UnhealthyMachineCondition>,
    /// TODO doc ControlPlaneTopologyHealthCheckChecks.unhealthyNodeConditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_node_conditions: Vec<UnhealthyNodeCondition>,
}

/// TODO doc ControlPlaneTopologyHealthCheckRemediation
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheckRemediation {
    /// TODO doc ControlPlaneTopologyHealthCheckRemediation.templateRef
    #[serde(skip_serializing_if = "is_default")]
    pub template_ref: MachineHealthCheckRemediationTemplateReference,
    /// TODO doc ControlPlaneTopologyHealthCheckRemediation.triggerIf
    #[serde(skip_serializing_if = "is_default")]
    pub trigger_if: ControlPlaneTopologyHealthCheckRemediationTriggerIf,
}

/// TODO doc ControlPlaneTopologyHealthCheckRemediationTriggerIf
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyHealthCheckRemediationTriggerIf {
    /// TODO doc ControlPlaneTopologyHealthCheckRemediationTriggerIf.unhealthyInRange
    #[serde(skip_serializing_if = "String::is_empty")]
    pub unhealthy_in_range: String,
    /// TODO doc ControlPlaneTopologyHealthCheckRemediationTriggerIf.unhealthyLessThanOrEqualTo
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy_less_than_or_equal_to: Option<IntOrString>,
}

/// TODO doc ControlPlaneTopologyMachineDeletionSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyMachineDeletionSpec {
    /// TODO doc ControlPlaneTopologyMachineDeletionSpec.nodeDeletionTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// TODO doc ControlPlaneTopologyMachineDeletionSpec.nodeDrainTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// TODO doc ControlPlaneTopologyMachineDeletionSpec.nodeVolumeDetachTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
}

/// TODO doc ControlPlaneTopologyRolloutSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopologyRolloutSpec {
    /// TODO doc ControlPlaneTopologyRolloutSpec.after
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<metav1::Time>,
}

/// TODO doc ControlPlaneVariables
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneVariables {
    /// TODO doc ControlPlaneVariables.overrides
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub overrides: Vec<ClusterVariable>,
}

/// TODO doc MachineDeploymentTopology
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopology {
    /// TODO doc MachineDeploymentTopology.class
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub class: String,
    /// TODO doc MachineDeploymentTopology.deletion
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachineDeploymentTopologyMachineDeletionSpec,
    /// TODO doc MachineDeploymentTopology.failureDomain
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_domain: String,
    /// TODO doc MachineDeploymentTopology.healthCheck
    #[serde(skip_serializing_if = "is_default")]
    pub health_check: MachineDeploymentTopologyHealthCheck,
    /// TODO doc MachineDeploymentTopology.metadata
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// TODO doc MachineDeploymentTopology.minReadySeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// TODO doc MachineDeploymentTopology.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// TODO doc MachineDeploymentTopology.readinessGates
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// TODO doc MachineDeploymentTopology.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc MachineDeploymentTopology.rollout
    #[serde(skip_serializing_if = "is_default")]
    pub rollout: MachineDeploymentTopologyRolloutSpec,
    /// TODO doc MachineDeploymentTopology.taints
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// TODO doc MachineDeploymentTopology.variables
    #[serde(skip_serializing_if = "is_default")]
    pub variables: MachineDeploymentVariables,
}

/// TODO doc MachineDeploymentTopologyHealthCheck
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheck {
    /// TODO doc MachineDeploymentTopologyHealthCheck.checks
    #[serde(skip_serializing_if = "is_default")]
    pub checks: MachineDeploymentTopologyHealthCheckChecks,
    /// TODO doc MachineDeploymentTopologyHealthCheck.enabled
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// TODO doc MachineDeploymentTopologyHealthCheck.remediation
    #[serde(skip_serializing_if = "is_default")]
    pub remediation: MachineDeploymentTopologyHealthCheckRemediation,
}

/// TODO doc MachineDeploymentTopologyHealthCheckChecks
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheckChecks {
    /// TODO doc MachineDeploymentTopologyHealthCheckChecks.nodeStartupTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_startup_timeout_seconds: Option<i32>,
    /// TODO doc MachineDeploymentTopologyHealthCheckChecks.unhealthyMachineConditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_machine_conditions: Vec<UnhealthyMachineCondition>,
    /// TODO doc MachineDeploymentTopologyHealthCheckChecks.unhealthyNodeConditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub unhealthy_node_conditions: Vec<UnhealthyNodeCondition>,
}

/// TODO doc MachineDeploymentTopologyHealthCheckRemediation
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheckRemediation {
    /// TODO doc MachineDeploymentTopologyHealthCheckRemediation.maxInFlight
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<IntOrString>,
    /// TODO doc MachineDeploymentTopologyHealthCheckRemediation.templateRef
    #[serde(skip_serializing_if = "is_default")]
    pub template_ref: MachineHealthCheckRemediationTemplateReference,
    /// TODO doc MachineDeploymentTopologyHealthCheckRemediation.triggerIf
    #[serde(skip_serializing_if = "is_default")]
    pub trigger_if: MachineDeploymentTopologyHealthCheckRemediationTriggerIf,
}

/// TODO doc MachineDeploymentTopologyHealthCheckRemediationTriggerIf
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyHealthCheckRemediationTriggerIf {
    /// TODO doc MachineDeploymentTopologyHealthCheckRemediationTriggerIf.unhealthyInRange
    #[serde(skip_serializing_if = "String::is_empty")]
    pub unhealthy_in_range: String,
    /// TODO doc MachineDeploymentTopologyHealthCheckRemediationTriggerIf.unhealthyLessThanOrEqualTo
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy_less_than_or_equal_to: Option<IntOrString>,
}

/// TODO doc MachineDeploymentTopologyMachineDeletionSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyMachineDeletionSpec {
    /// TODO doc MachineDeploymentTopologyMachineDeletionSpec.nodeDeletionTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// TODO doc MachineDeploymentTopologyMachineDeletionSpec.nodeDrainTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// TODO doc MachineDeploymentTopologyMachineDeletionSpec.nodeVolumeDetachTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
    /// TODO doc MachineDeploymentTopologyMachineDeletionSpec.order
    #[serde(skip_serializing_if = "String::is_empty")]
    pub order: String,
}

/// TODO doc MachineDeploymentTopologyRolloutSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyRolloutSpec {
    /// TODO doc MachineDeploymentTopologyRolloutSpec.after
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<metav1::Time>,
    /// TODO doc MachineDeploymentTopologyRolloutSpec.strategy
    #[serde(skip_serializing_if = "is_default")]
    pub strategy: MachineDeploymentTopologyRolloutStrategy,
}

/// TODO doc MachineDeploymentTopologyRolloutStrategy
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyRolloutStrategy {
    /// TODO doc MachineDeploymentTopologyRolloutStrategy.rollingUpdate
    #[serde(skip_serializing_if = "is_default")]
    pub rolling_update: MachineDeploymentTopologyRolloutStrategyRollingUpdate,
    /// TODO doc MachineDeploymentTopologyRolloutStrategy.type
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}

/// TODO doc MachineDeploymentTopologyRolloutStrategyRollingUpdate
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopologyRolloutStrategyRollingUpdate {
    /// TODO doc MachineDeploymentTopologyRolloutStrategyRollingUpdate.maxSurge
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// TODO doc MachineDeploymentTopologyRolloutStrategyRollingUpdate.maxUnavailable
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
}

/// TODO doc MachineDeploymentVariables
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentVariables {
    /// TODO doc MachineDeploymentVariables.overrides
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub overrides: Vec<ClusterVariable>,
}

/// TODO doc MachineHealthCheckRemediationTemplateReference
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineHealthCheckRemediationTemplateReference {
    /// TODO doc MachineHealthCheckRemediationTemplateReference.apiVersion
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub api_version: String,
    /// TODO doc MachineHealthCheckRemediationTemplateReference.kind
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub kind: String,
    /// TODO doc MachineHealthCheckRemediationTemplateReference.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// TODO doc MachinePoolTopology
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolTopology {
    /// TODO doc MachinePoolTopology.class
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub class: String,
    /// TODO doc MachinePoolTopology.deletion
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachinePoolTopologyMachineDeletionSpec,
    /// TODO doc MachinePoolTopology.failureDomains
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub failure_domains: Vec<String>,
    /// TODO doc MachinePoolTopology.metadata
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// TODO doc MachinePoolTopology.minReadySeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// TODO doc MachinePoolTopology.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// TODO doc MachinePoolTopology.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc MachinePoolTopology.taints
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// TODO doc MachinePoolTopology.variables
    #[serde(skip_serializing_if = "is_default")]
    pub variables: MachinePoolVariables,
}

/// TODO doc MachinePoolTopologyMachineDeletionSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolTopologyMachineDeletionSpec {
    /// TODO doc MachinePoolTopologyMachineDeletionSpec.nodeDeletionTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// TODO doc MachinePoolTopologyMachineDeletionSpec.nodeDrainTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// TODO doc MachinePoolTopologyMachineDeletionSpec.nodeVolumeDetachTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
}

/// TODO doc MachinePoolVariables
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolVariables {
    /// TODO doc MachinePoolVariables.overrides
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub overrides: Vec<ClusterVariable>,
}

/// TODO doc UnhealthyMachineCondition
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct UnhealthyMachineCondition {
    /// TODO doc UnhealthyMachineCondition.status
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub status: String,
    /// TODO doc UnhealthyMachineCondition.timeoutSeconds
    #[serde(skip_serializing_if = "is_zero")]
    #[schema(required)]
    pub timeout_seconds: i32,
    /// TODO doc UnhealthyMachineCondition.type
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}

/// TODO doc UnhealthyNodeCondition
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct UnhealthyNodeCondition {
    /// TODO doc UnhealthyNodeCondition.status
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub status: String,
    /// TODO doc UnhealthyNodeCondition.timeoutSeconds
    #[serde(skip_serializing_if = "is_zero")]
    #[schema(required)]
    pub timeout_seconds: i32,
    /// TODO doc UnhealthyNodeCondition.type
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}
