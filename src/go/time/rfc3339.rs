//! `time.Parse(time.RFC3339, s)`: how Go reads the times of Kubernetes objects.
//!
//! `metav1.Time` (every time in a hook message: `creationTimestamp`, `lastTransitionTime`,
//! `rollout.after`, ...) reads its JSON string with `time.Parse` and the layout
//! `2006-01-02T15:04:05Z07:00`. Go's parser is more lenient than RFC 3339 in some ways and
//! stricter in others, and a peer's time means what it makes of it:
//!
//! - the hour may have one digit (`T3:04:05`); month, day, minute and second need two;
//! - a fraction of a second may follow the seconds after `.` or `,`, with any number of
//!   digits (the tenth and later are dropped);
//! - the zone is `Z` (upper case only) or `±hh:mm`, whose hours may be up to 24 and minutes up
//!   to 60; `T` must be upper case;
//! - years are four digits, `0000` to `9999`; the day must exist in its month (`02-29` only in
//!   leap years); hour 24, minute 60 and second 60 are refused;
//! - nothing may follow the zone.
//!
//! Errors are Go's, word for word (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot
//! parse "x" as "2006"`); `interop/oracle/tests/go_rules.rs` compares every answer with Go's.

use std::fmt;

use super::quote;

/// The layout Go parses with, as its errors name it.
const LAYOUT: &str = "2006-01-02T15:04:05Z07:00";

/// A time read by [`parse_rfc3339`]: seconds since the Unix epoch and nanoseconds within
/// that second, the zone already applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rfc3339Time {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
    pub unix_seconds: i64,
    /// Nanoseconds, `0..1_000_000_000`.
    pub nanos: u32,
}

/// Why [`parse_rfc3339`] refused a text; shown as Go's `time.ParseError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTimeError {
    value: String,
    problem: Problem,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Problem {
    /// `value_elem` (the text left) does not match `layout_elem` (a part of the layout).
    CannotParse {
        value_elem: String,
        layout_elem: &'static str,
    },
    /// A field out of its range: `hour`, `minute`, `second`, `month`, `day`, `time zone
    /// offset hour`, ...
    OutOfRange(&'static str),
    /// Text after the zone.
    ExtraText(String),
}

impl fmt::Display for ParseTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parsing time {}", quote(&self.value))?;
        match &self.problem {
            Problem::CannotParse {
                value_elem,
                layout_elem,
            } => write!(
                f,
                " as {}: cannot parse {} as {}",
                quote(LAYOUT),
                quote(value_elem),
                quote(layout_elem)
            ),
            Problem::OutOfRange(what) => write!(f, ": {what} out of range"),
            Problem::ExtraText(rest) => write!(f, ": extra text: {}", quote(rest)),
        }
    }
}

impl std::error::Error for ParseTimeError {}

/// The parts of the layout, in order: the literal before each field and the field.
#[derive(Clone, Copy)]
enum Field {
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
    Zone,
}

const PARTS: &[(&str, Field, &str)] = &[
    ("", Field::Year, "2006"),
    ("-", Field::Month, "01"),
    ("-", Field::Day, "02"),
    ("T", Field::Hour, "15"),
    (":", Field::Minute, "04"),
    (":", Field::Second, "05"),
    ("", Field::Zone, "Z07:00"),
];

fn digit(s: &[u8], i: usize) -> Option<u32> {
    s.get(i)
        .filter(|b| b.is_ascii_digit())
        .map(|b| u32::from(b - b'0'))
}

/// Go's `getnum`: one or two digits (exactly two when `fixed`).
fn number(s: &[u8], fixed: bool) -> Option<(u32, usize)> {
    let first = digit(s, 0)?;
    match digit(s, 1) {
        Some(second) => Some((first * 10 + second, 2)),
        None if fixed => None,
        None => Some((first, 1)),
    }
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the date (proleptic Gregorian calendar).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Reads `text` as Go's `time.Parse(time.RFC3339, text)` does (see the module docs).
///
/// ```
/// use capi_runtime::go::time::parse_rfc3339;
///
/// assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00").unwrap().unix_seconds, 0);
/// assert_eq!(parse_rfc3339("2026-01-02T03:04:05,5Z").unwrap().nanos, 500_000_000);
/// assert_eq!(
///     parse_rfc3339("2026-01-02t03:04:05Z").unwrap_err().to_string(),
///     r#"parsing time "2026-01-02t03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t03:04:05Z" as "T""#
/// );
/// ```
pub fn parse_rfc3339(text: &str) -> Result<Rfc3339Time, ParseTimeError> {
    let fail = |problem| ParseTimeError {
        value: text.to_owned(),
        problem,
    };
    let cannot = |rest: &[u8], layout_elem| {
        fail(Problem::CannotParse {
            value_elem: String::from_utf8_lossy(rest).into_owned(),
            layout_elem,
        })
    };
    let mut rest = text.as_bytes();
    let (mut year, mut month, mut day) = (0i64, 1u32, 1u32);
    let (mut hour, mut minute, mut second, mut nanos) = (0u32, 0u32, 0u32, 0u32);
    let mut offset = 0i64;
    for &(literal, field, layout_elem) in PARTS {
        match rest.strip_prefix(literal.as_bytes()) {
            Some(after) => rest = after,
            None => return Err(cannot(rest, literal)),
        }
        let hold = rest;
        let mut range_error = None;
        let ok = match field {
            Field::Year => {
                if rest.len() >= 4 && rest[..4].iter().all(u8::is_ascii_digit) {
                    year = rest[..4]
                        .iter()
                        .fold(0, |y, b| y * 10 + i64::from(b - b'0'));
                    rest = &rest[4..];
                    true
                } else {
                    false
                }
            }
            Field::Month | Field::Day | Field::Hour | Field::Minute | Field::Second => {
                let fixed = !matches!(field, Field::Hour);
                match number(rest, fixed) {
                    Some((n, used)) => {
                        rest = &rest[used..];
                        match field {
                            Field::Month => {
                                month = n;
                                if n == 0 || n > 12 {
                                    range_error = Some("month");
                                }
                            }
                            Field::Day => day = n,
                            Field::Hour => {
                                hour = n;
                                if n >= 24 {
                                    range_error = Some("hour");
                                }
                            }
                            Field::Minute => {
                                minute = n;
                                if n >= 60 {
                                    range_error = Some("minute");
                                }
                            }
                            _ => {
                                second = n;
                                if n >= 60 {
                                    range_error = Some("second");
                                } else if rest.len() >= 2
                                    && matches!(rest[0], b'.' | b',')
                                    && rest[1].is_ascii_digit()
                                {
                                    // A fraction the layout does not name: Go reads it
                                    // anyway, keeping nine digits.
                                    let digits =
                                        rest[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                                    let kept = &rest[1..1 + digits.min(9)];
                                    let value =
                                        kept.iter().fold(0u32, |v, b| v * 10 + u32::from(b - b'0'));
                                    nanos = value * 10u32.pow(9 - kept.len() as u32);
                                    rest = &rest[1 + digits..];
                                }
                            }
                        }
                        true
                    }
                    None => false,
                }
            }
            Field::Zone => {
                if let Some(after) = rest.strip_prefix(b"Z") {
                    rest = after;
                    true
                } else if rest.len() >= 6 && rest[3] == b':' {
                    let zone = &rest[..6];
                    rest = &rest[6..];
                    // Go reads the minutes only when the hours parsed, and checks the ranges
                    // before it looks at what failed.
                    let hours = number(&zone[1..3], true).map(|(n, _)| n);
                    let minutes = hours.and_then(|_| number(&zone[4..6], true).map(|(n, _)| n));
                    let (h, m) = (hours.unwrap_or(0), minutes.unwrap_or(0));
                    if h > 24 {
                        range_error = Some("time zone offset hour");
                    }
                    if m > 60 {
                        range_error = Some("time zone offset minute");
                    }
                    offset = i64::from(h * 60 + m) * 60;
                    match zone[0] {
                        _ if minutes.is_none() => false,
                        b'+' => true,
                        b'-' => {
                            offset = -offset;
                            true
                        }
                        _ => false,
                    }
                } else {
                    false
                }
            }
        };
        if let Some(what) = range_error {
            return Err(fail(Problem::OutOfRange(what)));
        }
        if !ok {
            return Err(cannot(hold, layout_elem));
        }
    }
    if !rest.is_empty() {
        return Err(fail(Problem::ExtraText(
            String::from_utf8_lossy(rest).into_owned(),
        )));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(fail(Problem::OutOfRange("day")));
    }
    let days = days_from_civil(year, month, day);
    let seconds =
        days * 86_400 + i64::from(hour) * 3_600 + i64::from(minute) * 60 + i64::from(second)
            - offset;
    Ok(Rfc3339Time {
        unix_seconds: seconds,
        nanos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_go_reads() {
        let t = |s: &str| parse_rfc3339(s).map(|t| (t.unix_seconds, t.nanos));
        assert_eq!(t("1970-01-01T00:00:00Z"), Ok((0, 0)));
        assert_eq!(t("0001-01-01T00:00:00Z"), Ok((-62_135_596_800, 0)));
        assert_eq!(t("2024-02-29T12:00:00Z").unwrap().0, 1_709_208_000);
        assert_eq!(t("1970-01-01T00:00:00.1234567891Z"), Ok((0, 123_456_789)));
        assert_eq!(t("1970-01-01T0:00:00-24:00"), Ok((86_400, 0)));
        assert!(t("2023-02-29T12:00:00Z").is_err());
        assert!(t("1970-01-01T00:00:00z").is_err());
        assert!(t("1970-01-01T24:00:00Z").is_err());
        assert_eq!(
            parse_rfc3339("2026-12-31T23:59:60Z")
                .unwrap_err()
                .to_string(),
            r#"parsing time "2026-12-31T23:59:60Z": second out of range"#
        );
    }
}
