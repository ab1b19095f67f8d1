use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Variable)]
#[variable(name = "limits")]
pub struct Limits {
    #[schema(minimum = 1, exclusive_minimum, default = 1)]
    pub replicas: i32,
    #[schema(exclusive_maximum)]
    pub zones: i32,
    #[schema(unique_items, example_json = r#"["a", "a"]"#)]
    pub names: Vec<String>,
    #[schema(x_validation(rule = "self != ''", reason = "FieldValueWrong", field_path = ""))]
    pub host: String,
    #[schema(x_validation(rule = "true", message_expression = " "))]
    pub port: String,
}

fn main() {}
