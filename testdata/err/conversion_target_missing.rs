use capi_runtime::Schema;

#[derive(Schema)]
#[schema(package = "example.com/err/v1", hub = v2::Thing)]
pub struct Thing {
    pub name: String,
}
