//! `capi_runtime::go` and the crate's private Go rules (`__private::go`) against Go itself:
//! every function runs over a corpus of inputs here and, through the `go-rules` oracle
//! (`interop/capi/cmd/go-rules`, built from the Go module versions Cluster API v1.14.2 uses),
//! in the real Go function; the answers must be the same, error texts included.
//!
//! The corpus is deterministic: hand-picked odd cases (`1.5s`, `µs`, `-0`, overflow,
//! `http://u@h`, `https://h:0`, IPv6 literals, percent-escapes, ...) and their combinations,
//! plus cases drawn from a fixed-seed generator. Each test prints its corpus size.

use std::collections::BTreeMap;
use std::error::Error;

// The crate's private Go rules (its transport's) come through `__private::go`, the public ones
// through `go`.
use capi_runtime::__private::go::base64::decode_std;
use capi_runtime::__private::go::httpproxy::{
    ProxyConfig, ProxyError, ProxyFunc, ProxyUrl, proxy_func, proxy_func_with_no_proxy_cidr,
};
use capi_runtime::__private::go::strconv::{is_print, quote};
use capi_runtime::__private::go::url::{MAX_QUERY_PARAMETERS, parse, parse_query};
use capi_runtime::api::runtime::v1beta2::{
    ClientConfig, ExtensionConfig, ExtensionConfigSpec, ExtensionConfigStatus, ExtensionHandler,
    FailurePolicy, GroupVersionHook,
};
use capi_runtime::client::{CallError, Client, ForObject, NamespaceError};
use capi_runtime::go::errors::{Aggregate, BoxError, Message, Wrapped, chain};
use capi_runtime::go::labels::{format_label_selector, label_selector_as_selector};
use capi_runtime::go::time::{Duration, format_duration, parse_rfc3339};
use capi_runtime::go::url::{RequestUri, UrlError, parse_request_uri};
use capi_runtime::go::validation::{
    dns1035_label, dns1123_label, dns1123_subdomain, label_value, port_num, qualified_name,
};
use capi_runtime::hook::Hook;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreate;
use capi_runtime::registry::{NAMESPACE_NAME_LABEL, NamespaceSelector};
use capi_runtime_oracle::{go_printable_ranges, go_rules};
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde_json::{Value, json};

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

fn result(out: Value, err: Option<String>) -> Value {
    json!({"out": out, "err": err})
}

/// Sends the cases to Go, computes the Rust answers with `rust`, and fails listing every case
/// whose answers differ.
fn compare(function: &str, inputs: Vec<Value>, rust: impl Fn(&Value) -> Value) {
    let cases: Vec<(&str, Value)> = inputs.iter().map(|i| (function, i.clone())).collect();
    let go = go_rules(&cases).unwrap_or_else(|e| panic!("{}", chain(&e)));
    let mut differences = Vec::new();
    for (input, go) in inputs.iter().zip(&go) {
        let ours = rust(input);
        if &ours != go {
            differences.push(format!("  in:   {input}\n  go:   {go}\n  rust: {ours}"));
        }
    }
    println!(
        "{function}: {} cases, {} differ",
        inputs.len(),
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{function}: {} of {} cases differ from Go:\n{}",
        differences.len(),
        inputs.len(),
        differences
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

fn strings(values: Vec<String>) -> Vec<Value> {
    let mut seen = std::collections::BTreeSet::new();
    values
        .into_iter()
        .filter(|v| seen.insert(v.clone()))
        .map(Value::String)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// time

fn duration_texts() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        "0",
        "-0",
        "+0",
        "00",
        "0s",
        "-0s",
        "1.5s",
        "1.5h",
        ".5s",
        "5.s",
        ".s",
        "-.s",
        ".",
        "1",
        "10",
        "1µs",
        "1μs",
        "1us",
        "1µ",
        "µs",
        "1h2m3s4ms5us6ns",
        "1.5h30m",
        "3.7h",
        "2562047h47m16.854775807s",
        "2562047h47m16.854775808s",
        "-2562047h47m16.854775808s",
        "-2562047h47m16.854775809s",
        "9223372036854775807ns",
        "9223372036854775808ns",
        "-9223372036854775808ns",
        "-9223372036854775809ns",
        "18446744073709551616ns",
        "9223372036854775807",
        "0.000000001s",
        "0.0000000001s",
        "0.9999999999s",
        "1.00000000000000000000000000000000001s",
        "1.1234567890123456789012345678901234567890h",
        "2562047.7880152155h",
        "2562048h",
        "153722867m",
        "153722868m",
        "9223372036s",
        "9223372037s",
        "1s1s",
        "1s.5s",
        "1s-1s",
        "1 s",
        " 1s",
        "1s ",
        "1S",
        "1Ms",
        "1d",
        "1w",
        "1y",
        "s",
        "ms",
        "h1",
        "1h1",
        "+-1s",
        "--1s",
        "++1s",
        "1e3s",
        "0x10s",
        "1,5s",
        "١s",
        "1.5.5s",
        "1..5s",
        "1sm",
        "1mm",
        "1hms",
        "1nss",
        "1\u{0}s",
        "1\"s",
        "1\\s",
        "1é",
        "\u{fffd}",
        "1\u{fffd}",
        "12345678901234567890s",
        "00000000000000000000001s",
        "1.000000000000000000001h",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let numbers = [
        "0",
        "1",
        "10",
        "1.5",
        ".5",
        "5.",
        "0.001",
        "999",
        "1000000",
        "4.000000001",
        "9223372036",
        "9223372036.854775807",
        "9223372036.854775808",
        "0.000000000001",
    ];
    let units = [
        "ns", "us", "µs", "μs", "ms", "s", "m", "h", "", "d", "S", "µ", "x", "sec",
    ];
    for sign in ["", "-", "+"] {
        for n in numbers {
            for u in units {
                out.push(format!("{sign}{n}{u}"));
            }
        }
    }
    let mut rng = Rng::new(20261201);
    let alphabet = [
        "0", "1", "2", "5", "9", ".", "-", "+", "h", "m", "s", "n", "u", "µ", "μ", " ", "ms", "ns",
        "us",
    ];
    for _ in 0..800 {
        out.push(rng.string(&alphabet, 9));
    }
    for _ in 0..300 {
        // Well-formed multi-term durations with random magnitudes.
        let terms = 1 + rng.below(4);
        let mut s = String::new();
        if rng.below(4) == 0 {
            s.push('-');
        }
        for _ in 0..terms {
            let int = rng.next() % 10u64.pow(1 + rng.below(12) as u32);
            s.push_str(&int.to_string());
            if rng.below(2) == 0 {
                s.push('.');
                s.push_str(&(rng.next() % 10u64.pow(1 + rng.below(15) as u32)).to_string());
            }
            s.push_str(units[rng.below(8)]);
        }
        out.push(s);
    }
    out
}

#[test]
fn parse_duration_is_gos() {
    compare(
        "ParseDuration",
        strings(duration_texts()),
        |input| match Duration::parse(input.as_str().unwrap()) {
            Ok(d) => result(json!(d.as_nanos().to_string()), None),
            Err(e) => result(Value::Null, Some(chain(&e).to_string())),
        },
    );
}

/// Times as peers write them and as they might: every field at and beyond its range, each
/// separator replaced, fractions of every length, zones of every form, and random texts
/// over the characters a time holds.
fn time_texts() -> Vec<String> {
    let mut texts: Vec<String> = [
        "2026-01-02T03:04:05Z",
        "2026-01-02T03:04:05.123456789Z",
        "2026-01-02T03:04:05.1234567891234Z",
        "2026-01-02T03:04:05,5Z",
        "2026-01-02T03:04:05.Z",
        "2026-01-02T03:04:05.5",
        "2026-01-02T3:04:05Z",
        "2026-01-02T03:4:05Z",
        "2026-1-02T03:04:05Z",
        "2026-01-2T03:04:05Z",
        "226-01-02T03:04:05Z",
        "20x6-01-02T03:04:05Z",
        "2026-01-02T03:04:05+01:00",
        "2026-01-02T03:04:05-24:00",
        "2026-01-02T03:04:05+24:60",
        "2026-01-02T03:04:05+25:00",
        "2026-01-02T03:04:05+01:61",
        "2026-01-02T03:04:05+30:xx",
        "2026-01-02T03:04:05+0x:00",
        "2026-01-02T03:04:05*01:00",
        "2026-01-02T03:04:05+0100",
        "2026-01-02T03:04:05+01:00:00",
        "2026-01-02T03:04:05z",
        "2026-01-02t03:04:05Z",
        "2026-01-02 03:04:05Z",
        "2026-01-02T03:04:05Z ",
        " 2026-01-02T03:04:05Z",
        "2026-01-02T03:04:05ZZ",
        "2026-01-02T03:04:05Z\u{e9}",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59-24:00",
        "",
        "2026",
        "2026-01-02",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (month, day) in [
        (0, 10),
        (13, 1),
        (1, 0),
        (1, 32),
        (2, 29),
        (2, 30),
        (4, 31),
        (12, 31),
    ] {
        for year in [2023, 2024, 1900, 2000] {
            texts.push(format!("{year:04}-{month:02}-{day:02}T00:00:00Z"));
        }
    }
    for (h, m, s) in [
        (23, 59, 59),
        (24, 0, 0),
        (0, 60, 0),
        (0, 0, 60),
        (99, 99, 99),
    ] {
        texts.push(format!("2026-01-02T{h:02}:{m:02}:{s:02}Z"));
    }
    let mut rng = Rng::new(3339);
    let alphabet = [
        "0", "1", "2", "5", "9", "-", ":", "T", "t", "Z", "z", ".", ",", "+", " ", "é",
    ];
    for _ in 0..1500 {
        // A valid time with one random change, or random text.
        let mut text: Vec<char> = "2026-01-02T03:04:05.678+01:00".chars().collect();
        for _ in 0..1 + rng.below(2) {
            let at = rng.below(text.len());
            let c = rng.pick(&alphabet).chars().next().unwrap();
            match rng.below(3) {
                0 => text[at] = c,
                1 => text.insert(at, c),
                _ => {
                    text.remove(at);
                }
            }
        }
        texts.push(text.into_iter().collect());
        texts.push(rng.string(&alphabet, 30));
    }
    texts
}

/// Base64 texts: valid ones of every length, with line breaks, spaces, the URL alphabet, bad
/// padding and non-zero trailing bits, and random texts over base64's characters.
fn base64_texts() -> Vec<Vec<u8>> {
    let mut texts: Vec<Vec<u8>> = [
        "",
        "=",
        "==",
        "\n",
        "\r\n",
        "QQ==",
        "QR==",
        "QUI=",
        "QUJ=",
        "QUJD",
        "QQ",
        "QQ=",
        "QQ===",
        "Q===",
        "QQ==QQ==",
        "QQ==\n",
        "Q\nQ\r=\n=",
        "QUJD\nQUJD",
        "QUJD QUJD",
        "-_-_",
        "QUJD=",
        "QUJDQ",
        "QUJDQQ",
        "QUJDQQ=",
        "QUJDQQ==",
        "QUJDQUI=",
        "====",
        "QQ=x",
        "QQ=\n",
        "W3sib3AiOiJhZGQiLCJwYXRoIjoiL3NwZWMiLCJ2YWx1ZSI6e319XQ==",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    let mut rng = Rng::new(64);
    let alphabet = [
        "A", "Q", "z", "0", "+", "/", "=", "\n", "\r", " ", "-", "_", "\u{e9}",
    ];
    for _ in 0..2000 {
        let mut text = rng.string(&alphabet, 14).into_bytes();
        if rng.below(4) == 0 {
            text.push(0xff);
        }
        texts.push(text);
    }
    texts.sort();
    texts.dedup();
    texts
}

#[test]
fn base64_decoding_is_gos() {
    let inputs = base64_texts().iter().map(|t| json!(hex(t))).collect();
    compare("Base64Decode", inputs, |input| {
        let text = unhex(input.as_str().unwrap());
        match decode_std(&text) {
            Ok(bytes) => result(json!(hex(&bytes)), None),
            Err(e) => result(Value::Null, Some(e.to_string())),
        }
    });
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn parse_rfc3339_is_gos() {
    compare(
        "ParseRFC3339",
        strings(time_texts()),
        |input| match parse_rfc3339(input.as_str().unwrap()) {
            Ok(t) => result(json!({"unix": t.unix_seconds, "nanos": t.nanos}), None),
            Err(e) => result(Value::Null, Some(e.to_string())),
        },
    );
}

#[test]
fn duration_string_is_gos() {
    let mut nanos: Vec<i64> = vec![
        0,
        1,
        -1,
        999,
        1000,
        1001,
        1500,
        999_999,
        1_000_000,
        1_000_001,
        999_999_999,
        1_000_000_000,
        1_000_000_001,
        1_500_000_000,
        59_999_999_999,
        60_000_000_000,
        3_599_999_999_999,
        3_600_000_000_000,
        86_400_000_000_000,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
    ];
    let mut rng = Rng::new(7);
    for _ in 0..600 {
        let magnitude = rng.below(63) as u32;
        let v = (rng.next() >> 1) as i64 % (1i64 << magnitude).max(1);
        nanos.push(if rng.below(3) == 0 { -v } else { v });
    }
    let inputs = nanos.iter().map(|n| json!(n.to_string())).collect();
    compare("DurationString", inputs, |input| {
        let n: i64 = input.as_str().unwrap().parse().unwrap();
        let d = Duration::from_nanos(n);
        let text = d.to_string();
        // The std::time::Duration shortcut writes the same for the non-negative ones.
        if let Some(std) = d.to_std() {
            assert_eq!(format_duration(std), text, "format_duration({n}ns)");
        }
        result(json!(text), None)
    });
}

// ---------------------------------------------------------------------------------------------
// strconv

#[test]
fn quote_is_gos() {
    let mut texts: Vec<String> = (0u32..0x100)
        .filter_map(char::from_u32)
        .map(String::from)
        .collect();
    for c in [
        '\u{200b}',
        '\u{2028}',
        '\u{2029}',
        '\u{feff}',
        '\u{e000}',
        '\u{f8ff}',
        '\u{1f600}',
        '\u{10ffff}',
        '\u{378}',
        '\u{301}',
        '\u{3000}',
        '\u{fffd}',
        '\u{fffe}',
        '\u{1d173}',
        '\u{e0001}',
        '\u{20000}',
        '\u{2fa1d}',
        '\u{30000}',
        '\u{d7ff}',
        '\u{a0}',
        '\u{ad}',
        '\u{85}',
        '\u{61c}',
        '\u{180e}',
    ] {
        texts.push(c.to_string());
    }
    let mut rng = Rng::new(42);
    let alphabet = [
        "a",
        "Z",
        " ",
        "\"",
        "\\",
        "'",
        "\n",
        "\t",
        "\u{0}",
        "\u{7f}",
        "é",
        "µ",
        "\u{200b}",
        "\u{1f600}",
        "\u{e000}",
        "\u{ad}",
        "%",
        "/",
        "日本",
    ];
    for _ in 0..500 {
        texts.push(rng.string(&alphabet, 8));
    }
    compare("Quote", strings(texts), |input| {
        result(json!(quote(input.as_str().unwrap())), None)
    });
}

#[test]
fn is_print_is_gos_for_every_code_point() {
    let go = go_printable_ranges().unwrap_or_else(|e| panic!("{}", chain(&e)));
    let mut ours: Vec<(u32, u32)> = Vec::new();
    for n in 0..=0x10ffffu32 {
        if char::from_u32(n).is_some_and(is_print) {
            match ours.last_mut() {
                Some(last) if last.1 + 1 == n => last.1 = n,
                _ => ours.push((n, n)),
            }
        }
    }
    println!("IsPrint: {} ranges from Go", go.len());
    assert_eq!(
        ours, go,
        "src/go/print_ranges.rs differs from Go's strconv.IsPrint: run cargo xtask go-tables"
    );
}

// ---------------------------------------------------------------------------------------------
// url

fn url_texts() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        "*",
        "/",
        "//",
        "///",
        "/p",
        "p",
        "./p",
        ":",
        ":x",
        "https://x",
        "HTTPS://X",
        "https//extension-address.com",
        "unknown://x.com",
        "http://u@h",
        "https://u@h/",
        "https://u:p@h/",
        "https://u:@h/",
        "https://:p@h/",
        "https://@h/",
        "https://a@b@h/",
        "https://u%20@h/",
        "https://u%zz@h/",
        "https://u%@h/",
        "https://u p@h/",
        "https://ü@h/",
        "https://h:0",
        "https://h:0/",
        "https://h:",
        "https://h:/",
        "https://h:x/",
        "https://h:99999/",
        "https://h:-1/",
        "https://h:1:2/",
        "http://h:1:2/",
        "ftp://h:1:2/",
        "ftp://h:x:2/",
        "https://[::1]/",
        "https://[::1]:8443/",
        "https://[::1]:/",
        "https://[::1]x/",
        "https://[::1]:x/",
        "https://[::1",
        "https://a[::1]/",
        "https://[fe80::1%25en0]/",
        "https://[fe80::1%25en0]:80/",
        "https://[fe80::1%en0]/",
        "https://[fe80::1%25]/",
        "https://[fe80::1%25%65n0]/",
        "https://[fe80::1%25e%20n]/",
        "https://[fe80::1%25e%0an]/",
        "https://[1.2.3.4]/",
        "https://[::ffff:1.2.3.4]/",
        "https://[::ffff:01.2.3.4]/",
        "https://[x]/",
        "https://[]/",
        "https://[::]/",
        "https://[1::2::3]/",
        "https://[1:2:3:4:5:6:7:8:9]/",
        "https://[12345::]/",
        "https://[1:2:3:4:5:6:7:8]/",
        "https://[1:2:3:4:5:6:7::8]/",
        "https://[::1.2.3]/",
        "https://[1:2:3:4:5:6:1.2.3.4]/",
        "https://[1:2:3:4:5:1.2.3.4]/",
        "https://[%31::]/",
        "https://[%c3%a9::]/",
        "https://h%41/",
        "https://h%c3%a9/",
        "https://h%zz/",
        "https://h%/",
        "https://h%2/",
        "https://h%25/",
        "https://é.com/",
        "https://h h/",
        "https://h<>/",
        "https://h\"/",
        "https://h{}/",
        "https://h|/",
        "https://h^/",
        "https://h`/",
        "https://h\\/",
        "https://x/a%20b",
        "https://x/a%2fb",
        "https://x/%zz",
        "https://x/%",
        "https://x/%e",
        "https://x/%e9",
        "https://x/%aé",
        "https://x/é",
        "https://x/a b",
        "https://x/#f",
        "https://x/a#",
        "https://x/a?b",
        "https://x/a?",
        "https://x/a??",
        "https://x/a?b?",
        "https://x?",
        "https://x??",
        "https:/p",
        "https:p",
        "https:",
        "mailto:a@b",
        "h+t-t.p://x/",
        "1x://x/",
        "x1://h/",
        "-x://h/",
        "https://x\u{7f}/",
        "https://x/\u{0}",
        "https://x/\t",
        "/a%20b?c",
        "/%",
        "?x",
        "https://example.com:443/prefix/hooks",
        "https://extension.default.svc/",
        "https://10.0.0.1:8443/p",
        "https://[2001:db8::68]:8443/p?x#y",
        "https://user:pa%3Ass@host:1/p%3Fq?r#s",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let schemes = ["", "https:", "HTTPS:", "http:", "h+t.p:", "1x:", ":"];
    let slashes = ["//", "/", ""];
    let users = ["", "u@", "u:p@", "u%41@", "u%zz@", "u p@", "a@b@", "ü@"];
    let hosts = [
        "h",
        "example.com",
        "h:443",
        "h:",
        "h:x",
        "h:0",
        "h:99999",
        "h:1:2",
        "[::1]",
        "[::1]:80",
        "[fe80::1%25en0]",
        "[1.2.3.4]",
        "[x]",
        "[::1",
        "a[::1]",
        "h%41",
        "h%c3%a9",
        "h%zz",
        "é",
        "h h",
        "",
    ];
    let paths = [
        "", "/", "/p", "/a%20b", "/a%2Fb", "/%zz", "/é", "/a b", "/#f", "?q", "/?",
    ];
    for scheme in schemes {
        for slash in slashes {
            for user in users {
                for host in hosts {
                    for path in paths {
                        out.push(format!("{scheme}{slash}{user}{host}{path}"));
                    }
                }
            }
        }
    }
    let mut rng = Rng::new(99);
    let alphabet = [
        "h", "x", ":", "/", "?", "#", "@", "[", "]", "%", "2", "5", "a", "f", "1", "é", " ",
        "https:", "//", ".", "%25", "%41", "%zz",
    ];
    for _ in 0..2000 {
        out.push(rng.string(&alphabet, 10));
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A parsed URL as the oracle writes it (hex for the parts that may hold any bytes).
fn url_answer(parsed: Result<RequestUri, UrlError>) -> Value {
    match parsed {
        Ok(u) => result(
            json!({
                "scheme": u.scheme(),
                "opaque": u.opaque(),
                "user": u.user().map(|user| json!({
                    "username": hex(&user.username),
                    "password": hex(user.password.as_deref().unwrap_or_default()),
                    "passwordSet": user.password.is_some(),
                })),
                "host": hex(u.host()),
                "path": hex(u.path()),
                "rawQuery": u.raw_query(),
                "forceQuery": u.force_query(),
                "omitHost": u.omit_host(),
                "string": u.to_string(),
            }),
            None,
        ),
        Err(e) => result(Value::Null, Some(chain(&e).to_string())),
    }
}

#[test]
fn parse_request_uri_is_gos() {
    compare("ParseRequestURI", strings(url_texts()), |input| {
        url_answer(parse_request_uri(input.as_str().unwrap()))
    });
}

/// `url.Parse` reads relative references and fragments besides: the request URLs, the
/// proxy settings of the httpproxy corpus, and those forms.
#[test]
fn parse_is_gos() {
    let mut texts = url_texts();
    texts.extend(PROXY_VALUES.iter().map(|v| v.to_string()));
    texts.extend(PROXY_VALUES.iter().map(|v| format!("http://{v}")));
    let relative = [
        "",
        "*",
        "a",
        "a/b",
        "a:b",
        "a/b:c",
        "./a:b",
        "//h",
        "//h:80/p",
        "///p",
        "//u@h",
        "?q",
        "#",
        "#f",
        "a#b#c",
        "#%zz",
        "#%41",
        "h#%",
        "//[::1",
        "//h:x",
        "%41",
        "%zz",
        "1:2",
        "+x:y",
        "-x:y",
        "x+y:z",
        "//h/p?q#f",
        "http://h/p#f%20g",
        "http://h#",
        "mailto:a#b",
    ];
    texts.extend(relative.map(String::from));
    let mut rng = Rng::new(0x005e_ed0f);
    let alphabet = [
        "a", "1", ":", "/", "?", "#", "%", "%4", "%41", "@", "[", "]", ".", " ", "+",
    ];
    for _ in 0..2000 {
        texts.push(rng.string(&alphabet, 12));
    }
    compare("Parse", strings(texts), |input| {
        url_answer(parse(input.as_str().unwrap()))
    });
}

fn query_texts() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        "&",
        "&&",
        "=",
        "a",
        "a=",
        "=a",
        "a=1",
        "a=1&a=2",
        "timeout=10s",
        "timeout=1%C2%B5s",
        "timeout=1.5s&timeout=2s",
        "a+b=c+d",
        "a%20b=c%2Bd",
        "a=%zz",
        "a=%",
        "a=%2",
        "%zz=1&b=2",
        "a=1;b=2",
        "a=1&b;c=2",
        "a=%zz&b;c",
        "a=1&&b=2",
        "a==b",
        "a=b=c",
        "a=%e9",
        "é=ü",
        "a=%00",
        "a=\u{7f}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    out.push("a&".repeat(MAX_QUERY_PARAMETERS - 1) + "a");
    out.push("a&".repeat(MAX_QUERY_PARAMETERS) + "a");
    let mut rng = Rng::new(17);
    let alphabet = [
        "a", "b", "=", "&", ";", "%", "2", "0", "+", "z", "é", "timeout", "1s",
    ];
    for _ in 0..1500 {
        out.push(rng.string(&alphabet, 10));
    }
    out
}

#[test]
fn parse_query_is_gos() {
    compare("ParseQuery", strings(query_texts()), |input| {
        let (values, error) = parse_query(input.as_str().unwrap());
        let mut grouped: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (key, value) in values.pairs() {
            grouped.entry(hex(key)).or_default().push(hex(value));
        }
        result(
            json!({"values": grouped, "err": error.map(|e| e.to_string())}),
            None,
        )
    });
}

// ---------------------------------------------------------------------------------------------
// errors

/// A random error tree: a message, a list (a nested aggregate) or a wrapped cause.
fn error_item(rng: &mut Rng, depth: usize) -> Value {
    let messages = ["a", "b", "c", "a: b", "[a, b]", ""];
    match if depth == 0 { 0 } else { rng.below(3) } {
        0 => json!(rng.pick(&messages)),
        1 => {
            // Never empty below the top: Go's NewAggregate drops the nil a nested empty
            // aggregate is, which would make a wrapped one print Go's `%!w(<nil>)`.
            let n = 1 + rng.below(3);
            Value::Array((0..n).map(|_| error_item(rng, depth - 1)).collect())
        }
        _ => json!({"wrap": rng.pick(&messages[..4]), "cause": error_item(rng, depth - 1)}),
    }
}

/// The Rust error an item describes (`None` for an empty aggregate, which Go's `NewAggregate`
/// makes `nil`).
fn rust_error(item: &Value) -> Option<BoxError> {
    match item {
        Value::String(s) => Some(Box::new(Message::new(s.clone()))),
        Value::Array(items) => {
            Aggregate::new(items.iter().filter_map(rust_error)).map(|a| Box::new(a) as BoxError)
        }
        Value::Object(o) => {
            let cause = rust_error(&o["cause"]).expect("a wrapped cause");
            Some(Box::new(Wrapped::new(o["wrap"].as_str().unwrap(), cause)))
        }
        other => panic!("not an error item: {other}"),
    }
}

fn render(error: Option<BoxError>) -> Value {
    match error {
        None => result(Value::Null, None),
        Some(e) => {
            let e: &(dyn Error + 'static) = e.as_ref();
            result(json!(chain(e).to_string()), None)
        }
    }
}

#[test]
fn aggregates_and_chains_are_gos() {
    let mut rng = Rng::new(5);
    let mut lists: Vec<Value> = vec![
        json!([]),
        json!(["a"]),
        json!(["a", "a"]),
        json!(["a", "b", "a"]),
        json!([["a", "b"]]),
        json!([["a"], "a"]),
        json!([[], "a"]),
        json!(["", ""]),
        json!([{"wrap": "x", "cause": ["a", "b"]}]),
        json!([{"wrap": "x", "cause": "a"}, {"wrap": "x", "cause": "a"}]),
    ];
    for _ in 0..400 {
        let n = rng.below(4);
        lists.push(Value::Array(
            (0..n).map(|_| error_item(&mut rng, 3)).collect(),
        ));
    }
    compare("Aggregate", lists, |input| render(rust_error(input)));
    let mut chains = vec![
        json!("a"),
        json!({"wrap": "x", "cause": {"wrap": "", "cause": "b"}}),
    ];
    for _ in 0..400 {
        chains.push(error_item(&mut rng, 4));
    }
    // Go writes an empty layer as `: cause`; chain() leaves it out. Only non-empty layers here.
    chains.retain(|c| !c.to_string().contains("\"wrap\":\"\""));
    compare("Chain", chains, |input| render(rust_error(input)));
}

// ---------------------------------------------------------------------------------------------
// validation

fn name_texts() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        "a",
        "A",
        "a-b",
        "-a",
        "a-",
        "a.b",
        "a_b",
        "1a",
        "a1",
        "1",
        "a/b",
        "example.com/a",
        "example.com/",
        "/a",
        "a/",
        "a/b/c",
        "Bad_Prefix/x",
        "EXAMPLE.com/x",
        "a..b",
        ".a",
        "a.",
        "é",
        " ",
        "a b",
        "my.name",
        "MyName",
        "123-abc",
        "a/-b",
        "a/b-",
        "a/.b",
        "x.y.z/Name_1.v",
        "bad.name",
        "NOT_ALLOWED",
        "INVALID",
        "my-extension",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for n in [62, 63, 64, 252, 253, 254] {
        out.push("a".repeat(n));
        out.push(format!("{}/x", "a".repeat(n)));
        out.push(format!("x/{}", "a".repeat(n)));
    }
    out.push(format!("{}.{}", "a".repeat(63), "b".repeat(63)));
    out.push(format!("{}.{}", "a".repeat(64), "b".repeat(10)));
    let mut rng = Rng::new(3);
    let alphabet = ["a", "z", "Z", "0", "9", "-", ".", "_", "/", " ", "é", "A"];
    for _ in 0..1200 {
        out.push(rng.string(&alphabet, 10));
    }
    out
}

#[test]
fn name_rules_are_gos() {
    let list = |v: Vec<String>| if v.is_empty() { Value::Null } else { json!(v) };
    compare("Names", strings(name_texts()), |input| {
        let s = input.as_str().unwrap();
        result(
            json!({
                "dns1123Label": list(dns1123_label(s)),
                "dns1123Subdomain": list(dns1123_subdomain(s)),
                "dns1035Label": list(dns1035_label(s)),
                "qualifiedName": list(qualified_name(s)),
                "labelValue": list(label_value(s)),
            }),
            None,
        )
    });
    let ports: Vec<Value> = [
        i64::from(i32::MIN),
        -1,
        0,
        1,
        80,
        65535,
        65536,
        90000,
        i64::from(i32::MAX),
    ]
    .iter()
    .map(|p| json!(p))
    .collect();
    compare("PortNum", ports, |input| {
        let v = port_num(input.as_i64().unwrap());
        result(if v.is_empty() { Value::Null } else { json!(v) }, None)
    });
}

// ---------------------------------------------------------------------------------------------
// labels

/// Label keys and values: valid ones first (the first `valid` entries), then bad ones.
const KEYS: &[&str] = &[
    "env",
    "app",
    "example.com/tier",
    "a",
    "Bad_Prefix/x",
    "",
    "-x",
    "a/b/c",
    "x y",
];
const VALID_KEYS: usize = 4;
const VALUES: &[&str] = &["prod", "", "a.b_c-d", "dev", "-bad", "not valid", "x/y"];
const VALID_VALUES: usize = 4;
const OPERATORS: &[&str] = &[
    "In",
    "NotIn",
    "Exists",
    "DoesNotExist",
    "in",
    "bad-operator",
    "",
];

fn selectors() -> Vec<Value> {
    let mut out = vec![
        Value::Null,
        json!({}),
        json!({"matchLabels": {}}),
        json!({"matchExpressions": []}),
        json!({"matchExpressions": [{"key": "foo", "operator": "Exists"}]}),
        json!({"matchExpressions": [{"key": "foo", "operator": "bad-operator"}]}),
        json!({"matchExpressions": [{"key": "a", "operator": "In", "values": ["x"]}]}),
        json!({"matchExpressions": [{"key": "a", "operator": "In", "values": []}]}),
        json!({"matchExpressions": [{"key": "a", "operator": "In"}]}),
        json!({"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]}),
        json!({"matchExpressions": [
            {"key": "b", "operator": "NotIn", "values": ["z", "y"]},
            {"key": "a", "operator": "In", "values": ["x"]},
            {"key": "a", "operator": "DoesNotExist"},
        ], "matchLabels": {"c": "d", "a": "b"}}),
        json!({"matchExpressions": [{"key": "Bad_Prefix/x", "operator": "In", "values": ["-bad", "-bad"]}]}),
    ];
    let mut rng = Rng::new(11);
    for _ in 0..1500 {
        let mut selector = serde_json::Map::new();
        let labels = rng.below(4);
        if labels > 0 {
            // With several entries, only valid ones: Go visits a map in random order and
            // reports the first bad entry it meets.
            let (keys, values) = if labels == 1 {
                (KEYS, VALUES)
            } else {
                (&KEYS[..VALID_KEYS], &VALUES[..VALID_VALUES])
            };
            let map: BTreeMap<String, String> = (0..labels)
                .map(|_| (rng.pick(keys).to_string(), rng.pick(values).to_string()))
                .collect();
            selector.insert("matchLabels".into(), json!(map));
        }
        let expressions = rng.below(4);
        if expressions > 0 || rng.below(2) == 0 {
            let list: Vec<Value> = (0..expressions)
                .map(|_| {
                    let mut e = json!({"key": rng.pick(KEYS), "operator": rng.pick(OPERATORS)});
                    match rng.below(4) {
                        0 => {}
                        1 => e["values"] = json!([]),
                        _ => {
                            let n = 1 + rng.below(3);
                            let values: Vec<&str> = (0..n).map(|_| *rng.pick(VALUES)).collect();
                            e["values"] = json!(values);
                        }
                    }
                    e
                })
                .collect();
            selector.insert("matchExpressions".into(), Value::Array(list));
        }
        out.push(Value::Object(selector));
    }
    out
}

fn selector(input: &Value) -> Option<metav1::LabelSelector> {
    serde_json::from_value(input.clone()).expect("a LabelSelector")
}

#[test]
fn label_selectors_are_gos() {
    compare("FormatLabelSelector", selectors(), |input| {
        result(json!(format_label_selector(selector(input).as_ref())), None)
    });
    compare(
        "LabelSelectorAsSelector",
        selectors(),
        |input| match label_selector_as_selector(selector(input).as_ref()) {
            Ok(s) => result(json!(s.to_string()), None),
            Err(e) => result(Value::Null, Some(chain(&e).to_string())),
        },
    );
}

/// The namespaces of the selector-matching corpus, with labels as the API server gives them:
/// `kubernetes.io/metadata.name` always set to the name.
fn namespaces() -> Vec<(String, BTreeMap<String, String>)> {
    let mut rng = Rng::new(12);
    let mut out = vec![("ns-0".to_string(), BTreeMap::new())];
    for i in 1..12 {
        let n = rng.below(4);
        let labels: BTreeMap<String, String> = (0..n)
            .map(|_| {
                (
                    rng.pick(&KEYS[..VALID_KEYS]).to_string(),
                    rng.pick(&VALUES[..VALID_VALUES]).to_string(),
                )
            })
            .collect();
        out.push((format!("ns-{i}"), labels));
    }
    for (name, labels) in &mut out {
        labels.insert(NAMESPACE_NAME_LABEL.to_string(), name.clone());
    }
    out
}

/// The selectors of the matching corpus: those of [`selectors`] but the absent one (pinned
/// apart), and selectors on the namespace's name, alone or with other labels.
fn namespace_selectors() -> Vec<Value> {
    let mut out: Vec<Value> = selectors().into_iter().filter(|s| !s.is_null()).collect();
    let keys = [NAMESPACE_NAME_LABEL, NAMESPACE_NAME_LABEL, "env", "a"];
    let values = ["ns-0", "ns-1", "ns-2", "ns-7", "prod", "dev"];
    let operators = ["In", "NotIn", "Exists", "DoesNotExist"];
    let mut rng = Rng::new(13);
    for _ in 0..400 {
        let mut selector = serde_json::Map::new();
        if rng.below(3) == 0 {
            selector.insert(
                "matchLabels".into(),
                json!({*rng.pick(&keys): *rng.pick(&values)}),
            );
        }
        let list: Vec<Value> = (0..1 + rng.below(3))
            .map(|_| {
                let operator = *rng.pick(&operators);
                let mut e = json!({"key": *rng.pick(&keys), "operator": operator});
                if operator == "In" || operator == "NotIn" {
                    let n = 1 + rng.below(3);
                    let vs: Vec<&str> = (0..n).map(|_| *rng.pick(&values)).collect();
                    e["values"] = json!(vs);
                }
                e
            })
            .collect();
        selector.insert("matchExpressions".into(), Value::Array(list));
        out.push(Value::Object(selector));
    }
    out
}

/// One ExtensionConfig, `ext`, with one BeforeClusterCreate handler, `h`, whose
/// namespaceSelector is `selector`.
fn selector_config(selector: metav1::LabelSelector, ca: &str) -> ExtensionConfig {
    let spec = ExtensionConfigSpec {
        client_config: ClientConfig {
            url: "https://127.0.0.1:1".into(),
            ca_bundle: k8s_openapi::ByteString(ca.as_bytes().to_vec()),
            ..Default::default()
        },
        namespace_selector: Some(selector),
        settings: BTreeMap::new(),
    };
    let mut config = ExtensionConfig::new("ext", spec);
    config.metadata.resource_version = Some("1".into());
    config.status = ExtensionConfigStatus {
        handlers: vec![ExtensionHandler {
            name: "h".into(),
            request_hook: GroupVersionHook {
                api_version: BeforeClusterCreate::API_VERSION.into(),
                hook: "BeforeClusterCreate".into(),
            },
            timeout_seconds: 1,
            failure_policy: Some(FailurePolicy::Fail),
        }],
        ..Default::default()
    };
    config
}

/// Whether the client calls a handler with each namespaceSelector for an object in each
/// namespace, against Cluster API's client (`SelectorMatches`: the registry's compilation and
/// `matchNamespace`). Our answer is taken three ways, which must all be Go's: labels read from
/// the client's source (a map holding what the API server would answer), labels given on the
/// object, and, for a selector on the namespace's name only, no labels at all; any other
/// selector without labels must be the `LabelsUnknown` error. An absent selector is pinned
/// apart: Go's registry compiles it to "nothing" (no namespace matches), ours to "everything"
/// (the admission webhook defaults it to `{}`, so it only differs past the webhook).
#[tokio::test]
async fn namespace_selector_matching_is_gos() {
    let namespaces = namespaces();
    let selectors = namespace_selectors();
    let source: BTreeMap<String, BTreeMap<String, String>> = namespaces.iter().cloned().collect();
    let ca = capi_runtime_test_pki::TestCa::new("ca");
    let client = Client::builder()
        .namespace_labels(source)
        .without_controller()
        .build()
        .unwrap();
    let bare_client = Client::builder()
        .registry(client.registry().clone())
        .build()
        .unwrap();

    let mut inputs = Vec::new();
    for selector in &selectors {
        for (_, labels) in &namespaces {
            inputs.push(json!({"selector": selector, "labels": labels}));
        }
    }
    let cases: Vec<(&str, Value)> = inputs
        .iter()
        .map(|i| ("SelectorMatches", i.clone()))
        .collect();
    let go = go_rules(&cases).unwrap_or_else(|e| panic!("{}", chain(&e)));

    let mut differences = Vec::new();
    let mut go_answers = go.iter();
    let mut by_labels_unknown = 0;
    for selector_json in &selectors {
        let parsed = selector(selector_json).expect("not null");
        let compiled = NamespaceSelector::compile(Some(&parsed));
        if compiled.is_ok() {
            client
                .register(&selector_config(parsed, &ca.pem()))
                .expect("a valid selector registers");
        }
        for (name, labels) in &namespaces {
            let go = go_answers.next().expect("one answer per case");
            let answers: Vec<(&str, Value)> = match &compiled {
                Err(e) => vec![("compile", result(Value::Null, Some(chain(e).to_string())))],
                Ok(compiled) => {
                    let listed = |r: Result<Vec<String>, CallError>| match r {
                        Ok(names) => result(json!(!names.is_empty()), None),
                        Err(e) => result(Value::Null, Some(chain(&e).to_string())),
                    };
                    let object = ForObject::new(name.clone(), "c");
                    let mut answers = vec![
                        (
                            "source",
                            listed(
                                client
                                    .get_all_extensions_async::<BeforeClusterCreate>(&object)
                                    .await,
                            ),
                        ),
                        (
                            "given",
                            listed(client.get_all_extensions::<BeforeClusterCreate>(
                                &object.clone().with_namespace_labels(labels.clone()),
                            )),
                        ),
                    ];
                    let bare = bare_client.get_all_extensions::<BeforeClusterCreate>(&object);
                    let name_only = compiled
                        .selector()
                        .requirements()
                        .iter()
                        .all(|r| r.key() == NAMESPACE_NAME_LABEL);
                    if name_only {
                        answers.push(("no labels", listed(bare)));
                    } else {
                        by_labels_unknown += 1;
                        assert!(
                            matches!(
                                bare,
                                Err(CallError::Namespace {
                                    source: NamespaceError::LabelsUnknown { .. },
                                    ..
                                })
                            ),
                            "{selector_json} without labels: {bare:?}"
                        );
                    }
                    answers
                }
            };
            for (how, ours) in answers {
                if &ours != go {
                    differences.push(format!(
                        "  selector: {selector_json}\n  labels:   {labels:?}\n  go:       {go}\n  rust ({how}): {ours}"
                    ));
                }
            }
        }
    }
    println!(
        "SelectorMatches: {} cases ({} selectors x {} namespaces), {} without labels refused, {} differ",
        inputs.len(),
        selectors.len(),
        namespaces.len(),
        by_labels_unknown,
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} answers differ from Go:\n{}",
        differences.len(),
        differences
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );

    // The absent selector, pinned: Go matches no namespace, we match every one.
    let absent = json!({"selector": null, "labels": namespaces[1].1});
    let go = go_rules(&[("SelectorMatches", absent)]).unwrap_or_else(|e| panic!("{}", chain(&e)));
    assert_eq!(go[0], result(json!(false), None));
    assert!(NamespaceSelector::compile(None).unwrap().is_everything());
}

// ---------------------------------------------------------------------------------------------
// httpproxy

/// The proxy settings of the corpus: values Go takes as they are, with `http://` before
/// them, or not at all.
const PROXY_VALUES: &[&str] = &[
    "",
    "http://proxy.example:3128",
    "proxy.example:3128",
    "HTTPS://Proxy.Example:8443",
    "https://proxy.example",
    "socks5://proxy.example:1080",
    "127.0.0.1:3128",
    "[::1]:3128",
    "http://user:pa%20ss@proxy.example:3128/path?q=1#frag",
    "http://proxy.example:port",
    "http://[::1",
    "http://[::1]:3128",
    "%zz",
    "://x",
    " proxy.example:3128",
    "mailto:x",
    "//proxy.example:3128",
    "proxy",
    "http://",
    "*",
    "http://PROXY.Example:3128",
    "http://us!er:p@ss@proxy.example:3128",
    "http://proxy.example:3128/a b",
    "http://bücher.example:3128",
    "http://b%C3%BCcher.example:3128",
    "http://proxy.example:3128/%41?x#y z",
    "http://[fe80::1%25eth0]:3128",
    "user:pass@proxy.example:3128",
];

/// `NO_PROXY` entries of every form Go reads, and some it passes over.
const NO_PROXY_ENTRIES: &[&str] = &[
    "*",
    "example.com",
    ".example.com",
    "*.example.com",
    "EXAMPLE.COM",
    " example.com ",
    "example.com:8443",
    ".example.com:443",
    "10.0.0.0/8",
    "010.0.0.0/8",
    " 10.0.0.0/8",
    "10.1.2.3/32",
    "192.168.1.5",
    "192.168.1.5:443",
    "2001:db8::/32",
    "2001:DB8::/48",
    "[2001:db8::1]",
    "[2001:db8::1]:8443",
    "2001:db8::1",
    "::ffff:10.0.0.0/104",
    "::ffff:0:0/96",
    "::/0",
    "0.0.0.0/0",
    "localhost",
    ".",
    "*.",
    ":443",
    "bücher.example",
    ".svc",
    "svc.cluster.local",
    "1.2.3.4/33",
    "1.2.3.4/8/9",
    "fe80::1%eth0",
    "fe80::/10",
    "[::1]",
    "example.com:",
    "[example.com]:80",
    "1.2.3.4",
    "01.2.3.4",
    "1.2.3.0/24",
    "extension.test",
];

/// Request hosts: names, loopback in its forms, addresses in and out of the ranges above.
const PROXY_HOSTS: &[&str] = &[
    "example.com",
    "a.example.com",
    "EXAMPLE.com",
    "notexample.com",
    "localhost",
    "LOCALHOST",
    "localhost.localdomain",
    "127.0.0.1",
    "127.1.2.3",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]",
    "10.1.2.3",
    "010.1.2.3",
    "192.168.1.5",
    "192.168.1.6",
    "[2001:db8::1]",
    "[2001:db8:1::2]",
    "[fe80::1%25eth0]",
    "[::ffff:10.1.2.3]",
    "b%C3%BCcher.example",
    "extension.svc",
    "webhook.default.svc",
    "svc",
    "1.2.3.4",
    "1.2.3.9",
    "extension.test",
];

const PROXY_PORTS: &[&str] = &["", ":443", ":8443", ":80"];

fn proxy_urls() -> Vec<String> {
    let mut out = Vec::new();
    for scheme in ["https", "http"] {
        for host in PROXY_HOSTS {
            for port in PROXY_PORTS {
                out.push(format!("{scheme}://{host}{port}/hooks?timeout=10s"));
            }
        }
    }
    out.extend(["ftp://example.com/", "socks5://10.1.2.3/"].map(String::from));
    out
}

fn proxy_case(env: &[(&str, &str)], url: &str) -> Value {
    let env: BTreeMap<&str, &str> = env.iter().copied().collect();
    json!({"env": env, "url": url})
}

/// The corpus: every `NO_PROXY` entry (alone and in lists) against every request URL; every
/// proxy value against a sample of URLs; the environment's upper- and lower-case names in
/// every combination, with and without CGI mode; random lists of entries.
fn proxy_cases() -> Vec<Value> {
    let urls = proxy_urls();
    let proxies = [
        ("HTTPS_PROXY", "http://proxy.example:3128"),
        ("HTTP_PROXY", "proxy.example:3128"),
    ];
    let mut cases = Vec::new();
    for entry in NO_PROXY_ENTRIES {
        let env = [proxies[0], proxies[1], ("NO_PROXY", *entry)];
        cases.extend(urls.iter().map(|url| proxy_case(&env, url)));
    }
    let sample: Vec<&String> = urls.iter().step_by(7).collect();
    for value in PROXY_VALUES {
        for name in ["HTTPS_PROXY", "HTTP_PROXY"] {
            let env = [(name, *value), ("NO_PROXY", "10.0.0.0/8,.svc")];
            cases.extend(sample.iter().map(|url| proxy_case(&env, url)));
        }
    }
    // Each variable unset, upper case only, lower case only, both, or an empty upper case
    // over a lower case; REQUEST_METHOD unset, empty or set.
    let forms = |upper: &'static str, lower: &'static str, a: &'static str, b: &'static str| {
        vec![
            vec![],
            vec![(upper, a)],
            vec![(lower, b)],
            vec![(upper, a), (lower, b)],
            vec![(upper, ""), (lower, b)],
        ]
    };
    let https = forms(
        "HTTPS_PROXY",
        "https_proxy",
        "upper.example:1",
        "lower.example:2",
    );
    let http = forms(
        "HTTP_PROXY",
        "http_proxy",
        "upper.example:3",
        "lower.example:4",
    );
    let no_proxy = forms("NO_PROXY", "no_proxy", "upper.example", "lower.example");
    let cgi: [&[(&str, &str)]; 3] = [&[], &[("REQUEST_METHOD", "")], &[("REQUEST_METHOD", "GET")]];
    for a in &https {
        for b in &http {
            for c in &no_proxy {
                for d in cgi {
                    let env: Vec<(&str, &str)> = [a.as_slice(), b, c, d].concat();
                    for url in [
                        "https://upper.example/x",
                        "http://lower.example:8080/x",
                        "http://extension.test/x",
                    ] {
                        cases.push(proxy_case(&env, url));
                    }
                }
            }
        }
    }
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..600 {
        let count = 1 + rng.below(4);
        let list: Vec<&str> = (0..count).map(|_| *rng.pick(NO_PROXY_ENTRIES)).collect();
        let separator = *rng.pick(&[",", ", ", " ,", ",,"]);
        let no_proxy = list.join(separator);
        let name = *rng.pick(&["NO_PROXY", "no_proxy"]);
        let env = [proxies[0], proxies[1], (name, no_proxy.as_str())];
        for _ in 0..4 {
            let url = rng.pick(urls.as_slice()).clone();
            cases.push(proxy_case(&env, &url));
        }
    }
    cases
}

fn proxy_answer(answer: Result<Option<ProxyUrl>, ProxyError>) -> Value {
    match answer {
        Ok(proxy) => json!({"proxy": proxy.map(|p| p.to_string()), "err": null}),
        Err(e) => json!({"proxy": null, "err": chain(&e).to_string()}),
    }
}

#[test]
fn proxy_choice_is_gos() {
    compare("Proxy", proxy_cases(), |input| {
        let env = &input["env"];
        let config = ProxyConfig::from_env_with(|name| env[name].as_str().map(String::from));
        let url = parse_request_uri(input["url"].as_str().unwrap()).unwrap();
        let hostname = String::from_utf8(url.hostname().to_vec()).unwrap();
        let port = std::str::from_utf8(url.port()).unwrap();
        let ask = |proxy: ProxyFunc| proxy_answer(proxy.proxy_for(url.scheme(), &hostname, port));
        result(
            json!({
                "config": {
                    "httpProxy": config.http_proxy,
                    "httpsProxy": config.https_proxy,
                    "noProxy": config.no_proxy,
                    "cgi": config.cgi,
                },
                "go": ask(proxy_func(&config)),
                "clusterApi": ask(proxy_func_with_no_proxy_cidr(&config)),
            }),
            None,
        )
    });
}
