//! The in-place update hooks: planning and performing changes to machines without replacing
//! them.

use std::collections::BTreeMap;

use crate::raw::RawExtension;
use k8s_openapi::ByteString;
use serde::{Deserialize, Serialize};

use super::{PatchType, ResponseStatus};
use crate::__private::is_default;
use crate::api::core::v1beta2::{Machine, MachineSet};
use crate::{Hook, Schema};

/// Called while Cluster API plans an update of a Machine. Given the current and desired Machine,
/// infrastructure machine and bootstrap config, the extension answers with patches to the current
/// objects that cover the part of the change it can make in place. Whatever stays uncovered is
/// done by replacing the Machine.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = CanUpdateMachineRequest,
    response = CanUpdateMachineResponse,
    tags("In-Place Update Hooks"),
    summary = "Tells which changes to a Machine can be made in place"
)]
pub struct CanUpdateMachine;

/// The request of the CanUpdateMachine hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct CanUpdateMachineRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `CanUpdateMachineRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The objects as they are.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub current: CanUpdateMachineRequestObjects,
    /// The objects as they should be.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub desired: CanUpdateMachineRequestObjects,
}

/// A Machine and the objects it uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct CanUpdateMachineRequestObjects {
    /// The Machine (only its spec matters).
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub machine: Machine,
    /// The infrastructure machine (only its spec matters).
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub infrastructure_machine: RawExtension,
    /// The bootstrap config (only its spec matters), when the Machine has one.
    #[serde(skip_serializing_if = "is_default")]
    pub bootstrap_config: RawExtension,
}

/// The response of the CanUpdateMachine hook: patches to the current objects for what can change in place.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct CanUpdateMachineResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `CanUpdateMachineResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Patch to the current Machine.
    #[serde(skip_serializing_if = "is_default")]
    pub machine_patch: Patch,
    /// Patch to the current infrastructure machine.
    #[serde(skip_serializing_if = "is_default")]
    pub infrastructure_machine_patch: Patch,
    /// Patch to the current bootstrap config.
    #[serde(skip_serializing_if = "is_default")]
    pub bootstrap_config_patch: Patch,
}

/// Like CanUpdateMachine, for a MachineSet and its infrastructure machine template and bootstrap
/// config template; only `spec.template.spec` of each object matters.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = CanUpdateMachineSetRequest,
    response = CanUpdateMachineSetResponse,
    tags("In-Place Update Hooks"),
    summary = "Tells which changes to a MachineSet's machines can be made in place"
)]
pub struct CanUpdateMachineSet;

/// The request of the CanUpdateMachineSet hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct CanUpdateMachineSetRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `CanUpdateMachineSetRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The objects as they are.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub current: CanUpdateMachineSetRequestObjects,
    /// The objects as they should be.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub desired: CanUpdateMachineSetRequestObjects,
}

/// A MachineSet and the templates it uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct CanUpdateMachineSetRequestObjects {
    /// The MachineSet (only `spec.template.spec` matters).
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub machine_set: MachineSet,
    /// The infrastructure machine template.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub infrastructure_machine_template: RawExtension,
    /// The bootstrap config template, when the MachineSet has one.
    #[serde(skip_serializing_if = "is_default")]
    pub bootstrap_config_template: RawExtension,
}

/// The response of the CanUpdateMachineSet hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct CanUpdateMachineSetResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `CanUpdateMachineSetResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Patch to the current MachineSet.
    #[serde(skip_serializing_if = "is_default")]
    pub machine_set_patch: Patch,
    /// Patch to the current infrastructure machine template.
    #[serde(skip_serializing_if = "is_default")]
    pub infrastructure_machine_template_patch: Patch,
    /// Patch to the current bootstrap config template.
    #[serde(skip_serializing_if = "is_default")]
    pub bootstrap_config_template_patch: Patch,
}

/// Called to make the in-place changes that CanUpdateMachine accepted. It must be idempotent:
/// Cluster API calls it again after `retryAfterSeconds` until it answers Success with 0
/// (done) or Failure.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = UpdateMachineRequest,
    response = UpdateMachineResponse,
    tags("In-Place Update Hooks"),
    summary = "Updates a Machine in place"
)]
pub struct UpdateMachine;

/// The request of the UpdateMachine hook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateMachineRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `UpdateMachineRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings for this call: the ExtensionConfig's settings, overridden by the ClusterClass's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The objects as they should be after the update.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub desired: UpdateMachineRequestObjects,
}

/// A Machine and the objects it uses, as they should be after the update.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateMachineRequestObjects {
    /// The Machine (only its spec matters).
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub machine: Machine,
    /// The infrastructure machine (only its spec matters).
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub infrastructure_machine: RawExtension,
    /// The bootstrap config (only its spec matters), when the Machine has one.
    #[serde(skip_serializing_if = "is_default")]
    pub bootstrap_config: RawExtension,
}

/// The response of the UpdateMachine hook: Success with 0 means done, with more means in progress.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    retryable
)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateMachineResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `UpdateMachineResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds after which Cluster API calls the hook again; 0 means done.
    pub retry_after_seconds: i32,
}

/// A patch document and its encoding.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct Patch {
    /// How `patch` is encoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required, by_value)]
    pub patch_type: Option<PatchType>,
    /// The patch document, base64-encoded on the wire.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub patch: ByteString,
}
