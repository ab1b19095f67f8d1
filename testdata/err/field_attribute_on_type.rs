use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1", required)]
pub struct Bad {
    pub name: String,
}
