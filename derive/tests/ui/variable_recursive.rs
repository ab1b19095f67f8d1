use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "tree")]
pub struct Node {
    pub children: Vec<Node>,
}

fn main() {}
