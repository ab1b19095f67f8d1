//! How one string is written: plain, double-quoted, or as a block scalar (`|` literal, `>`
//! folded), by the rules serde-saphyr 2 applies with its default options (YAML 1.1-safe quoting,
//! block scalars preferred, 80-column folding, two-space indentation).
//!
//! A plain scalar must read back as the same string: anything a YAML 1.1 or 1.2 reader could
//! take for another type (numbers in any radix, booleans such as `yes`, null, `~`, dates,
//! sexagesimal numbers), anything starting with an indicator, with edge white space, a
//! `: ` or a ` #`, or any character that needs an escape, is double-quoted instead. The checks
//! look at the bytes once for the common (ASCII) case.

/// What one pass over a string found.
#[derive(Default)]
struct Scan {
    /// A character that only a double-quoted scalar can carry (controls, BOM, line and
    /// paragraph separators, U+FFFE/U+FFFF).
    needs_escape: bool,
    /// A `#` right after white space: it would start a comment.
    comment: bool,
    /// A `:` anywhere.
    colon: bool,
    /// A `:` followed by a space.
    colon_space: bool,
    /// One of `,[]{}`: structural in flow style, hence never plain in a key.
    flow_indicator: bool,
}

fn scan(s: &str) -> Scan {
    /// The ASCII bytes `scan` looks at (every other ASCII byte is ordinary), and every byte of
    /// a multi-byte character.
    const NOTABLE: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            t[b] = b < 0x20
                || b >= 0x7f
                || matches!(b as u8, b'#' | b':' | b',' | b'[' | b']' | b'{' | b'}');
            b += 1;
        }
        t
    };
    let bytes = s.as_bytes();
    let mut found = Scan::default();
    for (i, &b) in bytes.iter().enumerate() {
        if !NOTABLE[usize::from(b)] {
            continue;
        }
        match b {
            b'#' => {
                found.comment |=
                    i > 0 && (bytes[i - 1].is_ascii_whitespace() || bytes[i - 1] == 0x0b)
            }
            b':' => {
                found.colon = true;
                found.colon_space |= bytes.get(i + 1) == Some(&b' ');
            }
            b',' | b'[' | b']' | b'{' | b'}' => found.flow_indicator = true,
            0x80.. => return scan_chars(s),
            _ => found.needs_escape = true,
        }
    }
    found
}

/// [`scan`] of a string with multi-byte characters (white space before `#` may be one of them).
fn scan_chars(s: &str) -> Scan {
    let mut found = Scan::default();
    let mut prev_white = false;
    let mut prev_colon = false;
    for c in s.chars() {
        match c {
            '#' if prev_white => found.comment = true,
            ':' => found.colon = true,
            ' ' if prev_colon => found.colon_space = true,
            ',' | '[' | ']' | '{' | '}' => found.flow_indicator = true,
            c if needs_escape(c) => found.needs_escape = true,
            _ => {}
        }
        prev_white = c.is_whitespace();
        prev_colon = c == ':';
    }
    found
}

/// Characters a plain or single-quoted scalar cannot carry.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{FEFF}' | '\u{2028}' | '\u{2029}' | '\u{FFFE}' | '\u{FFFF}'
        )
}

/// True when a literal or folded block can hold `s` as it is (no escapes needed). Carriage
/// returns, NEL, the separators and the BOM are refused, as are non-printable characters.
pub(super) fn block_safe(s: &str) -> bool {
    if s.is_ascii() {
        return s.bytes().all(|b| matches!(b, b'\n' | b'\t' | 0x20..=0x7e));
    }
    s.chars().all(|c| match c {
        '\n' | '\t' => true,
        '\r' | '\u{0085}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}' => false,
        c => matches!(
            c as u32,
            0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x0010_FFFF
        ),
    })
}

/// True when `s` may be written plain as a mapping value (block context).
pub(super) fn plain_value(s: &str) -> bool {
    if !plain_common(s) || ambiguous(s, false) {
        return false;
    }
    let found = scan(s);
    !found.needs_escape && !found.comment && !found.colon_space && !s.trim_end().ends_with(':')
}

/// True when `s` may be written plain as a mapping key: safe as a value in flow context and as
/// a key (no `:` at all).
pub(super) fn plain_key(s: &str) -> bool {
    if !plain_common(s) || ambiguous(s, false) || ambiguous(s, true) {
        return false;
    }
    let found = scan(s);
    !found.needs_escape && !found.comment && !found.colon && !found.flow_indicator
}

/// The checks keys and values share: not empty, no document marker, no white space at the
/// edges, no indicator first (`-` and `?` only when followed by white space or alone).
fn plain_common(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if first.is_ascii_whitespace() || last.is_ascii_whitespace() {
        return false;
    }
    if (s.starts_with("---") || s.starts_with("..."))
        && b.get(3).is_none_or(u8::is_ascii_whitespace)
    {
        return false;
    }
    match first {
        b'-' | b'?' => b.len() > 1 && !b[1].is_ascii_whitespace(),
        b',' | b':' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>'
        | b'\'' | b'"' | b'%' | b'@' | b'`' => false,
        _ => true,
    }
}

/// Whether a reader could resolve the plain scalar `s` to something other than this string
/// (or refuse it): null, booleans, numbers, infinities and NaN, and under YAML 1.1 (`yaml_12`
/// false) its extra booleans, dates, and the `<<` and `=` tokens. Only asked of strings that
/// passed [`plain_common`] (no white space at the edges).
fn ambiguous(s: &str, yaml_12: bool) -> bool {
    let Some(&first) = s.as_bytes().first() else {
        return true;
    };
    // Every word is at most five bytes; numbers and dates start with one of these.
    if s.len() > 5 && !matches!(first, b'0'..=b'9' | b'+' | b'-' | b'.' | b'_') {
        return false;
    }
    if s == "~" {
        return true;
    }
    let short_word = |w: &str| {
        ["null", "true", "false", "nan", "inf", "+inf", "-inf"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
    };
    if s.len() <= 5 && short_word(s) {
        return true;
    }
    if is_numeric(s, yaml_12) {
        return true;
    }
    if yaml_12 {
        return false;
    }
    if s.len() <= 5
        && ["true", "yes", "y", "on", "false", "no", "n", "off"]
            .iter()
            .any(|k| s.eq_ignore_ascii_case(k))
    {
        return true;
    }
    s == "<<" || s == "=" || is_timestamp(s)
}

/// Number syntax, without building the number: decimal, `0b`/`0o`/`0x`, floats with an
/// optional exponent, `.inf`/`.nan`; YAML 1.1 also allows `_` separators almost anywhere and
/// base-60 (`1:30`).
fn is_numeric(s: &str, yaml_12: bool) -> bool {
    if !matches!(
        s.as_bytes().first(),
        Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'_')
    ) {
        return false;
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if unsigned.eq_ignore_ascii_case(".inf") || unsigned.eq_ignore_ascii_case(".nan") {
        return true;
    }
    if !yaml_12 {
        if is_sexagesimal(s) {
            return true;
        }
        if let Some((radix, digits)) = radix_digits(unsigned)
            && digit_run(digits, radix, false)
        {
            return true;
        }
    }
    let without_underscores;
    let s = if !yaml_12 && s.contains('_') {
        without_underscores = s.replace('_', "");
        without_underscores.as_str()
    } else {
        s
    };
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if let Some((radix, digits)) = radix_digits(unsigned) {
        let digits = if !yaml_12 && (s.starts_with("0b") || s.starts_with("0o")) {
            digits.strip_prefix(['+', '-']).unwrap_or(digits)
        } else {
            digits
        };
        return digit_run(digits, radix, true);
    }
    let mantissa = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if !digit_run(exponent, 10, true) {
                return false;
            }
            mantissa
        }
        None => unsigned,
    };
    match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            if !whole.is_empty() && !digit_run(whole, 10, true) {
                false
            } else if !yaml_12 {
                fraction.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            } else if fraction.is_empty() {
                !whole.is_empty()
            } else {
                digit_run(fraction, 10, true)
            }
        }
        None => digit_run(mantissa, 10, true),
    }
}

fn radix_digits(s: &str) -> Option<(u32, &str)> {
    match s.as_bytes() {
        [b'0', b'b' | b'B', ..] => Some((2, &s[2..])),
        [b'0', b'o' | b'O', ..] => Some((8, &s[2..])),
        [b'0', b'x' | b'X', ..] => Some((16, &s[2..])),
        _ => None,
    }
}

/// A non-empty run of digits of `radix`, with `_` allowed only between two digits when
/// `strict`, anywhere otherwise.
fn digit_run(s: &str, radix: u32, strict: bool) -> bool {
    let digit = |b: u8| char::from(b).is_digit(radix) && b.is_ascii();
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter().enumerate().all(|(i, &c)| {
            digit(c)
                || (c == b'_'
                    && (!strict
                        || (i > 0 && digit(b[i - 1]) && b.get(i + 1).is_some_and(|&n| digit(n)))))
        })
}

/// YAML 1.1 base-60 numbers: `190:20:30`, `1:30.5`.
fn is_sexagesimal(s: &str) -> bool {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (integer, fraction) = match unsigned.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (unsigned, None),
    };
    let Some((first, rest)) = integer.split_once(':') else {
        return false;
    };
    let Some(&lead) = first.as_bytes().first() else {
        return false;
    };
    if !lead.is_ascii_digit()
        || (fraction.is_none() && lead == b'0')
        || !first.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return false;
    }
    rest.split(':').all(|part| match part.as_bytes() {
        [d] => d.is_ascii_digit(),
        [t, u] => matches!(t, b'0'..=b'5') && u.is_ascii_digit(),
        _ => false,
    }) && fraction.is_none_or(|f| f.bytes().all(|b| b.is_ascii_digit() || b == b'_'))
}

/// YAML 1.1 timestamps by their shape alone (`2001-12-14`, `2001-12-14t21:59:43.10-05:00`,
/// `2001-12-14 21:59:43.10 -5`), valid dates or not.
fn is_timestamp(s: &str) -> bool {
    fn digits(s: &mut &str, min: usize, max: usize) -> bool {
        let n = s.bytes().take_while(u8::is_ascii_digit).count();
        if n < min || n > max {
            return false;
        }
        *s = &s[n..];
        true
    }
    fn eat(s: &mut &str, c: char) -> bool {
        match s.strip_prefix(c) {
            Some(rest) => {
                *s = rest;
                true
            }
            None => false,
        }
    }
    let mut s = s;
    if !(digits(&mut s, 4, 4)
        && eat(&mut s, '-')
        && digits(&mut s, 1, 2)
        && eat(&mut s, '-')
        && digits(&mut s, 1, 2))
    {
        return false;
    }
    if s.is_empty() {
        return true;
    }
    if let Some(rest) = s.strip_prefix(['T', 't']) {
        s = rest;
    } else {
        let rest = s.trim_start_matches([' ', '\t']);
        if rest.len() == s.len() {
            return false;
        }
        s = rest;
    }
    if !(digits(&mut s, 1, 2)
        && eat(&mut s, ':')
        && digits(&mut s, 1, 2)
        && eat(&mut s, ':')
        && digits(&mut s, 1, 2))
    {
        return false;
    }
    if eat(&mut s, '.') || eat(&mut s, ',') {
        digits(&mut s, 0, usize::MAX);
    }
    s = s.trim_start_matches([' ', '\t']);
    if s.is_empty() || s == "Z" {
        return true;
    }
    if !(eat(&mut s, '+') || eat(&mut s, '-')) || !digits(&mut s, 1, 2) {
        return false;
    }
    if eat(&mut s, ':') && !digits(&mut s, 2, 2) {
        return false;
    }
    s.is_empty()
}

/// Appends `s` double-quoted, with YAML's escapes.
pub(super) fn push_quoted(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (c, len) = if b < 0x80 {
            if !(b < 0x20 || b == 0x7f || b == b'"' || b == b'\\') {
                i += 1;
                continue;
            }
            (char::from(b), 1)
        } else {
            let c = s[i..].chars().next().expect("a character starts here");
            if !needs_escape(c) {
                i += c.len_utf8();
                continue;
            }
            (c, c.len_utf8())
        };
        out.push_str(&s[start..i]);
        i += len;
        start = i;
        let named = match c {
            '\\' => "\\\\",
            '"' => "\\\"",
            '\0' => "\\0",
            '\u{7}' => "\\a",
            '\u{8}' => "\\b",
            '\t' => "\\t",
            '\n' => "\\n",
            '\u{b}' => "\\v",
            '\u{c}' => "\\f",
            '\r' => "\\r",
            '\u{1b}' => "\\e",
            '\u{FEFF}' => "\\uFEFF",
            '\u{0085}' => "\\N",
            '\u{2028}' => "\\L",
            '\u{2029}' => "\\P",
            _ => "",
        };
        if !named.is_empty() {
            out.push_str(named);
            continue;
        }
        let n = c as u32;
        let (prefix, digits) = if n <= 0xff { ("\\x", 2) } else { ("\\u", 4) };
        out.push_str(prefix);
        for shift in (0..digits).rev() {
            let d = (n >> (shift * 4)) & 0xf;
            out.push(
                char::from_digit(d, 16)
                    .expect("a hex digit")
                    .to_ascii_uppercase(),
            );
        }
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends the body of a folded block: `s` (one line of text, or several) cut at single
/// spaces so that no line runs past 80 characters where a space allows it, each line indented
/// by `indent` spaces. A run of several spaces at a cut keeps all but one at the end of the
/// line (the reader folds the line break back into one space); a run followed by a tab is
/// never cut, and lines that start with a space are left whole.
pub(super) fn push_folded(out: &mut String, s: &str, indent: usize) {
    for line in s.split('\n') {
        if line.is_empty() {
            out.push('\n');
            continue;
        }
        if line.starts_with(' ') {
            super::push_spaces(out, indent);
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if line.is_ascii() {
            fold_ascii_line(out, line, indent);
        } else {
            fold_line(out, line, indent, line.char_indices());
        }
    }
}

/// [`fold_line`] of an ASCII line, with the same cuts found from where they can be: the count
/// passes the width at every 81st character after the last time it did (the 81st of the line
/// first), and the cut is then at the last space run that a character other than a tab closed
/// since, found by looking back from there.
fn fold_ascii_line(out: &mut String, line: &str, indent: usize) {
    const WIDTH: usize = 80;
    let b = line.as_bytes();
    let mut start = 0;
    // Where the count last passed the width.
    let mut passed: Option<usize> = None;
    loop {
        let at = passed.map_or(WIDTH, |p| p + WIDTH + 1);
        if at >= b.len() {
            break;
        }
        let after = passed.map_or(1, |p| p + 1);
        let closed = (after..=at)
            .rev()
            .find(|&q| b[q - 1] == b' ' && b[q] != b' ' && b[q] != b'\t');
        let Some(closed) = closed else {
            // Nothing to cut at: the rest of the line stays whole.
            break;
        };
        let run_start = b[..closed]
            .iter()
            .rposition(|&c| c != b' ')
            .map_or(0, |n| n + 1);
        super::push_spaces(out, indent);
        out.push_str(&line[start..run_start]);
        super::push_spaces(out, closed - run_start - 1);
        out.push('\n');
        start = closed;
        passed = Some(at);
    }
    super::push_spaces(out, indent);
    out.push_str(&line[start..]);
    out.push('\n');
}

/// One line of [`push_folded`], its characters given with their byte offsets.
fn fold_line(
    out: &mut String,
    line: &str,
    indent: usize,
    chars: impl Iterator<Item = (usize, char)>,
) {
    const WIDTH: usize = 80;
    let mut start = 0;
    let mut col = 0;
    // The last space run that may be cut at: (start byte, end byte, length).
    let mut cut: Option<(usize, usize, usize)> = None;
    let mut run: Option<(usize, usize)> = None;
    for (i, c) in chars {
        if c != ' '
            && let Some((run_start, len)) = run.take()
            && c != '\t'
        {
            cut = Some((run_start, i, len));
        }
        if c == ' ' {
            run = Some(match run {
                Some((run_start, len)) => (run_start, len + 1),
                None => (i, 1),
            });
        }
        col += 1;
        if col > WIDTH {
            let Some((cut_start, cut_end, len)) = cut else {
                break;
            };
            super::push_spaces(out, indent);
            out.push_str(&line[start..cut_start]);
            super::push_spaces(out, len - 1);
            out.push('\n');
            start = cut_end;
            col = 0;
            cut = None;
        }
    }
    super::push_spaces(out, indent);
    out.push_str(&line[start..]);
    out.push('\n');
}
