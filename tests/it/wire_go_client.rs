//! The runtime client reads response bodies as Go's `encoding/json` reads them (the rules
//! table of `capi_runtime::wire`): one test per rule, each with the body a Go extension
//! could answer, served by a real HTTPS server on loopback.

use crate::support::{extension, tls};

use capi_runtime::client::{CallError, Client, ExchangeError, ForObject};
use capi_runtime::hooks::v1alpha1::{BeforeClusterCreateRequest, BeforeClusterUpgradeRequest};
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterUpgradeResponse, GeneratePatchesRequest, GeneratePatchesResponse, PatchType,
    ResponseStatus,
};
use capi_runtime::wire::DecodeErrorKind;
use extension::{config, handler, ready_client};
use tls::{TestCa, TestServer, answer, raw};

fn object() -> ForObject {
    ForObject::new("default", "c")
}

/// A server answering every call with `body`, and a client with handlers `h` (policy Fail)
/// and `i` (policy Ignore) of `hook` on it.
async fn serving(body: Vec<u8>, hook: &str) -> (TestServer, Client) {
    let ca = TestCa::new("ca");
    let body = axum::body::Bytes::from(body);
    let server = TestServer::with_ca(
        &ca,
        answer(move |_| {
            let body = body.clone();
            async move { raw(200, body) }
        }),
    )
    .await;
    let client = ready_client(&[config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("h", hook), handler("i", hook).ignore()],
    )]);
    (server, client)
}

async fn patches(body: &str) -> Result<GeneratePatchesResponse, CallError> {
    patches_bytes(body.as_bytes().to_vec(), "h.ext").await
}

async fn patches_bytes(body: Vec<u8>, handler: &str) -> Result<GeneratePatchesResponse, CallError> {
    let (_server, client) = serving(body, "GeneratePatches").await;
    client
        .call_extension(handler, &GeneratePatchesRequest::default(), &object())
        .await
}

async fn upgrade(body: &str) -> Result<BeforeClusterUpgradeResponse, CallError> {
    let (_server, client) = serving(body.as_bytes().to_vec(), "BeforeClusterUpgrade").await;
    client
        .call_extension("h.ext", &BeforeClusterUpgradeRequest::default(), &object())
        .await
}

/// The decode error inside a call error.
fn decode_error(err: &CallError) -> &capi_runtime::wire::DecodeError {
    match err {
        CallError::Exchange {
            source: ExchangeError::Decode { error, .. },
            ..
        } => error,
        other => panic!("expected a decode error, got {other}"),
    }
}

#[tokio::test]
async fn field_names_fold_like_go() {
    // Go: a key sets the field with exactly its name, else the field equal under case
    // folding; a Go extension with untagged structs writes "Status", "Items", "UID".
    let r = patches(r#"{"Status":"Success","Message":"m","Items":[{"UID":"u","PatchType":"JSONMergePatch","Patch":"e30="}]}"#)
        .await
        .unwrap();
    assert_eq!(r.status, ResponseStatus::Success);
    assert_eq!(r.message, "m");
    assert_eq!(r.items[0].uid, "u");
    assert_eq!(r.items[0].patch_type, PatchType::JsonMergePatch);
    assert_eq!(r.items[0].patch.0, b"{}");
}

#[tokio::test]
async fn unicode_folding_like_go() {
    // Go folds the long s (U+017F) to "S" and the Kelvin sign (U+212A) to "K".
    let r = upgrade("{\"\u{17f}tatus\":\"Success\",\"RetryAfterSecond\\u017f\":4}")
        .await
        .unwrap();
    assert_eq!(r.retry_after_seconds, 4);
    let r = patches("{\"status\":\"Success\",\"\u{212a}ind\":\"GeneratePatchesResponse\"}")
        .await
        .unwrap();
    assert_eq!(r.status, ResponseStatus::Success);
}

#[tokio::test]
async fn unknown_fields_are_ignored() {
    // Go: a newer extension may answer fields this client does not know.
    let r = upgrade(r#"{"status":"Success","retryAfterSeconds":3,"newField":{"a":[1,2,{"b":null}]},"more":1.5e300}"#)
        .await
        .unwrap();
    assert_eq!(r.retry_after_seconds, 3);
}

#[tokio::test]
async fn null_leaves_zero_values() {
    // Go: json.Marshal writes a nil slice as null; decoding null leaves zero values.
    let r = patches(r#"{"status":"Success","message":null,"items":null}"#)
        .await
        .unwrap();
    assert_eq!((r.message.as_str(), r.items.len()), ("", 0));
    let r = patches(
        r#"{"status":"Success","items":[{"uid":null,"patchType":null,"patch":null},null]}"#,
    )
    .await
    .unwrap();
    assert_eq!(r.items.len(), 2);
    assert_eq!(r.items[0], r.items[1]);
    // A null status is no status (Go leaves the string empty): an unknown status error.
    let err = patches(r#"{"status":null}"#).await.unwrap_err();
    assert!(
        matches!(&err, CallError::UnknownStatus { status, .. } if status.is_empty()),
        "{err}"
    );
}

#[tokio::test]
async fn repeated_keys_last_wins() {
    // Go applies every occurrence: the last status and message win, also across case.
    let r = upgrade(r#"{"status":"Failure","Status":"Success","message":"a","MESSAGE":"b","retryAfterSeconds":1,"retryAfterSeconds":9}"#)
        .await
        .unwrap();
    assert_eq!(r.message, "b");
    assert_eq!(r.retry_after_seconds, 9);
    let err = upgrade(r#"{"status":"Success","status":"Failure","message":"no"}"#)
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::Failure { .. }), "{err}");
    // A slice is replaced, not appended to.
    let r = patches(r#"{"status":"Success","items":[{"uid":"1"}],"Items":[{"uid":"2"}]}"#)
        .await
        .unwrap();
    assert_eq!(r.items.len(), 1);
    assert_eq!(r.items[0].uid, "2");
    // Go decodes every occurrence: a mistyped one fails the message, even when a later one
    // would do.
    let err = upgrade(r#"{"status":"Success","retryAfterSeconds":2.5,"retryAfterSeconds":2}"#)
        .await
        .unwrap_err();
    assert_eq!(decode_error(&err).kind(), DecodeErrorKind::Number, "{err}");
    // A later null leaves a field Go holds by value (patchType is a string) as it was; the
    // elements of a repeated array merge.
    let r = patches(r#"{"status":"Success","items":[{"uid":"1","patchType":"JSONPatch"}],"items":[{"patchType":null}]}"#)
        .await
        .unwrap();
    assert_eq!(
        (r.items[0].uid.as_str(), &r.items[0].patch_type),
        ("1", &PatchType::JsonPatch)
    );
    // A shorter repeat only shortens the slice: a longer one after it decodes into the
    // elements it cut off again. An empty array drops them.
    let r = patches(r#"{"status":"Success","items":[{"uid":"1"},{"uid":"2"}],"items":[{"uid":"3"}],"items":[{},{}]}"#)
        .await
        .unwrap();
    let uids: Vec<&str> = r.items.iter().map(|i| i.uid.as_str()).collect();
    assert_eq!(uids, ["3", "2"]);
    let r = patches(
        r#"{"status":"Success","items":[{"uid":"1"},{"uid":"2"}],"items":[],"items":[{},{}]}"#,
    )
    .await
    .unwrap();
    let uids: Vec<&str> = r.items.iter().map(|i| i.uid.as_str()).collect();
    assert_eq!(uids, ["", ""]);
}

#[tokio::test]
async fn numbers_are_read_as_go_reads_them() {
    // Go: retryAfterSeconds is an int32; 5.0, 5e0 and 2147483648 are UnmarshalTypeErrors.
    assert_eq!(
        upgrade(r#"{"status":"Success","retryAfterSeconds":2147483647}"#)
            .await
            .unwrap()
            .retry_after_seconds,
        i32::MAX
    );
    for bad in ["5.0", "5e0", "2147483648", "-2147483649"] {
        let err = upgrade(&format!(
            r#"{{"status":"Success","retryAfterSeconds":{bad}}}"#
        ))
        .await
        .unwrap_err();
        let e = decode_error(&err);
        assert_eq!(e.kind(), DecodeErrorKind::Number, "{bad}: {err}");
        assert_eq!(e.path(), ".retryAfterSeconds");
    }
}

#[tokio::test]
async fn wrong_json_types_are_refused() {
    // Go: a number for a string, a string for a number, an object for a list are errors.
    for body in [
        r#"{"status":"Success","message":5}"#,
        r#"{"status":5}"#,
        r#"{"status":"Success","items":{}}"#,
        r#"{"status":"Success","items":[{"patch":"not base64!"}]}"#,
        r#"[{"status":"Success"}]"#,
    ] {
        let err = patches(body).await.unwrap_err();
        decode_error(&err);
    }
}

#[tokio::test]
async fn invalid_utf8_becomes_replacement() {
    // Go replaces each invalid UTF-8 byte of a string with U+FFFD.
    let r = patches_bytes(
        b"{\"status\":\"Success\",\"message\":\"a\xffb\xc3\"}".to_vec(),
        "h.ext",
    )
    .await
    .unwrap();
    assert_eq!(r.message, "a\u{fffd}b\u{fffd}");
}

#[tokio::test]
async fn open_string_enums_reach_the_caller() {
    // Go's PatchType is a plain string: an unknown value decodes and reaches the caller. It
    // is not a decode failure, so under Ignore it does not become a Success without patches.
    for handler in ["h.ext", "i.ext"] {
        let r = patches_bytes(
            br#"{"status":"Success","items":[{"uid":"u","patchType":"StrategicMergePatch","patch":"e30="}]}"#.to_vec(),
            handler,
        )
        .await
        .unwrap();
        assert_eq!(r.items.len(), 1, "{handler}");
        assert_eq!(
            r.items[0].patch_type,
            PatchType::Other("StrategicMergePatch".into())
        );
    }
}

#[tokio::test]
async fn missing_or_null_patch_type_is_empty_like_go() {
    // Go's GeneratePatchesResponseItem.PatchType is a plain string: a missing or null
    // patchType leaves it "" (the zero value), not JSONPatch; Cluster API then applies no
    // patch of that item. The item reaches the caller with the empty type, also under Ignore.
    for handler in ["h.ext", "i.ext"] {
        let r = patches_bytes(
            br#"{"status":"Success","items":[{"uid":"a","patch":"W10="},{"uid":"b","patchType":null,"patch":"W10="},{"uid":"c","patchType":"","patch":"W10="},{"uid":"d","patchType":null,"patchType":null,"patch":"W10="}]}"#.to_vec(),
            handler,
        )
        .await
        .unwrap();
        // `d` repeats its null (decoded in the careful mode): still the zero value.
        assert_eq!(r.items.len(), 4, "{handler}");
        for item in &r.items {
            assert_eq!(
                item.patch_type,
                PatchType::Other(String::new()),
                "{}",
                item.uid
            );
            assert!(item.patch_type.is_empty());
            assert_eq!(item.patch_type.as_str(), "");
        }
    }
}

#[tokio::test]
async fn trailing_data_follows_go_per_side() {
    // Cluster API's client decodes with json.NewDecoder(body).Decode: it reads the first
    // value and never looks at what follows.
    let r = upgrade(r#"{"status":"Success","retryAfterSeconds":2}{"status":"Failure"} junk"#)
        .await
        .unwrap();
    assert_eq!(r.retry_after_seconds, 2);
}

#[tokio::test]
async fn malformed_json_is_refused() {
    // Go: a first value that is not well-formed JSON is a decode error.
    for body in [
        "",
        r#"{"status":"Success","#,
        r#"{"status":"Success","unknown":[1,]}"#,
        r#"{"status":"Success","unknown":'x'}"#,
        r#"{"status":"Success","unknown":-}"#,
    ] {
        let err = upgrade(body).await.unwrap_err();
        assert_eq!(
            decode_error(&err).kind(),
            DecodeErrorKind::Syntax,
            "{body}: {err}"
        );
    }
}

#[tokio::test]
async fn deep_nesting_is_refused() {
    // Go refuses nesting past 10,000 levels; this side at 128.
    let deep = format!(
        "{{\"status\":\"Success\",\"unknown\":{}{}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let err = upgrade(&deep).await.unwrap_err();
    assert_eq!(decode_error(&err).kind(), DecodeErrorKind::TooDeep);
}

#[tokio::test]
async fn nested_schemas_past_the_memory_budget_are_a_typed_error() {
    // Not a Go rule: 20 MiB of variables whose schemas nest `not` 123 deep (the nesting
    // limit) hold 2.5 million boxed schemas, 1.3 GB. The client charges each box and refuses
    // the answer at its budget, under policy Fail and Ignore alike.
    use crate::support::wire_payloads::{CAP, nested_schemas};
    let (_server, client) = serving(nested_schemas(CAP, 123), "DiscoverVariables").await;
    for handler in ["h.ext", "i.ext"] {
        let err = client
            .call_extension(
                handler,
                &capi_runtime::hooks::v1alpha1::DiscoverVariablesRequest::default(),
                &object(),
            )
            .await
            .unwrap_err();
        let e = decode_error(&err);
        assert_eq!(e.kind(), DecodeErrorKind::OverBudget, "{handler}: {err}");
        assert!(e.path().starts_with(".variables["), "{}", e.path());
    }
}

#[test]
fn schemas_nested_to_the_depth_limit_decode_on_small_worker_stacks() {
    // Not a Go rule: the client decodes an answer on the caller's task. Unoptimized, a schema
    // nested to the depth limit takes about 1.9 MiB of stack to decode in the careful mode
    // (here forced by a repeated `name`), which overflowed a tokio worker's 2 MiB; the decoder
    // grows its stack on the heap instead, so it decodes even on 512 KiB workers.
    let nots = capi_runtime::wire::DEFAULT_MAX_DEPTH - 5;
    let body = format!(
        "{{\"status\":\"Success\",\"variables\":[{{\"name\":\"a\",\"name\":\"v\",\
         \"schema\":{{\"openAPIV3Schema\":{}{{}}{}}}}}]}}",
        "{\"not\":".repeat(nots),
        "}".repeat(nots)
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(512 << 10)
        .enable_all()
        .build()
        .unwrap();
    let depth = runtime.block_on(async move {
        tokio::spawn(async move {
            let (_server, client) = serving(body.into_bytes(), "DiscoverVariables").await;
            let r = client
                .call_extension(
                    "h.ext",
                    &capi_runtime::hooks::v1alpha1::DiscoverVariablesRequest::default(),
                    &object(),
                )
                .await
                .unwrap();
            assert_eq!(r.variables[0].name, "v");
            let mut schema = &r.variables[0].schema.open_apiv3_schema;
            let mut depth = 0;
            while let Some(next) = &schema.r#not {
                schema = next;
                depth += 1;
            }
            depth
        })
        .await
        .unwrap()
    });
    assert_eq!(depth, nots);
}

#[tokio::test]
async fn an_answer_past_the_memory_budget_is_a_typed_error_even_under_ignore() {
    // Not a Go rule: 20 MiB of empty variables would decode into millions of structs. The
    // client refuses the answer at its memory budget; the extension did answer, so failure
    // policy Ignore must not turn the refusal into a Success.
    let mut body = b"{\"status\":\"Success\",\"variables\":[".to_vec();
    while body.len() < (20 << 20) - 8 {
        body.extend_from_slice(b"{},");
    }
    body.extend_from_slice(b"{}]}");
    let (_server, client) = serving(body, "DiscoverVariables").await;
    for handler in ["h.ext", "i.ext"] {
        let err = client
            .call_extension(
                handler,
                &capi_runtime::hooks::v1alpha1::DiscoverVariablesRequest::default(),
                &object(),
            )
            .await
            .unwrap_err();
        let e = decode_error(&err);
        assert_eq!(e.kind(), DecodeErrorKind::OverBudget, "{handler}: {err}");
        assert!(
            !e.is_shared_budget(),
            "its own budget, not the client's: {err}"
        );
        assert!(e.path().starts_with(".variables["), "{}", e.path());
    }
}

/// A `Success` answer of BeforeClusterCreate/BeforeClusterUpgrade whose 3 MiB message is far
/// within the per-message budget, and what decoding it holds of a shared budget (the same on
/// every decoding, so tests can size a budget from it without timing).
fn large_answer() -> (Vec<u8>, usize) {
    use capi_runtime::hooks::v1alpha1::BeforeClusterCreate;
    use capi_runtime::wire::{self, Limits, SharedBudget};
    let body = format!(
        "{{\"status\":\"Success\",\"message\":\"{}\"}}",
        "m".repeat(3 << 20)
    )
    .into_bytes();
    let measured = SharedBudget::new(usize::MAX);
    let decoded = wire::decode_response_with::<BeforeClusterCreate>(
        &body,
        &Limits::default().with_shared_budget(measured),
    )
    .unwrap();
    (body, decoded.hold.bytes())
}

/// The error of the handler that failed a `call_all_extensions`.
fn handler_error(err: &CallError) -> (&str, &capi_runtime::wire::DecodeError) {
    match err {
        CallError::Handler { source, .. } => match &**source {
            CallError::Exchange {
                handler,
                source: ExchangeError::Decode { error, .. },
                ..
            } => (handler, error),
            other => panic!("expected a decode error, got {other}"),
        },
        other => panic!("expected a handler error, got {other}"),
    }
}

/// Asserts that `e` is the refusal of the client's shared decode budget of `budget` bytes.
fn assert_shared_refusal(e: &capi_runtime::wire::DecodeError, budget: usize) {
    assert_eq!(e.kind(), DecodeErrorKind::OverBudget, "{e}");
    assert!(e.is_shared_budget(), "{e}");
    assert!(e.is_limit(), "{e}");
    assert!(
        e.message()
            .contains(&format!("client's shared decode budget of {budget} bytes")),
        "{e}"
    );
}

#[tokio::test]
async fn answers_held_at_once_share_the_clients_decode_budget() {
    // Not a Go rule: each answer is within the per-message budget, but the answers one client
    // holds at once share ClientBuilder::max_decode_bytes. call_all_extensions keeps every
    // answer until it aggregates them, so with room for two of four large answers the third
    // is refused with a typed decode error (also under policy Ignore, which must not make a
    // Success of it), in either mode, and nothing waits. Once the call is over, every share
    // is back: two large answers fit again. The budget is sized from the measured hold.
    use capi_runtime::registry::Registry;

    let (large, held) = large_answer();
    assert!(held >= 3 << 20, "{held}");
    let budget = 2 * held + held / 2;
    let ca = TestCa::new("ca");
    let body = axum::body::Bytes::from(large);
    let server = TestServer::with_ca(
        &ca,
        answer(move |_| {
            let body = body.clone();
            async move { raw(200, body) }
        }),
    )
    .await;
    let create = "BeforeClusterCreate";
    let upgrade = "BeforeClusterUpgrade";
    let configs = [config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[
            handler("a", create),
            handler("b", create),
            handler("c", create).ignore(),
            handler("d", create),
            handler("u1", upgrade),
            handler("u2", upgrade),
        ],
    )];
    let registry = Registry::new();
    registry.warm_up(&configs).unwrap();
    let client = Client::builder()
        .registry(registry)
        .max_decode_bytes(budget)
        .build()
        .unwrap();
    assert_eq!(client.decode_bytes_in_use(), 0);

    // One at a time: a and b are held, c (policy Ignore) is refused, d is never called.
    let err = client
        .call_all_extensions(&BeforeClusterCreateRequest::default(), &object())
        .await
        .unwrap_err();
    let (failed, e) = handler_error(&err);
    assert_eq!(failed, "c.ext", "{err}");
    assert_shared_refusal(e, budget);
    assert_eq!(server.received().len(), 3, "d is not called after c failed");
    assert_eq!(client.decode_bytes_in_use(), 0, "all shares are given back");

    // All four at once: whichever answers come first take the room, a later one is refused.
    let err = client
        .call_all_extensions_with(
            &BeforeClusterCreateRequest::default(),
            &object(),
            capi_runtime::client::CallAllOptions::concurrent(4),
        )
        .await
        .unwrap_err();
    assert_shared_refusal(handler_error(&err).1, budget);
    assert_eq!(client.decode_bytes_in_use(), 0, "all shares are given back");

    // Two large answers held together fit, so nothing was kept of the failed calls.
    for _ in 0..2 {
        let r = client
            .call_all_extensions(&BeforeClusterUpgradeRequest::default(), &object())
            .await
            .unwrap();
        assert_eq!(r.status, ResponseStatus::Success);
        assert_eq!(r.message.len(), 2 * (3 << 20) + 2, "both messages, joined");
        assert_eq!(client.decode_bytes_in_use(), 0);
    }
    // One call returns its answer to the caller, which no longer counts.
    let one = client
        .call_extension("c.ext", &BeforeClusterCreateRequest::default(), &object())
        .await
        .unwrap();
    assert_eq!(one.message.len(), 3 << 20);
    assert_eq!(client.decode_bytes_in_use(), 0);
}

#[tokio::test]
async fn discovery_decodes_within_the_clients_decode_budget() {
    // Discovery's answer is decoded within the same shared budget and gives its share back
    // when the discovery is over: with a budget of one step, a 2 MiB answer is refused with
    // the typed decode error, and a small answer is discovered, twice.
    use capi_runtime::client::DiscoveryError;

    use capi_runtime::wire::SharedBudget;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let large = Arc::new(AtomicBool::new(true));
    let ca = TestCa::new("ca");
    let serve_large = large.clone();
    let server = TestServer::with_ca(
        &ca,
        answer(move |_| {
            let message = if serve_large.load(Ordering::SeqCst) {
                "m".repeat(2 << 20)
            } else {
                String::new()
            };
            async move {
                tls::json(serde_json::json!({
                    "status": "Success",
                    "message": message,
                    "handlers": [{"name": "h", "requestHook": {
                        "apiVersion": extension::HOOKS, "hook": "BeforeClusterCreate"}}],
                }))
            }
        }),
    )
    .await;
    let budget = SharedBudget::STEP;
    let client = Client::builder().max_decode_bytes(budget).build().unwrap();
    let cfg = config("ext", &server.url(), &ca.pem(), &[]);
    let err = client.discover(&cfg).await.unwrap_err();
    match &err {
        DiscoveryError::Exchange {
            source: ExchangeError::Decode { error, .. },
            ..
        } => assert_shared_refusal(error, budget),
        other => panic!("expected a decode error, got {other}"),
    }
    assert_eq!(client.decode_bytes_in_use(), 0);
    large.store(false, Ordering::SeqCst);
    for _ in 0..2 {
        let discovered = client.discover(&cfg).await.unwrap();
        assert_eq!(discovered.status.handlers[0].name, "h.ext");
        assert_eq!(client.decode_bytes_in_use(), 0);
    }
}
