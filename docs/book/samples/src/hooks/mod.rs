//! A hook of our own group, for the generator chapter: `runtime-openapi-gen --input` reads this
//! directory (`src/hooks`) and publishes it as an OpenAPI document.

// ANCHOR: hook
use std::collections::BTreeMap;

use capi_runtime::hooks::v1alpha1::ResponseStatus;
use capi_runtime::{Hook, Schema};
use serde::{Deserialize, Serialize};

/// Asks the backup service to take a backup of a Cluster before something risky happens.
#[derive(Hook)]
#[hook(
    group = "backups.example.com",
    version = "v1alpha1",
    request = TakeBackupRequest,
    response = TakeBackupResponse,
    tags("Backups"),
)]
pub struct TakeBackup;

/// The request of TakeBackup.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/backups/api/v1alpha1", request)]
#[serde(default, rename_all = "camelCase")]
pub struct TakeBackupRequest {
    /// The schema version of the message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings of the call.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// The namespace of the Cluster.
    pub namespace: String,
    /// The name of the Cluster.
    pub cluster_name: String,
}

/// The response of TakeBackup: blocking until the backup exists.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/backups/api/v1alpha1", retryable)]
#[serde(default, rename_all = "camelCase")]
pub struct TakeBackupResponse {
    /// The schema version of the message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Why, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Seconds until the caller should ask again; 0 once the backup is done.
    pub retry_after_seconds: i32,
    /// The name of the backup, once taken.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub backup_name: String,
}
// ANCHOR_END: hook

// ANCHOR: serve
use capi_runtime::Catalog;
use capi_runtime::server::ServerBuilder;

/// A catalog with the built-in hooks and ours; both the server and a client use it.
pub fn catalog() -> Catalog {
    let mut catalog = capi_runtime::hooks::catalog();
    catalog
        .register::<TakeBackup>()
        .expect("TakeBackup is not registered twice");
    catalog
}

/// A server that serves our hook next to Cluster API's: `take_backup` takes a
/// `TakeBackupRequest`, so it is a handler of TakeBackup.
pub fn server_builder() -> ServerBuilder {
    ServerBuilder::with_catalog(catalog()).handle("take-backup", take_backup)
}

/// The handler: a real one would start the backup and answer with a retry until it is done.
pub async fn take_backup(request: TakeBackupRequest) -> TakeBackupResponse {
    let mut response = TakeBackupResponse::success();
    response.backup_name = format!("{}-{}", request.namespace, request.cluster_name);
    response
}
// ANCHOR_END: serve
