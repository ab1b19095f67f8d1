use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "cluster.network")]
#[schema(map_type = "atomic")]
pub struct Network {
    #[schema(list_type = "set")]
    pub cidrs: Vec<String>,
    #[schema(map_type = "granular")]
    pub tags: BTreeMap<String, String>,
    #[schema(default = "many", minimum = 1)]
    pub replicas: i32,
    #[schema(default = 9, maximum = 8)]
    pub zones: i64,
    #[schema(default = "ab", min_length = 3)]
    pub name: String,
    #[schema(x_validation(rule = "self.size() > 0\n&& self[0] != ''"))]
    pub hosts: Vec<String>,
}

fn main() {}
