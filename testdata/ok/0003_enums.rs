// String enums: listed (Go's +enum) and plain, and the default rule around them.
use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

/// A color; the schema lists the values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1", enum)]
pub enum Color {
    /// The color of the sky.
    #[default]
    Blue,
    /// The color of grass.
    Green,
}

/// A mode; the schema is a plain string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Fast.
    #[default]
    Fast,
    /// Safe.
    Safe,
}

/// Uses both enums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default)]
pub struct Paint {
    /// Always written, listed: no default, since "" is not a value.
    pub color: Color,
    /// Always written, plain: default "".
    pub mode: Mode,
    /// Optional.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accent: Option<Color>,
    /// A list of listed values.
    pub palette: Vec<Color>,
}
