use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "replicas")]
#[schema(minimum = 1, default = "one")]
pub struct Replicas(pub i32);

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "surge")]
#[schema(max_length = 2, default = "100%")]
pub struct Surge(pub String);

#[derive(Serialize, Deserialize, Variable)]
#[serde(transparent)]
#[schema(minimum = 1, default_json = "0")]
pub struct Zones {
    pub count: i64,
}

#[derive(Serialize, Deserialize, Variable)]
#[schema(default_json = "{}")]
pub struct Limits {
    pub replicas: Replicas,
}

fn main() {}
