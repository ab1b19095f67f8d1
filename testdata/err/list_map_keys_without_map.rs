use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Bad {
    #[schema(list_type = "atomic", list_map_keys("name"))]
    pub items: Vec<String>,
}
