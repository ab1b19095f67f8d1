// x-kubernetes list and map types, list-map keys and patch strategies.
use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

/// Holds keyed lists.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1", map_type = "atomic")]
#[serde(default)]
pub struct Holder {
    /// A list keyed by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub entries: Vec<Entry>,
    /// A list keyed by two fields.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name", "kind"))]
    pub pairs: Vec<Entry>,
    /// An atomic list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub values: Vec<String>,
    /// A set.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "set")]
    pub unique: Vec<String>,
    /// Merged by key when patched.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(patch_strategy = "merge", patch_merge_key = "name")]
    pub merged: Vec<Entry>,
    /// An atomic struct.
    #[schema(map_type = "atomic")]
    pub whole: Entry,
}

/// An entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default)]
pub struct Entry {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: String,
}
