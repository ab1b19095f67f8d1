use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Variable)]
#[schema(opaque = r##"{"$ref": "#/definitions/Other"}"##)]
pub struct Linked(pub String);

#[derive(Serialize, Deserialize, Variable)]
#[schema(opaque = r##"{"type": "null", "items": {"nullable": true}}"##)]
pub struct Odd(pub String);

fn main() {}
