use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1", to_hub = "fix")]
pub struct Thing {
    pub name: String,
}

fn main() {}
