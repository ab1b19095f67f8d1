//! One validation, every consumer: each ExtensionConfig of `testdata/extensionconfig/` goes
//! through the admission webhook (`webhook::admission`, defaulted first as the API server
//! would), a warmed-up `Registry` and the runtime client (`client::base_url` and
//! `Client::discover`), and they must agree, since all of them call the one set of rules in
//! `capi_runtime::api::runtime::validation`:
//!
//! - the webhook's field errors are exactly the `# webhook: <field> <reason>` lines of each
//!   `valid/` file (none when there is none), and its AdmissionReview answer carries them;
//! - the registry refuses the object's namespace selector exactly when the webhook does, with
//!   the webhook's detail in its message (apimachinery's error);
//! - for a `url` client config, the client refuses the URL exactly when the webhook does, with
//!   the same Go parse error or the same rule, and `discover` fails with that error before any
//!   network I/O.
//!
//! Files of `invalid/` that still decode (the schema refuses them, so no webhook sees them in a
//! cluster) are held to the agreement only.

use std::path::{Path, PathBuf};

use capi_runtime::api::runtime::convert_extension_config;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::api::runtime::validation::FieldError;
use capi_runtime::client::{Client, base_url};
use capi_runtime::go::errors::chain;
use capi_runtime::registry::Registry;
use capi_runtime_controller::webhook::admission::{default, validate, validate_review};
use kube::core::DynamicObject;
use kube::core::admission::AdmissionReview;
use serde_json::{Value, json};

struct Case {
    file: String,
    config: ExtensionConfig,
    /// `(field, reason)` of each `# webhook:` line; `None` for `invalid/` files.
    expect: Option<Vec<(String, String)>>,
}

fn files(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/extensionconfig")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// The object as v1beta2, if it is an ExtensionConfig the types can hold.
fn decode(doc: Value) -> Option<ExtensionConfig> {
    let doc = if doc["apiVersion"] == json!("runtime.cluster.x-k8s.io/v1alpha1") {
        convert_extension_config(doc, "runtime.cluster.x-k8s.io/v1beta2").ok()?
    } else {
        doc
    };
    serde_json::from_value(doc).ok()
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (kind, declared) in [("valid", true), ("invalid", false)] {
        for path in files(kind) {
            let file = format!("{kind}/{}", path.file_name().unwrap().to_string_lossy());
            let text = std::fs::read_to_string(&path).unwrap();
            let expect: Vec<(String, String)> = text
                .lines()
                .map_while(|l| l.strip_prefix('#'))
                .filter_map(|l| l.trim().strip_prefix("webhook:"))
                .map(|l| {
                    let parts: Vec<&str> = l.split_whitespace().collect();
                    assert_eq!(parts.len(), 2, "{file}: bad webhook line {l:?}");
                    (parts[0].to_string(), parts[1].to_string())
                })
                .collect();
            let Ok(doc) = serde_saphyr::from_str::<Value>(&text) else {
                continue;
            };
            let config = decode(doc);
            assert!(
                config.is_some() || !declared,
                "{file}: a valid ExtensionConfig the types cannot hold"
            );
            if let Some(config) = config {
                out.push(Case {
                    file,
                    config,
                    expect: declared.then_some(expect),
                });
            }
        }
    }
    out
}

fn review(config: &ExtensionConfig) -> AdmissionReview<DynamicObject> {
    serde_json::from_value(json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": "u",
            "kind": {"group": "runtime.cluster.x-k8s.io", "version": "v1beta2", "kind": "ExtensionConfig"},
            "resource": {"group": "runtime.cluster.x-k8s.io", "version": "v1beta2", "resource": "extensionconfigs"},
            "operation": "CREATE",
            "userInfo": {},
            "object": config,
        }
    }))
    .unwrap()
}

fn at<'a>(errors: &'a [FieldError], field: &str) -> Vec<&'a FieldError> {
    errors.iter().filter(|e| e.field == field).collect()
}

#[tokio::test]
async fn every_consumer_applies_the_same_rules() {
    let cases = cases();
    let client = Client::builder().build().unwrap();
    let (mut declared, mut selector_refusals, mut url_refusals) = (0, 0, 0);
    for case in &cases {
        let file = &case.file;
        let mut config = case.config.clone();
        default(&mut config);
        let errors = validate(&config);

        // The webhook: the declared errors, and the same ones in its AdmissionReview answer.
        if let Some(expect) = &case.expect {
            declared += 1;
            let got: Vec<(String, String)> = errors
                .iter()
                .map(|e| (e.field.clone(), e.kind.reason().to_string()))
                .collect();
            assert_eq!(&got, expect, "{file}: {errors:#?}");
        }
        let answer = validate_review(review(&config), true).response.unwrap();
        assert_eq!(answer.allowed, errors.is_empty(), "{file}");
        let causes: Vec<(String, String)> = answer
            .result
            .details
            .map(|d| d.causes.into_iter().map(|c| (c.field, c.message)).collect())
            .unwrap_or_default();
        let expected_causes: Vec<(String, String)> =
            errors.iter().map(|e| (e.field.clone(), e.body())).collect();
        assert_eq!(causes, expected_causes, "{file}");

        // The registry compiles the namespace selector the webhook checked.
        let registry = Registry::new();
        registry.warm_up([]).unwrap();
        let selector = at(&errors, "spec.namespaceSelector");
        let mut for_registry = config.clone();
        for_registry.status = Default::default();
        match registry.add(&for_registry) {
            Ok(()) => assert!(
                selector.is_empty(),
                "{file}: the registry took {selector:?}"
            ),
            Err(e) => {
                let text = chain(&e).to_string();
                let [refused] = selector.as_slice() else {
                    panic!("{file}: the registry refused what the webhook took: {text}");
                };
                assert!(
                    text.contains("failed to create namespaceSelector")
                        && text.ends_with(&refused.detail),
                    "{file}: {text} does not carry {:?}",
                    refused.detail
                );
                selector_refusals += 1;
            }
        }

        // The client refuses exactly the URLs the webhook refuses, for the same reason.
        let client_config = &config.spec.client_config;
        if client_config.url.is_empty() || client_config.service.is_defined() {
            continue;
        }
        let url = at(&errors, "spec.clientConfig.url");
        match base_url(client_config) {
            Ok(_) => assert!(url.is_empty(), "{file}: the client took {url:?}"),
            Err(e) => {
                let text = chain(&e).to_string();
                let [refused] = url.as_slice() else {
                    panic!("{file}: the client refused what the webhook took: {text}");
                };
                let same_reason = match refused.detail.split_once("https://example.com: ") {
                    // A Go parse error: the same text on both sides.
                    Some((_, go)) => text.ends_with(go),
                    None if refused.detail.starts_with("'https' is the only") => {
                        text.contains("expected https scheme")
                    }
                    None => text.ends_with(&refused.detail),
                };
                assert!(same_reason, "{file}: {text} vs {:?}", refused.detail);
                if at(&errors, "metadata.name").is_empty() {
                    let discovered = client.discover(&config).await.unwrap_err();
                    let discovered = chain(&discovered).to_string();
                    assert!(
                        discovered.ends_with(&text),
                        "{file}: discover said {discovered}, the URL rule {text}"
                    );
                }
                url_refusals += 1;
            }
        }
    }
    println!(
        "{} cases ({declared} of valid/ held to their webhook lines): {selector_refusals} selectors and \
         {url_refusals} URLs refused alike",
        cases.len()
    );
    assert!(selector_refusals > 0 && url_refusals >= 4);
}
