use capi_runtime::Schema;

#[derive(Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Broken {
    pub name: String
    pub other: String,
}
