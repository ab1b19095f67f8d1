//! Items that generated code, derive expansions and serde attributes name. Not part of the
//! public API: hidden from the docs, and free to change in any release (which is why the
//! derive crate is pinned to the exact version of this crate).

use crate::hook::HookMeta;
pub use crate::hook::ResponseStatus;
use crate::schema::{HookInfo, TypeInfo};

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

/// The recorded model of a type, as `#[derive(Schema)]` writes it.
pub const fn type_info(
    format: u32,
    model: &'static str,
    refs: &'static [fn() -> &'static TypeInfo],
) -> TypeInfo {
    TypeInfo {
        format,
        model,
        refs,
    }
}

/// The recorded model of a hook, as `#[derive(Hook)]` writes it.
pub const fn hook_info(
    format: u32,
    model: &'static str,
    request: fn() -> &'static TypeInfo,
    response: fn() -> &'static TypeInfo,
) -> HookInfo {
    HookInfo {
        format,
        model,
        request,
        response,
    }
}

/// A hook's metadata, as `#[derive(Hook)]` writes it.
pub const fn hook_meta(
    summary: &'static str,
    description: &'static str,
    tags: &'static [&'static str],
    singleton: bool,
    deprecated: bool,
) -> HookMeta {
    HookMeta::new(summary, description)
        .with_tags(tags)
        .with_singleton(singleton)
        .with_deprecated(deprecated)
}

#[cfg(feature = "kube")]
pub use kube_core;

/// Every type with a generated `schemars::JsonSchema` impl, by schema id, for the tests.
#[cfg(feature = "schemars")]
pub use crate::generated::json_schema::{Subschema as JsonSubschema, all as json_schemas};
