use capi_runtime::Schema;

pub mod v1 {
    #[derive(capi_runtime::Schema)]
    #[schema(
        package = "example.com/err/v1",
        hub = super::v2::Thing,
        from_hub = "self::back",
        to_hub_only
    )]
    pub struct Thing {
        pub name: String,
    }
}

pub mod v2 {
    #[derive(capi_runtime::Schema)]
    #[schema(package = "example.com/err/v2")]
    pub struct Thing {
        pub name: String,
    }
}
