//! The chained upgrade hook: an extension chooses the intermediate Kubernetes versions of an
//! upgrade that spans several minor versions.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ResponseStatus;
use crate::__private::is_default;
use crate::api::core::v1beta2::Cluster;
use crate::{Hook, Schema};

/// Called when a Cluster's upgrade spans more than one minor version. The response lists the
/// versions the control plane goes through (at least one per minor version, increasing, ending
/// with the target) and optionally those of the workers; with no worker list Cluster API picks
/// the fewest worker steps itself.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = GenerateUpgradePlanRequest,
    response = GenerateUpgradePlanResponse,
    tags("Chained Upgrade Hook"),
    summary = "Plans the intermediate versions of an upgrade"
)]
pub struct GenerateUpgradePlan;

/// The request of the GenerateUpgradePlan hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct GenerateUpgradePlanRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `GenerateUpgradePlanRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster being upgraded.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub cluster: Cluster,
    /// The version the control plane runs now.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub from_control_plane_kubernetes_version: String,
    /// The oldest version the workers run now, when there are workers.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub from_workers_kubernetes_version: String,
    /// The version the upgrade ends at.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub to_kubernetes_version: String,
}

/// The response of the GenerateUpgradePlan hook: the planned steps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct GenerateUpgradePlanResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `GenerateUpgradePlanResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The versions the control plane goes through, in order, ending with the target.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStep>,
    /// The versions the workers go through; empty lets Cluster API choose.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStep>,
}

/// One step of an upgrade plan.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct UpgradeStep {
    /// The Kubernetes version of the step.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
}
