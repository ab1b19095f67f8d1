use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub enum Shape {
    Point,
    Circle { radius: i32 },
}
