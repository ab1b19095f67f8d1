use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
#[crd(group = "ui.example.com", version = "v1", plural = "modes", scope = "Cluster")]
pub enum Mode {
    Fast,
}

fn main() {}
