//! YAML text of a [`serde_json::Value`], written directly from the tree.
//!
//! The published documents and the CRDs were first rendered by serde-saphyr 2 with its default
//! options, and their goldens hold that text; this writer produces the same bytes for every
//! value (a property test in `tests.rs` holds it to serde-saphyr), without going through
//! serde's data model: block style, two-space indentation, sequences under a key at the key's
//! own column (`key:\n- item`), a mapping or sequence that is a sequence item starting on the
//! dash's line (`- key: value`, `- - item`), `{}` and `[]` for empty collections, keys longer
//! than 1024 characters in the explicit `? key` form, and strings as [`scalar`] decides.

mod scalar;
#[cfg(test)]
mod tests;

use serde_json::{Number, Value};

/// Where a node is written.
#[derive(Clone, Copy)]
pub(crate) enum At {
    /// The document itself, at the start of its first line.
    Root,
    /// A mapping value: `key:` has just been written, with the key at this column.
    Value(usize),
    /// A sequence item: `- ` has just been written, with the dash at this column (also the
    /// mapping that follows `: ` after an explicit key, laid out the same way).
    Item(usize),
}

impl At {
    /// The column block scalars indent their body from (by two).
    fn column(self) -> usize {
        match self {
            At::Root => 0,
            At::Value(c) | At::Item(c) => c,
        }
    }
}

/// A document tree the writer can walk, besides [`serde_json::Value`] itself: each node writes
/// itself at a position, through [`write_str`], [`write_map`], [`write_seq`] and [`write_json`].
pub(crate) trait Tree {
    /// Writes the node at `at`.
    fn write(&self, out: &mut String, at: At);
    /// True for a mapping with at least one entry (laid out differently after an explicit key).
    fn is_filled_map(&self) -> bool;
}

impl Tree for Value {
    fn write(&self, out: &mut String, at: At) {
        write_json(out, self, at);
    }

    fn is_filled_map(&self) -> bool {
        self.as_object().is_some_and(|m| !m.is_empty())
    }
}

/// The YAML text of `value`, ending in a newline.
pub fn to_string(value: &Value) -> String {
    tree_to_string(value)
}

/// The YAML text of a document tree, ending in a newline.
pub(crate) fn tree_to_string(tree: &impl Tree) -> String {
    // Room for the whole SDK document (170 KB): a large allocation is mapped, its pages touched
    // only as they are written, and it never needs copying while it grows.
    let mut out = String::with_capacity(1 << 18);
    tree.write(&mut out, At::Root);
    out
}

/// Writes a JSON value at `at`.
pub(crate) fn write_json(out: &mut String, value: &Value, at: At) {
    match value {
        Value::Object(m) => return write_map(out, m.iter().map(|(k, v)| (k.as_str(), v)), at),
        Value::Array(a) => return write_seq(out, a.iter(), at),
        _ => {}
    }
    if let At::Value(_) = at {
        out.push(' ');
    }
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n),
        Value::String(s) => return string(out, s, at),
        Value::Object(_) | Value::Array(_) => unreachable!("written above"),
    }
    out.push('\n');
}

/// Writes a string at `at`.
pub(crate) fn write_str(out: &mut String, s: &str, at: At) {
    if let At::Value(_) = at {
        out.push(' ');
    }
    string(out, s, at);
}

/// An empty mapping or sequence at `at`.
fn empty(out: &mut String, text: &str, at: At) {
    if let At::Value(_) = at {
        out.push(' ');
    }
    out.push_str(text);
    out.push('\n');
}

/// Writes a mapping at `at`, its entries in the order given.
pub(crate) fn write_map<'v, T: Tree + 'v>(
    out: &mut String,
    entries: impl ExactSizeIterator<Item = (&'v str, &'v T)>,
    at: At,
) {
    if entries.len() == 0 {
        return empty(out, "{}", at);
    }
    let (col, mut inline) = match at {
        At::Root => (0, false),
        At::Value(key) => {
            out.push('\n');
            (key + 2, false)
        }
        At::Item(dash) => (dash + 2, true),
    };
    for (key, value) in entries {
        if !inline {
            push_spaces(out, col);
        }
        inline = false;
        let start = out.len();
        if scalar::plain_key(key) {
            out.push_str(key);
        } else {
            scalar::push_quoted(out, key);
        }
        let text = &out[start..];
        if text.len() <= 1024 || text.chars().count() <= 1024 {
            out.push(':');
            value.write(out, At::Value(col));
            continue;
        }
        // Too long for an implicit key: `? key` on its own line, then `:` and the value.
        out.insert_str(start, "? ");
        out.push('\n');
        push_spaces(out, col);
        out.push(':');
        if value.is_filled_map() {
            out.push(' ');
            value.write(out, At::Item(col));
        } else {
            value.write(out, At::Value(col));
        }
    }
}

/// Writes a sequence at `at`.
pub(crate) fn write_seq<'v, T: Tree + 'v>(
    out: &mut String,
    items: impl ExactSizeIterator<Item = &'v T>,
    at: At,
) {
    if items.len() == 0 {
        return empty(out, "[]", at);
    }
    let (col, mut inline) = match at {
        At::Root => (0, false),
        At::Value(key) => {
            out.push('\n');
            (key, false)
        }
        At::Item(dash) => (dash + 2, true),
    };
    for item in items {
        if !inline {
            push_spaces(out, col);
        }
        inline = false;
        out.push_str("- ");
        item.write(out, At::Item(col));
    }
}

/// Integers as written; floats with a decimal point in the mantissa and a sign in the
/// exponent (`1.0`, `4.0e-6`, `1.0e+21`), so that YAML 1.1 readers see floats.
fn number(out: &mut String, n: &Number) {
    use std::fmt::Write;
    let start = out.len();
    write!(out, "{n}").expect("writing to a String");
    if !n.is_f64() {
        return;
    }
    let text = &out[start..];
    match text.find(['e', 'E']) {
        Some(e) => {
            let mantissa_has_dot = text[..e].contains('.');
            let signed = matches!(text.as_bytes().get(e + 1), Some(b'+' | b'-'));
            if !signed {
                out.insert(start + e + 1, '+');
            }
            if !mantissa_has_dot {
                out.insert_str(start + e, ".0");
            }
        }
        None if !text.contains('.') => out.push_str(".0"),
        None => {}
    }
}

/// A string at `at` (after the space of a mapping value): a literal block when it spans lines,
/// a folded block when it is one long line that could be plain, else plain or double-quoted.
fn string(out: &mut String, s: &str, at: At) {
    let body = at.column() + 2;
    if s.contains('\n') {
        if scalar::block_safe(s) {
            return literal(out, s, body);
        }
    } else if s.len() > 80 {
        let probe = s.trim_end_matches(' ');
        // A string that may be plain (but for trailing spaces) may be a folded block too.
        if !probe.is_empty() && scalar::plain_value(probe) && s.chars().count() > 80 {
            return folded(out, s, body);
        }
    }
    match s {
        // Plain, these would be read as a float, a comment and a sequence entry.
        "." | "#" | "-" => {
            out.push('\'');
            out.push_str(s);
            out.push('\'');
        }
        _ if scalar::plain_value(s) => out.push_str(s),
        _ => scalar::push_quoted(out, s),
    }
    out.push('\n');
}

/// The header of a block scalar: `indicator`, the indentation indicator when the first line
/// starts with spaces, and the chomping indicator for the trailing line breaks.
fn block_header(out: &mut String, indicator: char, content: &str, trailing: usize) {
    out.push(indicator);
    let first_line = content.split('\n').find(|l| !l.is_empty()).unwrap_or("");
    if first_line.starts_with(' ') {
        out.push('2');
    }
    match trailing {
        0 => out.push('-'),
        1 if !content.is_empty() || indicator == '>' => {}
        _ => out.push('+'),
    }
    out.push('\n');
}

fn literal(out: &mut String, s: &str, body: usize) {
    let content = s.trim_end_matches('\n');
    let trailing = s.len() - content.len();
    block_header(out, '|', content, trailing);
    if content.is_empty() {
        (0..trailing).for_each(|_| out.push('\n'));
        return;
    }
    for line in content.split('\n') {
        if !line.is_empty() {
            push_spaces(out, body);
            out.push_str(line);
        }
        out.push('\n');
    }
    (1..trailing).for_each(|_| out.push('\n'));
}

fn folded(out: &mut String, s: &str, body: usize) {
    let content = s.trim_end_matches('\n');
    block_header(out, '>', content, s.len() - content.len());
    scalar::push_folded(out, s, body);
}

fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut n = n;
    while n > SPACES.len() {
        out.push_str(SPACES);
        n -= SPACES.len();
    }
    out.push_str(&SPACES[..n]);
}
