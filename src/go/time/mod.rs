//! Go's `time` rules: how Go reads a duration (`time.ParseDuration`) and writes one
//! (`Duration.String`), and how it reads a point in time written in RFC 3339
//! ([`parse_rfc3339`], `time.Parse(time.RFC3339, s)`, as `metav1.Time` reads every time of a
//! hook message).
//!
//! Cluster API writes a call's timeout as `?timeout=10s`, logs `1m0s` and reads flags such as
//! `--sync-period=10m` with these two functions; so do we. A Go duration is a signed count of
//! nanoseconds in 64 bits ([`Duration`]); [`parse_duration`] and [`format_duration`] are the
//! shortcuts for the non-negative [`std::time::Duration`] most callers hold.
//!
//! ```
//! use capi_runtime::go::time::{Duration, format_duration, parse_duration};
//!
//! assert_eq!(parse_duration("1m30s").unwrap().as_secs(), 90);
//! assert_eq!(parse_duration("1.5µs").unwrap().as_nanos(), 1500);
//! assert_eq!(format_duration(std::time::Duration::from_secs(60)), "1m0s");
//! assert_eq!("-1.5h".parse::<Duration>().unwrap().to_string(), "-1h30m0s");
//! assert_eq!(
//!     parse_duration("10").unwrap_err().to_string(),
//!     "time: missing unit in duration \"10\""
//! );
//! ```

mod rfc3339;
pub use rfc3339::{ParseTimeError, Rfc3339Time, parse_rfc3339};
use std::fmt;
use std::str::FromStr;

/// A Go `time.Duration`: nanoseconds as a signed 64-bit count (about ±292 years).
///
/// `Display` is Go's `Duration.String` (`1h2m3.5s`, `1.5ms`, `0s`); `FromStr` is
/// `time.ParseDuration`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(i64);

impl Duration {
    /// The zero duration.
    pub const ZERO: Duration = Duration(0);
    /// The longest duration Go can hold (`2562047h47m16.854775807s`).
    pub const MAX: Duration = Duration(i64::MAX);
    /// The most negative duration Go can hold.
    pub const MIN: Duration = Duration(i64::MIN);

    /// The duration of `nanos` nanoseconds.
    pub const fn from_nanos(nanos: i64) -> Self {
        Duration(nanos)
    }

    /// The count of nanoseconds.
    pub const fn as_nanos(self) -> i64 {
        self.0
    }

    /// Whether the duration is below zero.
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// The duration as a [`std::time::Duration`], or `None` when it is negative.
    pub fn to_std(self) -> Option<std::time::Duration> {
        u64::try_from(self.0)
            .ok()
            .map(std::time::Duration::from_nanos)
    }

    /// Reads `text` as `time.ParseDuration` does (see [`ParseDurationError`] for the errors).
    pub fn parse(text: &str) -> Result<Self, ParseDurationError> {
        parse(text)
    }
}

/// A [`std::time::Duration`] longer than Go can hold (about 292 years).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("duration out of Go's range")]
pub struct OutOfRange;

impl TryFrom<std::time::Duration> for Duration {
    type Error = OutOfRange;

    fn try_from(d: std::time::Duration) -> Result<Self, OutOfRange> {
        i64::try_from(d.as_nanos())
            .map(Duration)
            .map_err(|_| OutOfRange)
    }
}

impl FromStr for Duration {
    type Err = ParseDurationError;

    fn from_str(s: &str) -> Result<Self, ParseDurationError> {
        parse(s)
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            f.write_str("-")?;
        }
        f.write_str(&format_magnitude(u128::from(self.0.unsigned_abs())))
    }
}

/// Why [`parse_duration`] refused a text; `Display` is Go's message
/// (`time: invalid duration "x"`, `time: missing unit in duration "10"`,
/// `time: unknown unit "d" in duration "1d"`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseDurationError {
    /// Not a duration at all: empty, no digits, a bad character, or out of Go's range.
    #[error("time: invalid duration {}", quote(.input))]
    Invalid {
        /// The text as given.
        input: String,
    },
    /// A number without a unit.
    #[error("time: missing unit in duration {}", quote(.input))]
    MissingUnit {
        /// The text as given.
        input: String,
    },
    /// A unit other than `ns`, `us` (`µs`, `μs`), `ms`, `s`, `m`, `h`.
    #[error("time: unknown unit {} in duration {}", quote(.unit), quote(.input))]
    UnknownUnit {
        /// The unit as written.
        unit: String,
        /// The text as given.
        input: String,
    },
    /// A negative duration where only non-negative ones are taken ([`parse_duration`]); Go
    /// itself accepts it.
    #[error("negative duration {}", quote(.input))]
    Negative {
        /// The text as given.
        input: String,
    },
}

/// Reads a non-negative duration as `time.ParseDuration` does; a negative one (which Go
/// accepts) is [`ParseDurationError::Negative`].
pub fn parse_duration(text: &str) -> Result<std::time::Duration, ParseDurationError> {
    parse(text)?
        .to_std()
        .ok_or_else(|| ParseDurationError::Negative {
            input: text.to_string(),
        })
}

/// Writes a duration as Go's `Duration.String` does: `0s`, `1.5ms`, `10s`, `1m0s`,
/// `1h30m0s`. Durations beyond Go's range (about 292 years) are written by the same rule.
pub fn format_duration(d: std::time::Duration) -> String {
    format_magnitude(d.as_nanos())
}

const NANOSECOND: u64 = 1;
const MICROSECOND: u64 = 1000 * NANOSECOND;
const MILLISECOND: u64 = 1000 * MICROSECOND;
const SECOND: u64 = 1000 * MILLISECOND;
const MINUTE: u64 = 60 * SECOND;
const HOUR: u64 = 60 * MINUTE;

const LIMIT: u64 = 1 << 63;

fn unit(name: &str) -> Option<u64> {
    Some(match name {
        "ns" => NANOSECOND,
        // `µ` is U+00B5 (micro sign), `μ` U+03BC (Greek mu): Go takes both.
        "us" | "\u{b5}s" | "\u{3bc}s" => MICROSECOND,
        "ms" => MILLISECOND,
        "s" => SECOND,
        "m" => MINUTE,
        "h" => HOUR,
        _ => return None,
    })
}

/// `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, with Go's overflow rules (the
/// integer part of each term and the sum are exact; a fraction goes through a float64, as in
/// Go, so that fractions of hours stay nanosecond-accurate).
fn parse(orig: &str) -> Result<Duration, ParseDurationError> {
    let invalid = || ParseDurationError::Invalid {
        input: orig.to_string(),
    };
    let mut s = orig.as_bytes();
    let mut neg = false;
    if let Some(&c) = s.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        s = &s[1..];
    }
    if s == b"0" {
        return Ok(Duration::ZERO);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return Err(invalid());
        }
        // The integer part: exact, refused beyond 2^63.
        let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &s[..digits] {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
        }
        let pre = digits > 0;
        s = &s[digits..];
        // The fraction: digits past what 63 bits hold are read and dropped.
        let mut f: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut post = false;
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
            post = digits > 0;
            let mut overflow = false;
            for &c in &s[..digits] {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            s = &s[digits..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s
            .iter()
            .take_while(|&&c| !(c == b'.' || c.is_ascii_digit()))
            .count();
        if unit_len == 0 {
            return Err(ParseDurationError::MissingUnit {
                input: orig.to_string(),
            });
        }
        // The unit ends at an ASCII byte or at the end, so it is whole characters.
        let name = std::str::from_utf8(&s[..unit_len]).unwrap_or_default();
        s = &s[unit_len..];
        let Some(unit) = unit(name) else {
            return Err(ParseDurationError::UnknownUnit {
                unit: name.to_string(),
                input: orig.to_string(),
            });
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            // As Go: float64(f) * (float64(unit) / scale), truncated toward zero.
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        total += v;
        if total > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        // 2^63 reads as i64::MIN, as Go's -Duration(d) wraps.
        return Ok(Duration((total as i64).wrapping_neg()));
    }
    i64::try_from(total).map(Duration).map_err(|_| invalid())
}

/// `Duration.format` on the magnitude `u` (nanoseconds), without the sign.
fn format_magnitude(u: u128) -> String {
    let (second, micro, milli) = (
        u128::from(SECOND),
        u128::from(MICROSECOND),
        u128::from(MILLISECOND),
    );
    if u < second {
        if u == 0 {
            return "0s".into();
        }
        let (prec, unit) = if u < micro {
            (0, "ns")
        } else if u < milli {
            (3, "\u{b5}s")
        } else {
            (6, "ms")
        };
        let (frac, int) = fraction(u, prec);
        return format!("{int}{frac}{unit}");
    }
    let (frac, seconds) = fraction(u, 9);
    let mut out = String::new();
    let minutes = seconds / 60;
    if minutes > 0 {
        let hours = minutes / 60;
        if hours > 0 {
            out.push_str(&format!("{hours}h"));
        }
        out.push_str(&format!("{}m", minutes % 60));
    }
    out.push_str(&format!("{}{frac}s", seconds % 60));
    out
}

/// Go's `fmtFrac`: the `prec` lowest decimal digits of `v` as `.ddd` without trailing zeros
/// (nothing when they are all zero), and `v` divided by `10^prec`.
fn fraction(mut v: u128, prec: usize) -> (String, u128) {
    let mut digits = Vec::with_capacity(prec);
    let mut print = false;
    for _ in 0..prec {
        let digit = (v % 10) as u8;
        print = print || digit != 0;
        if print {
            digits.push(b'0' + digit);
        }
        v /= 10;
    }
    if !print {
        return (String::new(), v);
    }
    digits.push(b'.');
    digits.reverse();
    (String::from_utf8(digits).unwrap_or_default(), v)
}

/// How the `time` package quotes a value in its errors (not `strconv.Quote`): ASCII below
/// U+0020 and every non-ASCII character are written byte by byte as `\xNN`; `"` and `\` are
/// escaped.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if (c as u32) >= 0x80 || c < ' ' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_common_forms() {
        for (text, nanos, shown) in [
            ("0", 0, "0s"),
            ("-0", 0, "0s"),
            ("10s", 10 * SECOND as i64, "10s"),
            ("1.5s", 1_500_000_000, "1.5s"),
            ("1m30s", 90 * SECOND as i64, "1m30s"),
            ("1h", HOUR as i64, "1h0m0s"),
            ("500ms", 500 * MILLISECOND as i64, "500ms"),
            ("2us", 2000, "2\u{b5}s"),
            ("-1.5h", -(90 * MINUTE as i64), "-1h30m0s"),
            (".5s", 500_000_000, "500ms"),
            ("1.s", SECOND as i64, "1s"),
        ] {
            let d: Duration = text.parse().unwrap();
            assert_eq!(d.as_nanos(), nanos, "{text}");
            assert_eq!(d.to_string(), shown, "{text}");
        }
        assert_eq!(Duration::MIN.to_string(), "-2562047h47m16.854775808s");
        assert_eq!(Duration::MAX.to_string(), "2562047h47m16.854775807s");
    }

    #[test]
    fn refuses_as_go_does() {
        assert_eq!(
            parse_duration("").unwrap_err().to_string(),
            "time: invalid duration \"\""
        );
        assert_eq!(
            parse_duration("1d").unwrap_err().to_string(),
            "time: unknown unit \"d\" in duration \"1d\""
        );
        assert_eq!(
            parse_duration("1µ").unwrap_err().to_string(),
            "time: unknown unit \"\\xc2\\xb5\" in duration \"1\\xc2\\xb5\""
        );
        assert!(matches!(
            parse_duration("-1s"),
            Err(ParseDurationError::Negative { .. })
        ));
        assert!(Duration::parse("9223372036854775808ns").is_err());
        assert_eq!(
            Duration::parse("-9223372036854775808ns").unwrap(),
            Duration::MIN
        );
    }
}
