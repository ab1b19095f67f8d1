use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
#[crd(group = "ui.example.com", version = "v1", plural = "things", scope = "Cluster")]
pub struct Thing {
    pub name: String,
}

fn main() {}
