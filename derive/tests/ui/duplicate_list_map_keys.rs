use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[schema(list_type = "map", list_map_keys("name"), list_map_keys("kind"))]
    pub items: Vec<Item>,
}

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Item {
    pub name: String,
    pub kind: String,
}

fn main() {}
