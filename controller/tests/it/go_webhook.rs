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
use capi_runtime_controller::webhook::admission::{QUALIFIED_KIND, mutate, validate_review};
use capi_runtime_oracle::go_rules;
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
    // `invalid_message` without errors is the head of the message; the list is rebuilt above.
    let head = capi_runtime::go::field::invalid_message(QUALIFIED_KIND, &name, &[]);
    ours["message"] = json!(format!("{head}: {listed}"));
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

/// A body sent to a webhook: its name in the report, the body and its `Content-Type`.
struct Sent {
    name: String,
    content_type: Option<&'static str>,
    body: Vec<u8>,
}

/// Bodies that may not be reviews, and a few that are: what controller-runtime's handler
/// answers for each is what ours must.
fn undecodable() -> Vec<Sent> {
    let object = object(
        "ext",
        json!({"url": "https://ext.example.com:8443/hooks"}),
        None,
    );
    let valid = json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": request(&object),
    });
    let mut v1beta1 = valid.clone();
    v1beta1["apiVersion"] = json!("admission.k8s.io/v1beta1");
    let mut unversioned = valid.clone();
    unversioned.as_object_mut().unwrap().remove("apiVersion");
    let mut untyped = valid.clone();
    untyped.as_object_mut().unwrap().remove("kind");
    let json_of = |v: &Value| serde_json::to_vec(v).unwrap();
    let mut sent = Vec::new();
    let mut add = |name: &str, content_type: Option<&'static str>, body: Vec<u8>| {
        sent.push(Sent {
            name: name.to_owned(),
            content_type,
            body,
        })
    };
    const JSON: Option<&str> = Some("application/json");
    add("a review", JSON, json_of(&valid));
    add("a v1beta1 review", JSON, json_of(&v1beta1));
    add("no apiVersion", JSON, json_of(&unversioned));
    add("no kind", JSON, json_of(&untyped));
    add("empty body", JSON, Vec::new());
    add("empty body, no content type", None, Vec::new());
    add("no content type", None, json_of(&valid));
    add("text/plain", Some("text/plain"), json_of(&valid));
    add(
        "content type with a charset",
        Some("application/json; charset=utf-8"),
        json_of(&valid),
    );
    add(
        "upper-case content type",
        Some("Application/JSON"),
        json_of(&valid),
    );
    for (name, text) in [
        ("truncated", r#"{"apiVersion":"admission.k8s.io/v1","#),
        ("an open brace", "{"),
        ("null", "null"),
        ("an array", "[]"),
        ("a number", "5"),
        ("a string", r#""AdmissionReview""#),
        ("an empty object", "{}"),
        (
            "no request",
            r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}"#,
        ),
        (
            "a Pod",
            r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}"#,
        ),
        (
            "another kind of the group",
            r#"{"apiVersion":"admission.k8s.io/v1","kind":"Pod"}"#,
        ),
        (
            "an unknown version",
            r#"{"apiVersion":"admission.k8s.io/v2","kind":"AdmissionReview","request":{"uid":"u"}}"#,
        ),
        (
            "a request of the wrong type",
            r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":"x"}"#,
        ),
        (
            "a uid of the wrong type",
            r#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":5}}"#,
        ),
        ("trailing data", r#"{"kind":"AdmissionReview"} {}"#),
    ] {
        add(name, JSON, text.as_bytes().to_vec());
    }
    // Around controller-runtime's limit (7 MiB): a review padded with spaces.
    let limit = capi_runtime_controller::webhook::review::MAX_REVIEW_BYTES;
    for (name, size) in [("just under the limit", limit - 1), ("at the limit", limit)] {
        let mut body = json_of(&valid);
        body.resize(size, b' ');
        add(name, JSON, body);
    }
    sent
}

/// What both sides must agree on in an answer to a body: the HTTP status and, of the
/// review's response, the UID, allowed, the code and (for the messages controller-runtime
/// writes itself) the message; and the review's type where controller-runtime writes one.
/// (Where it writes none, the body was not read or named no type; we answer
/// `admission.k8s.io/v1`, which the API server requires.)
fn http_projection(code: u16, body: &str, fixed_message: bool, typed_as: &Value) -> Value {
    let review: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let response = &review["response"];
    let of = |field: &str| {
        if typed_as[field].is_null() {
            Value::Null
        } else {
            review[field].clone()
        }
    };
    json!({
        "http": code,
        "apiVersion": of("apiVersion"),
        "kind": of("kind"),
        "uid": response["uid"],
        "allowed": response["allowed"].as_bool().unwrap_or(false),
        "code": response["status"]["code"],
        "message": if fixed_message {
            response["status"]["message"].clone()
        } else {
            Value::Bool(response["status"]["message"].as_str().is_some_and(|m| !m.is_empty()))
        },
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_that_are_not_reviews_are_answered_as_controller_runtime_answers() {
    use base64::Engine as _;
    use capi_runtime_controller::webhook::{MUTATE_PATH, VALIDATE_PATH};

    let ca = crate::support::TestCa::new("review-ca");
    let (host, base, _certs) = crate::webhooks::serve(&ca, true).await;
    let client = capi_runtime_test_pki::https_client(&ca.pem());

    let sent = undecodable();
    let webhooks = [("mutate", MUTATE_PATH), ("validate", VALIDATE_PATH)];
    let cases: Vec<(&str, Value)> = webhooks
        .iter()
        .flat_map(|(webhook, _)| {
            sent.iter().map(move |s| {
                (
                    "AdmissionHTTP",
                    json!({
                        "webhook": webhook,
                        "gate": true,
                        "contentType": s.content_type,
                        "body": base64::engine::general_purpose::STANDARD.encode(&s.body),
                    }),
                )
            })
        })
        .collect();
    let go = tokio::task::spawn_blocking(move || go_rules(&cases))
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    let mut go = go.into_iter();
    let mut differences = Vec::new();
    let mut shown_messages = Vec::new();
    for (webhook, path) in webhooks {
        for s in &sent {
            let answer = go.next().expect("one answer per case");
            assert!(answer["err"].is_null(), "{}: {}", s.name, answer["err"]);
            let theirs = &answer["out"];
            let mut request = client.post(format!("{base}{path}")).body(s.body.clone());
            if let Some(content_type) = s.content_type {
                request = request.header("content-type", content_type);
            }
            let response = request.send().await.unwrap();
            let code = response.status().as_u16();
            let body = response.text().await.unwrap();
            let their_body = theirs["body"].as_str().unwrap();
            let their_message =
                serde_json::from_str::<Value>(their_body).unwrap_or_default()["response"]["status"]
                    ["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
            // controller-runtime's own words, before any decoder's.
            let fixed = [
                "request body is empty",
                "request entity is too large",
                "contentType=",
            ]
            .iter()
            .any(|m| their_message.starts_with(m));
            let typed_as: Value = serde_json::from_str(their_body).unwrap_or_default();
            let ours = http_projection(code, &body, fixed, &typed_as);
            let go = http_projection(
                theirs["code"].as_u64().unwrap() as u16,
                their_body,
                fixed,
                &typed_as,
            );
            let review: Value = serde_json::from_str(&body).unwrap_or_default();
            // Ours always names a type: the body's, else admission.k8s.io/v1's.
            let named = |field: &str| review[field].as_str().is_some_and(|v| !v.is_empty());
            let typed = named("apiVersion") && named("kind");
            if ours != go || !typed {
                differences.push(format!(
                    "{webhook}, {}:\n  go:   {go} {their_body}\n  rust: {ours} {body}",
                    s.name
                ));
            }
            shown_messages.push(format!("{webhook}, {}: {their_message}", s.name));
        }
    }
    println!(
        "{} bodies through both webhooks, {} differ; controller-runtime's messages:\n  {}",
        sent.len(),
        differences.len(),
        shown_messages.join("\n  ")
    );
    assert!(
        differences.is_empty(),
        "{} answers differ from controller-runtime's:\n{}",
        differences.len(),
        differences.join("\n")
    );
    drop(host);
}
