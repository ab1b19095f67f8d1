use capi_runtime::Schema;
use serde::Serialize;

#[derive(Serialize, Schema)]

pub struct Thing {
    pub name: String,
}

fn main() {}
