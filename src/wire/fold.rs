//! Go's case folding for JSON object keys.
//!
//! `encoding/json` matches a key to a struct field by its exact name first and otherwise by a
//! folded form of both: ASCII letters upper-cased, any other character mapped to the upper case
//! of its lower case (`unicode.ToUpper(unicode.ToLower(r))`). That folding is what makes the
//! Kelvin sign `K` (U+212A) equal `k` and the long s `ſ` (U+017F) equal `s`, as
//! `strings.EqualFold` says too. Rust's case mappings are the full Unicode ones, which may give
//! several characters; Go's are the simple one-character mappings, so a multi-character
//! result keeps the character as it is (the one exception, `İ` whose simple lower case is `i`,
//! is spelled out).

/// Folds one character the way Go's JSON field matching does.
fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    let lower = match c {
        '\u{130}' => 'i',
        c => single(c.to_lowercase()).unwrap_or(c),
    };
    single(lower.to_uppercase()).unwrap_or(lower)
}

fn single(mut chars: impl Iterator<Item = char>) -> Option<char> {
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
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
        // ß has no one-character upper case: it only equals itself.
        assert!(!eq_fold("\u{df}", "ss"));
        const FIELDS: &[&str] = &["name", "Name"];
        assert_eq!(resolve("Name", FIELDS), Some(1));
        assert_eq!(resolve("NAME", FIELDS), Some(0));
        assert_eq!(resolve("other", FIELDS), None);
    }
}
