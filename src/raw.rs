//! Embedded JSON kept as text: the two raw field types of hook messages.
//!
//! Cluster API's hook messages carry whole objects and arbitrary values whose type the message
//! does not fix: the templates of GeneratePatches and ValidateTopology (`object`), the objects
//! of the in-place update hooks, and variable values (`value`), also in the Cluster and
//! ClusterClass types. Go declares them as `runtime.RawExtension` and apiextensions'
//! `JSON`, and both keep the bytes they were given: decoding a message copies the value's text
//! and nothing more, and a handler decodes it into a type of its choosing when, and if, it
//! needs it. The two types here do the same:
//!
//! - [`RawExtension`] (an embedded object; component
//!   `k8s.io.apimachinery.pkg.runtime.RawExtension`) and [`Json`] (any JSON value; component
//!   `k8s.io.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON`) hold the text of the
//!   value exactly as the body had it: key order, repeated keys, escapes, numbers of any size
//!   or precision. Only a byte of invalid UTF-8 inside a string becomes U+FFFD, which is what
//!   any reader of the value, Go's included, would make of it. The two differ only in their
//!   published schemas (an object for the first, anything for the second); their API is the
//!   same.
//! - `null` (and a missing field) is the empty value, Go's nil `Raw`: [`RawExtension::is_null`]
//!   is true and it is written as `null`. A later `null` for a key that repeats leaves the value
//!   it had, as Go's `UnmarshalJSON` does.
//! - [`RawExtension::decode`] reads the text into any type with the wire codec's rules, the
//!   same as a whole message ([`crate::wire`]: Go's key folding, number rules, times, base64,
//!   limits); [`RawExtension::to_value`] gives a `serde_json::Value` for those who want a
//!   tree.
//! - Writing a message writes the text back, without the white space between tokens (as Go's
//!   encoder compacts what a `MarshalJSON` returns). A value built from a `serde_json::Value`
//!   or any `Serialize` type is stored as `serde_json` writes it.
//! - The wire decoder charges the text to its memory budget (see [`crate::wire`]).
//! - k8s-openapi's `RawExtension` and `JSON` (which hold a `serde_json::Value`) convert to
//!   these with `From`, and back with `TryFrom` (a number beyond `f64`'s range has no
//!   `serde_json::Value`).
//!
//! The names follow the Go types, as k8s-openapi's do, except that apiextensions' `JSON` is
//! spelled [`Json`] here, as Rust spells acronyms; both live in this module, so that
//! `capi_runtime::raw::RawExtension` and k8s-openapi's type of the same name are told apart by
//! their path.
//!
//! Any other serde deserializer than the wire codec's also works: `serde_json`'s readers keep
//! the text as well (through `serde_json::value::RawValue`), and a `serde_json::Value` given
//! to `serde_json::from_value` is written out as text.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::Schema;
use crate::wire::{self, DecodeError, Decoded, Limits};

/// An embedded object of any kind, kept as raw JSON.
#[derive(Clone, Default, Schema)]
#[schema(
    crate = "crate",
    package = "k8s.io/apimachinery/pkg/runtime",
    opaque = r#"{"type": "object"}"#,
    crd_schema = r#"{"type": "object", "x-kubernetes-preserve-unknown-fields": true}"#
)]
pub struct RawExtension {
    text: Text,
}

/// Any JSON value.
#[derive(Clone, Default, Schema)]
#[schema(
    crate = "crate",
    name = "k8s.io.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
    opaque = "{}",
    crd_schema = r#"{"x-kubernetes-preserve-unknown-fields": true}"#
)]
pub struct Json {
    text: Text,
}

/// The text of one JSON value; `None` for Go's nil (`null`).
#[derive(Clone, Default)]
struct Text(Option<Box<str>>);

impl Text {
    fn from_json(text: Box<str>) -> Self {
        if &*text == "null" {
            Text(None)
        } else {
            Text(Some(text))
        }
    }

    fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("null")
    }

    fn parse(text: &str) -> Result<Self, serde_json::Error> {
        let raw: &RawValue = serde_json::from_str(text)?;
        Ok(Text::from_json(raw.get().into()))
    }

    fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::to_string(value).map(|text| Text::from_json(text.into_boxed_str()))
    }

    fn eq(&self, other: &Text) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) if a == b => true,
            (Some(a), Some(b)) => {
                match (
                    serde_json::from_str::<serde_json::Value>(a),
                    serde_json::from_str::<serde_json::Value>(b),
                ) {
                    (Ok(a), Ok(b)) => a == b,
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Some(text) = &self.0 else {
            return serializer.serialize_unit();
        };
        let text = compact(text);
        // The text is one JSON value (every constructor makes sure of it); `RawValue` is how
        // serde_json's writer is told to copy it as it is.
        let raw: &RawValue = serde_json::from_str(&text).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

/// The visitor of both types: the wire decoder hands over the value's bytes, any other
/// deserializer a `RawValue` (or `null`).
struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Text, E> {
        Ok(Text(None))
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Text, E> {
        let text: Box<str> = match std::str::from_utf8(bytes) {
            Ok(text) => text.into(),
            Err(_) => {
                let mut fixed = Vec::with_capacity(bytes.len() + 8);
                wire::push_lossy(&mut fixed, bytes);
                String::from_utf8(fixed)
                    .map_err(|_| E::custom("invalid UTF-8 after replacement"))?
                    .into_boxed_str()
            }
        };
        Ok(Text::from_json(text))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Text, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let text: Box<str> = Box::<str>::from(raw);
        Ok(Text::from_json(text))
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(wire::RAW_VALUE, TextVisitor)
    }
}

/// `text` without white space outside its strings: what Go's encoder writes for it.
fn compact(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let mut in_string = false;
    let mut escaped = false;
    let mut first_space = None;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if is_space(b) {
            first_space = Some(i);
            break;
        }
    }
    let Some(from) = first_space else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..from]);
    let mut in_string = false;
    let mut escaped = false;
    for c in text[from..].chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if c.is_ascii() && is_space(c as u8) {
            continue;
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// Why a raw value could not become a k8s-openapi value: its text has no `serde_json::Value`
/// (a number beyond `f64`'s range); the serde_json error is the source.
#[derive(Debug, thiserror::Error)]
#[error("the raw JSON value cannot be held as a serde_json::Value")]
pub struct ToValueError(#[source] serde_json::Error);

macro_rules! raw_type {
    ($ty:ident, $k8s:ty, $what:literal) => {
        impl $ty {
            #[doc = concat!("The ", $what, " whose text is `text`, which must be one JSON value (white space around it is dropped).")]
            pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
                Text::parse(text).map(|text| $ty { text })
            }

            #[doc = concat!("The ", $what, " holding what `serde_json` writes for `value`, given by value (`from_serialize(false)`) or by reference (`from_serialize(&typed)`).")]
            pub fn from_serialize<T: Serialize>(value: T) -> Result<Self, serde_json::Error> {
                Text::from_serialize(&value).map(|text| $ty { text })
            }

            /// True for Go's nil: the value was `null`, missing, or never set.
            pub fn is_null(&self) -> bool {
                self.text.0.is_none()
            }

            /// The text of the value as received (`null` for the empty value).
            pub fn as_json(&self) -> &str {
                self.text.as_str()
            }

            /// Decodes the value into `T` with the wire codec's rules (Go's `encoding/json`
            /// into a Go type: key folding, numbers, repeated keys, `null`; see
            /// [`crate::wire`]) and its default [`Limits`]. The empty value decodes as `null`,
            /// which leaves a struct at its zero value, as in Go. Times and byte strings are
            /// read by `T`'s own `Deserialize`: Go's rules for them need the shape
            /// `#[derive(Schema)]` records, which [`Self::decode_described`] reads.
            pub fn decode<T: DeserializeOwned>(&self) -> Result<T, DecodeError> {
                self.decode_with(&Limits::default()).map(|d| d.message)
            }

            /// [`Self::decode`] within `limits`, with what decoding charged.
            pub fn decode_with<T: DeserializeOwned>(
                &self,
                limits: &Limits,
            ) -> Result<Decoded<T>, DecodeError> {
                wire::decode_embedded(self.as_json().as_bytes(), limits, None)
            }

            /// [`Self::decode`] into a type that derives `Schema`, whose recorded shape also
            /// gives Go's rules for times, byte strings and the fields Go holds by value.
            pub fn decode_described<T: DeserializeOwned + Schema>(
                &self,
            ) -> Result<T, DecodeError> {
                let limits = Limits::default();
                let shape = Some(T::schema_info());
                wire::decode_embedded(self.as_json().as_bytes(), &limits, shape)
                    .map(|d| d.message)
            }

            /// The value as a `serde_json::Value` (`Null` for the empty value). A number
            /// beyond `f64`'s precision is rounded there; one beyond its range is an error.
            pub fn to_value(&self) -> Result<serde_json::Value, ToValueError> {
                serde_json::from_str(self.as_json()).map_err(ToValueError)
            }
        }

        impl fmt::Debug for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($ty)).field(&self.as_json()).finish()
            }
        }

        /// Equal when both hold the same JSON value: the same text, or texts that
        /// `serde_json` reads to equal values (key order and white space aside).
        impl PartialEq for $ty {
            fn eq(&self, other: &Self) -> bool {
                self.text.eq(&other.text)
            }
        }

        impl FromStr for $ty {
            type Err = serde_json::Error;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                $ty::from_json(text)
            }
        }

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.text.serialize(serializer)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                Text::deserialize(deserializer).map(|text| $ty { text })
            }
        }

        impl From<serde_json::Value> for $ty {
            fn from(value: serde_json::Value) -> Self {
                $ty::from(&value)
            }
        }

        impl From<&serde_json::Value> for $ty {
            fn from(value: &serde_json::Value) -> Self {
                $ty {
                    text: Text::from_json(value.to_string().into_boxed_str()),
                }
            }
        }

        impl From<$k8s> for $ty {
            fn from(value: $k8s) -> Self {
                $ty::from(&value.0)
            }
        }

        impl TryFrom<$ty> for $k8s {
            type Error = ToValueError;

            fn try_from(value: $ty) -> Result<Self, Self::Error> {
                value.to_value().map(Self)
            }
        }

        impl TryFrom<&$ty> for $k8s {
            type Error = ToValueError;

            fn try_from(value: &$ty) -> Result<Self, Self::Error> {
                value.to_value().map(Self)
            }
        }
    };
}

raw_type!(
    RawExtension,
    k8s_openapi::apimachinery::pkg::runtime::RawExtension,
    "embedded object"
);
raw_type!(
    Json,
    k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON,
    "JSON value"
);

impl From<Json> for RawExtension {
    fn from(value: Json) -> Self {
        RawExtension { text: value.text }
    }
}

impl From<RawExtension> for Json {
    fn from(value: RawExtension) -> Self {
        Json { text: value.text }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_drops_white_space_outside_strings_only() {
        assert_eq!(compact(r#"{"a":[1,2]}"#), Cow::Borrowed(r#"{"a":[1,2]}"#));
        assert_eq!(
            compact(" {\"a b\" :\t[1 ,\n2], \"c\\\" d\": \"e \\\\\" }\r\n"),
            r#"{"a b":[1,2],"c\" d":"e \\"}"#
        );
        assert_eq!(compact("\"ü é\" "), "\"ü é\"");
    }
}
