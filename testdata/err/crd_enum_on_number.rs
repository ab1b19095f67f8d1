use capi_runtime::Schema;

#[derive(Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Bad {
    #[schema(enum_values("1", "2"))]
    pub level: i32,
}
