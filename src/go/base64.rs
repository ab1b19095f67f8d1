//! `base64.StdEncoding.DecodeString`: how Go's `encoding/json` reads a `[]byte` written as a
//! JSON string (a patch in a GeneratePatches or in-place update answer).
//!
//! Go's standard encoding is not the strict one: it skips `\r` and `\n` anywhere, accepts a
//! last character whose unused bits are not zero (`QQ==` and `QR==` both read as `A`), and
//! requires the padding of a last, incomplete group. Anything else outside the alphabet is
//! refused with Go's message, `illegal base64 data at input byte N`, N counted in bytes of the
//! text. `interop/oracle/tests/go_rules.rs` compares every answer with Go's.

use std::fmt;

/// Why [`decode_std`] refused a text: Go's `base64.CorruptInputError`, the offset of the byte
/// where the text stopped being base64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorruptInputError(pub usize);

impl fmt::Display for CorruptInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal base64 data at input byte {}", self.0)
    }
}

impl std::error::Error for CorruptInputError {}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes `bytes` as Go's `base64.StdEncoding.EncodeToString` does (and `encoding/json`
/// writes a `[]byte`): the standard alphabet, with padding.
pub fn encode_std(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                char::from(ALPHABET[(v >> (18 - 6 * i) & 63) as usize])
            } else {
                '='
            });
        }
    }
    out
}

/// The value of each character of the alphabet; 0xFF for the others.
static VALUES: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut i = 0;
    while i < 64 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};

#[inline]
fn value(c: u8) -> Option<u8> {
    let v = VALUES[c as usize];
    (v != 0xFF).then_some(v)
}

fn is_newline(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

/// Decodes `text` as Go's `base64.StdEncoding.DecodeString` does (see the module docs).
pub fn decode_std(text: &[u8]) -> Result<Vec<u8>, CorruptInputError> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut i = 0;
    while i < text.len() {
        // Four characters of the alphabet: a whole group, the common case, read at once.
        if let Some(&[a, b, c, d]) = text.get(i..i + 4)
            && let (Some(a), Some(b), Some(c), Some(d)) = (value(a), value(b), value(c), value(d))
        {
            let v =
                (u32::from(a) << 18) | (u32::from(b) << 12) | (u32::from(c) << 6) | u32::from(d);
            out.extend_from_slice(&[(v >> 16) as u8, (v >> 8) as u8, v as u8]);
            i += 4;
            continue;
        }
        let (next, bytes, len) = quantum(text, i)?;
        out.extend_from_slice(&bytes[..len]);
        i = next;
        if len < 3 {
            // Padding ended the text (quantum checked that only newlines follow).
            break;
        }
    }
    Ok(out)
}

/// The length of what `text` decodes to when it is canonical standard base64: only characters
/// of the alphabet, whole groups of four, padding only where the last group is incomplete, and
/// zero bits where the last character has bits left over. Such a text reads the same under
/// Go's lenient rules and under a strict decoder; `None` for any other text (which may still
/// be one Go accepts, see [`decode_std`]).
pub fn canonical_len(text: &[u8]) -> Option<usize> {
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let pad = match text {
        [.., b'=', b'='] => 2,
        [.., b'='] => 1,
        _ => 0,
    };
    let body = &text[..text.len() - pad];
    if body.iter().any(|&c| VALUES[c as usize] == 0xFF) {
        return None;
    }
    // The bits of the last character that fall past the last byte must be zero.
    let spare = match pad {
        2 => 0b1111,
        1 => 0b11,
        _ => 0,
    };
    if spare != 0 && body.last().and_then(|&c| value(c))? & spare != 0 {
        return None;
    }
    Some(text.len() / 4 * 3 - pad)
}

/// Reads one group of four characters from `i`: where the next starts, its bytes and how many
/// of them it has.
fn quantum(text: &[u8], mut i: usize) -> Result<(usize, [u8; 3], usize), CorruptInputError> {
    let mut group = [0u8; 4];
    let mut len = 4;
    let mut j = 0;
    while j < 4 {
        let Some(&c) = text.get(i) else {
            return match j {
                0 => Ok((i, [0; 3], 0)),
                _ => Err(CorruptInputError(i - j)),
            };
        };
        i += 1;
        if let Some(v) = value(c) {
            group[j] = v;
            j += 1;
            continue;
        }
        if is_newline(c) {
            continue;
        }
        if c != b'=' || j < 2 {
            return Err(CorruptInputError(i - 1));
        }
        if j == 2 {
            // A second `=` must follow, newlines aside.
            while text.get(i).copied().is_some_and(is_newline) {
                i += 1;
            }
            match text.get(i) {
                None => return Err(CorruptInputError(text.len())),
                Some(b'=') => i += 1,
                Some(_) => return Err(CorruptInputError(i - 1)),
            }
        }
        while text.get(i).copied().is_some_and(is_newline) {
            i += 1;
        }
        if i < text.len() {
            return Err(CorruptInputError(i));
        }
        len = j;
        break;
    }
    let v = (u32::from(group[0]) << 18)
        | (u32::from(group[1]) << 12)
        | (u32::from(group[2]) << 6)
        | u32::from(group[3]);
    let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
    Ok((i, bytes, len - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_go_reads() {
        assert_eq!(decode_std(b"W10=").unwrap(), b"[]");
        assert_eq!(decode_std(b"W1\r\n0=").unwrap(), b"[]");
        assert_eq!(decode_std(b"QR==").unwrap(), b"A");
        assert_eq!(
            decode_std(b"W10").unwrap_err().to_string(),
            "illegal base64 data at input byte 0"
        );
        assert_eq!(decode_std(b"").unwrap(), b"");
        assert_eq!(decode_std(b"\n").unwrap(), b"");
        assert_eq!(decode_std(b"YWJj").unwrap(), b"abc");
        assert_eq!(decode_std(b"YW==\n").unwrap(), b"a");
        assert_eq!(decode_std(b"YW=\n=").unwrap(), b"a");
        assert_eq!(decode_std(b"YW==YWJj"), Err(CorruptInputError(4)));
        assert_eq!(decode_std(b"Y==="), Err(CorruptInputError(1)));
        assert_eq!(decode_std(b"YW=x"), Err(CorruptInputError(2)));
        assert_eq!(decode_std(b"YW="), Err(CorruptInputError(3)));
        assert_eq!(decode_std(b"YW-_"), Err(CorruptInputError(2)));
        for len in 0..8 {
            let bytes: Vec<u8> = (0..len).map(|i| i * 37).collect();
            assert_eq!(decode_std(encode_std(&bytes).as_bytes()).unwrap(), bytes);
        }
        assert_eq!(encode_std(b"[]"), "W10=");
    }

    #[test]
    fn canonical_texts_are_told_from_the_others() {
        for len in 0..8 {
            let bytes: Vec<u8> = (0..len).map(|i| i * 37 + 1).collect();
            let text = encode_std(&bytes);
            assert_eq!(canonical_len(text.as_bytes()), Some(bytes.len()), "{text}");
        }
        // Not canonical (Go accepts some, refuses others): these take the lenient path.
        for text in [
            "QR==", "QUI=QUJD", "W1\r\n0=", "YW=\n=", "YWJ", "YW-_", "====",
        ] {
            assert_eq!(canonical_len(text.as_bytes()), None, "{text:?}");
        }
        assert_eq!(canonical_len(b"QQ=="), Some(1));
    }
}
