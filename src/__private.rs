//! Items that generated code, derive expansions and serde attributes name, and the Go rules
//! the workspace's Go-oracle tests compare with Go ([`go`]). Not part of the public API: hidden
//! from the docs, and free to change in any release (which is why the derive crate is pinned
//! to the exact version of this crate).

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

/// The newtype name by which [`charged_box`] tells a deserializer that the value it asks for
/// next goes into a box of its own. The wire decoder (`wire::de`) knows the same name and
/// charges the value's size to its memory budget (it knows the size from the visitor's
/// `Value` type); any other deserializer (serde_json) treats it as any newtype, a value of
/// the same JSON. A name no Rust type has, so no other newtype is mistaken for it.
pub const CHARGED_BOX: &str = "$capi_runtime::__private::Charged";

/// `deserialize_with` of an `Option<Box<T>>` field whose boxes a budget-keeping deserializer
/// must see. serde's `Box<T>` decodes `T` and boxes it without the deserializer knowing, so a
/// recursive type (`JSONSchemaProps` through `items`, `not`, `additionalProperties`) could
/// allocate far beyond a decoder's memory budget. Here the value is asked for as the newtype
/// [`CHARGED_BOX`]. The JSON is the same: the value itself; `null` (and, with
/// `#[serde(default)]`, a missing field) is `None`. Serializing is untouched. The visitors are
/// written out, with no wrapper type in between, to keep what a nested schema takes of the
/// stack per level close to a plain `Box<T>`.
pub fn charged_box<'de, D, T>(deserializer: D) -> Result<Option<Box<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    use std::marker::PhantomData;

    use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
    use serde::de::{Error, MapAccess, SeqAccess, Visitor};

    struct Optional<T>(PhantomData<T>);

    impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for Optional<T> {
        type Value = Option<Box<T>>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an optional value")
        }

        fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_newtype_struct(CHARGED_BOX, Boxed(PhantomData))
                .map(Some)
        }
    }

    struct Boxed<T>(PhantomData<T>);

    impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for Boxed<T> {
        type Value = Box<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a boxed value")
        }

        fn visit_newtype_struct<D: serde::Deserializer<'de>>(
            self,
            d: D,
        ) -> Result<Self::Value, D::Error> {
            // Not `Ok(Box::new(T::deserialize(d)?))`: unoptimized, that takes four times the
            // stack (a schema 120 deep runs this 120 times over).
            T::deserialize(d).map(Box::new)
        }

        // A deserializer that hands a newtype on as whatever the input holds (serde's
        // `forward_to_deserialize_any`) calls these instead.
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map)).map(Box::new)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            T::deserialize(SeqAccessDeserializer::new(seq)).map(Box::new)
        }
    }

    deserializer.deserialize_option(Optional(PhantomData))
}

/// What the wire decoder reads of a type (`#[derive(Schema)]` writes its shape).
pub use crate::schema::shape;

/// The recorded model and shape of a type, as `#[derive(Schema)]` writes them.
pub const fn type_info(
    format: u32,
    model: &'static str,
    refs: &'static [fn() -> &'static TypeInfo],
    shape: shape::Shape,
) -> TypeInfo {
    TypeInfo {
        format,
        model,
        refs,
        shape,
        field_map: shape::FieldMapCell::new(),
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

/// The Go rules the crate keeps to itself (the transport modules of [`crate::go`]), for the
/// Go-oracle tests of this workspace (`interop/oracle`), which run each of them against the
/// Go function it reproduces. Nothing else should name them.
pub mod go {
    /// `base64.StdEncoding`.
    pub mod base64 {
        pub use crate::go::base64::*;
    }

    /// `strconv.Quote`, `strconv.IsPrint`.
    pub mod strconv {
        pub use crate::go::strconv::*;
    }

    /// `url.Parse` and `url.ParseQuery`.
    pub mod url {
        pub use crate::go::url::query::*;
        use crate::go::url::{RequestUri, UrlError};

        /// `url.Parse(raw)`.
        pub fn parse(raw: &str) -> Result<RequestUri, UrlError> {
            crate::go::url::parse(raw)
        }
    }

    /// `http.ProxyFromEnvironment`'s choice of proxy, and apimachinery's around it.
    pub mod httpproxy {
        pub use crate::go::httpproxy::*;

        /// Go's `Config.ProxyFunc`.
        pub fn proxy_func(config: &ProxyConfig) -> ProxyFunc {
            config.proxy_func()
        }

        /// apimachinery's `NewProxierWithNoProxyCIDR` around Go's function: the runtime
        /// client's.
        pub fn proxy_func_with_no_proxy_cidr(config: &ProxyConfig) -> ProxyFunc {
            config.proxy_func_with_no_proxy_cidr()
        }
    }
}
