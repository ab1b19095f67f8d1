use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1", request, response)]
pub struct Both {
    pub api_version: String,
    pub kind: String,
    pub status: String,
    pub message: String,
}
