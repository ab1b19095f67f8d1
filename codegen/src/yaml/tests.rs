//! The writer against serde-saphyr 2 (default options), whose output the goldens hold: the same
//! bytes for generated values full of strings that need care, and for the goldens themselves.

use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

fn saphyr(value: &Value) -> String {
    serde_saphyr::to_string(value).expect("a JSON value renders")
}

fn assert_same(value: &Value) {
    assert_eq!(super::to_string(value), saphyr(value), "value: {value:?}");
}

/// Strings that a reader could take for something else, or that carry indicators, edge
/// white space, comment starts, escapes or line breaks.
const TRICKY: &[&str] = &[
    "",
    " ",
    "~",
    "-",
    ".",
    "#",
    "?",
    ":",
    "<<",
    "=",
    "- ",
    "? x",
    "-a",
    "?a",
    "-1",
    "+1",
    "1",
    "01",
    "1_000",
    "_1",
    "1_",
    "1__0",
    "0x1",
    "0X1f",
    "0x",
    "0x_1",
    "0b101",
    "+0b1",
    "0b-1",
    "0o17",
    "0O7",
    "0o",
    "1e3",
    "1E+3",
    "12e",
    ".e5",
    "1.",
    ".5",
    "+.5",
    "-.5e-2",
    "1._0",
    ".",
    "..",
    "1.2.3",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    "nan",
    "inf",
    "+inf",
    "-Inf",
    "null",
    "Null",
    "NULL",
    "nULL",
    "true",
    "True",
    "FALSE",
    "yes",
    "Yes",
    "NO",
    "on",
    "Off",
    "y",
    "Y",
    "n",
    "N",
    "1:30",
    "190:20:30",
    "1:60",
    "0:30",
    "1:30.5",
    "-1:30",
    "2001-12-14",
    "2001-1-4",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5",
    "2001-12-14T21:59:43Z",
    "2001-12-14 21:59:43,5",
    "2001-12-14x",
    "20011-12-14",
    "---",
    "...",
    "--- x",
    "... x",
    "---x",
    "...x",
    "a: b",
    "a:b",
    "a:",
    "a :",
    "a: ",
    "http://x.io/a#b",
    "a #b",
    "a#b",
    "#a",
    "a\t#b",
    "a\u{a0}#b",
    "key: value # note",
    "&a",
    "*a",
    "!tag",
    "|",
    ">",
    "'",
    "\"",
    "%",
    "@",
    "`",
    ",a",
    "a,b",
    "[a]",
    "a[0]",
    "{a}",
    "a}",
    "it's",
    "say \"hi\"",
    "back\\slash",
    " lead",
    "trail ",
    "\tlead",
    "trail\t",
    "mid  spaces",
    "tab\tinside",
    "new\nline",
    "\n",
    "\n\n",
    "a\n",
    "a\n\n",
    "a\n\n\n",
    "\na",
    "  indented\nnext",
    "\n  indented",
    "line\n  more\n\nend",
    "cr\r\nlf",
    "nul\0",
    "bell\u{7}",
    "esc\u{1b}",
    "del\u{7f}",
    "c1\u{85}",
    "c1\u{9f}",
    "nbsp\u{a0}",
    "bom\u{feff}",
    "ls\u{2028}",
    "ps\u{2029}",
    "ffff\u{ffff}",
    "fffe\u{fffe}",
    "private\u{e000}",
    "é",
    "字",
    "emoji 😀",
    "Ｆｕｌｌ",
    "zero\u{200b}width",
    "a\u{3000}",
    "\u{3000}a",
    "v\u{b}t",
    "f\u{c}f",
];

fn tricky() -> impl Strategy<Value = String> {
    prop::sample::select(TRICKY).prop_map(str::to_string)
}

/// Words for long lines: folding cuts at single spaces, keeps runs of spaces, never cuts
/// before a tab, and leaves a word longer than the line whole.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,12}",
        "[a-zA-Z0-9:#,.'\"-]{1,8}",
        Just("é字😀".to_string()),
        "[a-z]{70,100}",
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(
        &[
            " ", " ", " ", " ", "  ", "   ", " \t", "\t", ": ", " #", "\n",
        ][..],
    )
}

/// A long text of words: near, at and past the 80-column fold.
fn long_text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec((word(), separator()), 1..30),
        prop::sample::select(&["", " ", "  ", "\n", "\n\n"][..]),
    )
        .prop_map(|(words, end)| {
            let mut s = String::new();
            for (w, sep) in words {
                s.push_str(&w);
                s.push_str(sep);
            }
            s.truncate(s.trim_end_matches([' ', '\t', '\n']).len());
            s.push_str(end);
            s
        })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => tricky(),
        2 => prop::collection::vec(tricky(), 1..4).prop_map(|parts| parts.concat()),
        2 => "[ -~]{0,12}",
        1 => "[a-z \t\n:#'\"\\\\,\\[\\]{}\u{85}\u{a0}\u{2028}é-]{0,16}",
        2 => long_text(),
        1 => "[a-z]{1,5}".prop_map(|w| format!("{w}: {}", "x".repeat(90))),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => text(),
        1 => "[a-z]{1,3}".prop_map(|w| w.repeat(400)),
        1 => (0usize..3).prop_map(|n| format!("\"{}", "é".repeat(1022 + n))),
    ]
}

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        prop::sample::select(&[0.0, -0.0, 1.0, 0.5, 1e21, 1e-7, 4e-6, 1.5e300, 123456789.0][..])
            .prop_filter_map("finite", Number::from_f64),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => number().prop_map(Value::Number),
        4 => text().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..5)
                .prop_map(|entries| Value::Object(Map::from_iter(entries))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn writes_what_serde_saphyr_writes(value in value()) {
        let ours = super::to_string(&value);
        prop_assert_eq!(ours, saphyr(&value), "value: {:?}", value);
    }

    #[test]
    fn strings_in_every_position(s in text(), k in key()) {
        for value in [
            json!(s),
            json!([s]),
            json!([[s]]),
            json!({ &k: s }),
            json!({ "a": { &k: s } }),
            json!([{ &k: s, "z": [s] }]),
            json!({ &k: [[s, { &k: s }]] }),
            json!({ &k: {}, "k": [] }),
            json!([{ &k: { &k: s } }, {}, []]),
        ] {
            prop_assert_eq!(super::to_string(&value), saphyr(&value), "value: {:?}", value);
        }
    }
}

#[test]
fn every_tricky_string_alone_and_as_a_key() {
    for s in TRICKY {
        assert_same(&json!(s));
        assert_same(&json!({ *s: s }));
        assert_same(&json!([{ *s: [s] }]));
    }
}

#[test]
fn empty_and_nested_collections() {
    for value in [
        json!({}),
        json!([]),
        json!(null),
        json!([[]]),
        json!([{}]),
        json!({ "a": {}, "b": [], "c": [[], {}], "d": [[[1]], [{ "e": [] }]] }),
        json!([[{ "a": 1, "b": [2, [3, { "c": {} }]] }], { "d": { "e": { "f": [] } } }]),
    ] {
        assert_same(&value);
    }
}

/// The goldens this writer must keep: each parsed back and written again.
#[test]
fn the_goldens_read_back_write_the_same() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden");
    let mut files = vec![root.join("sdk/runtime-sdk-openapi.yaml")];
    for dir in ["sdk/crd", "ok"] {
        let mut stack = vec![root.join(dir)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("golden folder") {
                let path = entry.expect("golden entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml") {
                    files.push(path);
                }
            }
        }
    }
    assert!(files.len() > 3, "goldens found: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable golden");
        let body = text.strip_prefix("---\n").unwrap_or(&text);
        let value: Value = serde_saphyr::from_str(body).expect("golden parses");
        assert_eq!(super::to_string(&value), body, "{}", path.display());
    }
}

/// Keys of 1024 characters stay implicit, longer ones take the `? key` form; the limit counts
/// characters of the key as written (quotes and escapes included), not bytes.
#[test]
fn keys_around_the_length_limit() {
    for n in 1020..1030 {
        for key in [
            "a".repeat(n),
            "é".repeat(n),
            format!("\"{}", "é".repeat(n - 3)),
            format!("-{}\n", "x".repeat(n - 5)),
        ] {
            for value in [
                json!("v"),
                json!({ "k": 1 }),
                json!([1]),
                json!({}),
                json!("a\nb"),
            ] {
                assert_same(&json!({ &key: value }));
                assert_same(&json!([{ &key: value, "b": { &key: value } }]));
            }
        }
    }
}

/// Lines around the 80-column fold: a space run closed right where the count passes the width,
/// runs of several spaces there, and words too long to cut after a cut.
#[test]
fn folding_at_the_edges() {
    let a = |n: usize| "a".repeat(n);
    let b = |n: usize| "b".repeat(n);
    let mut lines = vec![
        format!("{} {}", a(79), b(100)),
        format!("{}  {}", a(78), b(100)),
        format!("{}   {} {}", a(77), b(100), a(3)),
        format!("{} {} {}", a(80), b(80), a(80)),
        format!("{} {}", a(81), b(5)),
    ];
    for n in 75..86 {
        lines.push(format!("{} {} {}", a(n), b(160 - n), a(n)));
        lines.push(format!("{} {}  {}", b(n), a(n), b(3)));
    }
    for line in lines {
        assert_same(&json!(line));
        assert_same(&json!({ "k": [line.clone()], "m": { "n": line } }));
    }
}
