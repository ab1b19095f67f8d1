//! Struct objects in the fast mode: keys are matched to fields as they stream by (Go's
//! folding, the status read raw), a `null` for a field not seen yet leaves it at its zero
//! value, and a field seen twice abandons the pass for the careful mode (see `de.rs`).

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{DeserializeSeed, MapAccess};

use super::de::De;
use super::error::{Error, Result, Seg};
use super::fold::key_target;
use super::go_types::{ZeroTimes, zero_time};
use super::next::Fields;

impl De<'_> {
    /// Records that the fast pass cannot go on (a repeated struct key) and returns the error
    /// that unwinds it.
    pub(super) fn ask_careful(&mut self) -> Error {
        self.needs_careful = true;
        Error::abandoned()
    }
}

/// The fields of a struct object, streamed (fast mode). The opening brace is read; the
/// closing one is left for the caller.
pub(super) struct Struct<'a, 'de> {
    de: &'a mut De<'de>,
    fields: &'static [&'static str],
    status: Option<&'static str>,
    shape: Option<Fields>,
    /// The fields (below 128) seen, and those past 128.
    seen: u128,
    seen_more: Vec<usize>,
    first: bool,
    /// The field whose value comes next.
    field: usize,
    /// The fields handed to the visitor, and the zero times still to hand over at the end.
    zeros: ZeroTimes,
    /// The value to hand over next is Go's zero time, not the input.
    zero: bool,
}

impl<'a, 'de> Struct<'a, 'de> {
    pub(super) fn new(
        de: &'a mut De<'de>,
        fields: &'static [&'static str],
        status: Option<&'static str>,
        shape: Option<Fields>,
    ) -> Self {
        Struct {
            de,
            fields,
            status,
            shape,
            seen: 0,
            seen_more: Vec::new(),
            first: true,
            field: 0,
            zeros: ZeroTimes::new(fields, shape),
            zero: false,
        }
    }

    /// Marks field `f` seen; false when it was seen before.
    fn mark(&mut self, f: usize) -> bool {
        if f < 128 {
            let bit = 1u128 << f;
            let new = self.seen & bit == 0;
            self.seen |= bit;
            new
        } else if self.seen_more.contains(&f) {
            false
        } else {
            self.seen_more.push(f);
            true
        }
    }

    /// Hands field `f` to the visitor.
    fn key<K: DeserializeSeed<'de>>(&mut self, f: usize, seed: K) -> Result<Option<K::Value>> {
        self.zeros.mark(f);
        self.field = f;
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(self.fields[f]))
            .map(Some)
    }
}

impl<'de> MapAccess<'de> for Struct<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            let de = &mut *self.de;
            if de.needs_careful {
                return Err(Error::abandoned());
            }
            de.tick()?;
            match de.peek() {
                Some(b'}') => {
                    return match self.zeros.next_field() {
                        Some(f) => {
                            self.zero = true;
                            self.key(f, seed)
                        }
                        None => Ok(None),
                    };
                }
                Some(b',') if !self.first => de.pos += 1,
                _ if !self.first => {
                    return Err(de.unexpected_char("after object key:value pair"));
                }
                _ => {}
            }
            self.first = false;
            if de.peek() != Some(b'"') {
                return Err(de.unexpected_char("looking for beginning of object key string"));
            }
            let (field, is_status) = {
                let key = de.parse_str()?;
                key_target(key.as_str(), self.fields, self.status)
            };
            de.expect(b':', "after object key")?;
            if is_status {
                de.read_status()?;
                continue;
            }
            let Some(f) = field else {
                de.skip_value()?;
                continue;
            };
            if de.peek() == Some(b'n') {
                // null leaves the field as it is: its zero value, as the field is new.
                de.literal(b"null")?;
                if !self.mark(f) {
                    return Err(self.de.ask_careful());
                }
                continue;
            }
            if !self.mark(f) {
                return Err(self.de.ask_careful());
            }
            return self.key(f, seed);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if std::mem::take(&mut self.zero) {
            return zero_time(seed);
        }
        self.de.skip_ws();
        let start = self.de.pos;
        let field = self.fields[self.field];
        self.de.next = Fields::next(self.shape, self.field, self.fields);
        seed.deserialize(&mut *self.de)
            .map_err(|e| e.within(Seg::Field(field), start))
    }
}
