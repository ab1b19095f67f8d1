//! The arrays, maps and enums the decoder hands to the visitors: the elements of an array,
//! the entries of one object or of several merged ones (a repeated map field), map keys (Go's
//! rules for integer keys), and externally tagged enums. Each element and map value is told
//! what it is ([`Next`]) before it is decoded.

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

use super::budget::{BTREE_LEAF, heap_size};
use super::de::De;
use super::error::{DecodeErrorKind as Kind, Error, Result, Seg};
use super::go_types::integer_key;
use super::next::Next;

/// The elements of an array.
pub(super) struct Seq<'a, 'de> {
    pub(super) de: &'a mut De<'de>,
    pub(super) index: usize,
    /// `null`: no elements.
    pub(super) empty: bool,
    /// What each element is.
    pub(super) item: Next,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.empty {
            return Ok(None);
        }
        match self.de.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if self.index > 0 => {
                self.de.pos += 1;
            }
            _ if self.index > 0 => return Err(self.de.unexpected_char("after array element")),
            Some(b',') => return Err(self.de.unexpected_char("looking for beginning of value")),
            _ => {}
        }
        self.de.skip_ws();
        let start = self.de.pos;
        if self.index > 0 && self.de.input.get(start) == Some(&b']') {
            return Err(self.de.unexpected_char("looking for beginning of value"));
        }
        let index = self.index;
        self.index += 1;
        self.de
            .charge(2 * std::mem::size_of::<T::Value>())
            .map_err(|e| e.within(Seg::Index(index), start))?;
        self.de.next = self.item;
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(|e| e.within(Seg::Index(index), start))
    }
}

/// The entries of a JSON object read as a map, or of several objects one after the other
/// (a repeated map field, merged as Go merges it).
pub(super) struct Map<'a, 'de> {
    de: &'a mut De<'de>,
    /// What each value is.
    value: Next,
    /// The opening brace of the object to read next, when it is not read yet.
    opening: Option<usize>,
    /// The objects after it, last first.
    rest: Vec<usize>,
    key_at: usize,
    key_size: usize,
    entries: usize,
    done: bool,
}

impl<'a, 'de> Map<'a, 'de> {
    /// The entries of the objects at `objects`, merged in order.
    pub(super) fn new(de: &'a mut De<'de>, mut objects: Vec<usize>, value: Next) -> Self {
        objects.reverse();
        let opening = objects.pop();
        Map {
            de,
            value,
            done: opening.is_none(),
            opening,
            rest: objects,
            key_at: 0,
            key_size: 0,
            entries: 0,
        }
    }

    /// The entries of the object at `at`.
    pub(super) fn one(de: &'a mut De<'de>, at: usize, value: Next) -> Self {
        Map {
            de,
            value,
            opening: Some(at),
            rest: Vec::new(),
            key_at: 0,
            key_size: 0,
            entries: 0,
            done: false,
        }
    }

    /// No entries (`null`).
    pub(super) fn empty(de: &'a mut De<'de>) -> Self {
        Map::new(de, Vec::new(), Next::Plain)
    }
}

impl<'de> MapAccess<'de> for Map<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            if self.done {
                return Ok(None);
            }
            let de = &mut *self.de;
            if let Some(at) = self.opening.take() {
                de.pos = at;
                if de.peek() != Some(b'{') {
                    return Err(de.mismatch(&"a map"));
                }
                de.pos += 1;
                if de.peek() == Some(b'}') {
                    de.pos += 1;
                    self.opening = self.rest.pop();
                    self.done = self.opening.is_none();
                    continue;
                }
            } else {
                match de.peek() {
                    Some(b',') => de.pos += 1,
                    Some(b'}') => {
                        de.pos += 1;
                        self.opening = self.rest.pop();
                        self.done = self.opening.is_none();
                        continue;
                    }
                    _ => return Err(de.unexpected_char("after object key:value pair")),
                }
            }
            if de.peek() != Some(b'"') {
                return Err(de.unexpected_char("looking for beginning of object key string"));
            }
            self.key_at = de.pos;
            self.key_size = std::mem::size_of::<K::Value>();
            return seed.deserialize(MapKey { de }).map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let entry = self.key_size + std::mem::size_of::<V::Value>();
        let cost = if self.entries == 0 {
            heap_size(BTREE_LEAF * entry + 16)
        } else {
            2 * entry
        };
        self.entries += 1;
        self.de.charge(cost)?;
        self.de.expect(b':', "after object key")?;
        self.de.skip_ws();
        let start = self.de.pos;
        self.de.next = self.value;
        match seed.deserialize(&mut *self.de) {
            Ok(value) => Ok(value),
            Err(e) => Err(e.within(Seg::Key(self.de.key_text(self.key_at)), start)),
        }
    }
}

/// A map key: always a JSON string. For a map with integer keys, the string is read as Go
/// reads the key of a `map[int64]T` (see [`integer_key`]).
pub(super) struct MapKey<'a, 'de> {
    de: &'a mut De<'de>,
}

macro_rules! integer_key {
    ($method:ident, $visit:ident, $ty:ty, $go:literal) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let at = self.de.pos;
            let key = self.de.parse_str()?;
            let unsigned = $go.starts_with('u');
            match integer_key::<$ty>(key.as_str(), unsigned) {
                Some(v) => visitor.$visit(v),
                None => Err(Error::new(
                    Kind::Number,
                    format!(
                        "cannot unmarshal number {} into Go value of type {}",
                        key.as_str(),
                        $go
                    ),
                    Some(at),
                )),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for MapKey<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.visit_string(visitor)
    }

    integer_key!(deserialize_i8, visit_i8, i8, "int8");
    integer_key!(deserialize_i16, visit_i16, i16, "int16");
    integer_key!(deserialize_i32, visit_i32, i32, "int32");
    integer_key!(deserialize_i64, visit_i64, i64, "int64");
    integer_key!(deserialize_u8, visit_u8, u8, "uint8");
    integer_key!(deserialize_u16, visit_u16, u16, "uint16");
    integer_key!(deserialize_u32, visit_u32, u32, "uint32");
    integer_key!(deserialize_u64, visit_u64, u64, "uint64");

    serde::forward_to_deserialize_any! {
        bool i128 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// An enum written as `{"Variant": value}`.
pub(super) struct Tagged<'a, 'de> {
    pub(super) de: &'a mut De<'de>,
}

impl<'a, 'de> EnumAccess<'de> for Tagged<'a, 'de> {
    type Error = Error;
    type Variant = &'a mut De<'de>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self::Variant)> {
        if self.de.peek() != Some(b'"') {
            return Err(self
                .de
                .unexpected_char("looking for beginning of object key string"));
        }
        let tag = seed.deserialize(MapKey { de: &mut *self.de })?;
        self.de.expect(b':', "after object key")?;
        Ok((tag, self.de))
    }
}

impl<'de> VariantAccess<'de> for &mut De<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}
