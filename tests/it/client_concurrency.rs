//! The concurrent mode of `call_all_extensions` gives exactly what the sequential mode gives,
//! over random answers, failures, policies and delays from a real HTTPS server.

use crate::support::{extension, tls};

use capi_runtime::client::{CallAllOptions, ForObject};
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use extension::{config, handler, ready_client};
use proptest::prelude::*;
use serde_json::json;
use tls::{TestCa, TestServer, answer, raw};

#[derive(Clone, Debug)]
enum Outcome {
    Success { retry: i32, message: String },
    Failure,
    Unknown,
    Status500,
    Garbage,
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        4 => (0..4i32, prop::sample::select(vec!["", "a", "b", "wait"]))
            .prop_map(|(retry, m)| Outcome::Success { retry, message: m.to_string() }),
        1 => Just(Outcome::Failure),
        1 => Just(Outcome::Unknown),
        1 => Just(Outcome::Status500),
        1 => Just(Outcome::Garbage),
    ]
}

type Script = Arc<Mutex<HashMap<String, (Outcome, u64)>>>;

#[test]
fn concurrent_call_all_matches_sequential() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let ca = TestCa::new("ca");
    let script: Script = Arc::default();
    let served = script.clone();
    let server = runtime.block_on(TestServer::with_ca(
        &ca,
        answer(move |r| {
            let name = r.path.rsplit('/').next().unwrap().to_string();
            // A request of an earlier case can reach the server after that case ended (the
            // concurrent mode drops calls it no longer needs); names are unique per case, so
            // such a straggler finds no entry and gets a 404 nobody reads.
            let scripted = served.lock().unwrap().get(&name).cloned();
            async move {
                let Some((outcome, delay)) = scripted else {
                    return raw(404, format!("{name}: not in this case's script"));
                };
                tokio::time::sleep(Duration::from_millis(delay)).await;
                match outcome {
                    Outcome::Success { retry, message } => {
                        tls::json(json!({"status": "Success", "retryAfterSeconds": retry, "message": message}))
                    }
                    Outcome::Failure => tls::json(json!({"status": "Failure", "message": name})),
                    Outcome::Unknown => tls::json(json!({"message": name})),
                    Outcome::Status500 => raw(500, name),
                    Outcome::Garbage => raw(200, "{"),
                }
            }
        }),
    ));

    let config_runs = ProptestConfig {
        cases: 32,
        ..ProptestConfig::default()
    };
    let case = AtomicUsize::new(0);
    proptest!(config_runs, |(
        handlers in prop::collection::vec((outcome(), any::<bool>(), 0u64..12), 0..7),
        limit in 1usize..5,
    )| {
        let case = case.fetch_add(1, Ordering::Relaxed);
        let name = |i: usize| format!("c{case}-h{i}");
        {
            let mut script = script.lock().unwrap();
            script.clear();
            for (i, (o, _, delay)) in handlers.iter().enumerate() {
                script.insert(name(i), (o.clone(), *delay));
            }
        }
        let list: Vec<_> = handlers
            .iter()
            .enumerate()
            .map(|(i, (_, ignore, _))| {
                let h = handler(&name(i), "BeforeClusterCreate");
                if *ignore { h.ignore() } else { h }
            })
            .collect();
        let client = ready_client(&[config("ext", &server.url(), &ca.pem(), &list)]);
        let object = ForObject::new("default", "c");
        let run = |options| {
            let client = client.clone();
            let object = object.clone();
            runtime.block_on(async move {
                client
                    .call_all_extensions_with(&BeforeClusterCreateRequest::default(), &object, options)
                    .await
                    .map(|r| (r.status, r.retry_after_seconds, r.message))
                    .map_err(|e| e.to_string())
            })
        };
        let sequential = run(CallAllOptions::sequential());
        let concurrent = run(CallAllOptions::concurrent(limit));
        prop_assert_eq!(sequential, concurrent);
    });
}

#[test]
fn decoding_any_answer_never_panics() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let ca = TestCa::new("ca");
    let body: Arc<Mutex<Vec<u8>>> = Arc::default();
    let served = body.clone();
    let server = runtime.block_on(TestServer::with_ca(
        &ca,
        answer(move |_| {
            let body = served.lock().unwrap().clone();
            async move { raw(200, body) }
        }),
    ));
    let client = ready_client(&[config(
        "ext",
        &server.url(),
        &ca.pem(),
        &[handler("h", "BeforeClusterCreate")],
    )]);
    let json_like = prop::collection::vec(
        prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"status\"",
            "\"Status\"",
            "\"Success\"",
            "\"Failure\"",
            "\"retryAfterSeconds\"",
            "\"message\"",
            "null",
            "1",
            "-1",
            "1e999",
            "99999999999",
            "\"\\u0000\"",
            "true",
            " ",
        ]),
        0..40,
    )
    .prop_map(|parts| parts.concat().into_bytes());
    let bytes = prop_oneof![prop::collection::vec(any::<u8>(), 0..200), json_like];
    let config_runs = ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    };
    proptest!(config_runs, |(b in bytes)| {
        *body.lock().unwrap() = b;
        let result = runtime.block_on(client.call_extension(
            "h.ext",
            &BeforeClusterCreateRequest::default(),
            &ForObject::new("default", "c"),
        ));
        // Any outcome is fine as long as it is a value, not a panic.
        drop(result);
    });
}
