use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1", retryable)]
pub struct Thing {
    pub api_version: String,
    pub kind: String,
    pub status: capi_runtime::hooks::v1alpha1::ResponseStatus,
}

fn main() {}
