use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[schema(x_validation(rule = "size(self) < 3", severity = "high"))]
    pub name: String,
}

fn main() {}
