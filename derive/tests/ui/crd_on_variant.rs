use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub enum Mode {
    #[crd(status)]
    Fast,
}

fn main() {}
