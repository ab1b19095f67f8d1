use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[schema(min_length = 1, min_length = 2)]
    pub name: String,
}

fn main() {}
