use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1", opaque = "{}", crd_schema = "{x")]
pub struct Thing(pub String);

fn main() {}
