use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "builtin")]
pub struct Reserved {
    pub a: String,
}

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "")]
pub struct Empty {
    pub a: String,
}

#[derive(Serialize, Deserialize, Variable)]
#[variable(required, nmae = "x")]
pub struct Part {
    pub a: String,
}

fn main() {}
