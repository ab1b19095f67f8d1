// The `new` constructors of custom resource roots: a spec behind an `Option`, and a spec of a
// type the constructor does not take (no constructor, noted in the file).
use capi_runtime::Schema;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

/// A gizmo, whose spec may be absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/gizmos/v1")]
#[crd(group = "gizmos.example.com", version = "v1", plural = "gizmos", scope = "Cluster", storage)]
#[serde(default, rename_all = "camelCase")]
pub struct Gizmo {
    /// The version.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Metadata.
    pub metadata: metav1::ObjectMeta,
    /// The desired state, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<GizmoSpec>,
}

/// What a gizmo should be.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/gizmos/v1")]
#[serde(default)]
pub struct GizmoSpec {
    /// How many.
    pub count: i32,
}

/// A note whose spec is a plain string.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/gizmos/v1")]
#[crd(group = "gizmos.example.com", version = "v1", plural = "notes", scope = "Namespaced", storage)]
#[serde(default)]
pub struct Note {
    /// Metadata.
    pub metadata: metav1::ObjectMeta,
    /// The text.
    pub spec: String,
}
