use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::hooks::v1alpha1::ResponseStatus;
use capi_runtime::{Hook, Schema};

/// Says hello.
#[derive(Hook)]
#[hook(group = "hello.example.com", version = "v1", request = HelloRequest, response = HelloResponse)]
pub struct Hello;

/// Request.
#[derive(Schema)]
#[schema(package = "example.com/hello/v1", request)]
pub struct HelloRequest {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub cluster: Cluster,
}

/// Response.
#[derive(Schema)]
#[schema(package = "example.com/hello/v1", response)]
pub struct HelloResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub status: ResponseStatus,
    pub message: String,
}
