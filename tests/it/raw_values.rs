//! The raw JSON field types (`capi_runtime::raw`): what a message's embedded objects and
//! values hold after decoding, how they are written back, and their typed views. Go's reading
//! of the same bodies is checked by the wire oracle (`interop/oracle/tests/go_wire.rs`); these cases
//! pin the properties that oracle relies on.

use capi_runtime::hooks::v1alpha1::{GeneratePatches, GeneratePatchesRequest};
use capi_runtime::raw::{Json, RawExtension};
use capi_runtime::wire::{self, DecodeErrorKind, Limits};
use serde::Deserialize;
use serde_json::json;

fn request(object: &str, value: &str) -> Vec<u8> {
    format!(
        r#"{{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"GeneratePatchesRequest","items":[{{"uid":"1","holderReference":{{}},"object":{object},"variables":[{{"name":"v","value":{value}}}]}}]}}"#
    )
    .into_bytes()
}

#[test]
fn the_text_is_kept_as_received() {
    let object =
        r#"{"kind":"T","b":1,"a":123456789012345678901234567890,"a":2.50e400,"s":"\u00e9\ud800"}"#;
    let value = r#"[1.0, -0e+5 , 18446744073709551616]"#;
    let decoded = wire::decode_request::<GeneratePatches>(&request(object, value)).unwrap();
    let item = &decoded.items[0];
    assert_eq!(item.object.as_json(), object);
    assert_eq!(item.variables[0].value.as_json(), value);
    // Written back as received, without the white space between tokens.
    let written =
        String::from_utf8(wire::encode_request::<GeneratePatches>(&decoded).unwrap()).unwrap();
    assert!(
        written.contains(&format!(r#""object":{object}"#)),
        "{written}"
    );
    assert!(
        written.contains(r#""value":[1.0,-0e+5,18446744073709551616]"#),
        "{written}"
    );
}

#[test]
fn null_and_missing_are_the_empty_value() {
    let decoded = wire::decode_request::<GeneratePatches>(&request("null", "null")).unwrap();
    assert!(decoded.items[0].object.is_null());
    assert!(decoded.items[0].variables[0].value.is_null());
    assert_eq!(decoded.items[0].object, RawExtension::default());
    let written = serde_json::to_value(&decoded.items[0]).unwrap();
    assert_eq!(written["object"], json!(null));
}

#[test]
fn a_repeated_key_keeps_the_last_value_that_is_not_null() {
    let body =
        br#"{"items":[{"object":{"kind":"A"},"uid":"1","object":{"kind":"B"},"object":null}]}"#;
    let decoded = wire::decode_request::<GeneratePatches>(body).unwrap();
    assert_eq!(decoded.items[0].object.as_json(), r#"{"kind":"B"}"#);
}

#[test]
fn invalid_utf8_in_strings_becomes_replacement_characters() {
    let mut body = request(r#"{"s":"a"}"#, "1");
    let at = body.windows(3).position(|w| w == b"\"a\"").unwrap() + 1;
    body.splice(at..at + 1, [0xff, 0xfe]);
    let decoded = wire::decode_request::<GeneratePatches>(&body).unwrap();
    assert_eq!(
        decoded.items[0].object.as_json(),
        "{\"s\":\"\u{fffd}\u{fffd}\"}"
    );
}

#[test]
fn the_text_is_charged_to_the_budget() {
    let big = format!(r#"{{"s":"{}"}}"#, "x".repeat(1 << 20));
    let body = request(&big, "1");
    let decoded = wire::decode_request_with::<GeneratePatches>(&body, &Limits::default()).unwrap();
    assert!(decoded.charged > 1 << 20, "charged {}", decoded.charged);
    let refused = wire::decode_request_with::<GeneratePatches>(
        &body,
        &Limits::default().with_memory_budget(1 << 20),
    )
    .unwrap_err();
    assert_eq!(refused.kind(), DecodeErrorKind::OverBudget);
}

#[test]
fn a_syntax_error_inside_a_raw_value_refuses_the_message() {
    let body = request(r#"{"a":[1,}"#, "1");
    let e = wire::decode_request::<GeneratePatches>(&body).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Syntax);
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Template {
    kind: String,
    spec: Spec,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Spec {
    replicas: i32,
}

#[test]
fn decode_reads_the_text_with_the_wire_rules() {
    // Go's key folding and integer rules, as for a whole message.
    let raw: RawExtension = r#"{"KIND":"T","spec":{"Replicas":3},"other":[1e999]}"#
        .parse()
        .unwrap();
    assert_eq!(
        raw.decode::<Template>().unwrap(),
        Template {
            kind: "T".into(),
            spec: Spec { replicas: 3 }
        }
    );
    let fraction: RawExtension = r#"{"kind":"T","spec":{"replicas":1.5}}"#.parse().unwrap();
    let e = fraction.decode::<Template>().unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Number);
    assert_eq!(e.path(), ".spec.replicas");
    // The number beyond f64 has a text but no serde_json::Value.
    assert!(raw.to_value().is_err());
}

#[test]
fn conversions_with_k8s_openapi_and_serde_json() {
    use capi_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON;
    use capi_runtime::k8s_openapi::apimachinery::pkg::runtime::RawExtension as K8sRaw;

    let value = json!({"b": [1, 2.5, "x"], "a": null});
    let raw = RawExtension::from(K8sRaw(value.clone()));
    assert_eq!(raw.to_value().unwrap(), value);
    assert_eq!(K8sRaw::try_from(&raw).unwrap(), K8sRaw(value.clone()));
    let json = Json::from(JSON(json!(7)));
    assert_eq!(json.as_json(), "7");
    assert_eq!(JSON::try_from(json).unwrap(), JSON(json!(7)));
    // Equal values are equal whatever their key order and white space.
    let reordered: RawExtension = r#"{ "a": null, "b": [1, 2.5, "x"] }"#.parse().unwrap();
    assert_eq!(reordered, raw);
    assert_ne!(reordered, RawExtension::from(json!({"a": 1})));
    assert!("{".parse::<RawExtension>().is_err());
}

#[test]
fn serde_json_readers_keep_the_text_too() {
    let text = request(r#"{"n":123456789012345678901234567890}"#, "1e400");
    let request: GeneratePatchesRequest = serde_json::from_slice(&text).unwrap();
    assert_eq!(
        request.items[0].object.as_json(),
        r#"{"n":123456789012345678901234567890}"#
    );
    assert_eq!(request.items[0].variables[0].value.as_json(), "1e400");
}

/// `decode` reads times by the target type's own rules; `decode_described` into a type that
/// derives `Schema` follows its recorded shape, with Go's rules for times (and the zero time of
/// a `metav1.Condition` without `lastTransitionTime`, as Go leaves it).
#[test]
fn typed_views_take_gos_rules_for_times_from_the_types_shape() {
    use capi_runtime::api::core::v1beta2::Cluster;

    let raw: RawExtension = r#"{
        "metadata": {"name": "c1", "creationTimestamp": "2026-01-01T10:00:00.5+01:00"},
        "status": {"conditions": [{"type": "Ready", "status": "True"}]}
    }"#
    .parse()
    .unwrap();
    let cluster: Cluster = raw.decode_described().unwrap();
    let created = cluster.metadata.creation_timestamp.unwrap();
    assert_eq!(created.0.to_string(), "2026-01-01T09:00:00.5Z");
    let condition = &cluster.status.conditions[0];
    assert_eq!(
        condition.last_transition_time.0.to_string(),
        "0001-01-01T00:00:00Z"
    );
    // Without the shape, k8s-openapi's `Condition` requires its `lastTransitionTime`.
    let e = raw.decode::<Cluster>().unwrap_err();
    assert!(e.message().contains("lastTransitionTime"), "{e}");
    assert_eq!(e.path(), ".status.conditions[0]");
}

#[test]
fn from_serialize_takes_a_value_or_a_reference() {
    #[derive(serde::Serialize)]
    struct Registry {
        host: &'static str,
    }
    let typed = Registry { host: "r.example" };
    assert_eq!(Json::from_serialize(false).unwrap().as_json(), "false");
    assert_eq!(Json::from_serialize(3).unwrap().as_json(), "3");
    assert_eq!(Json::from_serialize("x").unwrap().as_json(), "\"x\"");
    assert_eq!(
        Json::from_serialize(&typed).unwrap().as_json(),
        r#"{"host":"r.example"}"#
    );
    assert_eq!(
        RawExtension::from_serialize(typed).unwrap().as_json(),
        r#"{"host":"r.example"}"#
    );
}
