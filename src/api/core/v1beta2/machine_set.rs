//! The MachineSet object: a set of identical Machines.

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::__private::is_default;
use crate::Schema;

/// How the names of newly created Machines are formed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineNamingSpec {
    /// Go template for the names of new Machines. It may use `{{ .cluster.name }}`, `{{
    /// .machineSet.name }}` and `{{ .random }}`, and has to contain `{{ .random }}`. When unset,
    /// names follow `{{ .machineSet.name }}-{{ .random }}`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub template: String,
}

/// Keeps a given number of identical Machines running; MachineDeployments create and own
/// MachineSets. The CanUpdateMachineSet hook receives the current and the desired MachineSet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSet {
    /// API version of the object, normally `cluster.x-k8s.io/v1beta2`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// Object kind, `MachineSet`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The usual Kubernetes object metadata: name, namespace, labels, annotations, owners and so
    /// on.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// How many Machines the set should have and what they look like.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: MachineSetSpec,
    /// What the MachineSet controller last observed about the set.
    #[serde(skip_serializing_if = "is_default")]
    pub status: MachineSetStatus,
}

/// Settings for removing Machines from a MachineSet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetDeletionSpec {
    /// Which Machines go first when the set shrinks: `Random` (the default), `Newest` or `Oldest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub order: String,
}

/// MachineSet status fields that survive only for clients of the older v1beta1 API.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetDeprecatedStatus {
    /// Deprecated: the status fields of the v1beta1 contract. They go away once v1beta1 support is
    /// dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta1: Option<MachineSetV1Beta1DeprecatedStatus>,
}

/// Desired state of a MachineSet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetSpec {
    /// Name of the Cluster the set's Machines are part of.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub cluster_name: String,
    /// Settings for removing Machines when the set shrinks.
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachineSetDeletionSpec,
    /// How the names of new Machines are formed.
    #[serde(skip_serializing_if = "is_default")]
    pub machine_naming: MachineNamingSpec,
    /// Number of Machines the set should have. When unset at creation, a default is chosen, taking
    /// the cluster autoscaler's size annotations into account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Label query that decides which Machines belong to the set. It has to match the labels in
    /// `template`.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub selector: metav1::LabelSelector,
    /// The Machine to create whenever the set needs another one.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub template: MachineTemplateSpec,
}

/// Observed state of a MachineSet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetStatus {
    /// How many of the set's Machines are available, i.e. have a true `Available` condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// The MachineSet's current conditions, one per type, such as `MachinesReady`,
    /// `MachinesUpToDate` and `ScalingUp`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<metav1::Condition>,
    /// Deprecated status fields of the v1beta1 API, kept for backward compatibility only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<MachineSetDeprecatedStatus>,
    /// The `metadata.generation` that the controller most recently acted on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(by_value)]
    pub observed_generation: Option<i64>,
    /// How many of the set's Machines have a true `Ready` condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// How many Machines the set currently has, in any state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The label selector written out as a string in query-parameter syntax, as the scale
    /// subresource expects it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub selector: String,
    /// How many of the set's Machines already match the desired spec (true `UpToDate` condition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// For each Kubernetes version in use, how many of the set's Machines run it; one entry per
    /// `version`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("version"))]
    pub versions: Vec<StatusVersion>,
}

/// MachineSet status fields as defined by the v1beta1 contract. Deprecated: present only so v1beta1
/// clients keep working, and removed together with v1beta1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetV1Beta1DeprecatedStatus {
    /// Deprecated: how many Machines were available, counted the v1beta1 way.
    #[schema(optional)]
    pub available_replicas: i32,
    /// Deprecated: conditions in the v1beta1 format. Read `status.conditions` instead.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Deprecated: human-readable text describing a problem with the MachineSet that the controller
    /// could not recover from. Kept only for the v1beta1 contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_message: Option<String>,
    /// Deprecated: short code for a problem with the MachineSet that the controller could not
    /// recover from. Kept only for the v1beta1 contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// Deprecated: how many Machines carry all the labels of the Machine template.
    #[schema(optional)]
    pub fully_labeled_replicas: i32,
    /// Deprecated: how many Machines were ready, counted the v1beta1 way.
    #[schema(optional)]
    pub ready_replicas: i32,
}

/// The blueprint that new Machines are created from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineTemplateSpec {
    /// Labels and annotations given to every Machine created from the template.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// Spec given to every Machine created from the template.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: MachineSpec,
}
