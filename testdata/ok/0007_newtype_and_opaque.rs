// Newtypes are written in place; opaque types carry their schema literally.
use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

/// An identifier, written as its string.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
pub struct Uid(pub String);

/// A duration written as a string like "10s".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1", opaque = r#"{"type": "string", "pattern": "^[0-9]+s$"}"#)]
pub struct Duration(pub String);

/// A percentage, written in place.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(name = "example.Percent", opaque = r#"{"type": "integer", "minimum": 0, "maximum": 100}"#, inline)]
pub struct Percent(pub i32);

/// Uses them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default)]
pub struct Timer {
    /// Always written: the string's default.
    pub uid: Uid,
    /// Optional id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<Uid>,
    /// A component with custom JSON: no default.
    pub every: Duration,
    /// Written in place.
    pub load: Percent,
}
