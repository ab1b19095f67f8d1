use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Bad {
    #[serde(serialize_with = "write_upper")]
    pub name: String,
}
