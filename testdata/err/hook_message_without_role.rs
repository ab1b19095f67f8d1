use capi_runtime::{Hook, Schema};
use serde::Serialize;

#[derive(Hook)]
#[hook(group = "err.example.com", version = "v1alpha1", request = PlainReq, response = PlainResp)]
pub struct Plain;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub struct PlainReq {
    pub api_version: String,
    pub kind: String,
}

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1", response)]
pub struct PlainResp {
    pub api_version: String,
    pub kind: String,
    pub status: capi_runtime::hooks::v1alpha1::ResponseStatus,
    pub message: String,
}
