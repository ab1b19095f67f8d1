use capi_runtime::Schema;

#[derive(Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Thing {
    #[crd(status)]
    pub name: String,
}
