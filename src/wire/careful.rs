//! The careful mode (see `de.rs`): a struct object is scanned for its keys first, then each
//! field is decoded once from all its occurrences, with what Go makes of a repeated key for
//! the field's type: scalars take the last value (each occurrence type-checked), objects merge,
//! a repeated array decodes element by element into the slice already held, `null` resets
//! slices, maps and pointers but not the fields Go holds by value.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::access::Map;
use super::budget::{CHARGED_BOX, grow, heap_size};
use super::de::De;
use super::error::{Error, Result, Seg};
use super::fold::key_target;
use super::go_types::{RAW_VALUE, ZeroTimes, zero_time};
use super::next::{Fields, Next};

impl<'de> De<'de> {
    /// Decodes the struct object at `pos` (careful mode) or at each of `objects`, merged in
    /// order as Go merges repeated objects into one struct.
    pub(super) fn careful_struct<V: Visitor<'de>>(
        &mut self,
        fields: &'static [&'static str],
        visitor: V,
        objects: &[usize],
        status: Option<&'static str>,
        shape: Option<Fields>,
    ) -> Result<V::Value> {
        let mut entries: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut end = self.pos;
        self.enter()?;
        for &at in objects {
            self.pos = at;
            if self.peek() != Some(b'{') {
                let e = self.mismatch(&visitor);
                return Err(e);
            }
            self.pos += 1;
            if self.peek() == Some(b'}') {
                self.pos += 1;
                end = self.pos;
                continue;
            }
            loop {
                self.tick()?;
                if self.peek() != Some(b'"') {
                    return Err(self.unexpected_char("looking for beginning of object key string"));
                }
                let (field, is_status) = {
                    let key = self.parse_str()?;
                    key_target(key.as_str(), fields, status)
                };
                self.expect(b':', "after object key")?;
                self.skip_ws();
                let value_at = self.pos;
                if is_status {
                    self.read_status()?;
                } else {
                    self.skip_value()?;
                    if let Some(f) = field {
                        self.charge(std::mem::size_of::<usize>())?;
                        match entries.iter_mut().find(|(g, _)| *g == f) {
                            Some((_, at)) => at.push(value_at),
                            None => entries.push((f, vec![value_at])),
                        }
                    }
                }
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected_char("after object key:value pair")),
                }
            }
            end = self.pos;
        }
        let input = self.input;
        // A field Go holds by value ignores a null, even a later one.
        for (f, at) in &mut entries {
            if at.len() > 1
                && at.iter().any(|&a| input[a] != b'n')
                && Fields::by_value(shape, *f, fields)
            {
                at.retain(|&a| input[a] != b'n');
            }
        }
        // A field set only to null keeps its zero value (null resets a pointer, slice or map
        // to nil and leaves anything else as it is), as the struct decoded here starts at zero.
        entries.retain(|(_, at)| at.iter().any(|&a| input[a] != b'n'));
        let mut zeros = ZeroTimes::new(fields, shape);
        for (f, _) in &entries {
            zeros.mark(*f);
        }
        let value = grow(|| {
            visitor.visit_map(CarefulStruct {
                de: &mut *self,
                fields,
                shape,
                entries,
                next: 0,
                zeros,
                zero: false,
            })
        })?;
        self.leave();
        self.pos = end;
        Ok(value)
    }
}

/// The elements of a repeated array (careful mode): for each element of the last occurrence,
/// the occurrences of that element it merges, in order.
struct RepeatedSeq<'a, 'de> {
    de: &'a mut De<'de>,
    items: Vec<Vec<usize>>,
    index: usize,
    /// What each element is.
    item: Next,
}

impl<'de> SeqAccess<'de> for RepeatedSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let index = self.index;
        let Some(at) = self.items.get(index).cloned() else {
            return Ok(None);
        };
        self.index += 1;
        let start = *at.last().expect("an element occurs");
        self.de
            .charge(2 * std::mem::size_of::<T::Value>())
            .map_err(|e| e.within(Seg::Index(index), start))?;
        self.de.next = self.item;
        Repeated::decode(&mut *self.de, at, seed)
            .map(Some)
            .map_err(|e| e.within(Seg::Index(index), start))
    }
}

/// The value of a box that asks to be charged ([`CHARGED_BOX`]), where the input stands or
/// from the occurrences of a repeated field (careful mode). Whatever the value's `Deserialize`
/// asks for, the heap block of the visitor's `Value` (the boxed type, for a derived struct) is
/// charged first, then the request is handed on.
pub(super) struct ChargedBox<'a, 'de> {
    pub(super) de: &'a mut De<'de>,
    /// The occurrences of a repeated field, or `None` for the value at `pos`.
    pub(super) repeated: Option<Vec<usize>>,
}

macro_rules! charged {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            self.de.charge(heap_size(std::mem::size_of::<V::Value>()))?;
            match self.repeated {
                None => de::Deserializer::$method(self.de, $($arg,)* visitor),
                Some(at) => Repeated { de: self.de, at }.$method($($arg,)* visitor),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for ChargedBox<'_, 'de> {
    type Error = Error;

    charged! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
}

/// The fields of a struct, each decoded from its occurrences (careful mode).
struct CarefulStruct<'a, 'de> {
    de: &'a mut De<'de>,
    fields: &'static [&'static str],
    shape: Option<Fields>,
    entries: Vec<(usize, Vec<usize>)>,
    next: usize,
    /// The zero times to hand over past the entries.
    zeros: ZeroTimes,
    /// The value to hand over next is Go's zero time, not the input.
    zero: bool,
}

impl<'de> MapAccess<'de> for CarefulStruct<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let f = match self.entries.get(self.next) {
            Some((f, _)) => *f,
            None => match self.zeros.next_field() {
                Some(f) => {
                    self.zero = true;
                    f
                }
                None => return Ok(None),
            },
        };
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(self.fields[f]))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if std::mem::take(&mut self.zero) {
            return zero_time(seed);
        }
        let f = self.entries[self.next].0;
        let at = std::mem::take(&mut self.entries[self.next].1);
        self.next += 1;
        let field = self.fields[f];
        let start = at[0];
        self.de.next = Fields::next(self.shape, f, self.fields);
        Repeated::decode(&mut *self.de, at, seed).map_err(|e| e.within(Seg::Field(field), start))
    }
}

/// A struct field written more than once: the occurrences, in order. What Go makes of them
/// depends on the field's type, which the requested method tells.
pub(super) struct Repeated<'a, 'de> {
    de: &'a mut De<'de>,
    at: Vec<usize>,
}

impl<'a, 'de> Repeated<'a, 'de> {
    /// Decodes the value that occurs at each of `at` (one or more) into `seed`.
    fn decode<S: DeserializeSeed<'de>>(
        de: &'a mut De<'de>,
        at: Vec<usize>,
        seed: S,
    ) -> Result<S::Value> {
        if let [one] = at[..] {
            de.pos = one;
            seed.deserialize(de)
        } else {
            seed.deserialize(Repeated { de, at })
        }
    }

    fn is_null(&self, at: usize) -> bool {
        self.de.input.get(at) == Some(&b'n')
    }

    /// Replaced by each occurrence, null included (slices).
    fn last(self) -> &'a mut De<'de> {
        self.de.pos = *self.at.last().unwrap_or(&self.de.pos);
        self.de
    }

    /// For a value Go decodes itself on every occurrence (a time, a `[]byte`): each earlier
    /// occurrence is read with `check` (a bad one fails the message, as in Go), and the last
    /// one decides; the deserializer is left at it.
    fn checked_last(
        self,
        check: impl Fn(&mut De<'de>) -> Result<de::IgnoredAny>,
    ) -> Result<&'a mut De<'de>> {
        let (last, earlier) = self.at.split_last().expect("a repeated field occurs");
        for &at in earlier {
            self.de.pos = at;
            check(self.de)?;
        }
        self.de.pos = *last;
        Ok(self.de)
    }

    /// Null has no effect (strings, numbers, bools, raw JSON): the last other occurrence.
    fn last_non_null(self) -> &'a mut De<'de> {
        let at = self
            .at
            .iter()
            .rev()
            .find(|&&at| !self.is_null(at))
            .or(self.at.last())
            .copied()
            .unwrap_or(self.de.pos);
        self.de.pos = at;
        self.de
    }

    /// Null resets (pointers, maps); what follows the last null is merged.
    fn after_last_null(&self) -> Vec<usize> {
        let from = self
            .at
            .iter()
            .rposition(|&at| self.is_null(at))
            .map_or(0, |i| i + 1);
        self.at[from..].to_vec()
    }
}

macro_rules! last_non_null {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.last_non_null().$method(visitor)
        }
    )*};
}

/// Go decodes every occurrence of a scalar field into it: a mistyped occurrence fails the
/// message even when a later one is fine (null has no effect). Each earlier occurrence is
/// checked with the field's own method; a bad one is then read with the field's visitor, for
/// the error in the field's words.
macro_rules! checked_last_non_null {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let Repeated { de, at } = self;
            let chosen = at.iter().rposition(|&at| de.input.get(at) != Some(&b'n'));
            for &earlier in &at[..chosen.unwrap_or(0)] {
                de.pos = earlier;
                if de::Deserializer::$method(&mut *de, de::IgnoredAny).is_err() {
                    de.pos = earlier;
                    return de::Deserializer::$method(de, visitor);
                }
            }
            de.pos = chosen.map_or_else(|| at.last().copied().unwrap_or(de.pos), |i| at[i]);
            de::Deserializer::$method(de, visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Repeated<'_, 'de> {
    type Error = Error;

    last_non_null!(deserialize_any, deserialize_identifier);

    checked_last_non_null!(
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string
    );

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.last().deserialize_bytes(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.last().deserialize_byte_buf(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let inner = match self.de.take_next() {
            Next::Bytes => {
                // Null (nil) decides too, when it is last.
                return self
                    .checked_last(|de| de.go_bytes(de::IgnoredAny))?
                    .go_bytes(visitor);
            }
            Next::Option(node, owner) => Next::node(node, owner),
            other => other,
        };
        let at = self.after_last_null();
        self.de.next = inner;
        match at.len() {
            0 => visitor.visit_none(),
            1 => {
                self.de.pos = at[0];
                visitor.visit_some(self.de)
            }
            _ => visitor.visit_some(Repeated { de: self.de, at }),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.last().deserialize_unit(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.last().deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == CHARGED_BOX {
            // One box for all occurrences: Go decodes each into the struct the pointer holds.
            return visitor.visit_newtype_struct(ChargedBox {
                de: self.de,
                repeated: Some(self.at),
            });
        }
        if let Next::Time = self.de.next {
            self.de.next = Next::Plain;
            // Null (the zero time) decides too, when it is last.
            return self
                .checked_last(|de| de.go_time(de::IgnoredAny))?
                .go_time(visitor);
        }
        if name == RAW_VALUE {
            // Go's `UnmarshalJSON` of a raw value replaces its bytes with each occurrence but
            // a null (every occurrence's syntax is checked already).
            return self.last_non_null().raw_value(visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // Go decodes a repeated array into the slice it holds: element i of each occurrence
        // into element i of the slice, so elements of objects merge across occurrences; the
        // slice ends with the last occurrence's length. A shorter occurrence only shortens the
        // slice: the elements it cut off stay in the slice's backing array, and a longer
        // occurrence after it decodes into them again (Go grows the array only when every
        // element is in use, copying them all). A null or an empty array replaces the slice,
        // elements and all.
        let item = self.de.next.elements();
        let at = self.after_last_null();
        if at.len() < 2 || self.de.input.get(at[0]) != Some(&b'[') {
            return self.last().deserialize_seq(visitor);
        }
        let mut occurrences = Vec::with_capacity(at.len());
        for &occurrence in &at {
            if self.de.input.get(occurrence) != Some(&b'[') {
                return self.last().deserialize_seq(visitor);
            }
            occurrences.push(self.de.array_items(occurrence)?);
        }
        let last = occurrences.last().map_or(0, Vec::len);
        let items = (0..last)
            .map(|i| {
                // The occurrences element i went through, since the last empty one.
                let from = occurrences
                    .iter()
                    .rposition(Vec::is_empty)
                    .map_or(0, |j| j + 1);
                occurrences[from..]
                    .iter()
                    .filter_map(|items| items.get(i).copied())
                    .collect()
            })
            .collect();
        let de = self.de;
        de.pos = *at.last().expect("two occurrences");
        let value = de.level(|de| {
            visitor.visit_seq(RepeatedSeq {
                de,
                items,
                index: 0,
                item,
            })
        })?;
        de.pos = *at.last().expect("two occurrences");
        de.skip_value()?;
        Ok(value)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.last().deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.last().deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let at = self.after_last_null();
        let Some(&first) = at.first() else {
            return self.last().deserialize_map(visitor);
        };
        let de = self.de;
        let value = de.take_next().values();
        de.pos = first;
        de.level(|de| visitor.visit_map(Map::new(de, at, value)))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let at: Vec<usize> = self
            .at
            .iter()
            .copied()
            .filter(|&at| !self.is_null(at))
            .collect();
        if at.is_empty() {
            return self.last().deserialize_struct(name, fields, visitor);
        }
        let shape = self.de.take_next().fields(fields);
        self.de.careful_struct(fields, visitor, &at, None, shape)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.last_non_null()
            .deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
}
