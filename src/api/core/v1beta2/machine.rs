//! The Machine object: one host of a Cluster.

use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::__private::is_default;
use crate::Schema;

/// Where a Machine gets the data (for example cloud-init or Ignition) that turns the host into a
/// Kubernetes node.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Bootstrap {
    /// The bootstrap provider object, for example a KubeadmConfig, that produces the data.
    #[serde(skip_serializing_if = "is_default")]
    pub config_ref: ContractVersionedObjectReference,
    /// Name of the Secret with the bootstrap data. Either given up front or copied from the
    /// bootstrap config once the provider has written the Secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_secret_name: Option<String>,
}

/// A single host, virtual or physical, that is meant to become a node of a Cluster. The in-place
/// update hooks receive the current and the desired Machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Machine {
    /// API version of the object, normally `cluster.x-k8s.io/v1beta2`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// Object kind, `Machine`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The usual Kubernetes object metadata: name, namespace, labels, annotations, owners and so
    /// on.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// What the host should be and run.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: MachineSpec,
    /// What the Cluster API controllers last observed about the host.
    #[serde(skip_serializing_if = "is_default")]
    pub status: MachineStatus,
}

/// One network address at which a Machine can be reached.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineAddress {
    /// The address, an IP or a host name.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub address: String,
    /// What sort of address it is: `Hostname`, `ExternalIP`, `InternalIP`, `ExternalDNS` or
    /// `InternalDNS`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub r#type: String,
}

/// Time limits on the steps Cluster API goes through when it deletes a Machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeletionSpec {
    /// How long, in seconds, the controller keeps trying to delete the Node of this Machine once
    /// the Machine is being deleted. `0` means keep trying forever; when unset, 10 seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the time spent draining the Node of this Machine. When unset or
    /// `0`, draining may take as long as it needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout_seconds: Option<i32>,
    /// Upper bound, in seconds, on the wait for volumes to detach from the Node of this Machine.
    /// When unset or `0`, the wait is unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout_seconds: Option<i32>,
}

/// When each step of a Machine's deletion started. Only present while the Machine is being deleted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeletionStatus {
    /// When draining of the Node started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_start_time: Option<metav1::Time>,
    /// When the controller started to wait for the Node's volumes to detach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_for_node_volume_detach_start_time: Option<metav1::Time>,
    /// When the controller started to wait for the pre-drain hooks (annotations with the
    /// `pre-drain.delete.hook.machine.cluster.x-k8s.io` prefix) to be removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_for_pre_drain_hook_start_time: Option<metav1::Time>,
    /// When the controller started to wait for the pre-terminate hooks (annotations with the
    /// `pre-terminate.delete.hook.machine.cluster.x-k8s.io` prefix) to be removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_for_pre_terminate_hook_start_time: Option<metav1::Time>,
}

/// Machine status fields that survive only for clients of the older v1beta1 API.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeprecatedStatus {
    /// Deprecated: the status fields of the v1beta1 contract. They go away once v1beta1 support is
    /// dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta1: Option<MachineV1Beta1DeprecatedStatus>,
}

/// One-way milestones reached while a Machine comes up: each flag starts out false and, once set to
/// true, is never reset.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineInitializationStatus {
    /// Becomes true when the bootstrap provider reports that the bootstrap data Secret has been
    /// written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bootstrap_data_secret_created: Option<bool>,
    /// Becomes true when the infrastructure provider reports that the host has been provisioned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_provisioned: Option<bool>,
}

/// Names the Kubernetes Node that a Machine turned into.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineNodeReference {
    /// Name of the Node in the workload cluster.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// An additional condition, usually maintained by some other controller, that must be satisfied
/// before Cluster API reports a Machine as ready.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineReadinessGate {
    /// Type of the condition in the Machine's `status.conditions` to look at. When the condition is
    /// absent, the gate counts as not satisfied.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub condition_type: String,
    /// Which status satisfies the gate: `Positive` (the default) wants the condition to be `True`,
    /// `Negative` wants it to be `False`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub polarity: String,
}

/// Desired state of a Machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSpec {
    /// Source of the data that bootstraps the host into a node.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub bootstrap: Bootstrap,
    /// Name of the Cluster the Machine is part of.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub cluster_name: String,
    /// Time limits for deleting this Machine.
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachineDeletionSpec,
    /// Failure domain to put the host in, normally one of those the Cluster lists in
    /// `status.failureDomains`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_domain: String,
    /// The infrastructure provider object representing the host, for example an AWSMachine.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub infrastructure_ref: ContractVersionedObjectReference,
    /// How many seconds the Machine's Node has to be ready before the Machine counts as available.
    /// Defaults to 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// Identifier of the host at the infrastructure provider. It equals the Node's
    /// `spec.providerID` and is how the Machine is matched to its Node.
    #[serde(rename = "providerID", skip_serializing_if = "String::is_empty")]
    pub provider_id: String,
    /// Additional conditions that must be met before the Machine's `Ready` condition can turn true,
    /// one per `conditionType`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub readiness_gates: Vec<MachineReadinessGate>,
    /// Taints to keep on the Machine's Node, one per `key` and `effect` pair.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("key", "effect"))]
    pub taints: Vec<MachineTaint>,
    /// Kubernetes version the node should run, for example `v1.34.1`. Bootstrap providers use it to
    /// install the matching kubelet.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
}

/// Observed state of a Machine, as reported by the Cluster API controllers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineStatus {
    /// Network addresses of the host, as the infrastructure provider reports them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<MachineAddress>,
    /// When the certificates on the host run out. Only filled in for control plane Machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificates_expiry_date: Option<metav1::Time>,
    /// The Machine's current conditions, one per type, such as `Available`, `Ready`, `UpToDate`,
    /// `BootstrapConfigReady`, `InfrastructureReady` and `NodeHealthy`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<metav1::Condition>,
    /// Progress of the Machine's deletion; only present while it is being deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion: Option<MachineDeletionStatus>,
    /// Deprecated status fields of the v1beta1 API, kept for backward compatibility only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<MachineDeprecatedStatus>,
    /// The failure domain the host really landed in, as reported by the infrastructure provider.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_domain: String,
    /// Milestones reached while bringing the Machine up.
    #[serde(skip_serializing_if = "is_default")]
    pub initialization: MachineInitializationStatus,
    /// When `phase` last took a new value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<metav1::Time>,
    /// System facts the Node reports about itself, such as OS, kernel, container runtime and
    /// kubelet version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_info: Option<corev1::NodeSystemInfo>,
    /// The Node this Machine turned into, once the host has joined the cluster.
    #[serde(skip_serializing_if = "is_default")]
    pub node_ref: MachineNodeReference,
    /// The `metadata.generation` that the controller most recently acted on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(by_value)]
    pub observed_generation: Option<i64>,
    /// A rough summary of the Machine's lifecycle stage, for example `Pending`, `Provisioning`,
    /// `Running` or `Deleting`. Conditions carry the detail.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
}

/// A taint that Cluster API puts on the Node of a Machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineTaint {
    /// What happens to Pods that do not tolerate the taint: `NoSchedule`, `PreferNoSchedule` or
    /// `NoExecute`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub effect: String,
    /// Key of the taint, for example `example.com/gpu`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub key: String,
    /// When the taint is applied: `Always` keeps it on the Node for the Machine's whole life;
    /// `OnInitialization` sets it once when the Node registers, and leaves it alone after that.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub propagation: String,
    /// Value of the taint; may be empty.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
}

/// Machine status fields as defined by the v1beta1 contract. Deprecated: present only so v1beta1
/// clients keep working, and removed together with v1beta1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineV1Beta1DeprecatedStatus {
    /// Deprecated: conditions in the v1beta1 format. Read `status.conditions` instead.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Deprecated: human-readable text describing a problem with the Machine that the controller
    /// could not recover from. Kept only for the v1beta1 contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_message: Option<String>,
    /// Deprecated: short code for a problem with the Machine that the controller could not recover
    /// from. Kept only for the v1beta1 contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
}
