use capi_runtime::Schema;

pub mod v1 {
    #[derive(capi_runtime::Schema)]
    #[schema(package = "example.com/err/v1")]
    #[crd(group = "err.example.com", version = "v1", plural = "things", scope = "Cluster")]
    pub struct Thing {
        pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    }
}

pub mod v2 {
    #[derive(capi_runtime::Schema)]
    #[schema(package = "example.com/err/v2")]
    #[crd(group = "err.example.com", version = "v2", plural = "things", scope = "Cluster")]
    pub struct Thing {
        pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    }
}
