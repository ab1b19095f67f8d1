//! Go's case folding for JSON object keys.
//!
//! `encoding/json` matches a key to a struct field by its exact name first and otherwise by a
//! folded form of both: ASCII letters upper-cased, any other character replaced by the smallest
//! character of its `unicode.SimpleFold` orbit (the characters Unicode's simple case folding
//! makes equal). So the Kelvin sign `K` (U+212A) folds to `K` and the long s `ſ` (U+017F) to
//! `S`, while the dotless `ı` (U+0131) and the dotted `İ` (U+0130), which only Turkic folding
//! relates to `i`, fold to themselves. The folds come from Go itself (`fold_table.rs`, written by
//! `cargo xtask go-tables`); `interop/oracle/tests/go_wire.rs` checks the matching against Go's.

#[path = "fold_table.rs"]
mod fold_table;

/// Folds one character the way Go's JSON field matching does.
fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    let code = c as u32;
    fold_table::FOLDS
        .binary_search_by_key(&code, |&(from, _)| from)
        .ok()
        .and_then(|i| char::from_u32(fold_table::FOLDS[i].1))
        .unwrap_or(c)
}

/// True when `key` folds to the same string as `name` (Go's `foldName(key) == foldName(name)`).
pub(crate) fn eq_fold(key: &str, name: &str) -> bool {
    if key.is_ascii() && name.is_ascii() {
        return key.eq_ignore_ascii_case(name);
    }
    let mut a = key.chars().map(fold_char);
    let mut b = name.chars().map(fold_char);
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
    }
}

/// The field `key` sets among `fields`: the one named exactly `key`, else the first whose
/// name folds equal to it (Go keeps the first of several fields with equal folded names).
pub(crate) fn resolve(key: &str, fields: &'static [&'static str]) -> Option<usize> {
    fields
        .iter()
        .position(|f| *f == key)
        .or_else(|| fields.iter().position(|f| eq_fold(key, f)))
}

/// The field `key` sets, and whether it is the status (read raw, also into a type that has
/// no status field, such as a caller's own view of a response).
pub(super) fn key_target(
    key: &str,
    fields: &'static [&'static str],
    status: Option<&'static str>,
) -> (Option<usize>, bool) {
    let field = resolve(key, fields);
    let is_status = status.is_some_and(|status| match field {
        Some(f) => fields[f] == status,
        None => eq_fold(key, status),
    });
    (field, is_status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_follows_go() {
        assert!(eq_fold("STATUS", "status"));
        assert!(eq_fold("\u{17f}tatus", "status"));
        assert!(eq_fold("\u{212a}ind", "kind"));
        assert!(!eq_fold("statu", "status"));
        assert!(!eq_fold("stat\u{fc}s", "status"));
        assert!(eq_fold("\u{394}elta", "\u{3b4}ELTA"));
        // ß has no one-character upper case: it only equals itself (and the capital ẞ).
        assert!(!eq_fold("\u{df}", "ss"));
        assert!(eq_fold("\u{df}", "\u{1e9e}"));
        // Only Turkic folding relates the dotless and dotted i to i.
        assert!(!eq_fold("ap\u{131}Version", "apiVersion"));
        assert!(!eq_fold("ap\u{130}Version", "apiVersion"));
        const FIELDS: &[&str] = &["name", "Name"];
        assert_eq!(resolve("Name", FIELDS), Some(1));
        assert_eq!(resolve("NAME", FIELDS), Some(0));
        assert_eq!(resolve("other", FIELDS), None);
    }
}
