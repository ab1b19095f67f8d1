use capi_runtime::Schema;
use serde::Serialize;

#[derive(Clone, Serialize, Schema)]
#[schema(package = "example.com/ui/v1")]
#[serde(into = "String")]
pub struct Thing {
    pub name: String,
}

impl From<Thing> for String {
    fn from(t: Thing) -> String {
        t.name
    }
}

fn main() {}
