//! Discovery against real HTTPS servers: defaulting, naming, every validation rule, and
//! all-or-nothing semantics.

use crate::support::{extension, tls};

use capi_runtime::api::runtime::v1beta2::{ExtensionConfig, FailurePolicy};
use capi_runtime::client::{DiscoveryError, ValidationError};
use capi_runtime::go::errors::chain;
use extension::{HOOKS, config, ready_client};
use serde_json::{Value, json};
use tls::{TestCa, TestServer, answer};

/// Serves `body` on Discovery and returns the discovery result for a fresh config.
async fn discover(body: Value) -> (Result<ExtensionConfig, DiscoveryError>, ExtensionConfig) {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(move |r| {
            let body = body.clone();
            async move {
                assert_eq!(r.path, "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery");
                assert_eq!(r.query, "timeout=10s");
                let sent = r.json();
                assert_eq!(sent["apiVersion"], HOOKS);
                assert_eq!(sent["kind"], "DiscoveryRequest");
                assert!(
                    sent.get("settings").is_none(),
                    "no settings are sent to Discovery"
                );
                tls::json(body)
            }
        }),
    )
    .await;
    let mut cfg = config("ext1", &server.url(), &ca.pem(), &[]);
    cfg.spec.settings.insert("k".into(), "v".into());
    let client = ready_client(&[]);
    (client.discover(&cfg).await, cfg)
}

fn handler(name: &str, hook: &str) -> Value {
    json!({"name": name, "requestHook": {"apiVersion": HOOKS, "hook": hook}})
}

fn success(handlers: Vec<Value>) -> Value {
    json!({"status": "Success", "handlers": handlers})
}

async fn errors_of(handlers: Vec<Value>) -> Vec<ValidationError> {
    match discover(success(handlers)).await.0 {
        Err(DiscoveryError::Invalid { errors, .. }) => errors,
        other => panic!("expected a validation error, got {other:?}"),
    }
}

#[tokio::test]
async fn discovered_handlers_are_defaulted_and_named() {
    let mut explicit = handler("second", "AfterClusterUpgrade");
    explicit["timeoutSeconds"] = json!(30);
    explicit["failurePolicy"] = json!("Ignore");
    let (result, input) = discover(success(vec![
        handler("first", "BeforeClusterUpgrade"),
        explicit,
    ]))
    .await;
    let discovered = result.unwrap();
    let h = &discovered.status.handlers;
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].name, "first.ext1");
    assert_eq!(h[0].request_hook.api_version, HOOKS);
    assert_eq!(h[0].request_hook.hook, "BeforeClusterUpgrade");
    assert_eq!(h[0].timeout_seconds, 10);
    assert_eq!(h[0].failure_policy, Some(FailurePolicy::Fail));
    assert_eq!(
        (h[1].name.as_str(), h[1].timeout_seconds),
        ("second.ext1", 30)
    );
    assert_eq!(h[1].failure_policy, Some(FailurePolicy::Ignore));
    assert!(input.status.handlers.is_empty(), "the input is not changed");
    assert_eq!(discovered.spec, input.spec);

    // The result registers as-is.
    let client = ready_client(&[]);
    client.register(&discovered).unwrap();
    assert_eq!(
        client.registry().get("first.ext1").unwrap().timeout_seconds,
        10
    );
}

#[tokio::test]
async fn go_style_discovery_responses_are_accepted() {
    let body = json!({"Status": "Success", "Handlers": [
        {"Name": "first", "RequestHook": {"APIVersion": HOOKS, "Hook": "BeforeClusterCreate"}, "TimeoutSeconds": 0}
    ]});
    let discovered = discover(body).await.0.unwrap();
    assert_eq!(discovered.status.handlers[0].name, "first.ext1");
    assert_eq!(
        discovered.status.handlers[0].timeout_seconds, 0,
        "an explicit 0 is kept"
    );
}

#[tokio::test]
async fn every_validation_rule_is_enforced() {
    let with = |mut h: Value, key: &str, value: Value| {
        h[key] = value;
        h
    };
    let cases: Vec<(Vec<Value>, &str)> = vec![
        (
            vec![handler("Capital", "BeforeClusterCreate")],
            "handler name Capital is not valid: [a lowercase RFC 1123 label",
        ),
        (
            vec![handler("has.dot", "BeforeClusterCreate")],
            "handler name has.dot is not valid",
        ),
        (
            vec![handler(&"a".repeat(64), "BeforeClusterCreate")],
            "must be no more than 63 characters",
        ),
        (
            vec![with(
                handler("h", "BeforeClusterCreate"),
                "timeoutSeconds",
                json!(100),
            )],
            "handler h timeoutSeconds 100 must be between 0 and 30",
        ),
        (
            vec![with(
                handler("h", "BeforeClusterCreate"),
                "timeoutSeconds",
                json!(-1),
            )],
            "handler h timeoutSeconds -1 must be between 0 and 30",
        ),
        (
            vec![with(
                handler("h", "BeforeClusterCreate"),
                "failurePolicy",
                json!("DONT_FAIL"),
            )],
            "handler h failurePolicy DONT_FAIL must equal \"Ignore\" or \"Fail\"",
        ),
        (
            vec![with(
                handler("h", "BeforeClusterCreate"),
                "failurePolicy",
                json!("ignore"),
            )],
            "failurePolicy ignore must equal",
        ),
        (
            vec![
                handler("h", "BeforeClusterCreate"),
                handler("h", "AfterClusterUpgrade"),
            ],
            "duplicate name for handler h found",
        ),
        (
            vec![
                json!({"name": "h", "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha2", "hook": "BeforeClusterCreate"}}),
            ],
            "handler h requestHook hooks.runtime.cluster.x-k8s.io/v1alpha2/BeforeClusterCreate is not in the Runtime SDK catalog",
        ),
        (
            vec![handler("h", "beforeclustercreate")],
            "is not in the Runtime SDK catalog",
        ),
        (
            vec![handler("h", "NoSuchHook")],
            "is not in the Runtime SDK catalog",
        ),
        (
            vec![
                json!({"name": "h", "requestHook": {"apiVersion": "too/many/slashes", "hook": "BeforeClusterCreate"}}),
            ],
            "handler h requestHook APIVersion too/many/slashes is not valid: unexpected GroupVersion string: too/many/slashes",
        ),
    ];
    for (handlers, want) in cases {
        let errors = errors_of(handlers).await;
        let text = errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
        assert!(text.contains(want), "want {want:?} in {text:?}");
    }
}

/// Go's `FailurePolicy` is a string: any value decodes, and Cluster API's discovery
/// validation refuses what is neither `Ignore` nor `Fail` (an explicit `""` too; `null` is
/// the default `Fail`). The whole message is Cluster API's: its error wrapped twice around one
/// aggregated item.
#[tokio::test]
async fn an_unknown_failure_policy_decodes_and_fails_discovery_in_cluster_apis_words() {
    for (policy, shown) in [("Sometimes", "Sometimes"), ("", ""), ("fail", "fail")] {
        let mut h = handler("h", "BeforeClusterCreate");
        h["failurePolicy"] = json!(policy);
        let (result, _) = discover(success(vec![h])).await;
        let err = result.unwrap_err();
        assert_eq!(
            chain(&err).to_string(),
            format!(
                "failed to discover extension \"ext1\": failed to validate discovery response: \
                 handler h failurePolicy {shown} must equal \"Ignore\" or \"Fail\""
            )
        );
        let DiscoveryError::Invalid { errors, .. } = &err else {
            panic!("{err}")
        };
        assert!(
            matches!(&errors[..], [ValidationError::FailurePolicy { policy: p, .. }] if p == policy),
            "{errors:?}"
        );
    }
    let mut h = handler("h", "BeforeClusterCreate");
    h["failurePolicy"] = Value::Null;
    let (result, _) = discover(success(vec![h])).await;
    let discovered = result.expect("a null policy is left out");
    assert_eq!(
        discovered.status.handlers[0].failure_policy,
        Some(FailurePolicy::Fail)
    );
}

#[tokio::test]
async fn every_violation_is_reported_and_nothing_is_kept() {
    let mut bad = handler("Bad", "NoSuchHook");
    bad["timeoutSeconds"] = json!(31);
    bad["failurePolicy"] = json!("Sometimes");
    let (result, _) = discover(success(vec![handler("good", "BeforeClusterCreate"), bad])).await;
    let err = result.unwrap_err();
    let DiscoveryError::Invalid { errors, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(errors.len(), 4, "{errors:?}");
    let text = chain(&err).to_string();
    assert!(text.starts_with("failed to discover extension \"ext1\": failed to validate discovery response: [handler name Bad is not valid"), "{text}");
}

#[tokio::test]
async fn failure_and_unknown_statuses_fail_discovery() {
    let (result, _) = discover(json!({"status": "Failure", "message": "not today"})).await;
    assert!(
        matches!(result, Err(DiscoveryError::Failure { ref message, .. }) if message == "not today"),
        "{result:?}"
    );
    let (result, _) = discover(json!({"handlers": []})).await;
    assert!(
        matches!(result, Err(DiscoveryError::UnknownStatus { ref status, .. }) if status.is_empty()),
        "{result:?}"
    );
}

#[tokio::test]
async fn an_unreachable_or_misconfigured_extension_fails_discovery() {
    // A port that stays bound (so no other test can take it) and refuses connections.
    let refused = tls::RefusedPort::new();
    let port = refused.port;
    let ca = TestCa::new("ca");
    let client = ready_client(&[]);
    let err = client
        .discover(&config(
            "ext1",
            &format!("https://127.0.0.1:{port}"),
            &ca.pem(),
            &[],
        ))
        .await
        .unwrap_err();
    assert!(matches!(err, DiscoveryError::Exchange { .. }), "{err}");
    assert!(
        chain(&err)
            .to_string()
            .contains("/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?timeout=10s"),
        "{err}"
    );

    let err = client
        .discover(&config("ext1", "", &ca.pem(), &[]))
        .await
        .unwrap_err();
    assert_eq!(
        chain(&err).to_string(),
        "failed to discover extension \"ext1\": failed to get http client: failed to compute URL: at least one of service and url should be defined in config"
    );
    let err = client
        .discover(&config("bad.name", "https://127.0.0.1:1", &ca.pem(), &[]))
        .await
        .unwrap_err();
    assert!(matches!(err, DiscoveryError::InvalidName { .. }), "{err}");
}
