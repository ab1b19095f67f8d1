use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

#[derive(Default, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/ui/v1")]
#[serde(rename_all = "camelCase")]
pub struct Fields {
    #[serde(flatten)]
    pub inner: Inner,
    #[serde(alias = "legacyName")]
    pub name: String,
    #[serde(skip_deserializing)]
    pub computed: String,
    #[serde(default = "ten")]
    pub count: i32,
    #[serde(rename(serialize = "written", deserialize = "read"))]
    pub renamed: String,
}

#[derive(Default, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/ui/v1")]
#[serde(deny_unknown_fields, tag = "type", default = "Inner::new")]
pub struct Inner {
    pub value: String,
}

#[derive(Serialize, Deserialize, Schema)]
#[schema(package = "example.com/ui/v1", enum)]
pub enum Mode {
    #[serde(alias = "quick")]
    Fast,
    #[serde(skip_deserializing)]
    Slow,
}

fn ten() -> i32 {
    10
}

impl Inner {
    fn new() -> Self {
        Inner {
            value: "v".into(),
        }
    }
}

fn main() {}
