use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Bad {
    pub pair: (String, String),
}
