//! serde's entry points of the decoder: each reads the next value for what the visitor asks
//! with Go's rules, using what the value is ([`Next`]) where a Go type needs its own reading.

use serde::de::value::StrDeserializer;
use serde::de::{self, Visitor};

use super::access::{Map, Seq, Tagged};
use super::budget::CHARGED_BOX;
use super::careful::ChargedBox;
use super::de::De;
use super::error::{Error, Result};
use super::fast::Struct;
use super::go_types::{RAW_VALUE, ZeroTimes};
use super::next::Next;

impl De<'_> {
    /// Decodes the object at `pos` with `f`, a level deeper, from after its opening brace to
    /// its closing one.
    fn in_braces<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        self.level(|de| {
            de.pos += 1;
            let value = f(de)?;
            de.expect(b'}', "after object key:value pair")?;
            Ok(value)
        })
    }
}

macro_rules! integer {
    ($method:ident, $visit:ident, $ty:ty, $go:literal) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.peek() {
                Some(b'n') => {
                    self.literal(b"null")?;
                    visitor.$visit(0)
                }
                Some(b'-' | b'0'..=b'9') => {
                    let v: $ty = self.integer($go)?;
                    visitor.$visit(v)
                }
                _ => Err(self.mismatch(&visitor)),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for &mut De<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.next = Next::Plain;
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            Some(b'"') => self.visit_string(visitor),
            Some(b'-' | b'0'..=b'9') => self.visit_number(visitor),
            Some(b'[') => self.deserialize_seq(visitor),
            Some(b'{') => self.deserialize_map(visitor),
            _ => Err(self.unexpected_char("looking for beginning of value")),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_bool(false)
            }
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    integer!(deserialize_i8, visit_i8, i8, "int8");
    integer!(deserialize_i16, visit_i16, i16, "int16");
    integer!(deserialize_i32, visit_i32, i32, "int32");
    integer!(deserialize_i64, visit_i64, i64, "int64");
    integer!(deserialize_u8, visit_u8, u8, "uint8");
    integer!(deserialize_u16, visit_u16, u16, "uint16");
    integer!(deserialize_u32, visit_u32, u32, "uint32");
    integer!(deserialize_u64, visit_u64, u64, "uint64");

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_f32(0.0)
            }
            Some(b'-' | b'0'..=b'9') => {
                let v = self.float(32)?;
                visitor.visit_f32(v as f32)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_f64(0.0)
            }
            Some(b'-' | b'0'..=b'9') => {
                let v = self.float(64)?;
                visitor.visit_f64(v)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_borrowed_str("")
            }
            Some(b'"') => self.visit_string(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let inner = match self.take_next() {
            // k8s-openapi's `ByteString` reads itself as an option.
            Next::Bytes => return self.go_bytes(visitor),
            Next::Option(node, owner) => Next::node(node, owner),
            other => other,
        };
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            self.next = inner;
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_unit()
        } else {
            Err(self.mismatch(&visitor))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == CHARGED_BOX {
            return visitor.visit_newtype_struct(ChargedBox {
                de: self,
                repeated: None,
            });
        }
        if let Next::Time = self.next {
            self.next = Next::Plain;
            return self.go_time(visitor);
        }
        if name == RAW_VALUE {
            return self.raw_value(visitor);
        }
        // A newtype reads as what it wraps: what the value is stays as it was.
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let item = self.take_next().elements();
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_seq(Seq {
                    de: self,
                    index: 0,
                    empty: true,
                    item,
                })
            }
            Some(b'[') => self.level(|de| {
                de.pos += 1;
                let value = visitor.visit_seq(Seq {
                    de: &mut *de,
                    index: 0,
                    empty: false,
                    item,
                })?;
                de.expect(b']', "after array element")?;
                Ok(value)
            }),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let value = self.take_next().values();
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_map(Map::empty(self))
            }
            Some(b'{') => {
                let at = self.pos;
                self.level(|de| visitor.visit_map(Map::one(de, at, value)))
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let status = self.status_field.take();
        let shape = self.take_next().fields(fields);
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_map(ZeroTimes::new(fields, shape))
            }
            Some(b'{') if self.careful => {
                let at = self.pos;
                self.careful_struct(fields, visitor, &[at], status, shape)
            }
            Some(b'{') => {
                self.in_braces(|de| visitor.visit_map(Struct::new(de, fields, status, shape)))
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.next = Next::Plain;
        match self.peek() {
            Some(b'"') => {
                let s = self.parse_str()?;
                visitor.visit_enum(StrDeserializer::<Error>::new(s.as_str()))
            }
            Some(b'{') => self.in_braces(|de| visitor.visit_enum(Tagged { de })),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}
