// Field types, required-ness and implicit defaults of a plain struct.
use std::collections::BTreeMap;

use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

/// A struct that exercises every scalar and container.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default, rename_all = "camelCase")]
pub struct Basics {
    /// Always written, so required with default "".
    pub name: String,
    /// Left out when empty: optional, no default.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Left out when empty, but marked required.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub id: String,
    /// Always written, but marked optional: keeps its zero default.
    #[schema(optional)]
    pub count: i32,
    /// A 64-bit number.
    pub total: i64,
    /// A flag.
    pub enabled: bool,
    /// A float.
    pub ratio: f64,
    /// An optional number: never a default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i32>,
    /// A list of strings: items default to "".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// A map of strings.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// A nested struct value: default {}.
    pub inner: Inner,
    /// An optional nested struct: no default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maybe: Option<Inner>,
    /// A list of structs: items default to {}.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inners: Vec<Inner>,
    /// An explicit default.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(default = "fallback")]
    pub mode: String,
    /// Items without their implicit default.
    #[schema(no_default)]
    pub raw: Vec<Inner>,
}

/// A nested type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default)]
pub struct Inner {
    /// A value.
    pub value: String,
}
