use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct NotAPart {
    pub a: String,
}

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "outer")]
pub struct Outer {
    pub inner: NotAPart,
}

fn main() {}
