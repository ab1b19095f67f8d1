use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub struct Holder {
    #[serde(flatten)]
    pub mode: Mode,
}

#[derive(Serialize, Schema)]
#[schema(package = "example.com/err/v1")]
pub enum Mode {
    Fast,
}
