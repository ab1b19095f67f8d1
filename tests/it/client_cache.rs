//! The caller-side response cache against a real HTTPS extension: hits, misses when the
//! ExtensionConfig's resourceVersion or the merged settings change, no caching of the answers
//! the Ignore policy makes up (nor of Failure answers), and expiry on an injected clock.

use crate::support::{extension, tls};

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::{CallError, Client, Clock, ForObject, ResponseCache};
use capi_runtime::hooks::v1alpha1::{DiscoverVariablesRequest, ResponseStatus};
use extension::{config, handler, ready_client};
use serde_json::json;
use tls::{TestCa, TestServer, answer, raw};

const HOOK: &str = "DiscoverVariables";
const TTL: Duration = Duration::from_secs(600);

/// A clock that moves only when told to.
#[derive(Clone)]
struct TestClock {
    start: Instant,
    offset: Arc<Mutex<Duration>>,
}

impl TestClock {
    fn new() -> Self {
        TestClock {
            start: Instant::now(),
            offset: Arc::new(Mutex::new(Duration::ZERO)),
        }
    }

    fn advance(&self, by: Duration) {
        *self.offset.lock().unwrap() += by;
    }
}

impl Clock for TestClock {
    fn now(&self) -> Instant {
        self.start + *self.offset.lock().unwrap()
    }
}

/// An extension whose answer names how many calls it received, so that a cached answer can
/// be told from a fresh one; `status` is the HTTP status to answer with (200, or an error).
struct Extension {
    ca: TestCa,
    server: TestServer,
    status: Arc<AtomicU16>,
}

impl Extension {
    async fn start() -> Self {
        let ca = TestCa::new("ca");
        let status = Arc::new(AtomicU16::new(200));
        let calls = Arc::new(AtomicU64::new(0));
        let answer_status = status.clone();
        let server = TestServer::with_ca(
            &ca,
            answer(move |r| {
                let n = calls.fetch_add(1, Ordering::SeqCst) + 1;
                let status = answer_status.load(Ordering::SeqCst);
                async move {
                    match status {
                        200 => {
                            let settings = r.json()["settings"].clone();
                            tls::json(json!({
                                "status": "Success",
                                "message": format!("call {n} with {settings}"),
                            }))
                        }
                        0 => tls::json(json!({"status": "Failure", "message": "no"})),
                        code => raw(code, "down"),
                    }
                }
            }),
        )
        .await;
        Extension { ca, server, status }
    }

    fn config(&self, handlers: &[extension::Handler]) -> ExtensionConfig {
        config("ext", &self.server.url(), &self.ca.pem(), handlers)
    }

    fn calls(&self) -> usize {
        self.server.received().len()
    }
}

fn settings(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

async fn call(
    client: &Client,
    cache: &ResponseCache,
    name: &str,
    request_settings: &[(&str, &str)],
) -> Result<String, CallError> {
    let request = DiscoverVariablesRequest {
        settings: settings(request_settings),
        ..Default::default()
    };
    let response = client
        .call_extension_cached(cache, name, &request, &ForObject::new("default", "cc"))
        .await?;
    assert_eq!(response.status, ResponseStatus::Success);
    Ok(response.message)
}

#[tokio::test]
async fn a_second_call_is_answered_from_the_cache() {
    let ext = Extension::start().await;
    let client = ready_client(&[ext.config(&[handler("h", HOOK)])]);
    let cache = ResponseCache::with_clock(TTL, TestClock::new());
    let first = call(&client, &cache, "h.ext", &[("a", "1")]).await.unwrap();
    let second = call(&client, &cache, "h.ext", &[("a", "1")]).await.unwrap();
    assert_eq!(first, "call 1 with {\"a\":\"1\"}");
    assert_eq!(second, first);
    assert_eq!(ext.calls(), 1, "the second answer came from the cache");
    assert_eq!(cache.len(), 1);

    // Without the cache every call reaches the extension.
    client
        .call_extension(
            "h.ext",
            &DiscoverVariablesRequest::default(),
            &ForObject::new("d", "c"),
        )
        .await
        .unwrap();
    assert_eq!(ext.calls(), 2);
}

#[tokio::test]
async fn a_new_resource_version_misses() {
    let ext = Extension::start().await;
    let mut cfg = ext.config(&[handler("h", HOOK)]);
    let client = ready_client(std::slice::from_ref(&cfg));
    let cache = ResponseCache::with_clock(TTL, TestClock::new());
    call(&client, &cache, "h.ext", &[]).await.unwrap();
    call(&client, &cache, "h.ext", &[]).await.unwrap();
    assert_eq!(ext.calls(), 1);

    // The ExtensionConfig was written again (a re-discovery, say): its entries are retired.
    cfg.metadata.resource_version = Some("2".into());
    client.register(&cfg).unwrap();
    let fresh = call(&client, &cache, "h.ext", &[]).await.unwrap();
    assert_eq!(fresh, "call 2 with null");
    call(&client, &cache, "h.ext", &[]).await.unwrap();
    assert_eq!(ext.calls(), 2, "the new version is cached in turn");
}

#[tokio::test]
async fn other_merged_settings_miss_and_equal_merged_settings_hit() {
    let ext = Extension::start().await;
    let mut cfg = ext.config(&[handler("h", HOOK)]);
    cfg.spec.settings = settings(&[("region", "eu")]);
    let client = ready_client(&[cfg]);
    let cache = ResponseCache::with_clock(TTL, TestClock::new());

    call(&client, &cache, "h.ext", &[("size", "s")])
        .await
        .unwrap();
    call(&client, &cache, "h.ext", &[("size", "m")])
        .await
        .unwrap();
    assert_eq!(ext.calls(), 2, "another request setting is another key");

    // The key holds the settings as sent: the request's `region` overrides the config's.
    call(&client, &cache, "h.ext", &[("size", "s"), ("region", "us")])
        .await
        .unwrap();
    assert_eq!(ext.calls(), 3);
    // Asking for the config's own value gives the settings already sent: a hit.
    let again = call(&client, &cache, "h.ext", &[("region", "eu"), ("size", "s")])
        .await
        .unwrap();
    assert_eq!(again, "call 1 with {\"region\":\"eu\",\"size\":\"s\"}");
    assert_eq!(ext.calls(), 3);
}

#[tokio::test]
async fn ignored_failures_and_failure_answers_are_not_cached() {
    let ext = Extension::start().await;
    let client = ready_client(&[ext.config(&[handler("h", HOOK), handler("i", HOOK).ignore()])]);
    let cache = ResponseCache::with_clock(TTL, TestClock::new());

    ext.status.store(503, Ordering::SeqCst);
    let ignored = call(&client, &cache, "i.ext", &[]).await.unwrap();
    assert_eq!(
        ignored, "",
        "Ignore turns the failed call into an empty success"
    );
    assert!(cache.is_empty(), "an Ignore-path success is not stored");
    assert!(call(&client, &cache, "h.ext", &[]).await.is_err());
    assert!(cache.is_empty());

    ext.status.store(0, Ordering::SeqCst);
    assert!(matches!(
        call(&client, &cache, "h.ext", &[]).await,
        Err(CallError::Failure { .. })
    ));
    assert!(cache.is_empty(), "a Failure answer is not stored");

    // Once the extension answers, the real success is stored and then served.
    ext.status.store(200, Ordering::SeqCst);
    let real = call(&client, &cache, "i.ext", &[]).await.unwrap();
    assert!(real.starts_with("call 4 "), "{real}");
    assert_eq!(call(&client, &cache, "i.ext", &[]).await.unwrap(), real);
    assert_eq!(ext.calls(), 4);
}

#[tokio::test]
async fn entries_expire_after_the_ttl() {
    let ext = Extension::start().await;
    let client = ready_client(&[ext.config(&[handler("h", HOOK)])]);
    let clock = TestClock::new();
    let cache = ResponseCache::with_clock(TTL, clock.clone());

    call(&client, &cache, "h.ext", &[]).await.unwrap();
    clock.advance(TTL - Duration::from_secs(1));
    call(&client, &cache, "h.ext", &[]).await.unwrap();
    assert_eq!(ext.calls(), 1, "still live just before the TTL");

    clock.advance(Duration::from_secs(1));
    assert!(cache.is_empty(), "expired at the TTL");
    let fresh = call(&client, &cache, "h.ext", &[]).await.unwrap();
    assert!(fresh.starts_with("call 2 "), "{fresh}");
    assert_eq!(ext.calls(), 2);
}

#[tokio::test]
async fn misconfigured_calls_fail_before_the_cache() {
    let ext = Extension::start().await;
    let client = ready_client(&[ext.config(&[handler("h", "BeforeClusterCreate")])]);
    let cache = ResponseCache::with_clock(TTL, TestClock::new());
    assert!(matches!(
        call(&client, &cache, "h.ext", &[]).await,
        Err(CallError::HookMismatch { .. })
    ));
    assert!(matches!(
        call(&client, &cache, "nope.ext", &[]).await,
        Err(CallError::Registry { .. })
    ));
    assert_eq!(ext.calls(), 0);
}
