// A hook with a retryable response and a singleton hook.
use std::collections::BTreeMap;

use capi_runtime::hooks::v1alpha1::ResponseStatus;
use capi_runtime::{Hook, Schema};
use serde::{Deserialize, Serialize};

/// Asks the extension to greet.
///
/// A longer description that spans
/// two lines.
#[derive(Hook)]
#[hook(
    group = "golden.example.com",
    version = "v1alpha1",
    request = GreetRequest,
    response = GreetResponse,
    tags("Greetings"),
    summary = "Greets"
)]
pub struct Greet;

/// Lists what the extension can do.
#[derive(Hook)]
#[hook(
    group = "golden.example.com",
    version = "v1alpha1",
    request = ListRequest,
    response = ListResponse,
    singleton,
    deprecated
)]
pub struct List;

/// The request of Greet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/hooks/v1alpha1", request)]
#[serde(default, rename_all = "camelCase")]
pub struct GreetRequest {
    /// apiVersion.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Settings.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
    /// Who to greet.
    pub who: String,
}

/// The response of Greet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/hooks/v1alpha1", retryable)]
#[serde(default, rename_all = "camelCase")]
pub struct GreetResponse {
    /// apiVersion.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome.
    pub status: ResponseStatus,
    /// Message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Retry after this many seconds.
    pub retry_after_seconds: i32,
}

/// The request of List: no settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/hooks/v1alpha1", request)]
#[serde(default, rename_all = "camelCase")]
pub struct ListRequest {
    /// apiVersion.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

/// The response of List.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/hooks/v1alpha1", response)]
#[serde(default, rename_all = "camelCase")]
pub struct ListResponse {
    /// apiVersion.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome.
    pub status: ResponseStatus,
    /// Message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}
