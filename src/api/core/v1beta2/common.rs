//! Small types several core objects share.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::Schema;

/// TODO doc Condition
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Condition {
    /// TODO doc Condition.lastTransitionTime
    pub last_transition_time: Option<metav1::Time>,
    /// TODO doc Condition.message
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// TODO doc Condition.reason
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// TODO doc Condition.severity
    #[serde(skip_serializing_if = "String::is_empty")]
    pub severity: String,
    /// TODO doc Condition.status
    pub status: String,
    /// TODO doc Condition.type
    pub r#type: String,
}

/// TODO doc ContractVersionedObjectReference
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ContractVersionedObjectReference {
    /// TODO doc ContractVersionedObjectReference.apiGroup
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub api_group: String,
    /// TODO doc ContractVersionedObjectReference.kind
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub kind: String,
    /// TODO doc ContractVersionedObjectReference.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// TODO doc ObjectMeta
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectMeta {
    /// TODO doc ObjectMeta.annotations
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// TODO doc ObjectMeta.labels
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}
