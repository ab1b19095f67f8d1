//! The ExtensionConfig object of v1beta2.

use std::collections::BTreeMap;

use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

use crate::__private::{is_default, is_zero};
use crate::Schema;
use crate::api::core::v1beta2::Condition as V1Beta1Condition;

/// Registers a Runtime Extension: where to reach it, which namespaces it serves, and (in the
/// status) the handlers it reported through Discovery.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
#[crd(
    group = "runtime.cluster.x-k8s.io",
    version = "v1beta2",
    plural = "extensionconfigs",
    short_names("ext"),
    categories("cluster-api"),
    scope = "Cluster",
    status,
    storage,
    printcolumn(
        name = "Paused",
        type = "string",
        json_path = ".status.conditions[?(@.type==\"Paused\")].status",
        description = "Whether reconciliation is paused",
        priority = 10
    ),
    printcolumn(
        name = "Discovered",
        type = "string",
        json_path = ".status.conditions[?(@.type==\"Discovered\")].status",
        description = "Whether discovery of the extension succeeded"
    ),
    printcolumn(
        name = "Age",
        type = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since creation"
    )
)]
// Two printer columns have `type = "string"`; clippy takes that for a repeated attribute.
#[allow(clippy::duplicated_attributes)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfig {
    /// `runtime.cluster.x-k8s.io/v1beta2`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `ExtensionConfig`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Standard object metadata.
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// What the operator asks for.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: ExtensionConfigSpec,
    /// What the controller observed.
    #[serde(skip_serializing_if = "is_default")]
    pub status: ExtensionConfigStatus,
}

/// Where the extension is and which Clusters it serves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfigSpec {
    /// How to reach the extension.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub client_config: ClientConfig,
    /// Only Clusters in namespaces that match are sent to the extension's handlers. An empty
    /// selector matches every namespace; the admission webhook sets one when it is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<metav1::LabelSelector>,
    /// Key/value pairs passed to every call of the extension's handlers. A ClusterClass can
    /// override them for its Clusters.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
}

/// How to connect to the extension: exactly one of `url` and `service`, and the CA bundle that
/// signs its certificate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2",
    min_properties = 1
)]
#[serde(default, rename_all = "camelCase")]
pub struct ClientConfig {
    /// The extension's base URL, `https://host[:port][/path]`, without user info, query or
    /// fragment. Hook paths are appended to it.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(min_length = 1, max_length = 512)]
    pub url: String,
    /// A Kubernetes Service in front of the extension.
    #[serde(skip_serializing_if = "is_default")]
    pub service: ServiceReference,
    /// PEM-encoded CA certificates that verify the extension's serving certificate.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(min_length = 1, max_length = 51200)]
    pub ca_bundle: ByteString,
}

/// A Service in front of an extension.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceReference {
    /// Namespace of the Service.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required, min_length = 1, max_length = 63)]
    pub namespace: String,
    /// Name of the Service.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required, min_length = 1, max_length = 63)]
    pub name: String,
    /// Path prefix put before every hook path.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(min_length = 1, max_length = 512)]
    pub path: String,
    /// Port of the Service; 443 when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

impl ServiceReference {
    /// True when any field is set.
    pub fn is_defined(&self) -> bool {
        *self != ServiceReference::default()
    }
}

/// What the controller observed about the extension.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2",
    min_properties = 1
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfigStatus {
    /// Current state, in the standard Kubernetes condition form (`Discovered`, `Paused`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"), max_items = 32)]
    pub conditions: Vec<metav1::Condition>,
    /// The handlers the extension reported in its last successful Discovery.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"), max_items = 512)]
    pub handlers: Vec<ExtensionHandler>,
    /// Status fields kept for clients of the older API.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<ExtensionConfigDeprecatedStatus>,
}

/// Status fields kept for clients of older API versions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfigDeprecatedStatus {
    /// The fields of the v1beta1 contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta1: Option<ExtensionConfigV1Beta1DeprecatedStatus>,
}

/// The status fields of the v1beta1 contract.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfigV1Beta1DeprecatedStatus {
    /// Conditions in Cluster API's older condition form.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<V1Beta1Condition>,
}

/// One handler of the extension, as recorded by discovery.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionHandler {
    /// `<handler name>.<ExtensionConfig name>`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required, min_length = 1, max_length = 512)]
    pub name: String,
    /// The hook the handler implements.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub request_hook: GroupVersionHook,
    /// Seconds Cluster API waits for the handler; 10 when unset.
    #[serde(skip_serializing_if = "is_zero")]
    #[schema(minimum = 1)]
    pub timeout_seconds: i32,
    /// What Cluster API does when calling the handler fails; Fail when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<FailurePolicy>,
}

/// Identifies a hook.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
#[serde(default, rename_all = "camelCase")]
pub struct GroupVersionHook {
    /// `<group>/<version>` of the hook.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required, min_length = 1, max_length = 512)]
    pub api_version: String,
    /// The hook name.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required, min_length = 1, max_length = 256)]
    pub hook: String,
}

/// What Cluster API does when calling a handler fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
)]
pub enum FailurePolicy {
    /// Errors calling the handler are ignored.
    Ignore,
    /// Errors calling the handler fail the operation.
    #[default]
    Fail,
}
