//! The ExtensionConfig object of v1alpha1. It differs from v1beta2 in optionality (pointers
//! where v1beta2 has values) and in its status, which keeps Cluster API's older conditions in
//! `conditions` and the newer ones under `v1beta2`.

use std::collections::BTreeMap;

use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

use crate::__private::is_default;
use crate::Schema;
use crate::api::core::v1beta2::Condition as V1Beta1Condition;
use crate::api::runtime::v1beta2;

/// Registers a Runtime Extension (deprecated version; use v1beta2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1",
    hub = v1beta2::ExtensionConfig
)]
#[crd(
    group = "runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    plural = "extensionconfigs",
    short_names("ext"),
    categories("cluster-api"),
    scope = "Cluster",
    status,
    deprecated,
    printcolumn(
        name = "Age",
        type = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since creation"
    )
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfig {
    /// `runtime.cluster.x-k8s.io/v1alpha1`.
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
    pub spec: ExtensionConfigSpec,
    /// What the controller observed.
    #[serde(skip_serializing_if = "is_default")]
    pub status: ExtensionConfigStatus,
}

/// Where the extension is and which Clusters it serves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfigSpec {
    /// How to reach the extension.
    pub client_config: ClientConfig,
    /// Only Clusters in namespaces that match are sent to the extension's handlers; an empty
    /// selector matches every namespace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<metav1::LabelSelector>,
    /// Key/value pairs passed to every call of the extension's handlers.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
}

/// How to connect to the extension: exactly one of `url` and `service`, and the CA bundle.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ClientConfig {
    /// The extension's base URL, `https://host[:port][/path]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 512)]
    pub url: Option<String>,
    /// A Kubernetes Service in front of the extension.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceReference>,
    /// PEM-encoded CA certificates that verify the extension's serving certificate.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(min_length = 1, max_length = 51200)]
    pub ca_bundle: ByteString,
}

/// A Service in front of an extension.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceReference {
    /// Namespace of the Service.
    #[schema(min_length = 1, max_length = 63)]
    pub namespace: String,
    /// Name of the Service.
    #[schema(min_length = 1, max_length = 63)]
    pub name: String,
    /// Path prefix put before every hook path.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 512)]
    pub path: Option<String>,
    /// Port of the Service; 443 when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

/// What the controller observed about the extension.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1",
    hub = v1beta2::ExtensionConfigStatus,
    to_hub = "super::conversion::status_to_hub",
    from_hub = "super::conversion::status_from_hub"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfigStatus {
    /// The handlers the extension reported in its last successful Discovery.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"), max_items = 512)]
    pub handlers: Vec<ExtensionHandler>,
    /// Conditions in Cluster API's older condition form.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<V1Beta1Condition>,
    /// Conditions in the standard Kubernetes form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta2: Option<ExtensionConfigV1Beta2Status>,
}

/// The v1beta2-style status fields, carried inside the older version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionConfigV1Beta2Status {
    /// Current state, in the standard Kubernetes condition form.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"), max_items = 32)]
    pub conditions: Vec<metav1::Condition>,
}

/// One handler of the extension, as recorded by discovery.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionHandler {
    /// `<handler name>.<ExtensionConfig name>`.
    #[schema(min_length = 1, max_length = 512)]
    pub name: String,
    /// The hook the handler implements.
    pub request_hook: GroupVersionHook,
    /// Seconds Cluster API waits for the handler; 10 when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i32>,
    /// What Cluster API does when calling the handler fails; Fail when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<FailurePolicy>,
}

/// Identifies a hook.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct GroupVersionHook {
    /// `<group>/<version>` of the hook.
    #[schema(min_length = 1, max_length = 512)]
    pub api_version: String,
    /// The hook name.
    #[schema(min_length = 1, max_length = 256)]
    pub hook: String,
}

/// What Cluster API does when calling a handler fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/v1alpha1"
)]
pub enum FailurePolicy {
    /// Errors calling the handler are ignored.
    Ignore,
    /// Errors calling the handler fail the operation.
    #[default]
    Fail,
}
