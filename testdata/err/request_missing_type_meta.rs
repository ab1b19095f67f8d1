use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1", request)]
pub struct HalfRequest {
    pub api_version: String,
}
