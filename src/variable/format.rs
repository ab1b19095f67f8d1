//! The string formats Kubernetes checks in a custom resource's (and so a variable's) value
//! (`k8s.io/apiextensions-apiserver/pkg/apiserver/validation/formats.go` lists them, kube-openapi's
//! `strfmt` checks them).
//!
//! Checked here: `byte`, `date`, `ipv4`, `ipv6`, `cidr`, the `uuid`s, `hexcolor`, `mac`,
//! `k8s-short-name` and `k8s-long-name`. The others Kubernetes knows (`uri`, `email`,
//! `hostname`, `datetime`, `duration`, `isbn`s, `creditcard`, `ssn`, `rgbcolor`,
//! `bsonobjectid`, `password`) and every unknown format pass: refusing what Cluster API
//! accepts would be worse than accepting what it refuses, and Cluster API refuses it anyway.

use std::net::IpAddr;

use crate::go::validation::{dns1123_label, dns1123_subdomain};

/// Whether `s` is a valid value of `format` (`true` for a format not checked).
pub(super) fn is_valid(format: &str, s: &str) -> bool {
    match format {
        "byte" => crate::go::base64::decode_std(s.as_bytes()).is_ok(),
        "date" => is_date(s),
        // Go's net.ParseIP, and a `.` (ipv4) or `:` (ipv6) in the text.
        "ipv4" => s.parse::<IpAddr>().is_ok() && s.contains('.'),
        "ipv6" => s.parse::<IpAddr>().is_ok() && s.contains(':'),
        "cidr" => is_cidr(s),
        "uuid" => is_uuid(s, None),
        "uuid3" => is_uuid(s, Some(b'3')),
        "uuid4" => is_uuid(s, Some(b'4')),
        "uuid5" => is_uuid(s, Some(b'5')),
        "hexcolor" => is_hexcolor(s),
        "mac" => is_mac(s),
        "k8s-short-name" => dns1123_label(s).is_empty(),
        "k8s-long-name" => dns1123_subdomain(s).is_empty(),
        _ => true,
    }
}

/// `2006-01-02`, a day that exists (Go's `time.Parse` with that layout).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if !s.is_ascii() || b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = &s[r];
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// Go's `net.ParseCIDR`: an address, `/`, and a decimal prefix length that fits it.
fn is_cidr(s: &str) -> bool {
    let Some((addr, bits)) = s.split_once('/') else {
        return false;
    };
    let Ok(addr) = addr.parse::<IpAddr>() else {
        return false;
    };
    let max = if addr.is_ipv4() { 32 } else { 128 };
    !bits.is_empty()
        && bits.len() <= 3
        && bits.bytes().all(|c| c.is_ascii_digit())
        && bits.parse::<u32>().is_ok_and(|n| n <= max)
}

/// strfmt's `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?V[0-9a-f]{3}-?[89ab]?...`: 32 hex digits, in the
/// groups 8-4-4-4-12 with or without each dash; for a version, its digit opens the third
/// group and the fourth opens with `8`, `9`, `a` or `b`.
fn is_uuid(s: &str, version: Option<u8>) -> bool {
    let mut digits = Vec::with_capacity(32);
    let groups = [8, 4, 4, 4, 12];
    let mut rest = s.as_bytes();
    for (i, len) in groups.iter().enumerate() {
        if i > 0
            && let Some(tail) = rest.strip_prefix(b"-")
        {
            rest = tail;
        }
        if rest.len() < *len || !rest[..*len].iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        digits.extend_from_slice(&rest[..*len]);
        rest = &rest[*len..];
    }
    if !rest.is_empty() {
        return false;
    }
    match version {
        None => true,
        Some(v) => {
            digits[12] == v
                && (v == b'3'
                    || matches!(digits[16].to_ascii_lowercase(), b'8' | b'9' | b'a' | b'b'))
        }
    }
}

/// `^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`.
fn is_hexcolor(s: &str) -> bool {
    let hex = s.strip_prefix('#').unwrap_or(s);
    matches!(hex.len(), 3 | 6) && hex.bytes().all(|c| c.is_ascii_hexdigit())
}

/// Go's `net.ParseMAC`: 6, 8 or 20 octets as pairs of hex digits separated by `:` or `-`,
/// or groups of four separated by `.`.
fn is_mac(s: &str) -> bool {
    let octets_ok = |n: usize| matches!(n, 6 | 8 | 20);
    for sep in [':', '-'] {
        if s.len() >= 14 && s.as_bytes().get(2) == Some(&(sep as u8)) {
            let parts: Vec<&str> = s.split(sep).collect();
            return octets_ok(parts.len())
                && parts
                    .iter()
                    .all(|p| p.len() == 2 && p.bytes().all(|c| c.is_ascii_hexdigit()));
        }
    }
    if s.len() >= 14 && s.as_bytes().get(4) == Some(&b'.') {
        let parts: Vec<&str> = s.split('.').collect();
        return octets_ok(parts.len() * 2)
            && parts
                .iter()
                .all(|p| p.len() == 4 && p.bytes().all(|c| c.is_ascii_hexdigit()));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn formats_kubernetes_checks() {
        for (format, good, bad) in [
            ("date", "2024-02-29", "2023-02-29"),
            ("date", "2024-12-31", "20é4-1-01"),
            ("ipv4", "10.0.0.1", "10.0.0"),
            ("ipv6", "fd00::1", "10.0.0.1"),
            ("cidr", "10.0.0.0/8", "10.0.0.0/33"),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567"),
            (
                "uuid4",
                "123e4567e89b42d3a456426614174000",
                "123e4567-e89b-12d3-a456-426614174000",
            ),
            ("byte", "aGk=", "aGk"),
            ("mac", "00:00:5e:00:53:01", "00:00:5e:00:53"),
            ("hexcolor", "#fFf", "#ffff"),
            ("k8s-short-name", "my-name", "My-name"),
            ("k8s-long-name", "a.b-c", "a..b"),
        ] {
            assert!(is_valid(format, good), "{format} {good}");
            assert!(!is_valid(format, bad), "{format} {bad}");
        }
        assert!(is_valid("uri", "not checked"));
        assert!(is_valid("no-such-format", ""));
    }
}
