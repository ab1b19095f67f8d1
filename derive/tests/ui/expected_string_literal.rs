use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = 1)]
pub struct Thing {
    pub name: String,
}

fn main() {}
