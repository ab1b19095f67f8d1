//! Go's `strconv.Quote`: a string as a double-quoted Go literal, the way Go's `%q` shows a
//! value in error messages (`parse "https://x:y": invalid port ":y" after host`).
//!
//! Printable characters (Go's `strconv.IsPrint`: letters, marks, numbers, punctuation,
//! symbols and the ASCII space, by Go's Unicode tables) are written as they are; `"` and `\`
//! are escaped; `\a \b \f \n \r \t \v` by name; other ASCII controls as `\xNN`; other
//! characters as `\uNNNN` or `\UNNNNNNNN`.

use super::print_ranges::PRINTABLE;

/// `strconv.Quote(s)`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    out.push('"');
    out
}

fn push_escaped(out: &mut String, c: char) {
    if c == '"' || c == '\\' {
        out.push('\\');
        out.push(c);
        return;
    }
    if is_print(c) {
        out.push(c);
        return;
    }
    let n = c as u32;
    match c {
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        _ if n < 0x20 || n == 0x7f => out.push_str(&format!("\\x{n:02x}")),
        _ if n < 0x10000 => out.push_str(&format!("\\u{n:04x}")),
        _ => out.push_str(&format!("\\U{n:08x}")),
    }
}

/// `strconv.Quote` of a Go string holding any bytes: each byte that is not part of a valid
/// UTF-8 sequence is written `\xNN`, the rest as [`quote`] writes it.
pub fn quote_bytes(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for chunk in s.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_escaped(&mut out, c);
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: whether `%q` writes the character as it is.
pub fn is_print(c: char) -> bool {
    let n = c as u32;
    // The ranges are sorted and disjoint: find the last one starting at or before `n`.
    let i = PRINTABLE.partition_point(|&(first, _)| first <= n);
    i > 0 && n <= PRINTABLE[i - 1].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_go() {
        assert_eq!(quote("a\"b\\"), r#""a\"b\\""#);
        assert_eq!(quote("é\u{200b}\n\u{7f}"), r#""é\u200b\n\x7f""#);
    }

    #[test]
    fn latin1_as_go() {
        assert!(is_print(' ') && is_print('~') && is_print('¡') && is_print('ÿ'));
        assert!(!is_print('\u{7f}') && !is_print('\u{a0}') && !is_print('\u{ad}'));
        assert_eq!(quote("\u{0}\u{1b}"), r#""\x00\x1b""#);
        assert_eq!(
            quote("\u{1f600}\u{e000}\u{10ffff}"),
            "\"\u{1f600}\\ue000\\U0010ffff\""
        );
    }

    #[test]
    fn the_table_is_sorted_and_disjoint() {
        assert!(PRINTABLE.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(PRINTABLE.iter().all(|&(a, b)| a <= b));
    }
}
