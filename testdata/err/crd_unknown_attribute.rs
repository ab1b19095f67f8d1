use capi_runtime::Schema;

#[derive(Schema)]
#[schema(package = "example.com/err/v1")]
#[crd(group = "err.example.com", version = "v1", plural = "things", scope = "Cluster", storge)]
pub struct Thing {
    pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
}
