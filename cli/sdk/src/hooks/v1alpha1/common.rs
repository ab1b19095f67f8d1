//! Building blocks shared by every hook message (Go's `common_types.go`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Schema;

/// The outcome an extension reports for a hook call; defined with the hook traits, below
/// every hook version.
pub use crate::hook::ResponseStatus;

/// How a patch in a response is encoded.
///
/// Go's `PatchType` is a plain string with two named values, so any string decodes: a value
/// this crate does not know arrives as [`PatchType::Other`] and the caller decides what to do
/// with it (Cluster API refuses it when it applies the patch).
///
/// The default is Go's zero value, the empty string (`PatchType::Other("")`): a `patchType`
/// that is missing or `null` decodes to it, as in Go, never to `JSONPatch`. Cluster API applies
/// no patch of an empty type (an in-place update answer is refused: "patchType is not set").
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
pub enum PatchType {
    /// A JSON Patch document (RFC 6902): a list of operations.
    #[serde(rename = "JSONPatch")]
    JsonPatch,
    /// A JSON Merge Patch document (RFC 7386): a partial object merged into the target.
    #[serde(rename = "JSONMergePatch")]
    JsonMergePatch,
    /// Any other value, exactly as written (serialized as it is).
    #[serde(untagged)]
    Other(String),
}

impl Default for PatchType {
    /// The empty string, Go's zero value.
    fn default() -> Self {
        PatchType::Other(String::new())
    }
}

impl PatchType {
    /// True for the empty string (Go's zero value: no patch type given).
    pub fn is_empty(&self) -> bool {
        matches!(self, PatchType::Other(other) if other.is_empty())
    }

    /// The wire value: `JSONPatch`, `JSONMergePatch` or the other value as written.
    pub fn as_str(&self) -> &str {
        match self {
            PatchType::JsonPatch => "JSONPatch",
            PatchType::JsonMergePatch => "JSONMergePatch",
            PatchType::Other(other) => other,
        }
    }
}

impl std::fmt::Display for PatchType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Labels and annotations of an object: the part of object metadata the builtin variables
/// expose.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default)]
pub struct ObjectMeta {
    /// Labels of the object.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Annotations of the object.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}
