//! The Machine object: one host of a Cluster.

use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::_private::is_default;
use crate::Schema;

/// TODO doc Bootstrap
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Bootstrap {
    /// TODO doc Bootstrap.configRef
    #[serde(skip_serializing_if = "is_default")]
    pub config_ref: ContractVersionedObjectReference,
    /// TODO doc Bootstrap.dataSecretName
    #[serde(skip_serializing_if = "String::is_empty")]
    pub data_secret_name: String,
}

/// TODO doc Machine
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Machine {
    /// TODO doc Machine.apiVersion
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// TODO doc Machine.kind
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// TODO doc Machine.metadata
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// TODO doc Machine.spec
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: MachineSpec,
    /// TODO doc Machine.status
    #[serde(skip_serializing_if = "is_default")]
    pub status: MachineStatus,
}

/// TODO doc MachineAddress
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineAddress {
    /// TODO doc MachineAddress.address
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub address: String,
    /// TODO doc MachineAddress.type
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}

/// TODO doc MachineDeletionSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeletionSpec {
    /// TODO doc MachineDeletionSpec.nodeDeletionTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// TODO doc MachineDeletionSpec.nodeDrainTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// TODO doc MachineDeletionSpec.nodeVolumeDetachTimeoutSeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
}

/// TODO doc MachineDeletionStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeletionStatus {
    /// TODO doc MachineDeletionStatus.nodeDrainStartTime
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_start_time: Option<metav1::Time>,
    /// TODO doc MachineDeletionStatus.waitForNodeVolumeDetachStartTime
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_for_node_volume_detach_start_time: Option<metav1::Time>,
    /// TODO doc MachineDeletionStatus.waitForPreDrainHookStartTime
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_for_pre_drain_hook_start_time: Option<metav1::Time>,
    /// TODO doc MachineDeletionStatus.waitForPreTerminateHookStartTime
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_for_pre_terminate_hook_start_time: Option<metav1::Time>,
}

/// TODO doc MachineDeprecatedStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeprecatedStatus {
    /// TODO doc MachineDeprecatedStatus.v1beta1
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta1: Option<MachineV1Beta1DeprecatedStatus>,
}

/// TODO doc MachineInitializationStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineInitializationStatus {
    /// TODO doc MachineInitializationStatus.bootstrapDataSecretCreated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bootstrap_data_secret_created: Option<bool>,
    /// TODO doc MachineInitializationStatus.infrastructureProvisioned
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_provisioned: Option<bool>,
}

/// TODO doc MachineNodeReference
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineNodeReference {
    /// TODO doc MachineNodeReference.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// TODO doc MachineReadinessGate
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineReadinessGate {
    /// TODO doc MachineReadinessGate.conditionType
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub condition_type: String,
    /// TODO doc MachineReadinessGate.polarity
    #[serde(skip_serializing_if = "String::is_empty")]
    pub polarity: String,
}

/// TODO doc MachineSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSpec {
    /// TODO doc MachineSpec.bootstrap
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub bootstrap: Bootstrap,
    /// TODO doc MachineSpec.clusterName
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub cluster_name: String,
    /// TODO doc MachineSpec.deletion
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachineDeletionSpec,
    /// TODO doc MachineSpec.failureDomain
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_domain: String,
    /// TODO doc MachineSpec.infrastructureRef
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub infrastructure_ref: ContractVersionedObjectReference,
    /// TODO doc MachineSpec.minReadySeconds
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// TODO doc MachineSpec.providerID
    #[serde(rename = "providerID", skip_serializing_if = "String::is_empty")]
    pub provider_id: String,
    /// TODO doc MachineSpec.readinessGates
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// TODO doc MachineSpec.taints
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// TODO doc MachineSpec.version
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
}

/// TODO doc MachineStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineStatus {
    /// TODO doc MachineStatus.addresses
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<MachineAddress>,
    /// TODO doc MachineStatus.certificatesExpiryDate
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificates_expiry_date: Option<metav1::Time>,
    /// TODO doc MachineStatus.conditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<metav1::Condition>,
    /// TODO doc MachineStatus.deletion
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion: Option<MachineDeletionStatus>,
    /// TODO doc MachineStatus.deprecated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<MachineDeprecatedStatus>,
    /// TODO doc MachineStatus.failureDomain
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_domain: String,
    /// TODO doc MachineStatus.initialization
    #[serde(skip_serializing_if = "is_default")]
    pub initialization: MachineInitializationStatus,
    /// TODO doc MachineStatus.lastUpdated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<metav1::Time>,
    /// TODO doc MachineStatus.nodeInfo
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_info: Option<corev1::NodeSystemInfo>,
    /// TODO doc MachineStatus.nodeRef
    #[serde(skip_serializing_if = "is_default")]
    pub node_ref: MachineNodeReference,
    /// TODO doc MachineStatus.observedGeneration
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// TODO doc MachineStatus.phase
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
}

/// TODO doc MachineTaint
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineTaint {
    /// TODO doc MachineTaint.effect
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub effect: String,
    /// TODO doc MachineTaint.key
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub key: String,
    /// TODO doc MachineTaint.propagation
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub propagation: String,
    /// TODO doc MachineTaint.value
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
}

/// TODO doc MachineV1Beta1DeprecatedStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineV1Beta1DeprecatedStatus {
    /// TODO doc MachineV1Beta1DeprecatedStatus.conditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// TODO doc MachineV1Beta1DeprecatedStatus.failureMessage
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_message: String,
    /// TODO doc MachineV1Beta1DeprecatedStatus.failureReason
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_reason: String,
}
