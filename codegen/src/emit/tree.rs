//! The tree the OpenAPI emitter builds a document in, lighter than [`serde_json::Value`]: names
//! are borrowed from the model where they can be, a mapping is a vector of its entries (a
//! `serde_json::Map` node is some 600 bytes, however few its keys), and values the model holds
//! (defaults, literal schemas) are borrowed as they are. The finished tree is put in key order
//! once ([`Node::sort`]), then turned into a `Value` or written as YAML directly.

use std::borrow::Cow;

use serde_json::Value;

use super::openapi::{canonical, is_canonical};

/// One node of a document.
#[derive(Clone, Debug)]
pub enum Node<'a> {
    /// A string.
    Str(Cow<'a, str>),
    /// A JSON value as it is (its mappings already in key order once the tree is sorted).
    Json(Cow<'a, Value>),
    /// A mapping.
    Map(Map<'a>),
    /// A sequence.
    List(Vec<Node<'a>>),
}

impl<'a> Node<'a> {
    /// A string node.
    pub fn str(s: impl Into<Cow<'a, str>>) -> Self {
        Node::Str(s.into())
    }

    /// A JSON value owned by the tree.
    pub fn json(v: Value) -> Self {
        Node::Json(Cow::Owned(v))
    }

    /// A sequence of strings.
    pub fn strs(items: impl IntoIterator<Item = impl Into<Cow<'a, str>>>) -> Self {
        Node::List(items.into_iter().map(Node::str).collect())
    }

    /// Puts every mapping in key order (byte order of the keys, as `serde_json::Map` keeps
    /// them), keeping the last of entries inserted under the same key.
    pub fn sort(&mut self) {
        match self {
            Node::Map(m) => m.sort(),
            Node::List(items) => items.iter_mut().for_each(Node::sort),
            Node::Json(v) => {
                if (v.is_object() || v.is_array()) && !is_canonical(v) {
                    *v = Cow::Owned(canonical(v.as_ref().clone()));
                }
            }
            Node::Str(_) => {}
        }
    }

    /// The tree as a JSON value.
    pub fn into_value(self) -> Value {
        match self {
            Node::Str(s) => Value::String(s.into_owned()),
            Node::Json(v) => v.into_owned(),
            Node::Map(m) => Value::Object(
                m.0.into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_value()))
                    .collect(),
            ),
            Node::List(items) => Value::Array(items.into_iter().map(Node::into_value).collect()),
        }
    }
}

/// A mapping: its entries in insertion order until [`Node::sort`].
#[derive(Clone, Debug, Default)]
pub struct Map<'a>(Vec<(Cow<'a, str>, Node<'a>)>);

impl<'a> Map<'a> {
    /// An empty mapping.
    pub fn new() -> Self {
        Map(Vec::new())
    }

    /// An empty mapping with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        Map(Vec::with_capacity(n))
    }

    /// Sets `key` to `value` (a later value for the same key wins, as in `serde_json::Map`).
    pub fn insert(&mut self, key: impl Into<Cow<'a, str>>, value: Node<'a>) {
        self.0.push((key.into(), value));
    }

    /// The value last set for `key`.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node<'a>> {
        self.0
            .iter_mut()
            .rev()
            .find(|e| e.0 == key)
            .map(|e| &mut e.1)
    }

    /// Removes `key`.
    pub fn remove(&mut self, key: &str) {
        self.0.retain(|e| e.0 != key);
    }

    /// True when the mapping has no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn sort(&mut self) {
        // Stable: entries of one key stay in insertion order, and the last one is kept.
        self.0.sort_by(|a, b| a.0.cmp(&b.0));
        if self.0.windows(2).any(|w| w[0].0 == w[1].0) {
            let mut kept: Vec<(Cow<'a, str>, Node<'a>)> = Vec::with_capacity(self.0.len());
            for entry in self.0.drain(..) {
                match kept.last_mut() {
                    Some(last) if last.0 == entry.0 => *last = entry,
                    _ => kept.push(entry),
                }
            }
            self.0 = kept;
        }
        self.0.iter_mut().for_each(|e| e.1.sort());
    }
}

impl<'a> From<Map<'a>> for Node<'a> {
    fn from(m: Map<'a>) -> Self {
        Node::Map(m)
    }
}

#[cfg(feature = "yaml")]
impl crate::yaml::Tree for Node<'_> {
    fn write(&self, out: &mut String, at: crate::yaml::At) {
        use crate::yaml::{write_json, write_map, write_seq, write_str};
        match self {
            Node::Str(s) => write_str(out, s, at),
            Node::Json(v) => write_json(out, v, at),
            Node::Map(m) => write_map(out, m.0.iter().map(|(k, v)| (k.as_ref(), v)), at),
            Node::List(items) => write_seq(out, items.iter(), at),
        }
    }

    fn is_filled_map(&self) -> bool {
        match self {
            Node::Map(m) => !m.is_empty(),
            Node::Json(v) => v.as_object().is_some_and(|m| !m.is_empty()),
            Node::Str(_) | Node::List(_) => false,
        }
    }
}
