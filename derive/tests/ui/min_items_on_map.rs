use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[schema(min_items = 1)]
    pub labels: std::collections::BTreeMap<String, String>,
}

fn main() {}
