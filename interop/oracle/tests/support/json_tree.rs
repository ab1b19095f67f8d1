//! A JSON document as the wire corpus mutates it: every number keeps its text and every string
//! and key its raw bytes between the quotes (escapes and invalid UTF-8 included), and objects
//! may repeat keys, so the tree can hold any body a peer could send.
#![allow(dead_code)]

use serde_json::Value;

/// One JSON value.
#[derive(Clone, Debug)]
pub enum J {
    Null,
    Bool(bool),
    /// The number's text, written as is (it may be one JSON does not allow).
    Num(String),
    /// The bytes between the quotes, written as is.
    Str(Vec<u8>),
    Arr(Vec<J>),
    /// Entries in order; a key is the bytes between its quotes.
    Obj(Vec<(Vec<u8>, J)>),
}

/// The bytes of `s` as they stand between the quotes of a JSON string.
pub fn escaped(s: &str) -> Vec<u8> {
    let quoted = serde_json::to_string(s).expect("a string encodes");
    quoted.as_bytes()[1..quoted.len() - 1].to_vec()
}

impl J {
    pub fn from_value(value: &Value) -> J {
        match value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Number(n) => J::Num(n.to_string()),
            Value::String(s) => J::Str(escaped(s)),
            Value::Array(items) => J::Arr(items.iter().map(J::from_value).collect()),
            Value::Object(entries) => J::Obj(
                entries
                    .iter()
                    .map(|(k, v)| (escaped(k), J::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// A string value from text.
    pub fn str(s: &str) -> J {
        J::Str(escaped(s))
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            J::Null => out.extend_from_slice(b"null"),
            J::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            J::Num(n) => out.extend_from_slice(n.as_bytes()),
            J::Str(s) => {
                out.push(b'"');
                out.extend_from_slice(s);
                out.push(b'"');
            }
            J::Arr(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write(out);
                }
                out.push(b']');
            }
            J::Obj(entries) => {
                out.push(b'{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.push(b'"');
                    out.extend_from_slice(key);
                    out.extend_from_slice(b"\":");
                    value.write(out);
                }
                out.push(b'}');
            }
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// The paths of every value (the root is `[]`); a step is an index into an array's items
    /// or an object's entries.
    pub fn paths(&self) -> Vec<Vec<usize>> {
        let mut paths = Vec::new();
        let mut path = Vec::new();
        self.collect(&mut path, &mut paths);
        paths
    }

    fn collect(&self, path: &mut Vec<usize>, paths: &mut Vec<Vec<usize>>) {
        paths.push(path.clone());
        let children: Vec<&J> = match self {
            J::Arr(items) => items.iter().collect(),
            J::Obj(entries) => entries.iter().map(|(_, v)| v).collect(),
            _ => return,
        };
        for (i, child) in children.into_iter().enumerate() {
            path.push(i);
            child.collect(path, paths);
            path.pop();
        }
    }

    pub fn at(&self, path: &[usize]) -> &J {
        path.iter().fold(self, |node, &i| match node {
            J::Arr(items) => &items[i],
            J::Obj(entries) => &entries[i].1,
            _ => unreachable!("a path goes through arrays and objects"),
        })
    }

    pub fn at_mut(&mut self, path: &[usize]) -> &mut J {
        path.iter().fold(self, |node, &i| match node {
            J::Arr(items) => &mut items[i],
            J::Obj(entries) => &mut entries[i].1,
            _ => unreachable!("a path goes through arrays and objects"),
        })
    }

    /// The key under which the value at `path` sits, when its parent is an object.
    pub fn key_of(&self, path: &[usize]) -> Option<&[u8]> {
        let (&last, parent) = path.split_last()?;
        match self.at(parent) {
            J::Obj(entries) => Some(&entries[last].0),
            _ => None,
        }
    }

    /// How deeply arrays and objects nest at `path` (the root's children are at 1).
    pub fn depth(path: &[usize]) -> usize {
        path.len()
    }
}
