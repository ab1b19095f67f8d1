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

/// What generated conversion code calls.
pub mod conversion {
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    pub use crate::conversion::ConversionError;
    use crate::conversion::ConversionErrorKind;

    /// The `apiVersion` of `object` after checking its kind, and that it and `to` are among
    /// `known`.
    pub fn source_version(
        object: &Value,
        kind: &'static str,
        known: &'static [&'static str],
        to: &str,
    ) -> Result<String, ConversionError> {
        let unknown = |api_version: &str| {
            ConversionError::new(ConversionErrorKind::UnknownVersion {
                api_version: api_version.to_string(),
                known,
            })
        };
        let Some(fields) = object.as_object() else {
            return Err(ConversionError::new(ConversionErrorKind::Malformed(None)));
        };
        let got = fields
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if got != kind {
            return Err(ConversionError::new(ConversionErrorKind::WrongKind {
                kind: got.to_string(),
                expected: kind,
            })
            .at("kind"));
        }
        let Some(from) = fields.get("apiVersion").and_then(Value::as_str) else {
            return Err(ConversionError::new(ConversionErrorKind::Malformed(None)).at("apiVersion"));
        };
        if !known.contains(&from) {
            return Err(unknown(from).at("apiVersion"));
        }
        if !known.contains(&to) {
            return Err(unknown(to));
        }
        Ok(from.to_string())
    }

    /// `object` as a `T`.
    pub fn decode<T: DeserializeOwned>(object: &Value) -> Result<T, ConversionError> {
        T::deserialize(object).map_err(|e| {
            ConversionError::new(ConversionErrorKind::Malformed(Some(std::sync::Arc::new(e))))
        })
    }

    /// `value` as JSON.
    pub fn encode<T: Serialize>(value: &T) -> Result<Value, ConversionError> {
        serde_json::to_value(value)
            .map_err(|e| ConversionError::new(ConversionErrorKind::Encode(std::sync::Arc::new(e))))
    }

    /// Converts every element of a list, naming the index of a failed one.
    pub fn list<'a, A: 'a, B, C: FromIterator<B>>(
        items: impl IntoIterator<Item = &'a A>,
        convert: impl Fn(&'a A) -> Result<B, ConversionError>,
    ) -> Result<C, ConversionError> {
        items
            .into_iter()
            .enumerate()
            .map(|(i, a)| convert(a).map_err(|e| e.at_index(i)))
            .collect()
    }

    /// Converts every value of a map, naming the key of a failed one.
    pub fn map<'a, A: 'a, B, C: FromIterator<(String, B)>>(
        entries: impl IntoIterator<Item = (&'a String, &'a A)>,
        convert: impl Fn(&'a A) -> Result<B, ConversionError>,
    ) -> Result<C, ConversionError> {
        entries
            .into_iter()
            .map(|(k, a)| Ok((k.clone(), convert(a).map_err(|e| e.at_key(k))?)))
            .collect()
    }
}

#[cfg(feature = "kube")]
pub use kube_core;

/// Every type with a generated `schemars::JsonSchema` impl, by schema id, for the tests.
#[cfg(feature = "schemars")]
pub use crate::generated::json_schema::{Subschema as JsonSubschema, all as json_schemas};
