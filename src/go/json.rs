//! How Go's `encoding/json` writes a string (`json.Marshal`), for the messages that show a
//! value as JSON (apimachinery's field errors show a rejected structure that way).
//!
//! `"` and `\` are escaped; `\b \f \n \r \t` by name; other controls, and `<`, `>`, `&` (Go
//! escapes them for HTML by default), as `\u00XX`; U+2028 and U+2029 as `\u2028`/`\u2029`;
//! everything else as it is.

/// The JSON text of `s` as Go's `json.Marshal` writes it.
pub fn marshal_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_go() {
        assert_eq!(
            marshal_string("a<b>&\"\u{2028}é"),
            r#""a\u003cb\u003e\u0026\"\u2028é""#
        );
        assert_eq!(marshal_string("\u{1}\t"), r#""\u0001\t""#);
    }
}
