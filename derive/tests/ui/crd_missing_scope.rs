use capi_runtime::Schema;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
#[crd(group = "ui.example.com", version = "v1", plural = "things")]
pub struct Thing {
    pub metadata: ObjectMeta,
}

fn main() {}
