use capi_runtime::Schema;

pub mod v1 {
    #[derive(capi_runtime::Schema)]
    #[schema(package = "example.com/err/v1", hub = super::v2::Thing)]
    pub struct Thing {
        pub name: String,
        pub size: String,
    }
}

pub mod v2 {
    #[derive(capi_runtime::Schema)]
    #[schema(package = "example.com/err/v2")]
    pub struct Thing {
        pub name: String,
        pub size: i64,
    }
}
