use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(name = "a.Thing", package = "example.com/ui/v1")]
pub struct Thing {
    pub name: String,
}

fn main() {}
