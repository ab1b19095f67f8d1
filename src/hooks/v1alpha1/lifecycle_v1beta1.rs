//! The nine lifecycle requests as Cluster API v1.12 sends them: the same fields, with a
//! `cluster.x-k8s.io/v1beta1` Cluster. Read only: generated code (`src/generated/conversion.rs`)
//! converts each to the request a handler sees ([`super::lifecycle`]), its Cluster to v1beta2
//! ([`crate::api::core::v1beta1`]); [`super::cluster_shape`] chooses between the two shapes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::lifecycle::*;
use crate::Schema;
use crate::api::core::v1beta1;

/// [`BeforeClusterCreateRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = BeforeClusterCreateRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1BeforeClusterCreateRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterCreateRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
}

/// [`AfterControlPlaneInitializedRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = AfterControlPlaneInitializedRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1AfterControlPlaneInitializedRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterControlPlaneInitializedRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
}

/// [`BeforeClusterUpgradeRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = BeforeClusterUpgradeRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1BeforeClusterUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
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

/// [`BeforeControlPlaneUpgradeRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = BeforeControlPlaneUpgradeRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1BeforeControlPlaneUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeControlPlaneUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
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

/// [`AfterControlPlaneUpgradeRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = AfterControlPlaneUpgradeRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1AfterControlPlaneUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterControlPlaneUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
    /// The Kubernetes version the machines now run.
    pub kubernetes_version: String,
    /// The control-plane upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStepInfo>,
    /// The workers upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStepInfo>,
}

/// [`BeforeWorkersUpgradeRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = BeforeWorkersUpgradeRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1BeforeWorkersUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeWorkersUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
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

/// [`AfterWorkersUpgradeRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = AfterWorkersUpgradeRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1AfterWorkersUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterWorkersUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
    /// The Kubernetes version the machines now run.
    pub kubernetes_version: String,
    /// The control-plane upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStepInfo>,
    /// The workers upgrade steps that remain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStepInfo>,
}

/// [`AfterClusterUpgradeRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = AfterClusterUpgradeRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1AfterClusterUpgradeRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `AfterClusterUpgradeRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
    /// The Kubernetes version the whole Cluster now runs.
    pub kubernetes_version: String,
}

/// [`BeforeClusterDeleteRequest`] as Cluster API v1.12 sends it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    hub = BeforeClusterDeleteRequest,
    to_hub_only
)]
#[serde(default, rename_all = "camelCase")]
pub struct V1Beta1BeforeClusterDeleteRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `BeforeClusterDeleteRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster the hook is about, in v1beta1.
    pub cluster: v1beta1::Cluster,
}
