//! The ExtensionConfig webhooks against Cluster API's own: every case goes through our
//! `mutate`/`validate_review` and, through the Go oracle (`interop/capi/cmd/go-rules`),
//! through Cluster API v1.14.2's webhook (`core/webhooks/admission.ExtensionConfig`) inside
//! controller-runtime's admission handler, as Cluster API's manager serves it. The answers
//! must agree: allowed or not, the status (code, reason, message, every cause) and, for the
//! defaulting webhook, the object after its patch.
//!
//! The corpus: every v1beta2 object of `testdata/extensionconfig/valid`, and combinations of
//! names, client configs (URLs and service references, good and bad), namespace selectors and
//! the feature gate, each sent raw and after defaulting. Objects whose fields have the wrong
//! JSON type are left out: both refuse them with 400, in their own decoders' words.
//!
//! One difference is ours on purpose (the module docs of `webhook::admission`): a URL with user
//! info, a query or a fragment is refused. Those cases are checked against Go with that one
//! error taken out of our answer.

use std::path::Path;

use capi_runtime::go::errors::chain;
use capi_runtime_controller::webhook::admission::{mutate, validate_review};
use capi_runtime_testenv::go_rules;
use kube::core::DynamicObject;
use kube::core::admission::AdmissionReview;
use serde_json::{Value, json};

const GROUP: &str = "runtime.cluster.x-k8s.io";

fn request(object: &Value) -> Value {
    json!({
        "uid": "u-1",
        "kind": {"group": GROUP, "version": "v1beta2", "kind": "ExtensionConfig"},
        "resource": {"group": GROUP, "version": "v1beta2", "resource": "extensionconfigs"},
        "name": object["metadata"]["name"],
        "operation": "CREATE",
        "userInfo": {},
        "object": object,
    })
}

fn review(object: &Value) -> AdmissionReview<DynamicObject> {
    serde_json::from_value(json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": request(object),
    }))
    .expect("an AdmissionReview")
}

/// The parts of an AdmissionResponse both sides must agree on, with absent members as their
/// empty values.
fn projection(response: &Value) -> Value {
    let status = &response["status"];
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let details = &status["details"];
    json!({
        "allowed": response["allowed"].as_bool().unwrap_or(false),
        "code": status["code"].as_i64().unwrap_or(0),
        "status": text(&status["status"]),
        "reason": text(&status["reason"]),
        "message": text(&status["message"]),
        "details": if details.is_null() { Value::Null } else { json!({
            "name": text(&details["name"]),
            "group": text(&details["group"]),
            "kind": text(&details["kind"]),
            "causes": details["causes"].as_array().cloned().unwrap_or_default().iter().map(|c| json!({
                "reason": text(&c["reason"]),
                "message": text(&c["message"]),
                "field": text(&c["field"]),
            })).collect::<Vec<_>>(),
        })},
    })
}

/// The object after the response's JSON patch (the object itself when there is none). Go
/// writes the patch's bytes in base64, kube as an array of numbers; the API server (Go's
/// encoding/json) reads both.
fn patched(object: &Value, response: &Value) -> Value {
    use base64::Engine;
    let bytes: Vec<u8> = match &response["patch"] {
        Value::Null => return object.clone(),
        Value::String(text) => base64::engine::general_purpose::STANDARD
            .decode(text)
            .expect("a base64 patch"),
        Value::Array(numbers) => numbers
            .iter()
            .map(|n| {
                n.as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .expect("a byte")
            })
            .collect(),
        other => panic!("a patch that is neither base64 nor bytes: {other}"),
    };
    let patch: json_patch::Patch = serde_json::from_slice(&bytes).expect("a JSON patch");
    let mut out = object.clone();
    json_patch::patch(&mut out, &patch).expect("the patch applies");
    out
}

fn object(name: &str, client_config: Value, selector: Option<Value>) -> Value {
    let mut spec = json!({"clientConfig": client_config});
    if let Some(s) = selector {
        spec["namespaceSelector"] = s;
    }
    json!({
        "apiVersion": "runtime.cluster.x-k8s.io/v1beta2",
        "kind": "ExtensionConfig",
        "metadata": {"name": name},
        "spec": spec,
    })
}

/// A case for a failure message: long strings (a CA bundle at its limit) cut short.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.len() <= 600 {
        text
    } else {
        format!("{}... ({} bytes)", &text[..600], text.len())
    }
}

fn corpus() -> Vec<Value> {
    let mut objects = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/extensionconfig/valid");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("v1beta2")
        })
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let value: Value = serde_saphyr::from_str(&text).unwrap();
        objects.push(value);
    }
    let names = ["ext", "bad.name", "UPPER", "1abc", &"a".repeat(64), "a-"];
    let urls = [
        "https://extension.example/prefix",
        "http://extension.example",
        "https//extension-address.com",
        "unknown://extension-address.com",
        "https://user@x.example",
        "https://x.example/p?q=1",
        "https://x.example/p#f",
        "https://[::1]:8443/p",
        "https://h:x/",
        "https://[fe80::1%en0]/",
        "/relative",
        ":x",
        "https://h%zz/",
    ];
    let services = [
        json!({"name": "svc", "namespace": "ns"}),
        json!({"name": "svc", "namespace": "ns", "port": 8443, "path": "/hooks"}),
        json!({"name": "", "namespace": "ns"}),
        json!({"name": "NOT_ALLOWED", "namespace": "ns"}),
        json!({"name": "1svc", "namespace": ""}),
        json!({"name": "svc", "namespace": "INVALID"}),
        json!({"name": "svc", "namespace": "ns", "path": "https://example.com"}),
        json!({"name": "svc", "namespace": "ns", "path": "p"}),
        json!({"name": "svc", "namespace": "ns", "path": "/%zz"}),
        json!({"name": "svc", "namespace": "ns", "port": 90000}),
        json!({"name": "svc", "namespace": "ns", "port": 0}),
        json!({"name": "svc", "namespace": "ns", "port": -1}),
        json!({"port": 443}),
    ];
    let selectors = [
        None,
        Some(json!({})),
        Some(json!({"matchExpressions": [{"key": "foo", "operator": "Exists"}]})),
        Some(json!({"matchExpressions": [{"key": "foo", "operator": "bad-operator"}]})),
        Some(
            json!({"matchExpressions": [{"key": "Bad_Prefix/x", "operator": "In", "values": ["-bad"]}]}),
        ),
        Some(json!({"matchExpressions": [{"key": "a", "operator": "In"}]})),
        Some(json!({"matchLabels": {"env": "prod"}})),
        Some(json!({"matchLabels": {"env": "-bad"}})),
    ];
    let mut configs: Vec<Value> = urls.iter().map(|u| json!({"url": u})).collect();
    configs.extend(services.iter().map(|s| json!({"service": s})));
    configs.push(json!({}));
    configs.push(json!({"url": urls[0], "service": services[0]}));
    configs.push(json!({"url": urls[3], "service": services[3]}));
    for name in names {
        for config in &configs {
            for selector in &selectors {
                objects.push(object(name, config.clone(), selector.clone()));
            }
        }
    }
    objects
}

/// Our answer without the errors of our stricter URL rule (see the module documentation).
fn without_our_rule(mut ours: Value) -> Value {
    let ours_only = |m: &str| {
        ["user info", "a query", "a fragment"]
            .iter()
            .any(|part| m.ends_with(&format!(": must not contain {part}")))
    };
    let Some(causes) = ours["details"]["causes"].as_array().cloned() else {
        return ours;
    };
    let kept: Vec<Value> = causes
        .into_iter()
        .filter(|c| !ours_only(c["message"].as_str().unwrap_or_default()))
        .collect();
    if kept.len() == ours["details"]["causes"].as_array().unwrap().len() {
        return ours;
    }
    if kept.is_empty() {
        return json!({
            "allowed": true, "code": 200, "status": "", "reason": "", "message": "",
            "details": Value::Null,
        });
    }
    // The message lists the same errors: rebuild it from what is left.
    let name = ours["details"]["name"].as_str().unwrap().to_string();
    let texts: Vec<String> = kept
        .iter()
        .map(|c| {
            format!(
                "{}: {}",
                c["field"].as_str().unwrap(),
                c["message"].as_str().unwrap()
            )
        })
        .collect();
    let listed = capi_runtime::go::errors::aggregate_messages(&texts);
    ours["message"] = json!(format!(
        "ExtensionConfig.runtime.cluster.x-k8s.io {} is invalid: {listed}",
        capi_runtime::go::strconv::quote(&name)
    ));
    ours["details"]["causes"] = Value::Array(kept);
    ours
}

#[test]
fn the_webhooks_answer_as_cluster_apis() {
    let objects = corpus();
    // Defaulting first, with the gate on and off (it does not look at the gate).
    let mut cases = Vec::new();
    for o in &objects {
        for gate in [true, false] {
            cases.push((
                "Admission",
                json!({"webhook": "mutate", "gate": gate, "request": request(o)}),
            ));
        }
    }
    let go = go_rules(&cases).unwrap_or_else(|e| panic!("{}", chain(&e)));
    let mut differences = Vec::new();
    let mut defaulted = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        let ours = serde_json::to_value(mutate(review(o)).response.unwrap()).unwrap();
        for (j, answer) in go[2 * i..2 * i + 2].iter().enumerate() {
            let theirs = &answer["out"];
            let (a, b) = (patched(o, &ours), patched(o, theirs));
            if a != b || projection(&ours)["allowed"] != projection(theirs)["allowed"] {
                differences.push(format!(
                    "mutate (gate {}) {}\n  go:   {}\n  rust: {}",
                    j == 0,
                    shown(o),
                    shown(&b),
                    shown(&a)
                ));
            }
        }
        defaulted.push(patched(o, &go[2 * i]["out"]));
    }
    // Validation of each object as sent and as defaulted, with the gate on and off.
    let mut inputs: Vec<(Value, bool)> = Vec::new();
    for (o, d) in objects.iter().zip(&defaulted) {
        inputs.push((o.clone(), true));
        if d != o {
            inputs.push((d.clone(), true));
        }
    }
    for o in objects.iter().take(20) {
        inputs.push((o.clone(), false));
    }
    let cases: Vec<(&str, Value)> = inputs
        .iter()
        .map(|(o, gate)| {
            (
                "Admission",
                json!({"webhook": "validate", "gate": gate, "request": request(o)}),
            )
        })
        .collect();
    let go = go_rules(&cases).unwrap_or_else(|e| panic!("{}", chain(&e)));
    let mut ours_only = 0;
    for ((o, gate), answer) in inputs.iter().zip(&go) {
        let ours =
            serde_json::to_value(validate_review(review(o), *gate).response.unwrap()).unwrap();
        let ours = projection(&ours);
        let compared = without_our_rule(ours.clone());
        if compared != ours {
            ours_only += 1;
        }
        let theirs = projection(&answer["out"]);
        if compared != theirs {
            differences.push(format!(
                "validate (gate {gate}) {}\n  go:   {theirs}\n  rust: {compared}",
                shown(o)
            ));
        }
    }
    println!(
        "webhooks: {} objects, {} mutate and {} validate cases ({} refused only by our URL rule), {} differ",
        objects.len(),
        2 * objects.len(),
        inputs.len(),
        ours_only,
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} answers differ from Cluster API's webhook:\n{}",
        differences.len(),
        differences
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert!(ours_only > 0, "the corpus exercises our stricter URL rule");
}
