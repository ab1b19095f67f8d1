use capi_runtime::Schema;

#[derive(Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Outer {
    #[schema(max_length = 3)]
    pub inner: Inner,
}

#[derive(Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Inner {
    pub name: String,
}
