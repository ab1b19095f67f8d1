//! Errors keep their causes as values: a caller tells a refused connection from a failed TLS
//! handshake without reading the message, walking `source()` reaches every cause (and
//! `downcast_ref` finds it), and the chain, rendered as Go writes it, prints each cause once.

use crate::support::{extension, tls};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::api::runtime::validation::{ErrorType, UrlError};
use capi_runtime::catalog::HookId;
use capi_runtime::client::{
    CallAllOptions, CallError, ClientConfigError, DiscoveryError, ExchangeError, ForObject,
    TlsError, ValidationError,
};
use capi_runtime::go::errors::chain as go_chain;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreate;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;
use capi_runtime::registry::RegistryError;
use extension::{config, handler, ready_client};
use serde_json::json;
use tls::{TestCa, TestServer, answer};

const HOOK: &str = "BeforeClusterCreate";

async fn call_error(cfg: ExtensionConfig) -> CallError {
    let client = ready_client(&[cfg]);
    client
        .call_extension(
            "h.ext",
            &BeforeClusterCreateRequest::default(),
            &ForObject::new("default", "c"),
        )
        .await
        .expect_err("the call fails")
}

fn exchange(err: &CallError) -> &ExchangeError {
    match err {
        CallError::Exchange { source, .. } => source,
        other => panic!("expected an exchange error, got {other}"),
    }
}

/// Every layer of the chain of `err`, outermost first.
fn layers<'a>(
    err: &'a (dyn std::error::Error + 'static),
) -> Vec<&'a (dyn std::error::Error + 'static)> {
    let mut out = vec![err];
    let mut next = err.source();
    while let Some(e) = next {
        out.push(e);
        next = e.source();
    }
    out
}

/// The first error of the chain of `err` that is a `T`. An I/O error's `source()` skips the
/// error it wraps (std's rule), and a TLS failure reaches reqwest as rustls' error inside an
/// I/O error inside another, so the walk steps into an I/O error's own error
/// (`io::Error::get_ref`) where there is one, as `ExchangeError::tls_error` does.
fn find<'a, T: std::error::Error + 'static>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    let mut next = Some(err);
    while let Some(e) = next {
        if let Some(t) = e.downcast_ref::<T>() {
            return Some(t);
        }
        next = match e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    None
}

/// No layer repeats the text of the layer below it: each shows its own part only.
fn assert_each_layer_says_its_own(err: &(dyn std::error::Error + 'static)) {
    let texts: Vec<String> = layers(err).iter().map(|e| e.to_string()).collect();
    for pair in texts.windows(2) {
        assert!(
            pair[1].is_empty() || !pair[0].contains(&pair[1]),
            "a layer repeats its cause: {texts:#?}"
        );
    }
}

#[tokio::test]
async fn an_unknown_ca_is_told_apart_as_a_tls_error() {
    let (ca, other) = (TestCa::new("ca"), TestCa::new("other"));
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let err = call_error(config(
        "ext",
        &server.url(),
        &other.pem(),
        &[handler("h", HOOK)],
    ))
    .await;
    let exchange = exchange(&err);
    assert!(
        matches!(
            exchange.tls_error(),
            Some(rustls::Error::InvalidCertificate(
                rustls::CertificateError::UnknownIssuer
            ))
        ),
        "{err}: {exchange:#?}"
    );
    let ExchangeError::Transport { error, .. } = exchange else {
        panic!("{err}")
    };
    assert!(
        error.url().is_none(),
        "the URL is in the message, not the cause"
    );
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn a_refused_connection_is_a_connect_error_without_tls() {
    let refused = tls::RefusedPort::new();
    let ca = TestCa::new("ca");
    let url = format!("https://127.0.0.1:{}", refused.port);
    let err = call_error(config("ext", &url, &ca.pem(), &[handler("h", HOOK)])).await;
    let exchange = exchange(&err);
    assert!(exchange.is_connect(), "{err}");
    assert!(exchange.tls_error().is_none(), "{err}");
}

#[tokio::test]
async fn client_config_errors_keep_their_kind() {
    let ca = TestCa::new("ca");
    let err = call_error(config(
        "ext",
        "http://127.0.0.1:1",
        &ca.pem(),
        &[handler("h", HOOK)],
    ))
    .await;
    assert!(
        matches!(
            &err,
            CallError::HttpClient {
                source: ClientConfigError::Url(UrlError::Scheme(s)),
                ..
            } if s == "http"
        ),
        "{err}"
    );
    let err = call_error(config(
        "ext",
        "https://x",
        "not a pem",
        &[handler("h", HOOK)],
    ))
    .await;
    let CallError::HttpClient {
        source: ClientConfigError::Tls(TlsError::CaBundle(cause)),
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(cause.to_string(), "no PEM certificate found");
}

#[tokio::test]
async fn a_tls_failure_is_reached_through_the_chain_and_printed_once() {
    let (ca, other) = (TestCa::new("ca"), TestCa::new("other"));
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let err = call_error(config(
        "ext",
        &server.url(),
        &other.pem(),
        &[handler("h", HOOK)],
    ))
    .await;
    assert_eq!(
        err.to_string(),
        "failed to call extension handler \"h.ext\""
    );
    assert!(find::<ExchangeError>(&err).is_some(), "{}", go_chain(&err));
    assert!(find::<reqwest::Error>(&err).is_some(), "{}", go_chain(&err));
    assert!(
        matches!(
            find::<rustls::Error>(&err),
            Some(rustls::Error::InvalidCertificate(
                rustls::CertificateError::UnknownIssuer
            ))
        ),
        "{:#?}",
        layers(&err)
    );
    assert_each_layer_says_its_own(&err);
    let text = go_chain(&err).to_string();
    assert!(
        text.starts_with(&format!(
            "failed to call extension handler \"h.ext\": http call failed: Post \"{}/",
            server.url()
        )),
        "{text}"
    );
    assert_eq!(text.matches("UnknownIssuer").count(), 1, "{text}");
}

#[tokio::test]
async fn a_ca_bundle_failure_is_reached_through_the_chain() {
    let err = call_error(config(
        "ext",
        "https://x",
        "not a pem",
        &[handler("h", HOOK)],
    ))
    .await;
    let tls = find::<TlsError>(&err).expect("the TLS error is a layer of the chain");
    assert!(matches!(tls, TlsError::CaBundle(_)), "{tls}");
    assert_each_layer_says_its_own(&err);
    assert_eq!(
        go_chain(&err).to_string(),
        "failed to call extension handler \"h.ext\": failed to get http client: failed to \
         create tls config: unable to load root certificates: no PEM certificate found"
    );
}

#[tokio::test]
async fn a_discovery_decode_failure_reaches_the_decode_error() {
    let ca = TestCa::new("ca");
    let server =
        TestServer::with_ca(&ca, answer(|_| async { tls::raw(200, "{\"status\": 1") })).await;
    let client = ready_client(&[]);
    let err = client
        .discover(&config("ext", &server.url(), &ca.pem(), &[]))
        .await
        .unwrap_err();
    assert!(matches!(err, DiscoveryError::Exchange { .. }), "{err}");
    let exchange = find::<ExchangeError>(&err).expect("the exchange error is a layer");
    assert!(
        matches!(exchange, ExchangeError::Decode { .. }),
        "{exchange}"
    );
    let decode =
        find::<capi_runtime::wire::DecodeError>(&err).expect("the decode error is a layer");
    assert_eq!(
        go_chain(&err).to_string(),
        format!(
            "failed to discover extension \"ext\": http call failed: failed to decode response \
             from \"{}/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?timeout=10s\": {decode}",
            server.url()
        )
    );
    assert_each_layer_says_its_own(&err);
}

#[tokio::test]
async fn registry_and_catalog_answers_are_causes_of_call_errors() {
    let client = ready_client(&[]);
    let err = client
        .call_extension(
            "h.ext",
            &BeforeClusterCreateRequest::default(),
            &ForObject::new("default", "c"),
        )
        .await
        .unwrap_err();
    let registry = find::<RegistryError>(&err).expect("the registry's answer is the cause");
    assert!(
        matches!(registry, RegistryError::NotRegistered { .. }),
        "{registry}"
    );
    assert_each_layer_says_its_own(&err);

    let client = capi_runtime::client::Client::builder()
        .catalog(capi_runtime::Catalog::new())
        .build()
        .unwrap();
    let err = client
        .discover(&config("ext", "https://x", "", &[]))
        .await
        .unwrap_err();
    assert!(
        find::<capi_runtime::catalog::CatalogError>(&err).is_some(),
        "{err}"
    );
    assert_each_layer_says_its_own(&err);
}

#[test]
fn registry_errors_reach_the_selector_and_group_version_errors() {
    let mut cfg = config("ext", "https://x", "", &[handler("h", HOOK)]);
    cfg.spec.namespace_selector = Some(extension::selector_in("bad key!", &["x"]));
    let registry = capi_runtime::registry::Registry::new();
    registry.warm_up(&[]).unwrap();
    let err = registry.add(&cfg).unwrap_err();
    assert!(
        find::<capi_runtime::registry::SelectorError>(&err).is_some(),
        "{}",
        go_chain(&err)
    );
    assert_each_layer_says_its_own(&err);
    assert!(
        go_chain(&err).to_string().starts_with(
            "failed to add ExtensionConfig \"ext\" to registry: failed to create namespaceSelector: "
        ),
        "{}",
        go_chain(&err)
    );

    let mut cfg = config("ext", "https://x", "", &[handler("h", HOOK)]);
    cfg.status.handlers[0].request_hook.api_version = "a/b/c".into();
    let err = registry.add(&cfg).unwrap_err();
    let RegistryError::InvalidHandlers { errors, .. } = &err else {
        panic!("{err}")
    };
    let parse = find::<capi_runtime::api::runtime::validation::GroupVersionError>(&errors[0])
        .expect("the parse error is the handler error's cause");
    assert_eq!(parse.api_version, "a/b/c");
}

#[tokio::test]
async fn calling_every_handler_of_an_unknown_hook_names_the_hook_not_an_empty_handler() {
    let client = capi_runtime::client::Client::builder()
        .catalog(capi_runtime::Catalog::new())
        .build()
        .unwrap();
    let err = client
        .call_all_extensions_with(
            &BeforeClusterCreateRequest::default(),
            &ForObject::new("default", "c"),
            CallAllOptions::sequential(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::UnknownHook { .. }), "{err}");
    assert_eq!(err.handler(), None);
    let text = go_chain(&err).to_string();
    assert!(!text.contains("\"\""), "{text}");
    assert!(
        text.starts_with(
            "failed to call extension handlers for hook \"BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io\": failed to compute GroupVersionHook: "
        ),
        "{text}"
    );
    let gvh = HookId::of::<BeforeClusterCreate>();
    assert!(text.contains(&gvh.to_string()), "{text}");
}

#[tokio::test]
async fn discovery_validation_errors_are_field_errors() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|_| async {
            tls::json(json!({"status": "Success", "handlers": [
                {"name": "ok", "requestHook": {"apiVersion": extension::HOOKS, "hook": HOOK}},
                {"name": "Bad", "timeoutSeconds": 31, "failurePolicy": "Sometimes",
                 "requestHook": {"apiVersion": "a/b/c", "hook": HOOK}},
                {"name": "ok", "requestHook": {"apiVersion": extension::HOOKS, "hook": "Nope"}},
            ]}))
        }),
    )
    .await;
    let client = ready_client(&[]);
    let err = client
        .discover(&config("ext", &server.url(), &ca.pem(), &[]))
        .await
        .unwrap_err();
    let DiscoveryError::Invalid { errors, .. } = &err else {
        panic!("{err}")
    };
    let fields: Vec<(ErrorType, &str)> = errors
        .iter()
        .map(|e| (e.field().kind, e.field().field.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            (ErrorType::Invalid, "handlers[1].name"),
            (ErrorType::Invalid, "handlers[1].timeoutSeconds"),
            (ErrorType::NotSupported, "handlers[1].failurePolicy"),
            (ErrorType::Invalid, "handlers[1].requestHook.apiVersion"),
            (ErrorType::Duplicate, "handlers[2].name"),
            (ErrorType::NotFound, "handlers[2].requestHook"),
        ]
    );
    assert!(matches!(
        errors[1],
        ValidationError::Timeout { timeout: 31, .. }
    ));
    assert_eq!(
        errors[1].field().to_string(),
        "handlers[1].timeoutSeconds: Invalid value: 31: must be between 0 and 30"
    );
    assert_eq!(
        errors[3].to_string(),
        "handler Bad requestHook APIVersion a/b/c is not valid: unexpected GroupVersion string: a/b/c"
    );
}

#[test]
fn registry_errors_keep_the_parse_error() {
    let mut cfg = config("ext", "https://x", "", &[handler("h", HOOK)]);
    cfg.status.handlers[0].request_hook.api_version = "a/b/c".into();
    let registry = capi_runtime::registry::Registry::new();
    let err = registry.warm_up(&[cfg]).unwrap_err();
    let RegistryError::WarmUp { errors } = &err else {
        panic!("{err}")
    };
    let RegistryError::InvalidHandlers { errors, .. } = &errors[0] else {
        panic!("{err}")
    };
    assert_eq!(errors[0].error.api_version, "a/b/c");
    assert_eq!(
        go_chain(&err).to_string(),
        "failed to warm up registry: failed to add ExtensionConfig \"ext\" to registry: failed to add extension handler \"h.ext\" to registry: failed to parse GroupVersion \"a/b/c\" of handler \"h.ext\": unexpected GroupVersion string: a/b/c"
    );
}
