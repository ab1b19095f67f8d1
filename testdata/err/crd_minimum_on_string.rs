use capi_runtime::Schema;

#[derive(Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Bad {
    #[schema(minimum = 1)]
    pub name: String,
}
