//! The topology mutation hooks: patching the templates of a ClusterClass-based Cluster,
//! validating the result, and declaring the variables an extension's patches use.

use std::collections::BTreeMap;

use k8s_openapi::ByteString;
use serde::{Deserialize, Serialize};

use super::{PatchType, ResponseStatus};
use crate::api::core::v1beta2::ClusterClassVariable;
use crate::raw::{Json, RawExtension};
use crate::{Hook, Schema};

/// Called on every reconcile of a Cluster with a managed topology, while Cluster API computes the
/// desired state of its objects from the ClusterClass templates. The request holds the templates
/// and the variables; the response holds patches, applied in order, to the templates.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = GeneratePatchesRequest,
    response = GeneratePatchesResponse,
    tags("Topology Mutation Hook"),
    summary = "Patches the templates of a Cluster's topology"
)]
pub struct GeneratePatches;

/// The request of the GeneratePatches hook: templates to patch and the variables to patch them with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct GeneratePatchesRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `GeneratePatchesRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// Variables that apply to every template, including the builtin variable `builtin`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
    /// The templates to patch.
    pub items: Vec<GeneratePatchesRequestItem>,
}

/// One template to patch, with what uses it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct GeneratePatchesRequestItem {
    /// Identifies the item; the patch for this template carries the same uid.
    pub uid: String,
    /// The object that uses the template.
    pub holder_reference: HolderReference,
    /// The template object itself.
    pub object: RawExtension,
    /// Variables that apply only to this template, such as the builtin values of one
    /// MachineDeployment.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
}

/// The response of the GeneratePatches hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct GeneratePatchesResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `GeneratePatchesResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The patches to apply, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<GeneratePatchesResponseItem>,
}

/// A patch for one template of the request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct GeneratePatchesResponseItem {
    /// The uid of the request item the patch applies to.
    pub uid: String,
    /// How `patch` is encoded.
    pub patch_type: PatchType,
    /// The patch document, base64-encoded on the wire.
    pub patch: ByteString,
}

/// Called after every patch was applied to the templates of a Cluster with a managed topology.
/// A Failure response rejects the topology; Cluster API reports the message.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = ValidateTopologyRequest,
    response = ValidateTopologyResponse,
    tags("Topology Mutation Hook"),
    summary = "Validates a Cluster's topology after patching"
)]
pub struct ValidateTopology;

/// The request of the ValidateTopology hook: the patched templates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct ValidateTopologyRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `ValidateTopologyRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// Variables that apply to every template, including the builtin variable `builtin`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
    /// The templates to validate.
    #[schema(no_default)]
    pub items: Vec<ValidateTopologyRequestItem>,
}

/// One patched template to validate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ValidateTopologyRequestItem {
    /// The object that uses the template.
    pub holder_reference: HolderReference,
    /// The patched template object.
    pub object: RawExtension,
    /// Variables that apply only to this template.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
}

/// The response of the ValidateTopology hook: Success accepts the topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct ValidateTopologyResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `ValidateTopologyResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// A named variable value passed to topology mutation hooks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct Variable {
    /// The variable name; `builtin` holds the values Cluster API provides itself.
    pub name: String,
    /// The value, any JSON.
    pub value: Json,
}

/// Identifies the object that uses a template, and the field that references it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct HolderReference {
    /// API version of the holder.
    pub api_version: String,
    /// Kind of the holder.
    pub kind: String,
    /// Namespace of the holder.
    pub namespace: String,
    /// Name of the holder.
    pub name: String,
    /// Path of the field in the holder that references the template, e.g.
    /// `spec.infrastructureRef`.
    pub field_path: String,
}

/// Called when Cluster API reconciles a ClusterClass that uses the extension's patches. The
/// response declares the variables, with their schemas, that Clusters of the class can set.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = DiscoverVariablesRequest,
    response = DiscoverVariablesResponse,
    tags("Topology Mutation Hook"),
    summary = "Declares the variables an extension's patches use"
)]
pub struct DiscoverVariables;

/// The request of the DiscoverVariables hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct DiscoverVariablesRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `DiscoverVariablesRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
}

/// The response of the DiscoverVariables hook: the variables and their schemas.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct DiscoverVariablesResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `DiscoverVariablesResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The variables the extension's patches read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<ClusterClassVariable>,
}
