use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
#[serde(tag = "type")]
pub enum Mode {
    Fast,
}

fn main() {}
