//! Small types several core objects share.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::Schema;

/// A status condition in the older Cluster API format, which adds a severity to the usual
/// type/status/reason/message. Deprecated: it only appears in the `deprecated.v1beta1` status
/// blocks kept for clients of the v1beta1 contract; current status uses `metav1.Condition`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Condition {
    /// The moment the condition last switched from one status to another.
    pub last_transition_time: Option<metav1::Time>,
    /// Free-form text for humans with details about the latest transition; may be empty.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(min_length = 1, max_length = 10240)]
    pub message: String,
    /// A brief CamelCase code saying why the condition last changed; may be empty.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(min_length = 1, max_length = 256)]
    pub reason: String,
    /// How serious a `False` condition is: `Error`, `Warning` or `Info`. Left empty when the status
    /// is `True`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(max_length = 32)]
    pub severity: String,
    /// The state of the condition: `True`, `False` or `Unknown`.
    pub status: String,
    /// The name of the condition in CamelCase, for example `Ready`.
    #[schema(min_length = 1, max_length = 256)]
    pub r#type: String,
}

/// Points at a provider-owned object (infrastructure, control plane or bootstrap config) in the
/// namespace of the object that holds the reference. No API version is stored: Cluster API derives
/// it from the contract label on the provider's CRD.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ContractVersionedObjectReference {
    /// API group of the target object, such as `infrastructure.cluster.x-k8s.io`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub api_group: String,
    /// Kind of the target object, such as `DockerMachine`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub kind: String,
    /// Name of the target object; its namespace is that of the referring object.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// A reduced form of object metadata holding just labels and annotations. Templates and topology
/// sections use it to say what Cluster API should stamp on the objects it generates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectMeta {
    /// Annotations to set on the generated object.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// Labels to set on the generated object.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}
