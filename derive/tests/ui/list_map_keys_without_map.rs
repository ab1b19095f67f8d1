use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[schema(list_map_keys("name"))]
    pub items: Vec<String>,
}

fn main() {}
