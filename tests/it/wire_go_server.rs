//! The extension server reads request bodies as Go's `encoding/json` reads them (the rules
//! table of `capi_runtime::wire`): one test per rule, each with the body a Go program (Cluster
//! API, or a Go client of an extension) would send, posted through the server's router.

use std::sync::{Arc, Mutex};

use axum::body::Body;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, GeneratePatches,
    GeneratePatchesRequest, GeneratePatchesResponse, GeneratePatchesResponseItem, PatchType,
};
use capi_runtime::server::Server;
use http::{Request, StatusCode};
use k8s_openapi::ByteString;
use serde_json::Value;
use tower::ServiceExt;

const BCC: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/h";
const GP: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/h";

/// What the handlers saw, and what they answer with.
#[derive(Default)]
struct Seen {
    bcc: Vec<BeforeClusterCreateRequest>,
    gp: Vec<GeneratePatchesRequest>,
}

fn router(seen: Arc<Mutex<Seen>>, patch_type: PatchType) -> axum::Router {
    let bcc = seen.clone();
    Server::builder()
        .handle("h", move |r: BeforeClusterCreateRequest| {
            let seen = bcc.clone();
            async move {
                seen.lock().unwrap().bcc.push(r);
                Ok::<_, String>(BeforeClusterCreateResponse::success())
            }
        })
        .handle("h", move |r: GeneratePatchesRequest| {
            let seen = seen.clone();
            let patch_type = patch_type.clone();
            async move {
                let mut response = GeneratePatchesResponse::success();
                response.items = r
                    .items
                    .iter()
                    .map(|i| GeneratePatchesResponseItem {
                        uid: i.uid.clone(),
                        patch_type: patch_type.clone(),
                        patch: ByteString(b"[]".to_vec()),
                    })
                    .collect();
                seen.lock().unwrap().gp.push(r);
                Ok::<_, String>(response)
            }
        })
        .build()
        .unwrap()
        .router()
}

/// Posts `body` to `path` of a fresh server: the JSON answer and what the handlers saw.
async fn post_with(path: &str, body: &[u8], patch_type: PatchType) -> (Value, Seen) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let request = Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_vec()))
        .unwrap();
    let response = router(seen.clone(), patch_type)
        .oneshot(request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let answer = serde_json::from_slice(&bytes).unwrap();
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    (answer, seen)
}

async fn post(path: &str, body: &[u8]) -> (Value, Seen) {
    post_with(path, body, PatchType::JsonPatch).await
}

/// The BeforeClusterCreate request the handler got (the answer must be Success).
async fn bcc(body: &str) -> BeforeClusterCreateRequest {
    let (answer, mut seen) = post(BCC, body.as_bytes()).await;
    assert_eq!(answer["status"], "Success", "{body}: {answer}");
    seen.bcc.pop().unwrap()
}

/// The GeneratePatches request the handler got (the answer must be Success).
async fn gp(body: &str) -> GeneratePatchesRequest {
    let (answer, mut seen) = post(GP, body.as_bytes()).await;
    assert_eq!(answer["status"], "Success", "{body}: {answer}");
    seen.gp.pop().unwrap()
}

/// The Failure message for `body`; the handler must not have been called.
async fn refused(path: &str, body: &[u8]) -> String {
    let (answer, seen) = post(path, body).await;
    assert_eq!(
        answer["status"],
        "Failure",
        "{}: {answer}",
        String::from_utf8_lossy(body)
    );
    assert!(seen.bcc.is_empty() && seen.gp.is_empty());
    let message = answer["message"].as_str().unwrap().to_string();
    assert!(
        message.starts_with("error unmarshalling request: "),
        "{message}"
    );
    message
}

#[tokio::test]
async fn field_names_fold_like_go() {
    // Go: a key sets the field with exactly its name, else the field whose name is equal
    // under case folding. A Go client whose structs lack json tags writes Go's field names.
    let r = bcc(r#"{"Cluster":{"Metadata":{"Name":"c1","NameSpace":"ns"},
                    "SPEC":{"Topology":{"Version":"v1.31.0"}}},
                   "Settings":{"Key":"Value","key":"value"}}"#)
    .await;
    assert_eq!(r.cluster.metadata.name.as_deref(), Some("c1"));
    assert_eq!(r.cluster.metadata.namespace.as_deref(), Some("ns"));
    assert_eq!(r.cluster.spec.topology.version, "v1.31.0");
    // Map keys are data, never folded: both settings stay.
    assert_eq!(r.settings.len(), 2);
    assert_eq!(r.settings["Key"], "Value");
}

#[tokio::test]
async fn unicode_folding_like_go() {
    // Go folds with unicode.ToUpper(unicode.ToLower(r)): the Kelvin sign (U+212A) is "K" and
    // the long s (U+017F) is "S", so "\u212aind" sets kind and "ſettings" sets settings.
    let r = bcc("{\"\\u212aind\":\"BeforeClusterCreateRequest\",\"\u{17f}ettings\":{\"a\":\"b\"}}")
        .await;
    assert_eq!(r.kind, "BeforeClusterCreateRequest");
    assert_eq!(r.settings["a"], "b");
    // A key that only looks alike (ü is not u) sets nothing.
    let r = bcc("{\"cl\u{fc}ster\":{\"metadata\":{\"name\":\"x\"}}}").await;
    assert_eq!(r.cluster.metadata.name, None);
}

#[tokio::test]
async fn unknown_fields_are_ignored() {
    // Go: keys that name no field are skipped, whatever their value (a newer Cluster API may
    // send fields this version does not know).
    let r = bcc(r#"{"newField":{"deep":[1,2.5,{"x":null}],"s":"\u00e9"},
                   "cluster":{"metadata":{"name":"c"},"futureSpec":[true]}}"#)
    .await;
    assert_eq!(r.cluster.metadata.name.as_deref(), Some("c"));
}

#[tokio::test]
async fn null_leaves_zero_values() {
    // Go: json.Marshal writes a nil slice, map or pointer as null, and decoding null leaves
    // a string, number, bool or struct as it is and sets a slice, map or pointer to nil.
    let r = bcc(r#"{"apiVersion":null,"kind":null,"settings":null,
                   "cluster":{"metadata":null,"spec":{"paused":null,"topology":null,
                   "clusterNetwork":{"apiServerPort":null}}}}"#)
    .await;
    assert_eq!(r, BeforeClusterCreateRequest::default());
    let r = gp(r#"{"items":null,"variables":null}"#).await;
    assert!(r.items.is_empty() && r.variables.is_empty());
    let r = gp(
        r#"{"items":[{"uid":null,"holderReference":null,"object":null,"variables":null},null]}"#,
    )
    .await;
    assert_eq!(r.items.len(), 2);
    assert_eq!(r.items[0], r.items[1]);
    assert_eq!(r.items[0].uid, "");
}

#[tokio::test]
async fn k8s_types_take_go_zero_values() {
    // Go: a metav1.Condition with fields left out or null decodes to the zero value of each
    // (its lastTransitionTime is time.Time{}, 0001-01-01T00:00:00Z). k8s-openapi's Rust type
    // requires lastTransitionTime; the codec supplies Go's zero time, in the streaming pass and
    // in the careful one (a repeated key) alike.
    let zero = k8s_openapi::jiff::Timestamp::from_second(-62135596800).unwrap();
    for body in [
        r#"{"cluster":{"status":{"conditions":[{},{"type":"Ready","lastTransitionTime":null,"message":null}]}}}"#,
        r#"{"cluster":{"status":{"conditions":[{},{"type":"x","type":"Ready","lastTransitionTime":null}]}}}"#,
        r#"{"cluster":{"status":{"conditions":[null,{"type":"Ready"}]}}}"#,
    ] {
        let r = bcc(body).await;
        let conditions = &r.cluster.status.conditions;
        assert_eq!(conditions.len(), 2, "{body}");
        for c in conditions {
            assert_eq!(c.last_transition_time.0, zero, "{body}");
            assert_eq!(
                (c.message.as_str(), c.reason.as_str(), c.status.as_str()),
                ("", "", "")
            );
            assert_eq!(c.observed_generation, None);
        }
        assert_eq!(
            (conditions[0].type_.as_str(), conditions[1].type_.as_str()),
            ("", "Ready")
        );
        // Encoded again, the zero time is written as a time (Go's metav1.Time writes null).
        let encoded = serde_json::to_value(&conditions[0]).unwrap();
        assert_eq!(encoded["lastTransitionTime"], "0001-01-01T00:00:00Z");
    }
    // A time that is present is read as written; one Go cannot parse is refused, as in Go.
    let r = bcc(
        r#"{"cluster":{"status":{"conditions":[{"lastTransitionTime":"2026-01-02T03:04:05Z"}]}}}"#,
    )
    .await;
    assert_eq!(
        r.cluster.status.conditions[0]
            .last_transition_time
            .0
            .as_second(),
        1767323045
    );
    refused(
        BCC,
        br#"{"cluster":{"status":{"conditions":[{"lastTransitionTime":""}]}}}"#,
    )
    .await;
    // The other k8s-openapi types the messages reach take {} already (their strings default).
    let r = bcc(r#"{"cluster":{"metadata":{"ownerReferences":[{}],"managedFields":[{}]}}}"#).await;
    assert_eq!(r.cluster.metadata.owner_references.unwrap()[0].uid, "");
}

#[tokio::test]
async fn repeated_keys_last_wins() {
    // Go applies each occurrence in turn: a string takes the last value (also when the
    // repeats differ only in case), null after a value changes nothing for a string.
    let r = bcc(r#"{"kind":"x","Kind":"BeforeClusterCreateRequest","KIND":null}"#).await;
    assert_eq!(r.kind, "BeforeClusterCreateRequest");
    // Repeated objects decode into the same struct (merged); maps merge too.
    let r = bcc(
        r#"{"cluster":{"metadata":{"name":"a"}},"Cluster":{"metadata":{"namespace":"ns"}},
                   "settings":{"a":"1"},"settings":{"b":"2","a":"3"}}"#,
    )
    .await;
    assert_eq!(r.cluster.metadata.name.as_deref(), Some("a"));
    assert_eq!(r.cluster.metadata.namespace.as_deref(), Some("ns"));
    assert_eq!(r.settings.len(), 2);
    assert_eq!(r.settings["a"], "3");
    // A slice is replaced by each occurrence, and null sets it to nil.
    let r = gp(r#"{"items":[{"uid":"1"}],"items":[{"uid":"2"},{"uid":"3"}]}"#).await;
    let uids: Vec<&str> = r.items.iter().map(|i| i.uid.as_str()).collect();
    assert_eq!(uids, ["2", "3"]);
    let r = gp(r#"{"items":[{"uid":"1"}],"Items":null}"#).await;
    assert!(r.items.is_empty());
    // A null map resets it; a later object starts a new one.
    let r = bcc(r#"{"settings":{"a":"1"},"settings":null,"settings":{"b":"2"}}"#).await;
    assert_eq!(r.settings.len(), 1);
    assert_eq!(r.settings["b"], "2");
}

#[tokio::test]
async fn numbers_are_read_as_go_reads_them() {
    // Go parses an int32 field with strconv.ParseInt: a fraction, an exponent or a value
    // out of range is an UnmarshalTypeError, even when the value is integral (6443.0).
    let port = |p: &str| {
        format!(r#"{{"cluster":{{"spec":{{"clusterNetwork":{{"apiServerPort":{p}}}}}}}}}"#)
    };
    assert_eq!(
        bcc(&port("6443"))
            .await
            .cluster
            .spec
            .cluster_network
            .api_server_port,
        Some(6443)
    );
    assert_eq!(
        bcc(&port("-2147483648"))
            .await
            .cluster
            .spec
            .cluster_network
            .api_server_port,
        Some(i32::MIN)
    );
    for bad in [
        "6443.0",
        "6.443e3",
        "1E2",
        "2147483648",
        "-2147483649",
        "99999999999999999999999",
    ] {
        let message = refused(BCC, port(bad).as_bytes()).await;
        assert!(
            message.contains(&format!(
                "cannot unmarshal number {bad} into Go value of type int32"
            )),
            "{message}"
        );
        assert!(
            message.contains(".cluster.spec.clusterNetwork.apiServerPort"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn wrong_json_types_are_refused() {
    // Go: a number for a string field, a string for a bool, an object for a list are
    // UnmarshalTypeErrors, and Unmarshal returns the error.
    for body in [
        r#"{"cluster":{"metadata":{"name":5}}}"#,
        r#"{"cluster":{"spec":{"paused":"true"}}}"#,
        r#"{"settings":{"a":1}}"#,
        r#"{"cluster":[]}"#,
        r#"[]"#,
        r#""BeforeClusterCreateRequest""#,
    ] {
        refused(BCC, body.as_bytes()).await;
    }
    refused(GP, br#"{"items":{}}"#).await;
}

#[tokio::test]
async fn invalid_utf8_becomes_replacement() {
    // Go: invalid UTF-8 in a string is replaced by U+FFFD, one per bad byte, and so is an
    // unpaired surrogate escape.
    let r = bcc_bytes(b"{\"cluster\":{\"metadata\":{\"name\":\"a\xffb\xe2\x82c\"}}}").await;
    assert_eq!(
        r.cluster.metadata.name.as_deref(),
        Some("a\u{fffd}b\u{fffd}\u{fffd}c")
    );
    let r = bcc(r#"{"cluster":{"metadata":{"name":"\ud800-\u00e9-\ud83d\ude00"}}}"#).await;
    assert_eq!(
        r.cluster.metadata.name.as_deref(),
        Some("\u{fffd}-\u{e9}-\u{1f600}")
    );
}

async fn bcc_bytes(body: &[u8]) -> BeforeClusterCreateRequest {
    let (answer, mut seen) = post(BCC, body).await;
    assert_eq!(answer["status"], "Success", "{answer}");
    seen.bcc.pop().unwrap()
}

#[tokio::test]
async fn open_string_enums_reach_the_caller() {
    // Go's PatchType is a plain string: a handler may answer any value and it is written as
    // is (the caller, Cluster API, decides what to do with it).
    let (answer, _) = post_with(
        GP,
        br#"{"items":[{"uid":"u"}]}"#,
        PatchType::Other("StrategicMergePatch".into()),
    )
    .await;
    assert_eq!(answer["status"], "Success");
    assert_eq!(answer["items"][0]["patchType"], "StrategicMergePatch");
}

#[tokio::test]
async fn missing_or_null_patch_type_is_empty_like_go() {
    // Go's zero PatchType is "" and the item's patchType has no omitempty: a Go handler that
    // leaves it unset answers "patchType":"". A handler here that leaves it at its default
    // answers the same, never JSONPatch.
    let (answer, _) = post_with(GP, br#"{"items":[{"uid":"u"}]}"#, PatchType::default()).await;
    assert_eq!(answer["status"], "Success");
    assert_eq!(answer["items"][0]["patchType"], "");
    let item: GeneratePatchesResponseItem =
        serde_json::from_value(answer["items"][0].clone()).unwrap();
    assert!(item.patch_type.is_empty());
    // And a default item, as a handler would build it with `..Default::default()`.
    assert!(GeneratePatchesResponseItem::default().patch_type.is_empty());
}

#[tokio::test]
async fn trailing_data_follows_go_per_side() {
    // Go's server helper decodes with json.Unmarshal: only white space may follow the value.
    bcc("{\"cluster\":{}} \r\n\t").await;
    let message = refused(BCC, br#"{"cluster":{}} {"cluster":{}}"#).await;
    assert!(message.contains("after top-level value"), "{message}");
    refused(BCC, b"{} x").await;
}

#[tokio::test]
async fn malformed_json_is_refused() {
    // Go checks the whole body is one well-formed value before decoding, ignored parts too.
    for body in [
        &b""[..],
        b"   ",
        b"{",
        br#"{"cluster":}"#,
        br#"{"cluster":{},}"#,
        br#"{'cluster':{}}"#,
        br#"{"unknown":[1,]}"#,
        br#"{"unknown":"\x41"}"#,
        br#"{"unknown":01}"#,
        br#"{"unknown":NaN}"#,
        b"{\"unknown\":\"tab\there\"}",
    ] {
        refused(BCC, body).await;
    }
}

#[tokio::test]
async fn deep_nesting_is_refused() {
    // Go refuses nesting past 10,000 levels; this side stops at 128 (deeper than any hook
    // message), so a deep body cannot exhaust the stack.
    let ok = format!(
        "{{\"items\":[{{\"object\":{}{}}}]}}",
        "[".repeat(120),
        "]".repeat(120)
    );
    assert_eq!(gp(&ok).await.items.len(), 1);
    let deep = format!(
        "{{\"items\":[{{\"object\":{}{}}}]}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let message = refused(GP, deep.as_bytes()).await;
    assert!(message.contains("exceeded max depth of 128"), "{message}");
}

#[tokio::test]
async fn a_message_past_the_memory_budget_is_a_failure() {
    // Not a Go rule: the body cap limits bytes, not what they decode into. 20 MiB of empty
    // items would decode into millions of structs; the server refuses it with 200 + Failure
    // once the decoder's budget is spent, without calling the handler.
    let mut body = b"{\"items\":[".to_vec();
    while body.len() < (20 << 20) - 8 {
        body.extend_from_slice(b"{},");
    }
    body.extend_from_slice(b"{}]}");
    let message = refused(GP, &body).await;
    assert!(message.contains("memory budget"), "{message}");
    assert!(message.contains(".items["), "{message}");
}

/// A GeneratePatches body of 20,000 items, and what decoding it takes of a shared budget
/// (the same every time: the codec charges by what it decodes, in fixed steps).
fn large_generate_patches() -> (Vec<u8>, usize) {
    let mut body = b"{\"items\":[".to_vec();
    for i in 0..20_000 {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(br#"{"uid":"u","variables":[{"name":"a","value":1}]}"#);
    }
    body.extend_from_slice(b"]}");
    (body.clone(), held_by::<GeneratePatches>(&body))
}

/// What decoding `body` as hook `H`'s request holds of a shared budget.
fn held_by<H: capi_runtime::Hook>(body: &[u8]) -> usize {
    use capi_runtime::wire;
    let shared = wire::SharedBudget::new(usize::MAX);
    let limits = wire::Limits::default().with_shared_budget(shared);
    let decoded = wire::decode_request_with::<H>(body, &limits).unwrap();
    decoded.hold.bytes()
}

/// Posts `body` to `path` of `router`; the JSON answer, which is always HTTP 200.
async fn post_to(router: &axum::Router, path: &str, body: Vec<u8>) -> Value {
    let request = Request::post(path).body(Body::from(body)).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    serde_json::from_slice::<Value>(&bytes).unwrap()
}

/// A server with a shared decode budget of `budget` bytes whose GeneratePatches handler, for
/// a request of more than one item, reports that it was entered and waits for `release`.
fn gated_router(
    budget: usize,
    blocking: bool,
) -> (
    axum::Router,
    tokio::sync::mpsc::UnboundedReceiver<()>,
    tokio::sync::mpsc::UnboundedSender<()>,
) {
    use capi_runtime::server::{HandlerOptions, Limits};
    let (entered_tx, entered) = tokio::sync::mpsc::unbounded_channel::<()>();
    let (release, gate) = tokio::sync::mpsc::unbounded_channel::<()>();
    let gate = Arc::new(tokio::sync::Mutex::new(gate));
    let options = if blocking {
        HandlerOptions::new("h").blocking()
    } else {
        HandlerOptions::new("h")
    };
    let router = Server::builder()
        .limits(Limits::default().max_decode_bytes(budget))
        .handle(options, move |r: GeneratePatchesRequest| {
            let (entered, gate) = (entered_tx.clone(), gate.clone());
            async move {
                if r.items.len() > 1 {
                    entered.send(()).unwrap();
                    gate.lock().await.recv().await;
                }
                Ok::<_, String>(GeneratePatchesResponse::success())
            }
        })
        .build()
        .unwrap()
        .router();
    (router, entered, release)
}

/// Posts `body` and waits until the gated handler has it (the request then holds its share
/// of the budget); the request's task, to be released later.
async fn post_and_hold(
    router: &axum::Router,
    entered: &mut tokio::sync::mpsc::UnboundedReceiver<()>,
    body: Vec<u8>,
) -> tokio::task::JoinHandle<Value> {
    let router = router.clone();
    let mut task = tokio::spawn(async move { post_to(&router, GP, body).await });
    tokio::select! {
        // A request refused instead of held would otherwise leave this waiting.
        answer = &mut task => panic!("the request was answered before its handler held it: {:?}", answer),
        seen = entered.recv() => seen.unwrap(),
    }
    task
}

async fn requests_decode_within_one_shared_budget(blocking: bool) {
    // Not a Go rule: each message decodes within its own budget, and the requests one server
    // decodes and handles at once share Limits::max_decode_bytes. While a handler still holds
    // a large decoded request, another that does not fit beside it is answered 200 + Failure
    // at once; a small one still fits; once the first is done, its share is back. The budget
    // is sized from what the body is measured to take, so nothing here depends on timing.
    let (large, held) = large_generate_patches();
    let step = capi_runtime::wire::SharedBudget::STEP;
    assert!(held >= 4 * step, "{held}");
    let budget = held + step;
    let (router, mut entered, release) = gated_router(budget, blocking);
    let first = post_and_hold(&router, &mut entered, large.clone()).await;
    let answer = post_to(&router, GP, large.clone()).await;
    assert_eq!(answer["status"], "Failure", "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("shared memory budget of {budget} bytes")),
        "{message}"
    );
    // A small request still fits beside the held one.
    let answer = post_to(&router, GP, br#"{"items":[{"uid":"u"}]}"#.to_vec()).await;
    assert_eq!(answer["status"], "Success", "{answer}");
    release.send(()).unwrap();
    assert_eq!(first.await.unwrap()["status"], "Success");
    // The first request's share came back with the end of its work (before its answer).
    let second = post_and_hold(&router, &mut entered, large).await;
    release.send(()).unwrap();
    assert_eq!(second.await.unwrap()["status"], "Success");
}

#[tokio::test]
async fn requests_decode_within_one_shared_budget_on_the_blocking_pool() {
    requests_decode_within_one_shared_budget(true).await;
}

#[tokio::test]
async fn requests_decode_within_one_shared_budget_on_the_worker() {
    requests_decode_within_one_shared_budget(false).await;
}

#[tokio::test]
async fn discovery_decodes_within_the_shared_budget() {
    // Discovery's request is decoded within the same budget: with a large request holding
    // all of it, Discovery is answered Failure; once that request is done, it is answered.
    use capi_runtime::hooks::v1alpha1::Discovery;
    use capi_runtime::server::discovery_path;
    let discovery =
        br#"{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoveryRequest"}"#;
    assert!(held_by::<Discovery>(discovery) > 0);
    let (large, held) = large_generate_patches();
    let (router, mut entered, release) = gated_router(held, false);
    let first = post_and_hold(&router, &mut entered, large).await;
    let answer = post_to(&router, &discovery_path(), discovery.to_vec()).await;
    assert_eq!(answer["kind"], "DiscoveryResponse", "{answer}");
    assert_eq!(answer["status"], "Failure", "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("shared memory budget of {held} bytes")),
        "{message}"
    );
    release.send(()).unwrap();
    assert_eq!(first.await.unwrap()["status"], "Success");
    let answer = post_to(&router, &discovery_path(), discovery.to_vec()).await;
    assert_eq!(answer["status"], "Success", "{answer}");
    assert!(answer["handlers"].is_array(), "{answer}");
}
