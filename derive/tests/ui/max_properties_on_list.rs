use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[schema(max_properties = 1)]
    pub tags: Vec<String>,
}

fn main() {}
