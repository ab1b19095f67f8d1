// Fields of the known external types: k8s-openapi and serde_json.
use std::collections::BTreeMap;

use capi_runtime::Schema;
use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};

/// An object with standard metadata and external field types.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default, rename_all = "camelCase")]
pub struct Thing {
    /// Standard metadata: a struct value, default {}.
    pub metadata: metav1::ObjectMeta,
    /// A time: custom JSON, no default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<metav1::Time>,
    /// A count or a percentage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// Any embedded object.
    pub object: RawExtension,
    /// Base64 bytes, written in place.
    pub data: ByteString,
    /// Any JSON value, written in place.
    pub extra: serde_json::Value,
    /// Standard conditions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<metav1::Condition>,
    /// Annotations of any JSON value.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, serde_json::Value>,
}
