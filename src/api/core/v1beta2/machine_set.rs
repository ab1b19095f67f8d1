//! The MachineSet object: a set of identical Machines.

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::_private::is_default;
use crate::Schema;

/// TODO doc MachineNamingSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineNamingSpec {
    /// TODO doc MachineNamingSpec.template
    #[serde(skip_serializing_if = "String::is_empty")]
    pub template: String,
}

/// TODO doc MachineSet
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSet {
    /// TODO doc MachineSet.apiVersion
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// TODO doc MachineSet.kind
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// TODO doc MachineSet.metadata
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// TODO doc MachineSet.spec
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: MachineSetSpec,
    /// TODO doc MachineSet.status
    #[serde(skip_serializing_if = "is_default")]
    pub status: MachineSetStatus,
}

/// TODO doc MachineSetDeletionSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetDeletionSpec {
    /// TODO doc MachineSetDeletionSpec.order
    #[serde(skip_serializing_if = "String::is_empty")]
    pub order: String,
}

/// TODO doc MachineSetDeprecatedStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetDeprecatedStatus {
    /// TODO doc MachineSetDeprecatedStatus.v1beta1
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta1: Option<MachineSetV1Beta1DeprecatedStatus>,
}

/// TODO doc MachineSetSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetSpec {
    /// TODO doc MachineSetSpec.clusterName
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub cluster_name: String,
    /// TODO doc MachineSetSpec.deletion
    #[serde(skip_serializing_if = "is_default")]
    pub deletion: MachineSetDeletionSpec,
    /// TODO doc MachineSetSpec.machineNaming
    #[serde(skip_serializing_if = "is_default")]
    pub machine_naming: MachineNamingSpec,
    /// TODO doc MachineSetSpec.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc MachineSetSpec.selector
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub selector: metav1::LabelSelector,
    /// TODO doc MachineSetSpec.template
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub template: MachineTemplateSpec,
}

/// TODO doc MachineSetStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetStatus {
    /// TODO doc MachineSetStatus.availableReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// TODO doc MachineSetStatus.conditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<metav1::Condition>,
    /// TODO doc MachineSetStatus.deprecated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<MachineSetDeprecatedStatus>,
    /// TODO doc MachineSetStatus.observedGeneration
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// TODO doc MachineSetStatus.readyReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// TODO doc MachineSetStatus.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc MachineSetStatus.selector
    #[serde(skip_serializing_if = "String::is_empty")]
    pub selector: String,
    /// TODO doc MachineSetStatus.upToDateReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// TODO doc MachineSetStatus.versions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("version"))]
    pub versions: Vec<StatusVersion>,
}

/// TODO doc MachineSetV1Beta1DeprecatedStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetV1Beta1DeprecatedStatus {
    /// TODO doc MachineSetV1Beta1DeprecatedStatus.availableReplicas
    #[schema(optional)]
    pub available_replicas: i32,
    /// TODO doc MachineSetV1Beta1DeprecatedStatus.conditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// TODO doc MachineSetV1Beta1DeprecatedStatus.failureMessage
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_message: String,
    /// TODO doc MachineSetV1Beta1DeprecatedStatus.failureReason
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_reason: String,
    /// TODO doc MachineSetV1Beta1DeprecatedStatus.fullyLabeledReplicas
    #[schema(optional)]
    pub fully_labeled_replicas: i32,
    /// TODO doc MachineSetV1Beta1DeprecatedStatus.readyReplicas
    #[schema(optional)]
    pub ready_replicas: i32,
}

/// TODO doc MachineTemplateSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct MachineTemplateSpec {
    /// TODO doc MachineTemplateSpec.metadata
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: ObjectMeta,
    /// TODO doc MachineTemplateSpec.spec
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: MachineSpec,
}
