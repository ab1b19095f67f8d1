use capi_runtime::Schema;
use serde::Serialize;

pub mod a {
    #[derive(serde::Serialize, capi_runtime::Schema)]
    #[schema(package = "example.com/err/v1")]
    pub struct Item {
        pub name: String,
    }
}

pub mod b {
    #[derive(serde::Serialize, capi_runtime::Schema)]
    #[schema(package = "example.com/err/v1")]
    pub struct Item {
        pub id: String,
    }
}
