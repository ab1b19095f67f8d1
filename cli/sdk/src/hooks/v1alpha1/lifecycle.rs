//! The lifecycle hooks: notifications and gates around creating, upgrading and deleting a
//! Cluster with a managed topology.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ResponseStatus;
use crate::api::core::v1beta2::Cluster;
use crate::{Hook, Schema};

/// Called after a Cluster with a managed topology is created and before any of the objects of
/// its topology are created. A response with `retryAfterSeconds` > 0 holds the creation back;
/// Cluster API calls again after that many seconds.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = BeforeClusterCreateRequest,
    response = BeforeClusterCreateResponse,
    tags("Lifecycle Hooks"),
    summary = "Blocks the creation of a Cluster's topology"
)]
pub struct BeforeClusterCreate;

/// The request of the BeforeClusterCreate hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeClusterCreateRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterCreateRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
}

/// The response of the BeforeClusterCreate hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeClusterCreateResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterCreateResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// Called once, when the Cluster's control plane becomes reachable for the first time. A
/// notification: the response cannot hold anything back.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = AfterControlPlaneInitializedRequest,
    response = AfterControlPlaneInitializedResponse,
    tags("Lifecycle Hooks"),
    summary = "Tells that the control plane answers for the first time"
)]
pub struct AfterControlPlaneInitialized;

/// The request of the AfterControlPlaneInitialized hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterControlPlaneInitializedRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterControlPlaneInitializedRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
}

/// The response of the AfterControlPlaneInitialized hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterControlPlaneInitializedResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterControlPlaneInitializedResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// Called once when `spec.topology.version` changes, before the new version reaches the
/// control plane. The request lists the upgrade steps Cluster API plans; a response with
/// `retryAfterSeconds` > 0 delays the whole upgrade.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = BeforeClusterUpgradeRequest,
    response = BeforeClusterUpgradeResponse,
    tags("Lifecycle Hooks"),
    summary = "Blocks the start of a Cluster upgrade"
)]
pub struct BeforeClusterUpgrade;

/// The request of the BeforeClusterUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeClusterUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
    /// The Kubernetes version the step starts from.
    pub from_kubernetes_version: String,
    /// The Kubernetes version the step goes to.
    pub to_kubernetes_version: String,
    /// The control-plane upgrade steps planned after this point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStepInfo>,
    /// The workers upgrade steps planned after this point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStepInfo>,
}

/// The response of the BeforeClusterUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeClusterUpgradeResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterUpgradeResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// Called before each version (final or intermediate) is applied to the control plane, after
/// BeforeClusterUpgrade allowed the upgrade. `fromKubernetesVersion`/`toKubernetesVersion` are
/// the step about to happen; the lists hold the steps that remain after it.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = BeforeControlPlaneUpgradeRequest,
    response = BeforeControlPlaneUpgradeResponse,
    tags("Lifecycle Hooks"),
    summary = "Blocks one control-plane upgrade step"
)]
pub struct BeforeControlPlaneUpgrade;

/// The request of the BeforeControlPlaneUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeControlPlaneUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeControlPlaneUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
    /// The Kubernetes version the step starts from.
    pub from_kubernetes_version: String,
    /// The Kubernetes version the step goes to.
    pub to_kubernetes_version: String,
    /// The control-plane upgrade steps planned after this point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStepInfo>,
    /// The workers upgrade steps planned after this point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStepInfo>,
}

/// The response of the BeforeControlPlaneUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeControlPlaneUpgradeResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeControlPlaneUpgradeResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// Called when every control-plane machine runs the version of a step. A response with
/// `retryAfterSeconds` > 0 keeps the version from going on to MachineDeployments and
/// MachinePools.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = AfterControlPlaneUpgradeRequest,
    response = AfterControlPlaneUpgradeResponse,
    tags("Lifecycle Hooks"),
    summary = "Blocks what follows a control-plane upgrade step"
)]
pub struct AfterControlPlaneUpgrade;

/// The request of the AfterControlPlaneUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterControlPlaneUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterControlPlaneUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
    /// The Kubernetes version the machines now run.
    pub kubernetes_version: String,
    /// The control-plane upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStepInfo>,
    /// The workers upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStepInfo>,
}

/// The response of the AfterControlPlaneUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterControlPlaneUpgradeResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterControlPlaneUpgradeResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// Called before a version is applied to MachineDeployments and MachinePools, only for steps
/// that upgrade workers. The lists hold the steps that remain after this one.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = BeforeWorkersUpgradeRequest,
    response = BeforeWorkersUpgradeResponse,
    tags("Lifecycle Hooks"),
    summary = "Blocks one workers upgrade step"
)]
pub struct BeforeWorkersUpgrade;

/// The request of the BeforeWorkersUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeWorkersUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeWorkersUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
    /// The Kubernetes version the step starts from.
    pub from_kubernetes_version: String,
    /// The Kubernetes version the step goes to.
    pub to_kubernetes_version: String,
    /// The control-plane upgrade steps planned after this point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStepInfo>,
    /// The workers upgrade steps planned after this point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStepInfo>,
}

/// The response of the BeforeWorkersUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeWorkersUpgradeResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeWorkersUpgradeResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// Called when every worker machine runs the version of a step. A response with
/// `retryAfterSeconds` > 0 keeps the upgrade plan (or AfterClusterUpgrade) from going on.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = AfterWorkersUpgradeRequest,
    response = AfterWorkersUpgradeResponse,
    tags("Lifecycle Hooks"),
    summary = "Blocks what follows a workers upgrade step"
)]
pub struct AfterWorkersUpgrade;

/// The request of the AfterWorkersUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterWorkersUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterWorkersUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
    /// The Kubernetes version the machines now run.
    pub kubernetes_version: String,
    /// The control-plane upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStepInfo>,
    /// The workers upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStepInfo>,
}

/// The response of the AfterWorkersUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterWorkersUpgradeResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterWorkersUpgradeResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// Called when the control plane and every worker run `spec.topology.version`. A response with
/// `retryAfterSeconds` > 0 keeps Cluster API from starting another upgrade.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = AfterClusterUpgradeRequest,
    response = AfterClusterUpgradeResponse,
    tags("Lifecycle Hooks"),
    summary = "Tells that the whole Cluster is upgraded, and can block the next upgrade"
)]
pub struct AfterClusterUpgrade;

/// The request of the AfterClusterUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterClusterUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterClusterUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
    /// The Kubernetes version the whole Cluster now runs.
    pub kubernetes_version: String,
}

/// The response of the AfterClusterUpgrade hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct AfterClusterUpgradeResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterClusterUpgradeResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// Called after deletion of a Cluster with a managed topology was requested, before its
/// objects are deleted. A response with `retryAfterSeconds` > 0 holds the deletion back.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = BeforeClusterDeleteRequest,
    response = BeforeClusterDeleteResponse,
    tags("Lifecycle Hooks"),
    summary = "Blocks the deletion of a Cluster"
)]
pub struct BeforeClusterDelete;

/// The request of the BeforeClusterDelete hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeClusterDeleteRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterDeleteRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about.
    pub cluster: Cluster,
}

/// The response of the BeforeClusterDelete hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct BeforeClusterDeleteResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterDeleteResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 lets the operation proceed.
    pub retry_after_seconds: i32,
}

/// One step of an upgrade plan, as the lifecycle hooks report it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct UpgradeStepInfo {
    /// The Kubernetes version of the step.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
}
