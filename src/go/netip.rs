//! Go's `netip.ParseAddr`: an IPv4 address in dotted decimal, or an IPv6 address with an
//! optional zone (`fe80::1%eth0`), with Go's errors. Stricter than the standard library's
//! parsers in the places Go is (no leading zeros in IPv4 octets) and laxer in others (zones).

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use super::strconv::quote_bytes;

/// An address as `netip.ParseAddr` returns it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Addr {
    /// An IPv4 address.
    V4(Ipv4Addr),
    /// An IPv6 address and its zone (empty when none was written).
    V6(Ipv6Addr, String),
}

impl Addr {
    /// Whether it is an IPv4 address (`Addr.Is4`; an IPv4-mapped IPv6 address is not).
    pub fn is_4(&self) -> bool {
        matches!(self, Addr::V4(_))
    }
}

/// Why `netip.ParseAddr` refused a text. `Display` is Go's:
/// `ParseAddr("<in>"): <reason>[ (at "<rest>")]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddrParseError {
    input: Vec<u8>,
    reason: &'static str,
    at: Vec<u8>,
}

impl AddrParseError {
    /// What is wrong, in Go's words (`unable to parse IP`, `IPv4 field has value >255`, ...).
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

impl fmt::Display for AddrParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ParseAddr({}): {}",
            quote_bytes(&self.input),
            self.reason
        )?;
        if !self.at.is_empty() {
            write!(f, " (at {})", quote_bytes(&self.at))?;
        }
        Ok(())
    }
}

impl std::error::Error for AddrParseError {}

/// `netip.ParseAddr(s)`.
pub fn parse_addr(s: &str) -> Result<Addr, AddrParseError> {
    parse_addr_bytes(s.as_bytes())
}

/// `netip.ParseAddr` of a Go string holding any bytes (a zone that is not UTF-8 is kept with
/// its bad bytes replaced by U+FFFD).
pub fn parse_addr_bytes(s: &[u8]) -> Result<Addr, AddrParseError> {
    for &b in s {
        match b {
            b'.' => return parse_v4(s).map(Addr::V4),
            b':' => return parse_v6(s),
            b'%' => return Err(error(s, "missing IPv6 address", b"")),
            _ => {}
        }
    }
    Err(error(s, "unable to parse IP", b""))
}

fn error(input: &[u8], reason: &'static str, at: &[u8]) -> AddrParseError {
    AddrParseError {
        input: input.to_vec(),
        reason,
        at: at.to_vec(),
    }
}

fn parse_v4(s: &[u8]) -> Result<Ipv4Addr, AddrParseError> {
    let mut fields = [0u8; 4];
    v4_fields(s, s, &mut fields)?;
    Ok(Ipv4Addr::from(fields))
}

/// The four dotted fields of `part` (a suffix of `input`, which errors name).
fn v4_fields(input: &[u8], part: &[u8], fields: &mut [u8]) -> Result<(), AddrParseError> {
    let (mut value, mut pos, mut digits) = (0u32, 0usize, 0usize);
    for (i, &c) in part.iter().enumerate() {
        if c.is_ascii_digit() {
            if digits == 1 && value == 0 {
                return Err(error(input, "IPv4 field has octet with leading zero", b""));
            }
            value = value * 10 + u32::from(c - b'0');
            digits += 1;
            if value > 255 {
                return Err(error(input, "IPv4 field has value >255", b""));
            }
        } else if c == b'.' {
            if i == 0 || i == part.len() - 1 || part[i - 1] == b'.' {
                return Err(error(
                    input,
                    "IPv4 field must have at least one digit",
                    &part[i..],
                ));
            }
            if pos == 3 {
                return Err(error(input, "IPv4 address too long", b""));
            }
            fields[pos] = value as u8;
            pos += 1;
            value = 0;
            digits = 0;
        } else {
            return Err(error(input, "unexpected character", &part[i..]));
        }
    }
    if pos < 3 {
        return Err(error(input, "IPv4 address too short", b""));
    }
    fields[3] = value as u8;
    Ok(())
}

fn parse_v6(input: &[u8]) -> Result<Addr, AddrParseError> {
    let (mut s, zone) = match input.iter().position(|&b| b == b'%') {
        Some(i) => {
            let zone = &input[i + 1..];
            if zone.is_empty() {
                return Err(error(input, "zone must be a non-empty string", b""));
            }
            (&input[..i], String::from_utf8_lossy(zone).into_owned())
        }
        None => (input, String::new()),
    };
    let address_end = s.len();
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with(b"::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(Addr::V6(Ipv6Addr::UNSPECIFIED, zone));
        }
    }
    let mut i = 0;
    while i < 16 {
        let mut off = 0;
        let mut acc: u32 = 0;
        while off < s.len() {
            let c = s[off];
            let digit = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => break,
            };
            acc = (acc << 4) + u32::from(digit);
            if off > 3 {
                return Err(error(input, "each group must have 4 or less digits", s));
            }
            if acc > u32::from(u16::MAX) {
                return Err(error(input, "IPv6 field has value >=2^16", s));
            }
            off += 1;
        }
        if off == 0 {
            return Err(error(
                input,
                "each colon-separated field must have at least one digit",
                s,
            ));
        }
        if off < s.len() && s[off] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return Err(error(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    s,
                ));
            }
            if i + 4 > 16 {
                return Err(error(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    s,
                ));
            }
            let start = address_end - s.len();
            v4_fields(input, &input[start..address_end], &mut ip[i..i + 4])?;
            s = b"";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' {
            return Err(error(input, "unexpected character, want colon", s));
        } else if s.len() == 1 {
            return Err(error(input, "colon must be followed by more characters", s));
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return Err(error(input, "multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(error(input, "trailing garbage after address", s));
    }
    if i < 16 {
        let Some(at) = ellipsis else {
            return Err(error(input, "address string too short", b""));
        };
        let n = 16 - i;
        ip.copy_within(at..i, at + n);
        ip[at..at + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(error(
            input,
            "the :: must expand to at least one field of zeros",
            b"",
        ));
    }
    Ok(Addr::V6(Ipv6Addr::from(ip), zone))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(
            parse_addr("fe80::1%en0").unwrap(),
            Addr::V6("fe80::1".parse().unwrap(), "en0".into())
        );
        assert_eq!(
            parse_addr("::ffff:1.2.3.4").unwrap(),
            Addr::V6("::ffff:1.2.3.4".parse().unwrap(), String::new())
        );
        assert!(parse_addr("1.2.3.4").unwrap().is_4());
        assert_eq!(
            parse_addr("01.2.3.4").unwrap_err().to_string(),
            "ParseAddr(\"01.2.3.4\"): IPv4 field has octet with leading zero"
        );
        assert_eq!(
            parse_addr("1::2::3").unwrap_err().to_string(),
            "ParseAddr(\"1::2::3\"): multiple :: in address (at \":3\")"
        );
    }
}
