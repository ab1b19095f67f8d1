//! Unit tests of the decoder's mechanics, and of the Go rules no hook message reaches (integer
//! map keys); the others are tested over the server and the client in
//! `tests/it/wire_go_server.rs` and `tests/it/wire_go_client.rs`.

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Deserialize;

use super::*;
use crate::api::core::v1beta2::JSONSchemaProps;
use crate::hooks::v1alpha1::{BeforeClusterUpgradeResponse, DiscoverVariablesResponse};

#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(default, rename_all = "camelCase")]
struct Inner {
    name: String,
    labels: BTreeMap<String, String>,
}

#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(default, rename_all = "camelCase")]
struct Outer {
    status: String,
    message: String,
    retry_after_seconds: i32,
    items: Vec<Inner>,
    maybe: Option<Inner>,
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<(T, RawStatus), DecodeError> {
    decode_response_raw::<T>(bytes)
}

#[test]
fn field_names_match_ignoring_case_and_map_keys_do_not() {
    let body = br#"{"Status":"Success","MESSAGE":"hi","RetryAfterSeconds":5,
        "ITEMS":[{"Name":"a","Labels":{"Key":"v"}}],"extra":1}"#;
    let (o, status) = decode::<Outer>(body).unwrap();
    assert_eq!(status, RawStatus("Success".into()));
    assert_eq!(o.message, "hi");
    assert_eq!(o.retry_after_seconds, 5);
    assert_eq!(o.items[0].name, "a");
    assert_eq!(o.items[0].labels.get("Key").map(String::as_str), Some("v"));
    assert_eq!(o.status, "", "the status field is read separately");
}

#[test]
fn later_keys_win_and_null_keeps_the_earlier_value() {
    let (o, _) = decode::<Outer>(br#"{"message":"a","Message":"b","MESSAGE":null}"#).unwrap();
    assert_eq!(o.message, "b");
    let (_, status) = decode::<Outer>(br#"{"status":"Failure","Status":"Success"}"#).unwrap();
    assert_eq!(status.0, "Success");
}

#[test]
fn repeated_objects_merge_and_null_resets_slices_maps_and_pointers() {
    let (o, _) = decode::<Outer>(
        br#"{"maybe":{"name":"a"},"maybe":{"labels":{"k":"v"}},
            "items":[{"name":"x"}],"items":null,
            "message":"m","message":null}"#,
    )
    .unwrap();
    let maybe = o.maybe.unwrap();
    assert_eq!(maybe.name, "a");
    assert_eq!(maybe.labels["k"], "v");
    assert!(o.items.is_empty());
    assert_eq!(o.message, "m");
    let (o, _) = decode::<Outer>(br#"{"maybe":{"name":"a"},"maybe":null}"#).unwrap();
    assert_eq!(o.maybe, None);
    let (o, _) = decode::<Outer>(
        br#"{"items":[{"labels":{"a":"1"},"labels":{"b":"2"},"LABELS":null,"labels":{"c":"3"}}]}"#,
    )
    .unwrap();
    assert_eq!(o.items[0].labels.len(), 1);
    assert_eq!(o.items[0].labels["c"], "3");
}

/// An `Inner` that decodes to its default on any error, as a lenient user type might.
#[derive(Debug, Default, PartialEq)]
struct Lenient(Inner);

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Lenient(Inner::deserialize(d).unwrap_or_default()))
    }
}

#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
struct HoldsLenient {
    lenient: Lenient,
    after: String,
}

#[test]
fn a_deserialize_impl_that_drops_errors_cannot_stop_the_careful_pass() {
    // The key repeats inside the lenient value: the error that ends the fast pass reaches
    // `Lenient`'s impl first, which drops it; the careful pass still runs.
    let body = br#"{"lenient":{"name":"a","Name":"b","labels":{"k":"v"}},"after":"x"}"#;
    let d = decode_value::<HoldsLenient>(body, &Limits::default(), None).unwrap();
    assert_eq!(
        d.message.lenient.0.name, "b",
        "the last occurrence wins, as in Go"
    );
    assert_eq!(d.message.lenient.0.labels["k"], "v");
    assert_eq!(d.message.after, "x");
    // A repeat after the lenient value, and one inside a list of them.
    let body = br#"{"lenient":{"name":"a"},"after":"x","after":"y"}"#;
    let d = decode_value::<HoldsLenient>(body, &Limits::default(), None).unwrap();
    assert_eq!(
        (d.message.lenient.0.name.as_str(), d.message.after.as_str()),
        ("a", "y")
    );
    let body = br#"[{"name":"a"},{"name":"b","name":"c"},{"name":"d"}]"#;
    let d = decode_value::<Vec<Lenient>>(body, &Limits::default(), None).unwrap();
    let names: Vec<&str> = d.message.iter().map(|l| l.0.name.as_str()).collect();
    assert_eq!(names, ["a", "c", "d"]);
}

/// The keys of a one-entry object `{<key>: true}` decoded into a map with keys `K`.
fn one_key<K: DeserializeOwned + Ord>(key: &str) -> Result<Vec<K>, DecodeError> {
    let body = format!("{{{key}:true}}");
    decode_value::<BTreeMap<K, bool>>(body.as_bytes(), &Limits::default(), None)
        .map(|d| d.message.into_keys().collect())
}

/// Asserts that a map with keys `K` refuses `key` (a JSON string) with Go's error for the Go
/// key type `go`.
#[track_caller]
fn assert_refused<K: DeserializeOwned + Ord + std::fmt::Debug>(key: &str, go: &str) {
    let error = one_key::<K>(key).expect_err(key);
    assert_eq!(error.kind(), DecodeErrorKind::Number, "{key}: {error}");
    let number = serde_json::from_str::<String>(key).unwrap();
    assert_eq!(
        error.message(),
        format!("cannot unmarshal number {number} into Go value of type {go}"),
        "{key}"
    );
}

#[test]
fn integer_map_keys_are_read_as_go_reads_them() {
    // What Go 1.26's encoding/json does with these keys (checked with a Go program): ParseInt
    // or ParseUint in base 10, then the range of the key type.
    for (key, value) in [
        (r#""1""#, 1),
        (r#""-1""#, -1),
        (r#""+1""#, 1),
        (r#""01""#, 1),
        (r#""-0""#, 0),
        (r#""\u0031""#, 1),
        (r#""9223372036854775807""#, i64::MAX),
        (r#""-9223372036854775808""#, i64::MIN),
    ] {
        assert_eq!(one_key::<i64>(key).unwrap(), vec![value], "{key}");
    }
    for key in [
        r#"" 1""#,
        r#""1 ""#,
        r#""""#,
        r#""1.0""#,
        r#""1e2""#,
        r#""0x1""#,
        r#""1_0""#,
        r#""abc""#,
        r#""--1""#,
        r#""9223372036854775808""#,
        r#""-9223372036854775809""#,
        r#""1000000000000000000000000000000000000000000""#,
    ] {
        assert_refused::<i64>(key, "int64");
    }
    assert_eq!(one_key::<i8>(r#""127""#).unwrap(), vec![127]);
    assert_eq!(one_key::<i8>(r#""-128""#).unwrap(), vec![-128]);
    assert_refused::<i8>(r#""128""#, "int8");
    assert_refused::<i8>(r#""-129""#, "int8");
    assert_eq!(one_key::<i32>(r#""-2147483648""#).unwrap(), vec![i32::MIN]);
    assert_refused::<i32>(r#""2147483648""#, "int32");
    // Unsigned keys take no sign at all, not even `-0` or `+1`.
    assert_eq!(one_key::<u64>(r#""01""#).unwrap(), vec![1]);
    assert_eq!(
        one_key::<u64>(r#""18446744073709551615""#).unwrap(),
        vec![u64::MAX]
    );
    for key in [r#""-1""#, r#""+1""#, r#""-0""#, r#""18446744073709551616""#] {
        assert_refused::<u64>(key, "uint64");
    }
    assert_eq!(one_key::<u32>(r#""4294967295""#).unwrap(), vec![u32::MAX]);
    assert_refused::<u32>(r#""4294967296""#, "uint32");
    assert_eq!(one_key::<u8>(r#""255""#).unwrap(), vec![255]);
    assert_refused::<u8>(r#""256""#, "uint8");
    assert_eq!(one_key::<u16>(r#""65535""#).unwrap(), vec![u16::MAX]);

    // Where serde_json agrees (plain decimal keys), the maps are the same; it parts from Go on
    // `+1`, `01` (refused) and `-0` (taken for an unsigned key), and there Go's rule is kept.
    let body = br#"{"7":"a","-3":"b","0":"c"}"#;
    let ours = decode_value::<BTreeMap<i32, String>>(body, &Limits::default(), None).unwrap();
    let theirs: BTreeMap<i32, String> = serde_json::from_slice(body).unwrap();
    assert_eq!(ours.message, theirs);
    let body = br#"{"7":"a","8":"c"}"#;
    let ours =
        decode_value::<std::collections::HashMap<u32, String>>(body, &Limits::default(), None)
            .unwrap();
    let theirs: std::collections::HashMap<u32, String> = serde_json::from_slice(body).unwrap();
    assert_eq!(ours.message, theirs);
    assert!(serde_json::from_slice::<BTreeMap<i32, bool>>(br#"{"+1":true}"#).is_err());
    assert!(serde_json::from_slice::<BTreeMap<i32, bool>>(br#"{"01":true}"#).is_err());

    // Keys that are equal as numbers are one key, the later value winning; a repeated map
    // field merges (careful mode), as Go does.
    let d =
        decode_value::<BTreeMap<i64, bool>>(br#"{"1":true,"01":false}"#, &Limits::default(), None)
            .unwrap();
    assert_eq!(d.message, BTreeMap::from([(1, false)]));
    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct WithMap {
        m: BTreeMap<i64, bool>,
    }
    let body = br#"{"m":{"1":true},"M":{"2":false,"+1":false}}"#;
    let d = decode_value::<WithMap>(body, &Limits::default(), None).unwrap();
    assert_eq!(d.message.m, BTreeMap::from([(1, false), (2, false)]));
    let e = decode_value::<WithMap>(br#"{"m":{"x":true}}"#, &Limits::default(), None).unwrap_err();
    assert_eq!(e.path(), ".m");
}

#[test]
fn the_status_is_read_also_into_a_type_without_a_status_field() {
    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct View {
        message: String,
    }
    let (v, status) = decode::<View>(br#"{"Status":"Failure","message":"m"}"#).unwrap();
    assert_eq!((status.0.as_str(), v.message.as_str()), ("Failure", "m"));
    let (_, status) = decode::<View>(br#"{"status":"Success","status":"Failure"}"#).unwrap();
    assert_eq!(status.0, "Failure");
    assert!(decode::<View>(br#"{"status":1}"#).is_err());
}

#[test]
fn null_values_become_defaults() {
    let (o, status) =
        decode::<Outer>(br#"{"status":null,"items":[{"name":null,"labels":null}],"maybe":null}"#)
            .unwrap();
    assert_eq!(status.0, "");
    assert_eq!(o.items, vec![Inner::default()]);
    assert_eq!(o.maybe, None);
    let (o, _) = decode::<Outer>(b"null").unwrap();
    assert_eq!(o, Outer::default());
}

#[test]
fn trailing_data_and_garbage_are_errors() {
    // Go's json.Unmarshal (requests) refuses anything but white space after the value;
    // json.Decoder.Decode (responses) stops after the first value.
    let body = br#"{"message":"x"} trailing"#;
    let e = decode_value::<Outer>(body, &Limits::default(), None).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TrailingData);
    assert_eq!(e.offset(), Some(16));
    assert!(decode_value::<Outer>(b"{\"message\":\"x\"} \n\t", &Limits::default(), None).is_ok());
    assert_eq!(decode::<Outer>(body).unwrap().0.message, "x");
    for bad in [
        &b""[..],
        b"{",
        b"[]",
        b"\"str\"",
        br#"{"status":5}"#,
        br#"{"retryAfterSeconds":"5"}"#,
        br#"{"retryAfterSeconds":5.5}"#,
        br#"{"retryAfterSeconds":1e1}"#,
        br#"{"retryAfterSeconds":99999999999}"#,
        br#"{"items":{}}"#,
        br#"{"maybe":[1]}"#,
        br#"{"message":"a",}"#,
        br#"{"unknown":[1,]}"#,
        br#"{"unknown":"\x"}"#,
        br#"{"unknown":tru}"#,
        br#"{"unknown":01}"#,
    ] {
        assert!(
            decode::<Outer>(bad).is_err(),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn errors_carry_path_offset_and_kind() {
    let body = br#"{"items":[{"name":"a"},{"labels":{"k":5}}]}"#;
    let e = decode::<Outer>(body).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Type);
    assert_eq!(e.path(), r#".items[1].labels["k"]"#);
    assert_eq!(
        e.offset(),
        Some(body.iter().position(|b| *b == b'5').unwrap())
    );
    let e = decode::<Outer>(br#"{"retryAfterSeconds":1.5}"#).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Number);
    assert_eq!(e.path(), ".retryAfterSeconds");
    assert_eq!(
        e.to_string(),
        "cannot unmarshal number 1.5 into Go value of type int32 at .retryAfterSeconds (byte 21)"
    );
}

#[test]
fn strings_decode_escapes_and_replace_invalid_utf8() {
    let (o, _) = decode::<Outer>(b"{\"message\":\"a\\u00e9\\ud83d\\ude00\\n\\\"\\/\"}").unwrap();
    assert_eq!(o.message, "a\u{e9}\u{1f600}\n\"/");
    let (o, _) = decode::<Outer>(b"{\"message\":\"\\ud800x\\udc00\"}").unwrap();
    assert_eq!(o.message, "\u{fffd}x\u{fffd}");
    let (o, _) = decode::<Outer>(b"{\"message\":\"a\xe2\x82b\xff\"}").unwrap();
    assert_eq!(o.message, "a\u{fffd}\u{fffd}b\u{fffd}");
}

#[test]
fn budget_and_depth_limits_are_errors_of_their_kind() {
    let body = format!("{{\"items\":[{}]}}", vec!["{}"; 1000].join(","));
    let ok = decode_value::<Outer>(body.as_bytes(), &Limits::default(), None).unwrap();
    let per_item = 2 * std::mem::size_of::<Inner>();
    assert_eq!(ok.charged, 1000 * per_item);
    let e = decode_value::<Outer>(
        body.as_bytes(),
        &Limits::default().with_memory_budget(500 * per_item),
        None,
    )
    .unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::OverBudget);
    assert!(e.is_limit());
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let e = decode::<serde_json::Value>(deep.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TooDeep);
    let past = Instant::now() - std::time::Duration::from_secs(1);
    let e = decode_value::<Outer>(
        body.as_bytes(),
        &Limits::default().with_deadline(past),
        None,
    )
    .unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Timeout);
}

#[test]
fn unicode_folding_matches_go() {
    assert!(eq_fold("\u{17f}tatus", "status"));
    assert!(eq_fold("\u{212a}IND", "kind"));
    assert!(!eq_fold("statu", "status"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// Decoding any bytes as any response type returns a value or an error, never panics.
    #[test]
    fn any_bytes_decode_without_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..256),
                                      text in "[{}\\[\\],:\"a-zA-Z0-9 .-]{0,64}") {
        use crate::hooks::v1alpha1 as h;
        for input in [&bytes[..], text.as_bytes()] {
            let _ = decode::<h::DiscoveryResponse>(input);
            let _ = decode::<h::BeforeClusterCreateResponse>(input);
            let _ = decode::<h::AfterControlPlaneInitializedResponse>(input);
            let _ = decode::<h::GeneratePatchesResponse>(input);
            let _ = decode::<h::ValidateTopologyResponse>(input);
            let _ = decode::<h::DiscoverVariablesResponse>(input);
            let _ = decode::<h::CanUpdateMachineResponse>(input);
            let _ = decode::<h::CanUpdateMachineSetResponse>(input);
            let _ = decode::<h::UpdateMachineResponse>(input);
            let _ = decode::<h::GenerateUpgradePlanResponse>(input);
            let _ = decode::<h::GeneratePatchesRequest>(input);
        }
    }

    /// Whatever serde_json accepts as a value, the decoder reads as the same value (but for
    /// the one difference [`minus_zero_integer`] allows).
    #[test]
    fn json_values_decode_like_serde_json(text in "[{}\\[\\],:\"a-c0-9 .eE+-]{0,48}") {
        if let Ok(expected) = serde_json::from_str::<serde_json::Value>(&text) {
            let (got, _) = decode::<serde_json::Value>(text.as_bytes()).unwrap();
            proptest::prop_assert!(same_value(&got, &expected), "{got} != {expected}");
        }
    }
}

/// `got == expected`, except that an integer zero may stand where serde_json has -0.0: the
/// integer literal `-0` reads as the integer 0 here (as Go reads it into an integer field, also
/// one reached through a self-describing type such as IntOrString), as the float -0.0 in
/// serde_json. A literal with a fraction or exponent (`-0.0`, `-0e0`) is -0.0 on both sides.
fn same_value(got: &serde_json::Value, expected: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (got, expected) {
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, a), (kb, b))| ka == kb && same_value(a, b))
        }
        (Value::Number(a), Value::Number(b)) => a == b || minus_zero_integer(a, b),
        _ => got == expected,
    }
}

/// `got` is the integer 0 and `expected` is serde_json's -0.0 for the literal `-0`.
fn minus_zero_integer(got: &serde_json::Number, expected: &serde_json::Number) -> bool {
    got.as_i64() == Some(0)
        && expected.is_f64()
        && expected
            .as_f64()
            .is_some_and(|f| f == 0.0 && f.is_sign_negative())
}

#[test]
fn integer_minus_zero_reads_as_zero() {
    let (got, _) = decode::<serde_json::Value>(b"[-0, -0.0, -0e0]").unwrap();
    assert_eq!(got.to_string(), "[0,-0.0,-0.0]");
    let expected: serde_json::Value = serde_json::from_str("[-0, -0.0, -0e0]").unwrap();
    assert!(same_value(&got, &expected));
    assert!(!same_value(&serde_json::json!([1]), &expected));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(decode::<Outer>(deep.as_bytes()).is_err());
    let deep = format!("{{\"items\":{}", "[{\"labels\":".repeat(50_000));
    assert!(decode::<Outer>(deep.as_bytes()).is_err());
    let deep = format!("{{\"unknown\":{}", "[{\"a\":".repeat(50_000));
    assert_eq!(
        decode::<Outer>(deep.as_bytes()).unwrap_err().kind(),
        DecodeErrorKind::TooDeep
    );
}

#[test]
fn hook_responses_decode_from_go_style_bodies() {
    let (r, status) =
        decode::<BeforeClusterUpgradeResponse>(br#"{"Status": "Success", "RetryAfterSeconds": 5}"#)
            .unwrap();
    assert_eq!(status.0, "Success");
    assert_eq!(r.retry_after_seconds, 5);
    let (r, _) = decode::<DiscoverVariablesResponse>(
        br#"{"status":"Success","variables":[{"Name":"v","Required":true,"schema":{"openAPIV3Schema":{"type":"string"}}}]}"#,
    )
    .unwrap();
    assert_eq!(r.variables[0].name, "v");
    assert_eq!(r.variables[0].required, Some(true));
}

/// A DiscoverVariables answer of about `size` bytes whose variables each hold a schema of
/// `not` nested 120 deep (within the depth limit of 128): one boxed `JSONSchemaProps` per
/// 8 bytes of input. `first` is put into the first variable (a repeated key there makes the
/// decoder take its careful mode). The body and the number of boxes in it.
fn nested_boxes(size: usize, first: &str) -> (Vec<u8>, usize) {
    const DEPTH: usize = 120;
    let chain = format!("{}{{}}{}", "{\"not\":".repeat(DEPTH), "}".repeat(DEPTH));
    let mut body = String::from("{\"status\":\"Success\",\"variables\":[");
    let mut boxes = 0;
    while body.len() + chain.len() + 64 < size {
        if boxes > 0 {
            body.push(',');
        }
        let extra = if boxes == 0 { first } else { "" };
        body.push_str(&format!(
            "{{{extra}\"name\":\"v\",\"schema\":{{\"openAPIV3Schema\":{chain}}}}}"
        ));
        boxes += DEPTH;
    }
    body.push_str("]}");
    (body.into_bytes(), boxes)
}

/// What the boxes of a decoded answer take on the heap, counted by walking them:
/// `size_of::<JSONSchemaProps>()` per box.
fn boxed_bytes(r: &DiscoverVariablesResponse) -> usize {
    fn walk(s: &JSONSchemaProps) -> usize {
        [&s.items, &s.r#not, &s.additional_properties]
            .into_iter()
            .flatten()
            .map(|b| std::mem::size_of::<JSONSchemaProps>() + walk(b))
            .sum()
    }
    r.variables
        .iter()
        .map(|v| walk(&v.schema.open_apiv3_schema))
        .sum()
}

#[test]
fn boxed_schemas_are_charged_in_both_modes() {
    // serde's Box<T> allocates where the decoder cannot see it; the schemas' boxes go through
    // `__private::charged_box`, which the decoder charges (the two name the marker alike).
    assert_eq!(budget::CHARGED_BOX, crate::__private::CHARGED_BOX);
    let size = std::mem::size_of::<JSONSchemaProps>();
    // Without a budget to stop it, the charge covers every box; the same in the careful mode
    // (a repeated key in the first variable).
    for first in ["", "\"name\":\"a\","] {
        let (body, boxes) = nested_boxes(1 << 20, first);
        let unlimited = Limits::default().with_memory_budget(usize::MAX);
        let d =
            decode_value::<DiscoverVariablesResponse>(&body, &unlimited, Some("status")).unwrap();
        let (charged, real) = (d.charged, boxed_bytes(&d.message));
        assert_eq!(real, boxes * size);
        println!(
            "1 MiB answer, {boxes} boxes (careful mode: {}): charged {charged} bytes, the boxes \
             alone {real} ({size} bytes each)",
            !first.is_empty()
        );
        assert!(charged >= real, "charged {charged} < {real}");
    }
    // At the body cap the answer is refused at the budget instead of allocating 1.3 GB.
    let (body, boxes) = nested_boxes(20 << 20, "");
    println!(
        "20 MiB answer, {boxes} boxes: {} MiB in boxes alone",
        (boxes * size) >> 20
    );
    let e = decode_value::<DiscoverVariablesResponse>(&body, &Limits::default(), Some("status"))
        .unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::OverBudget, "{e}");
    assert!(e.path().starts_with(".variables["), "{}", e.path());
}

#[test]
fn boxed_schemas_decode_like_go_with_null_missing_and_repeated_keys() {
    let schema = |json: &str| -> JSONSchemaProps {
        let body = format!(
            "{{\"status\":\"Success\",\"variables\":[{{\"schema\":{{\"openAPIV3Schema\":{json}}}}}]}}"
        );
        let (mut r, _) = decode::<DiscoverVariablesResponse>(body.as_bytes()).unwrap();
        r.variables.remove(0).schema.open_apiv3_schema
    };
    let leaf = |t: &str, f: &str| {
        Some(Box::new(JSONSchemaProps {
            r#type: t.into(),
            format: f.into(),
            ..Default::default()
        }))
    };
    // Missing and null are nil pointers.
    assert_eq!(schema("{}"), JSONSchemaProps::default());
    assert_eq!(
        schema(r#"{"items":null,"not":null,"additionalProperties":null}"#),
        JSONSchemaProps::default()
    );
    let s = schema(r#"{"items":{"type":"a"},"NOT":{"type":"b"},"additionalProperties":{}}"#);
    assert_eq!((s.items, s.r#not), (leaf("a", ""), leaf("b", "")));
    assert_eq!(s.additional_properties, leaf("", ""));
    // Go (checked with encoding/json): a repeated key decodes into the struct the pointer
    // already holds, so the occurrences merge; null sets the pointer to nil, and what follows
    // starts a new struct.
    assert_eq!(
        schema(r#"{"items":{"type":"string"},"items":{"format":"uri"}}"#).items,
        leaf("string", "uri")
    );
    assert_eq!(
        schema(r#"{"items":{"type":"string"},"items":null,"Items":{"format":"uri"}}"#).items,
        leaf("", "uri")
    );
    assert_eq!(
        schema(r#"{"items":{"type":"string"},"Items":null}"#).items,
        None
    );
    let nested =
        schema(r#"{"items":{"items":{"type":"a"}},"items":{"items":{"format":"b"},"type":"c"}}"#);
    let outer = nested.items.unwrap();
    assert_eq!((outer.r#type.as_str(), outer.items), ("c", leaf("a", "b")));
    // A wrong type is refused as before.
    let e = decode::<DiscoverVariablesResponse>(
        br#"{"variables":[{"schema":{"openAPIV3Schema":{"items":[]}}}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Type, "{e}");
    assert_eq!(e.path(), ".variables[0].schema.openAPIV3Schema.items");
}

#[test]
fn boxed_schemas_round_trip_through_serde_json() {
    let value = serde_json::json!({
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "string", "not": {"enum": ["x"]}}},
        "not": {"required": ["a"]},
        "items": {"type": "integer"}
    });
    let s: JSONSchemaProps = serde_json::from_value(value.clone()).unwrap();
    let items = s
        .additional_properties
        .as_ref()
        .unwrap()
        .items
        .as_ref()
        .unwrap();
    assert_eq!(items.r#not.as_ref().unwrap().r#enum.len(), 1);
    assert_eq!(serde_json::to_value(&s).unwrap(), value);
    let again: JSONSchemaProps = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(again, s);
    let none: JSONSchemaProps = serde_json::from_str(r#"{"items":null}"#).unwrap();
    assert_eq!(none, JSONSchemaProps::default());
}

/// A DiscoverVariables answer with one variable whose schema is `not` nested `nots` deep;
/// `first` goes into the variable (a repeated key there makes the decoder take its careful
/// mode). The schema itself is at depth 5 (answer, `variables`, the variable, `schema`,
/// `openAPIV3Schema`), so 123 `not`s reach the default depth limit of 128.
fn deep_schema(nots: usize, first: &str) -> Vec<u8> {
    format!(
        "{{\"status\":\"Success\",\"variables\":[{{{first}\"name\":\"v\",\"schema\":\
         {{\"openAPIV3Schema\":{}{{}}{}}}}}]}}",
        "{\"not\":".repeat(nots),
        "}".repeat(nots)
    )
    .into_bytes()
}

/// How deep the `not`s of a decoded answer's first schema go.
fn nots(r: &DiscoverVariablesResponse) -> usize {
    let mut s = &r.variables[0].schema.open_apiv3_schema;
    let mut n = 0;
    while let Some(next) = &s.r#not {
        s = next;
        n += 1;
    }
    n
}

/// Runs `f` on a thread with only 256 KiB of stack, well below the 2 MiB of a tokio worker,
/// and below what an unoptimized build needs for a schema nested to the depth limit without
/// the decoder's stack growth (about 1.9 MiB in the careful mode).
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn schemas_nested_to_the_depth_limit_decode_on_a_small_stack() {
    for first in ["", "\"name\":\"a\","] {
        let careful = !first.is_empty();
        let deepest = deep_schema(DEFAULT_MAX_DEPTH - 5, first);
        let deeper = deep_schema(DEFAULT_MAX_DEPTH - 4, first);
        let (got, refused) = on_small_stack(move || {
            let got = decode_value::<DiscoverVariablesResponse>(
                &deepest,
                &Limits::default(),
                Some("status"),
            )
            .map(|d| nots(&d.message));
            let refused = decode_value::<DiscoverVariablesResponse>(
                &deeper,
                &Limits::default(),
                Some("status"),
            )
            .unwrap_err();
            (got, refused)
        });
        assert_eq!(
            got.unwrap(),
            DEFAULT_MAX_DEPTH - 5,
            "careful mode: {careful}"
        );
        assert_eq!(
            refused.kind(),
            DecodeErrorKind::TooDeep,
            "careful mode: {careful}: {refused}"
        );
    }
}

#[test]
fn a_raised_depth_limit_is_the_only_bound_on_the_stack() {
    // With the limit raised to Go's 10,000 the stack grows on the heap as deep as the
    // message goes: 2,000 levels of schemas decode on the same small stack.
    for first in ["", "\"name\":\"a\","] {
        let body = deep_schema(2_000, first);
        let got = on_small_stack(move || {
            let limits = Limits::default().with_max_depth(10_000);
            decode_value::<DiscoverVariablesResponse>(&body, &limits, Some("status"))
                .map(|d| nots(&d.message))
        });
        assert_eq!(got.unwrap(), 2_000);
    }
}

/// A DiscoverVariables response whose one schema nests `not` `nots` deep around a schema
/// with a description of `payload` bytes; `top` is written first in the outermost object.
fn deep_schema_with_payload(nots: usize, payload: usize, top: &str) -> Vec<u8> {
    format!(
        "{{{top}\"status\":\"Success\",\"variables\":[{{\"name\":\"v\",\"schema\":\
         {{\"openAPIV3Schema\":{}{{\"description\":\"{}\"}}{}}}}}]}}",
        "{\"not\":".repeat(nots),
        "d".repeat(payload),
        "}".repeat(nots)
    )
    .into_bytes()
}

/// Decodes `body` as a DiscoverVariables response on a small stack: how deep its `not`s go,
/// and how many bytes of tokens the decoder read.
fn nots_and_scanned(body: Vec<u8>) -> (usize, usize) {
    on_small_stack(move || {
        de::SCANNED.with(|c| c.set(0));
        let decoded =
            decode_value::<DiscoverVariablesResponse>(&body, &Limits::default(), Some("status"))
                .unwrap();
        (nots(&decoded.message), de::SCANNED.with(|c| c.get()))
    })
}

#[test]
fn scanned_bytes_stay_linear_in_the_careful_mode() {
    // One repeated key at the top sends the message to the careful mode. There each struct
    // object's keys are scanned before its fields are decoded; without the index of where
    // every object ends, the description at the bottom of 123 nested schemas was skipped once
    // per enclosing struct (about 125 times). Now every byte is read at most four times: the
    // fast pass up to the repeated key, the index pass, the key scan of its innermost struct,
    // its decoding.
    let depth = DEFAULT_MAX_DEPTH - 5;
    let payload = 64 << 10;
    let fast = deep_schema_with_payload(depth, payload, "");
    let careful = deep_schema_with_payload(depth, payload, "\"message\":\"a\",\"message\":\"b\",");
    let careful_len = careful.len();
    let (fast_nots, fast_scanned) = nots_and_scanned(fast.clone());
    let (careful_nots, careful_scanned) = nots_and_scanned(careful);
    assert_eq!(fast_nots, depth);
    assert_eq!(careful_nots, depth);
    assert!(
        fast_scanned <= fast.len(),
        "{fast_scanned} > {}",
        fast.len()
    );
    assert!(
        careful_scanned <= 4 * careful_len,
        "the careful mode read {careful_scanned} bytes of tokens of a {careful_len}-byte message"
    );
    // The same with the repeat at the bottom, in the innermost schema: the fast pass reads
    // nearly everything before it gives up.
    let bottom = String::from_utf8(fast).unwrap().replacen(
        "{\"description\"",
        "{\"description\":\"x\",\"description\"",
        1,
    );
    let bottom_len = bottom.len();
    let (bottom_nots, bottom_scanned) = nots_and_scanned(bottom.into_bytes());
    assert_eq!(bottom_nots, depth);
    assert!(
        bottom_scanned <= 4 * bottom_len,
        "{bottom_scanned} > 4 × {bottom_len}"
    );
}

/// Runs `f` over a decoder of `body` in the careful mode (`careful`) or the fast one whose
/// deadline has passed already, skipping the look before the first value that `decode_with`
/// makes: what stops it is a look from one of its loops.
fn past_deadline<T>(
    body: &[u8],
    careful: bool,
    f: impl FnOnce(&mut de::De<'_>) -> std::result::Result<T, error::Error>,
) -> DecodeErrorKind {
    let mut de = de::De::new(body, usize::MAX, DEFAULT_MAX_DEPTH, careful, Next::Plain)
        .with_deadline(Some(Instant::now()));
    match f(&mut de) {
        Ok(_) => panic!("decoded past the deadline"),
        Err(e) => e.kind(),
    }
}

#[test]
fn every_long_loop_looks_at_the_deadline() {
    let n = 3 * 4096;
    let timeout = DecodeErrorKind::Timeout;
    // The careful mode's index pass over many small objects.
    let objects = format!("[{}{{}}]", "{},".repeat(n));
    assert_eq!(
        past_deadline(objects.as_bytes(), true, |de| de.index_containers()),
        timeout
    );
    // Values produced (array elements).
    let numbers = format!("[{}1]", "1,".repeat(n));
    assert_eq!(
        past_deadline(numbers.as_bytes(), false, |de| Vec::<u8>::deserialize(de)),
        timeout
    );
    // Unknown keys skipped by the fast mode, and scanned by the careful mode's key scan.
    let keys: String = (0..n).map(|i| format!("\"k{i}\":null,")).collect();
    let unknown = format!("{{{keys}\"status\":\"s\"}}");
    for careful in [false, true] {
        assert_eq!(
            past_deadline(unknown.as_bytes(), careful, |de| Outer::deserialize(de)),
            timeout,
            "careful: {careful}"
        );
    }
    // A value skipped whole: one unknown key holding a large array.
    let skipped = format!("{{\"unknown\":{numbers}}}");
    assert_eq!(
        past_deadline(skipped.as_bytes(), false, |de| Outer::deserialize(de)),
        timeout
    );
    // A string of many escapes.
    let escapes = format!("\"{}\"", "\\n".repeat(n));
    assert_eq!(
        past_deadline(escapes.as_bytes(), false, |de| String::deserialize(de)),
        timeout
    );
}
