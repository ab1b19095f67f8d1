use capi_runtime::Schema;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
pub struct Thing {
    #[crd(status)]
    pub metadata: ObjectMeta,
}

fn main() {}
