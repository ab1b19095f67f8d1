use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]
pub struct Nameless {
    pub name: String,
}
