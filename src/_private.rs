//! Items that generated code and serde attributes name. Not part of the public API.

pub use crate::hooks::v1alpha1::ResponseStatus;

/// The settings map of a hook request.
pub type Settings = std::collections::BTreeMap<String, String>;

/// True when `v` equals its type's default; the counterpart of Go's `omitzero`.
pub fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// True for 0; the counterpart of Go's `omitempty` on numbers.
pub fn is_zero<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// True for `false`; the counterpart of Go's `omitempty` on booleans.
pub fn is_false(v: &bool) -> bool {
    !*v
}

#[cfg(feature = "kube")]
pub use kube_core;

/// Every type with a generated `schemars::JsonSchema` impl, by schema id, for the tests.
#[cfg(feature = "schemars")]
pub use crate::generated::json_schema::{Subschema as JsonSubschema, all as json_schemas};
