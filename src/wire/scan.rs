//! The syntax of JSON as Go's scanner reads it: white space, literals, strings (escapes,
//! invalid UTF-8 and unpaired surrogates become U+FFFD), numbers, and whole values skipped or
//! indexed, each failure in Go's words at its byte offset.

use serde::de::{self, Unexpected};

use super::budget::grow;
use super::de::{De, scanned};
use super::error::{DecodeErrorKind as Kind, Error, Result};

/// What one entry of the careful mode's index of objects and arrays is charged: its opening
/// and closing offsets, twice (a `Vec` grows by doubling).
const INDEX_ENTRY: usize = 2 * std::mem::size_of::<(u32, u32)>();

/// A string as read: borrowed from the input when it had no escapes, else in the scratch.
pub(super) enum Str<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

impl Str<'_, '_> {
    pub(super) fn as_str(&self) -> &str {
        match self {
            Str::Borrowed(s) => s,
            Str::Copied(s) => s,
        }
    }
}

/// Bytes that end the fast scan of a string: the quote, the backslash and control characters.
static STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The index of the first byte at or after `i` that ends the fast scan of a string (a quote,
/// a backslash or a control character), or `input.len()`. Eight bytes at a time.
#[inline]
pub(super) fn find_stop(input: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = input.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        // A byte is zero (after the xor) or below 0x20: its high bit survives here.
        let hit = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (x.wrapping_sub(ONES * 0x20) & !x);
        let hit = hit & HIGH;
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < input.len() && !STOP[input[i] as usize] {
        i += 1;
    }
    i
}

impl<'de> De<'de> {
    /// The careful mode's first pass: checks the syntax of the value at `pos` (and its
    /// nesting) as a skip does, and records where each of its objects and arrays ends, so
    /// that every later skip of one jumps over it. Its entries are charged to the budget. On
    /// an input too long for 32-bit offsets nothing is recorded and skips scan.
    pub(super) fn index_containers(&mut self) -> Result<()> {
        if u32::try_from(self.input.len()).is_err() {
            return Ok(());
        }
        let start = self.pos;
        self.recording = true;
        let walked = self.skip_value();
        self.recording = false;
        walked?;
        self.pos = start;
        self.indexed = true;
        Ok(())
    }

    /// Records the object or array opening at `pos` while indexing: its entry's position.
    pub(super) fn open_container(&mut self) -> Result<Option<usize>> {
        if !self.recording {
            return Ok(None);
        }
        self.charge(INDEX_ENTRY)?;
        // Offsets fit: `index_containers` runs only on inputs shorter than 4 GiB.
        self.ends.push((self.pos as u32, 0));
        Ok(Some(self.ends.len() - 1))
    }

    /// Records that the object or array of entry `slot` ends at `pos`.
    pub(super) fn close_container(&mut self, slot: Option<usize>) {
        if let Some(slot) = slot {
            self.ends[slot].1 = self.pos as u32;
        }
    }

    /// Past the index pass: the end of the object or array opening at `pos`.
    pub(super) fn indexed_end(&self) -> Option<usize> {
        if !self.indexed {
            return None;
        }
        let at = u32::try_from(self.pos).ok()?;
        let i = self
            .ends
            .binary_search_by_key(&at, |&(open, _)| open)
            .ok()?;
        Some(self.ends[i].1 as usize)
    }

    /// Requires that only white space follows the value (Go's `json.Unmarshal`).
    pub(super) fn end(&mut self) -> Result<()> {
        self.skip_ws();
        if self.pos < self.input.len() {
            return Err(Error::new(
                Kind::TrailingData,
                format!(
                    "invalid character {} after top-level value",
                    self.quote_byte()
                ),
                Some(self.pos),
            ));
        }
        Ok(())
    }

    pub(super) fn syntax(&self, message: impl Into<String>) -> Error {
        Error::new(Kind::Syntax, message, Some(self.pos))
    }

    pub(super) fn quote_byte(&self) -> String {
        match self.input.get(self.pos) {
            None => "end of input".into(),
            Some(b) if b.is_ascii_graphic() => format!("'{}'", *b as char),
            Some(b) => format!("byte 0x{b:02x}"),
        }
    }

    pub(super) fn eof(&self) -> Error {
        self.syntax("unexpected end of JSON input")
    }

    pub(super) fn unexpected_char(&self, context: &str) -> Error {
        if self.pos >= self.input.len() {
            return self.eof();
        }
        self.syntax(format!("invalid character {} {context}", self.quote_byte()))
    }

    #[inline]
    pub(super) fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.input.get(self.pos) {
            self.pos += 1;
        }
    }

    #[inline]
    pub(super) fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.input.get(self.pos).copied()
    }

    pub(super) fn expect(&mut self, byte: u8, context: &str) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected_char(context))
        }
    }

    pub(super) fn literal(&mut self, word: &'static [u8]) -> Result<()> {
        let end = self.pos + word.len();
        if self.input.get(self.pos..end) == Some(word) {
            self.pos = end;
            scanned(word.len());
            Ok(())
        } else {
            // Point at the first byte that differs.
            let at = (0..word.len())
                .find(|&i| self.input.get(self.pos + i) != Some(&word[i]))
                .unwrap_or(0);
            self.pos += at;
            Err(self.unexpected_char("in literal"))
        }
    }

    /// What the next value is, for a type mismatch message.
    pub(super) fn unexpected(&mut self) -> Unexpected<'static> {
        match self.peek() {
            Some(b'"') => Unexpected::Other("string"),
            Some(b'{') => Unexpected::Map,
            Some(b'[') => Unexpected::Seq,
            Some(b't') => Unexpected::Bool(true),
            Some(b'f') => Unexpected::Bool(false),
            Some(b'n') => Unexpected::Unit,
            _ => Unexpected::Other("number"),
        }
    }

    pub(super) fn mismatch(&mut self, expected: &dyn de::Expected) -> Error {
        match self.peek() {
            None => return self.eof(),
            Some(b'"' | b'{' | b'[' | b't' | b'f' | b'n' | b'-' | b'0'..=b'9') => {}
            Some(_) => return self.unexpected_char("looking for beginning of value"),
        }
        let unexpected = self.unexpected();
        <Error as de::Error>::invalid_type(unexpected, expected).at(self.pos)
    }

    /// Reads a string at `pos` (its opening quote). Invalid UTF-8 becomes U+FFFD, one per
    /// byte, and so do unpaired surrogate escapes, as in Go.
    pub(super) fn parse_str<'s>(&'s mut self) -> Result<Str<'de, 's>> {
        let input = self.input;
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        let mut i = find_stop(input, start);
        match input.get(i) {
            None => {
                self.pos = i;
                return Err(self.eof());
            }
            Some(b'"') => {
                self.pos = i + 1;
                scanned(self.pos - open);
                let raw = &input[start..i];
                return match std::str::from_utf8(raw) {
                    Ok(s) => Ok(Str::Borrowed(s)),
                    Err(_) => {
                        self.scratch.clear();
                        push_lossy(&mut self.scratch, raw);
                        Ok(Str::Copied(as_utf8(&self.scratch)))
                    }
                };
            }
            Some(b'\\') => {}
            Some(_) => {
                self.pos = i;
                return Err(self.unexpected_char("in string literal"));
            }
        }
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut raw_from = start;
        loop {
            i = find_stop(input, i);
            push_lossy(&mut out, &input[raw_from..i]);
            match input.get(i) {
                None => {
                    self.pos = i;
                    self.scratch = out;
                    return Err(self.eof());
                }
                Some(b'"') => {
                    self.pos = i + 1;
                    scanned(self.pos - open);
                    self.scratch = out;
                    return Ok(Str::Copied(as_utf8(&self.scratch)));
                }
                Some(b'\\') => {
                    self.pos = i;
                    let c = match self.escape() {
                        Ok(c) => c,
                        Err(e) => {
                            self.scratch = out;
                            return Err(e);
                        }
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    i = self.pos;
                    raw_from = i;
                }
                Some(_) => {
                    self.pos = i;
                    self.scratch = out;
                    return Err(self.unexpected_char("in string literal"));
                }
            }
        }
    }

    /// Reads one escape at `pos` (its backslash) and leaves `pos` after it.
    pub(super) fn escape(&mut self) -> Result<char> {
        self.tick()?;
        self.pos += 1;
        let c = match self.input.get(self.pos) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let first = self.hex4()?;
                if (0xd800..0xdc00).contains(&first)
                    && self.input.get(self.pos..self.pos + 2) == Some(b"\\u")
                {
                    let save = self.pos;
                    self.pos += 2;
                    let second = self.hex4()?;
                    if (0xdc00..0xe000).contains(&second) {
                        let c = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                        return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
                    }
                    // Not a pair: the first is replaced and the second read on its own.
                    self.pos = save;
                }
                return Ok(char::from_u32(first).unwrap_or('\u{fffd}'));
            }
            _ => return Err(self.unexpected_char("in string escape code")),
        };
        self.pos += 1;
        Ok(c)
    }

    pub(super) fn hex4(&mut self) -> Result<u32> {
        let mut v = 0;
        for _ in 0..4 {
            let d = match self.input.get(self.pos) {
                Some(b) if b.is_ascii_hexdigit() => (*b as char).to_digit(16).unwrap_or(0),
                _ => return Err(self.unexpected_char("in \\u hexadecimal character escape")),
            };
            v = v * 16 + d;
            self.pos += 1;
        }
        Ok(v)
    }

    /// Skips a string at `pos`, checking its escapes as Go's scanner does.
    pub(super) fn skip_str(&mut self) -> Result<()> {
        let input = self.input;
        let open = self.pos;
        self.pos += 1;
        loop {
            let i = find_stop(input, self.pos);
            self.pos = i;
            match input.get(i) {
                None => return Err(self.eof()),
                Some(b'"') => {
                    self.pos += 1;
                    scanned(self.pos - open);
                    return Ok(());
                }
                Some(b'\\') => {
                    self.escape()?;
                }
                Some(_) => return Err(self.unexpected_char("in string literal")),
            }
        }
    }

    /// Scans a number at `pos`: its text and whether it is written as an integer.
    pub(super) fn scan_number(&mut self) -> Result<(&'de str, bool)> {
        let input = self.input;
        let start = self.pos;
        let mut i = start;
        if input.get(i) == Some(&b'-') {
            i += 1;
        }
        match input.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(b'0'..=b'9') = input.get(i) {
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return Err(self.unexpected_char("in numeric literal"));
            }
        }
        let mut integer = true;
        if input.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !matches!(input.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return Err(self.unexpected_char("after decimal point in numeric literal"));
            }
            while let Some(b'0'..=b'9') = input.get(i) {
                i += 1;
            }
        }
        if let Some(b'e' | b'E') = input.get(i) {
            integer = false;
            i += 1;
            if let Some(b'+' | b'-') = input.get(i) {
                i += 1;
            }
            if !matches!(input.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return Err(self.unexpected_char("in exponent of numeric literal"));
            }
            while let Some(b'0'..=b'9') = input.get(i) {
                i += 1;
            }
        }
        self.pos = i;
        scanned(i - start);
        // Only ASCII digits, signs, points and exponents were consumed.
        let text = std::str::from_utf8(&input[start..i]).unwrap_or("0");
        Ok((text, integer))
    }

    /// The offsets of the elements of the array at `at` (its syntax is checked already).
    pub(super) fn array_items(&mut self, at: usize) -> Result<Vec<usize>> {
        let saved = self.pos;
        self.pos = at + 1;
        let mut items = Vec::new();
        while self.peek() != Some(b']') {
            if !items.is_empty() {
                self.expect(b',', "after array element")?;
            }
            self.skip_ws();
            items.push(self.pos);
            self.skip_value()?;
        }
        self.pos = saved;
        Ok(items)
    }

    /// Skips any value, checking its syntax (Go checks the whole input, ignored parts too).
    /// Past the careful mode's index pass, an object or array is jumped over (its syntax was
    /// checked by that pass); during it, each is recorded.
    pub(super) fn skip_value(&mut self) -> Result<()> {
        self.tick()?;
        let next = self.peek();
        if let Some(b'{' | b'[') = next
            && let Some(end) = self.indexed_end()
        {
            self.pos = end;
            return Ok(());
        }
        match next {
            Some(b'"') => self.skip_str(),
            Some(b'{') => {
                self.enter()?;
                let slot = self.open_container()?;
                self.pos += 1;
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    self.close_container(slot);
                    self.leave();
                    return Ok(());
                }
                loop {
                    if self.peek() != Some(b'"') {
                        return Err(
                            self.unexpected_char("looking for beginning of object key string")
                        );
                    }
                    self.skip_str()?;
                    self.expect(b':', "after object key")?;
                    grow(|| self.skip_value())?;
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            self.close_container(slot);
                            self.leave();
                            return Ok(());
                        }
                        _ => return Err(self.unexpected_char("after object key:value pair")),
                    }
                }
            }
            Some(b'[') => {
                self.enter()?;
                let slot = self.open_container()?;
                self.pos += 1;
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    self.close_container(slot);
                    self.leave();
                    return Ok(());
                }
                loop {
                    grow(|| self.skip_value())?;
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            self.close_container(slot);
                            self.leave();
                            return Ok(());
                        }
                        _ => return Err(self.unexpected_char("after array element")),
                    }
                }
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.scan_number().map(drop),
            _ => Err(self.unexpected_char("looking for beginning of value")),
        }
    }

    /// The text of the string key at `at`, for an error's path (the position is kept).
    pub(super) fn key_text(&mut self, at: usize) -> String {
        let saved = self.pos;
        self.pos = at;
        let key = self.parse_str().map(|s| s.as_str().to_owned());
        self.pos = saved;
        key.unwrap_or_default()
    }
}

/// Appends `raw` with each byte of invalid UTF-8 replaced by U+FFFD (Go's rule).
pub(crate) fn push_lossy(out: &mut Vec<u8>, raw: &[u8]) {
    for chunk in raw.utf8_chunks() {
        out.extend_from_slice(chunk.valid().as_bytes());
        for _ in chunk.invalid() {
            out.extend_from_slice("\u{fffd}".as_bytes());
        }
    }
}

pub(super) fn as_utf8(bytes: &[u8]) -> &str {
    // Only valid UTF-8 is ever pushed into the scratch.
    std::str::from_utf8(bytes).unwrap_or_default()
}
