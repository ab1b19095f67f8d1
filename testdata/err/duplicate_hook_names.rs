use capi_runtime::Hook;

#[derive(Hook)]
#[hook(group = "err.example.com", version = "v1alpha1", request = AReq, response = AResp)]
pub struct Ping;

#[derive(Hook)]
#[hook(group = "err.example.com", version = "v1alpha1", name = "ping", request = BReq, response = BResp)]
pub struct PingAgain;

#[derive(serde::Serialize, capi_runtime::Schema)]
#[schema(package = "example.com/err/v1", request)]
pub struct AReq {
    pub api_version: String,
    pub kind: String,
}

#[derive(serde::Serialize, capi_runtime::Schema)]
#[schema(package = "example.com/err/v1", request)]
pub struct BReq {
    pub api_version: String,
    pub kind: String,
}

#[derive(serde::Serialize, capi_runtime::Schema)]
#[schema(package = "example.com/err/v1", response)]
pub struct AResp {
    pub api_version: String,
    pub kind: String,
    pub status: capi_runtime::hooks::v1alpha1::ResponseStatus,
    pub message: String,
}

#[derive(serde::Serialize, capi_runtime::Schema)]
#[schema(package = "example.com/err/v1", response)]
pub struct BResp {
    pub api_version: String,
    pub kind: String,
    pub status: capi_runtime::hooks::v1alpha1::ResponseStatus,
    pub message: String,
}
