use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1", min_properties = 1)]
pub enum Mode {
    Fast,
}

fn main() {}
