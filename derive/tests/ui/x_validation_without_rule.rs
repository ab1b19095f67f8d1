use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[schema(x_validation(message = "must be short"))]
    pub name: String,
}

fn main() {}
