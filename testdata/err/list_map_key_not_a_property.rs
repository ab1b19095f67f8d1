use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Holder {
    #[schema(list_type = "map", list_map_keys("nmae"))]
    pub entries: Vec<Entry>,
}

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Entry {
    pub name: String,
}
