//! The client's and registry's public surface: the builder's defaults (the built-in catalog,
//! a registry of the client's own) and what replaces them, the default form of `call_all_extensions`,
//! `GroupHook`'s constructor, `warm_up` over any iterator of borrowed ExtensionConfigs, and
//! one way to change the registry (pruning of HTTP clients follows the registry's
//! generation, however the registry was changed).

use crate::support::{extension, tls};

use std::sync::Arc;

use capi_runtime::Hook;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::catalog::{Catalog, GroupHook};
use capi_runtime::client::{CallAllOptions, CallError, Client, ForObject};
use capi_runtime::hooks::v1alpha1::BeforeClusterUpgrade;
use capi_runtime::hooks::v1alpha1::BeforeClusterUpgradeRequest;
use capi_runtime::registry::{Registry, RegistryError};
use extension::{call_hook, config, handler, ready_client, selector_in};
use serde_json::json;
use tls::{TestCa, TestServer, answer};

const HOOK: &str = "BeforeClusterUpgrade";

async fn server(ca: &TestCa, retry: i32, message: &'static str) -> TestServer {
    TestServer::with_ca(
        ca,
        answer(move |_| async move {
            tls::json(json!({"status": "Success", "retryAfterSeconds": retry, "message": message}))
        }),
    )
    .await
}

/// Two extensions with CAs of their own, `ext1` and `ext2`, each declaring handler `h`,
/// registered in a ready client; the servers run while the last value is kept.
async fn two_extensions() -> (Client, [ExtensionConfig; 2], [TestServer; 2]) {
    let (ca1, ca2) = (TestCa::new("ca1"), TestCa::new("ca2"));
    let (one, two) = (server(&ca1, 0, "").await, server(&ca2, 0, "").await);
    let configs = [
        config("ext1", &one.url(), &ca1.pem(), &[handler("h", HOOK)]),
        config("ext2", &two.url(), &ca2.pem(), &[handler("h", HOOK)]),
    ];
    (ready_client(&configs), configs, [one, two])
}

/// Calls the BeforeClusterUpgrade handler `name`.
async fn call_h(
    client: &Client,
    name: &str,
) -> Result<<BeforeClusterUpgrade as Hook>::Response, CallError> {
    call_hook::<BeforeClusterUpgrade>(client, name).await
}

#[tokio::test]
async fn call_all_extensions_needs_no_options() {
    let ca = TestCa::new("ca");
    let (a, b) = (server(&ca, 7, "a").await, server(&ca, 3, "b").await);
    let configs = [
        config("ext-a", &a.url(), &ca.pem(), &[handler("h", HOOK)]),
        config("ext-b", &b.url(), &ca.pem(), &[handler("h", HOOK)]),
    ];
    let object = ForObject::new("default", "c");
    let default = ready_client(&configs)
        .call_all_extensions(&BeforeClusterUpgradeRequest::default(), &object)
        .await
        .unwrap();
    assert_eq!(
        (default.retry_after_seconds, default.message.as_str()),
        (3, "a, b")
    );

    // A client built to call concurrently gives the same answer without per-call options.
    let registry = Registry::new();
    registry.warm_up(&configs).unwrap();
    let concurrent = Client::builder()
        .registry(registry)
        .call_all_options(CallAllOptions::concurrent(2))
        .build()
        .unwrap();
    let answer = concurrent
        .call_all_extensions(&BeforeClusterUpgradeRequest::default(), &object)
        .await
        .unwrap();
    assert_eq!(answer, default);
    let explicit = concurrent
        .call_all_extensions_with(
            &BeforeClusterUpgradeRequest::default(),
            &object,
            CallAllOptions::sequential(),
        )
        .await
        .unwrap();
    assert_eq!(explicit, default);
    assert_eq!(a.received().len() + b.received().len(), 6);
}

#[test]
fn the_builder_defaults_to_the_builtin_catalog_and_a_registry_of_its_own() {
    let client = Client::builder().build().unwrap();
    let builtin = capi_runtime::hooks::catalog();
    let names = |catalog: &Catalog| {
        let mut names: Vec<String> = catalog.hooks().map(|h| h.path("x")).collect();
        names.sort();
        names
    };
    assert!(!names(&builtin).is_empty());
    assert_eq!(names(client.catalog()), names(&builtin));
    // Each default client has a registry of its own: warming one up leaves the other cold.
    let other = Client::builder().build().unwrap();
    assert!(!client.is_ready() && !other.is_ready());
    client.warm_up([]).unwrap();
    assert!(client.is_ready());
    assert!(!other.is_ready());
}

#[test]
fn the_builder_takes_a_catalog_and_the_shared_registry() {
    let registry = Registry::new();
    let shared = Arc::new(Catalog::new());
    let client = Client::builder()
        .catalog(shared.clone())
        .registry(registry.clone())
        .build()
        .unwrap();
    // The very catalog given, not a copy; empty, so the built-in hooks are unknown to it.
    assert!(std::ptr::eq(client.catalog(), &*shared));
    assert!(
        client
            .catalog()
            .group_version_hook::<BeforeClusterUpgrade>()
            .is_err()
    );
    // The registry given: warming it up outside the client makes the client ready.
    assert!(!client.is_ready());
    registry.warm_up([]).unwrap();
    assert!(client.is_ready());
    // A catalog by value works as well.
    let owned = Client::builder().catalog(Catalog::new()).build().unwrap();
    assert_eq!(owned.catalog().hooks().count(), 0);
}

#[test]
fn a_client_without_a_controller_is_ready_at_once() {
    let client = Client::builder().without_controller().build().unwrap();
    assert!(client.is_ready());
    // Warming up is the controller's step: here it has been taken.
    assert!(client.warm_up([]).is_err());
    // A registry given is warmed up with nothing; one that is ready already stays as it is.
    let registry = Registry::new();
    let client = Client::builder()
        .registry(registry.clone())
        .without_controller()
        .build()
        .unwrap();
    assert!(client.is_ready() && registry.is_ready());
    let again = Client::builder()
        .registry(registry)
        .without_controller()
        .build()
        .unwrap();
    assert!(again.is_ready());
}

#[test]
fn group_hooks_have_constructors() {
    let by_parts = GroupHook::new("hooks.runtime.cluster.x-k8s.io", HOOK);
    assert_eq!(by_parts, GroupHook::of::<BeforeClusterUpgrade>());
    assert_eq!(
        by_parts.to_string(),
        "BeforeClusterUpgrade.hooks.runtime.cluster.x-k8s.io"
    );
    assert_eq!(
        (by_parts.group.as_str(), by_parts.hook.as_str()),
        ("hooks.runtime.cluster.x-k8s.io", HOOK)
    );
}

#[test]
fn warm_up_takes_any_iterator_of_borrowed_configs() {
    let url = "https://extension.example";
    let owned = [
        config("a", url, "", &[handler("h", HOOK)]),
        config("b", url, "", &[handler("h", HOOK)]),
    ];
    // What a kube-runtime store hands out: shared objects.
    let shared: Vec<Arc<ExtensionConfig>> = owned.iter().cloned().map(Arc::new).collect();
    let registry = Registry::new();
    registry.warm_up(shared.iter().map(|c| &**c)).unwrap();
    let names: Vec<String> = registry
        .list(&GroupHook::of::<BeforeClusterUpgrade>())
        .unwrap()
        .iter()
        .map(|r| r.name.clone())
        .collect();
    assert_eq!(names, ["h.a", "h.b"]);

    let registry = Registry::new();
    registry.warm_up(vec![&owned[1]]).unwrap();
    assert_eq!(registry.snapshot().len(), 1);
    let registry = Registry::new();
    registry.warm_up(std::iter::empty()).unwrap();
    assert!(registry.is_ready());
}

#[test]
fn the_generation_counts_changes_only() {
    let url = "https://extension.example";
    let cfg = config("a", url, "", &[handler("h", HOOK)]);
    let registry = Registry::new();
    let start = registry.generation();
    assert!(registry.add(&cfg).is_err(), "not ready");
    assert_eq!(registry.generation(), start, "a failed add changes nothing");
    registry.warm_up([&cfg]).unwrap();
    let warm = registry.generation();
    assert!(warm > start);
    assert!(matches!(
        registry.warm_up([&cfg]),
        Err(RegistryError::AlreadyWarmedUp)
    ));
    assert_eq!(registry.generation(), warm);

    let mut bad = cfg.clone();
    let mut selector = selector_in("env", &["prod"]);
    selector.match_expressions.as_mut().unwrap()[0].operator = "Sometimes".into();
    bad.spec.namespace_selector = Some(selector);
    assert!(registry.add(&bad).is_err());
    assert_eq!(registry.generation(), warm);

    registry.add(&cfg).unwrap();
    let added = registry.generation();
    assert!(added > warm);
    registry.remove(&cfg).unwrap();
    assert!(registry.generation() > added);
    // Clones share the counter.
    assert_eq!(registry.clone().generation(), registry.generation());
}

#[tokio::test]
async fn http_clients_are_pruned_however_the_registry_changed() {
    let (client, configs, _servers) = two_extensions().await;
    let call = |name| call_h(&client, name);
    call("h.ext1").await.unwrap();
    call("h.ext2").await.unwrap();
    assert_eq!(client.cached_http_clients(), 2, "one per (host, CA bundle)");

    // Changed through the registry handle, not the client: the next call prunes.
    client.registry().remove_by_name("ext2").unwrap();
    assert_eq!(
        client.cached_http_clients(),
        2,
        "nothing pruned before a call"
    );
    call("h.ext1").await.unwrap();
    assert_eq!(client.cached_http_clients(), 1);

    // Through the client: pruned at once.
    client.unregister(&configs[0]).unwrap();
    assert_eq!(client.cached_http_clients(), 0);
    client.register(&configs[0]).unwrap();
    call("h.ext1").await.unwrap();
    assert_eq!(client.cached_http_clients(), 1);
}

#[tokio::test]
async fn a_change_drops_the_clients_nothing_registered_uses_and_keeps_the_rest() {
    let (ca1, ca2) = (TestCa::new("ca1"), TestCa::new("ca2"));
    let (one, two) = (server(&ca1, 0, "").await, server(&ca2, 0, "").await);
    let registered = config("ext1", &one.url(), &ca1.pem(), &[handler("h", HOOK)]);
    let client = ready_client(std::slice::from_ref(&registered));

    // Discovery builds a client for an extension that is not registered.
    let discovered = client
        .discover(&config("ext2", &two.url(), &ca2.pem(), &[]))
        .await
        .unwrap();
    assert!(discovered.status.handlers.is_empty());
    assert_eq!(client.cached_http_clients(), 1);

    // A change that releases no endpoint still drops it: no registration uses it.
    client.register(&registered).unwrap();
    assert_eq!(client.cached_http_clients(), 0);

    // A change that keeps the endpoint in use keeps its client.
    call_h(&client, "h.ext1").await.unwrap();
    client.register(&registered).unwrap();
    assert_eq!(client.cached_http_clients(), 1);
}

#[tokio::test]
async fn a_client_far_behind_the_registry_checks_every_cached_client() {
    let (client, configs, _servers) = two_extensions().await;
    call_h(&client, "h.ext1").await.unwrap();
    call_h(&client, "h.ext2").await.unwrap();
    // A pruning that finds both in use.
    client.register(&configs[0]).unwrap();
    assert_eq!(client.cached_http_clients(), 2);

    // Through the registry handle: ext2's endpoint is released, then more endpoints than the
    // registry keeps a record of come and go, so the record no longer reaches ext2's release.
    let registry = client.registry();
    registry.remove_by_name("ext2").unwrap();
    for i in 0..1100 {
        let passing = config(
            &format!("x{i}"),
            &format!("https://host-{i}.invalid"),
            "ca",
            &[handler("h", HOOK)],
        );
        registry.add(&passing).unwrap();
        registry.remove(&passing).unwrap();
    }
    call_h(&client, "h.ext1").await.unwrap();
    assert_eq!(client.cached_http_clients(), 1);
}
