use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1", request, response)]
pub struct Thing {
    pub api_version: String,
    pub kind: String,
}

fn main() {}
