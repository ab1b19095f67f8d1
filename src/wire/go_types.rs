//! How Go reads its own types, each rule written once for both modes: `metav1.Time`
//! (`time.Parse(time.RFC3339, ..)`, `null` the zero time), `[]byte` (`base64.StdEncoding` or an
//! array of numbers), raw values (`RawExtension`, `JSON`: the text as received), numbers for
//! each Go number type, integer map keys (`strconv.ParseInt`), strings, a response's raw
//! `status`, and the zero time of a `Time` field a type requires but the message leaves out.

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};

use k8s_openapi::jiff::Timestamp;

use super::budget::{grow, heap_size};
use super::de::De;
use super::error::{DecodeErrorKind as Kind, Error, Result, Seg};
use super::next::{Fields, Next};
use super::scan::Str;
use crate::go::base64::{canonical_len, decode_std, encode_std};
use crate::go::time::parse_rfc3339;

/// The newtype name by which the raw JSON types (`crate::raw`) ask for the text of the value
/// that comes next. The decoder checks the value's syntax, charges its length to the budget and
/// hands the visitor its bytes as they are in the input ([`De::raw_value`]); `null` is
/// `visit_unit`. Any other deserializer treats it as any newtype.
pub(crate) const RAW_VALUE: &str = "$capi_runtime::raw::Text";

/// Go's zero `time.Time`, as k8s-openapi's `Time` reads it.
const GO_ZERO_TIME: &str = "0001-01-01T00:00:00Z";

/// Decodes Go's zero time into `seed` (a `Time` field the message left out, see
/// [`super::next::Fields::missing_time`]): what Go's `Time.UnmarshalJSON` makes of `null`.
pub(super) fn zero_time<'de, S: DeserializeSeed<'de>>(seed: S) -> Result<S::Value> {
    seed.deserialize(&mut De::new(b"null", usize::MAX, 1, false, Next::Time))
}

/// The fields of a struct that Go leaves at the zero time when the message does not set them,
/// where the type's `Deserialize` requires them (k8s-openapi's `Condition`): handed over after
/// the object's own entries, or alone for a struct written as `null`.
pub(super) struct ZeroTimes {
    fields: &'static [&'static str],
    shape: Option<Fields>,
    /// The fields set (below 128).
    done: u128,
}

impl ZeroTimes {
    pub(super) fn new(fields: &'static [&'static str], shape: Option<Fields>) -> Self {
        ZeroTimes {
            fields,
            shape,
            done: 0,
        }
    }

    /// Records that field `f` is set.
    #[inline]
    pub(super) fn mark(&mut self, f: usize) {
        if f < 128 {
            self.done |= 1u128 << f;
        }
    }

    /// The next field to hand over at Go's zero time, marked set.
    #[inline]
    pub(super) fn next_field(&mut self) -> Option<usize> {
        let done = self.done;
        let f = Fields::missing_time(self.shape, self.fields, |f| {
            f >= 128 || done & (1u128 << f) != 0
        })?;
        self.mark(f);
        Some(f)
    }
}

impl<'de> MapAccess<'de> for ZeroTimes {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.next_field() {
            Some(f) => seed
                .deserialize(BorrowedStrDeserializer::<Error>::new(self.fields[f]))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        zero_time(seed)
    }
}

impl<'de> De<'de> {
    /// Reads a `metav1.Time` as Go does: `null` is the zero time, a string is read with
    /// `time.Parse(time.RFC3339, ..)` ([`parse_rfc3339`]); the visitor (k8s-openapi's `Time`)
    /// is then handed the instant in the one form its parser reads.
    pub(super) fn go_time<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let instant = match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                return visitor.visit_newtype_struct(StrDeserializer::<Error>::new(GO_ZERO_TIME));
            }
            Some(b'"') => {
                let text = self.parse_str()?;
                parse_rfc3339(text.as_str())
                    .map_err(|e| Error::new(Kind::Type, e.to_string(), Some(start)))?
            }
            _ => return Err(self.mismatch(&visitor)),
        };
        let nanos = i32::try_from(instant.nanos).unwrap_or_default();
        let timestamp = Timestamp::new(instant.unix_seconds, nanos).map_err(|_| {
            Error::new(
                Kind::Type,
                format!(
                    "time {} is outside the range of the time type ({} to {})",
                    String::from_utf8_lossy(&self.input[start..self.pos]),
                    Timestamp::MIN,
                    Timestamp::MAX
                ),
                Some(start),
            )
        })?;
        visitor.visit_newtype_struct(StringDeserializer::<Error>::new(timestamp.to_string()))
    }

    /// Reads a `[]byte` (k8s-openapi's `ByteString`) as Go does: `null` is nil, a string is
    /// read with `base64.StdEncoding` ([`decode_std`]), an array of numbers as its bytes (each
    /// a `uint8`). The visitor is then handed the bytes in the one form its parser reads.
    pub(super) fn go_bytes<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let bytes = match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                return visitor.visit_none();
            }
            Some(b'"') => {
                let text = self.parse_str()?;
                // Canonical base64 (what Go and every encoder write) reads the same under
                // Go's rules and the visitor's strict ones: it is handed over as it is and
                // decoded once, by the visitor.
                if let Some(len) = canonical_len(text.as_str().as_bytes()) {
                    let value = visitor.visit_some(StrDeserializer::<Error>::new(text.as_str()));
                    self.charge(len)?;
                    return value;
                }
                decode_std(text.as_str().as_bytes())
                    .map_err(|e| Error::new(Kind::Type, e.to_string(), Some(start)))?
            }
            Some(b'[') => <Vec<u8> as de::Deserialize>::deserialize(&mut *self)?,
            _ => return Err(self.mismatch(&visitor)),
        };
        self.charge(bytes.len())?;
        visitor.visit_some(StringDeserializer::<Error>::new(encode_std(&bytes)))
    }

    /// Reads an integer for a Go integer type: written as an integer and in range.
    pub(super) fn integer<T: TryFrom<i128>>(&mut self, go_type: &str) -> Result<T> {
        let at = self.pos;
        let (text, integer) = self.scan_number()?;
        let number_error = || {
            Error::new(
                Kind::Number,
                format!("cannot unmarshal number {text} into Go value of type {go_type}"),
                Some(at),
            )
        };
        if !integer || (go_type.starts_with('u') && text.starts_with('-')) {
            return Err(number_error());
        }
        let digits = text.trim_start_matches('-');
        if digits.len() > 38 {
            return Err(number_error());
        }
        let magnitude: i128 = digits.parse().map_err(|_| number_error())?;
        let value = if text.starts_with('-') {
            -magnitude
        } else {
            magnitude
        };
        T::try_from(value).map_err(|_| number_error())
    }

    /// Reads a float for `float64` (`bits` 64) or `float32`: finite in that type.
    pub(super) fn float(&mut self, bits: u32) -> Result<f64> {
        let at = self.pos;
        let (text, _) = self.scan_number()?;
        let value = if bits == 32 {
            text.parse::<f32>().map(f64::from)
        } else {
            text.parse::<f64>()
        };
        match value {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(Error::new(
                Kind::Number,
                format!("cannot unmarshal number {text} into Go value of type float{bits}"),
                Some(at),
            )),
        }
    }

    pub(super) fn visit_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let at = self.pos;
        let (text, integer) = self.scan_number()?;
        if integer {
            if let Ok(u) = text.parse::<u64>() {
                return visitor.visit_u64(u);
            }
            if let Ok(i) = text.parse::<i64>() {
                return visitor.visit_i64(i);
            }
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => visitor.visit_f64(v),
            _ => Err(Error::new(
                Kind::Number,
                format!("cannot unmarshal number {text} into Go value of type float64"),
                Some(at),
            )),
        }
    }

    pub(super) fn visit_string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let s = self.parse_str()?;
        let len = heap_size(s.as_str().len());
        let value = match s {
            Str::Borrowed(s) => visitor.visit_borrowed_str(s),
            Str::Copied(s) => visitor.visit_str(s),
        };
        self.charge(len)?;
        value
    }

    /// A raw JSON value ([`RAW_VALUE`]): its bytes as written, checked and charged; `null` is
    /// no value (Go's nil `Raw`).
    pub(super) fn raw_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            return visitor.visit_unit();
        }
        let start = self.pos;
        grow(|| self.skip_value())?;
        let input = self.input;
        let raw = &input[start..self.pos];
        self.charge(heap_size(raw.len()))?;
        visitor.visit_borrowed_bytes(raw)
    }

    /// Reads the raw status: a string, or null (which leaves the previous one, as in Go).
    pub(super) fn read_status(&mut self) -> Result<()> {
        match self.peek() {
            Some(b'n') => self.literal(b"null"),
            Some(b'"') => {
                let s = self.parse_str()?.as_str().to_owned();
                self.status = s;
                Ok(())
            }
            _ => {
                let at = self.pos;
                let unexpected = self.unexpected();
                let e = <Error as de::Error>::invalid_type(unexpected, &"a string");
                Err(e.within(Seg::Field("status"), at))
            }
        }
    }
}

/// The map key `text` as Go's `encoding/json` reads it into an integer key type: for a signed
/// type `strconv.ParseInt(text, 10, 64)` (an optional `+` or `-`, then decimal digits, leading
/// zeros allowed), for an unsigned one `strconv.ParseUint(text, 10, 64)` (digits only), then
/// refused when the value overflows `T`. Nothing else is accepted: no white space, no
/// fraction or exponent, no `0x` or `_`. `None` when Go would refuse the key.
pub(super) fn integer_key<T: TryFrom<i128>>(text: &str, unsigned: bool) -> Option<T> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') if !unsigned => (true, &text[1..]),
        Some(b'+') if !unsigned => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // More digits than a u128 holds is out of range for every key type.
    let magnitude = i128::try_from(digits.parse::<u128>().ok()?).ok()?;
    T::try_from(if negative { -magnitude } else { magnitude }).ok()
}
