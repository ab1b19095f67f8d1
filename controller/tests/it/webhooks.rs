//! The ExtensionConfig webhooks registered with a real kube-apiserver (runtime.md §10.5): the
//! configurations the manager ships (`manager/config/webhook/manifests.yaml`) and the CRD
//! conversion patch of `manager/config/crd/`, pointed at webhook servers this test runs over
//! HTTPS with a test CA. Objects created through `kube::Api` are defaulted, validated and
//! converted by our handlers, and the API server reports our messages.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use crate::support::*;
use axum::Router;
use capi_runtime::api::runtime::v1alpha1;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::https::{HostOptions, RunningHost, TlsFiles};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use capi_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    LabelSelector, LabelSelectorRequirement,
};
use capi_runtime_controller::webhook::{self, WebhookOptions};
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

pub(crate) const LABEL: &str = "capi-test/gate";

pub(crate) fn manifests() -> Vec<Value> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../manager/config/webhook/manifests.yaml"),
    )
    .unwrap();
    serde_saphyr::from_multiple(&text).unwrap()
}

/// Points every webhook of a configuration at `base` (with `ca`) and selects objects labelled
/// `capi-test/gate=<gate>`.
pub(crate) fn aim(mut manifest: Value, name: &str, base: &str, ca: &str, gate: &str) -> Value {
    manifest["metadata"] = json!({"name": name});
    for hook in manifest["webhooks"].as_array_mut().unwrap() {
        let path = hook["clientConfig"]["service"]["path"]
            .as_str()
            .unwrap()
            .to_string();
        hook["clientConfig"] = json!({
            "url": format!("{base}{path}"),
            "caBundle": ByteString(ca.as_bytes().to_vec()),
        });
        hook["objectSelector"] = json!({"matchLabels": {LABEL: gate}});
    }
    manifest
}

/// The webhooks served over HTTPS on loopback with a certificate of `ca`: the server, its
/// base URL and the directory of its certificate files.
pub(crate) async fn serve(ca: &TestCa, gate: bool) -> (RunningHost, String, tempfile::TempDir) {
    let certs = ca.cert_dir();
    let host = RunningHost::start(
        HostOptions::new(
            SocketAddr::from(([127, 0, 0, 1], 0)),
            TlsFiles::new(certs.path().join("tls.crt"), certs.path().join("tls.key")),
        ),
        webhook::router(WebhookOptions {
            runtime_sdk_enabled: gate,
        }),
        Router::new(),
    )
    .await
    .unwrap();
    let base = format!("https://127.0.0.1:{}", host.local_addr().port());
    (host, base, certs)
}

pub(crate) fn labelled(mut c: ExtensionConfig, gate: &str) -> ExtensionConfig {
    c.metadata.labels = Some([(LABEL.to_string(), gate.to_string())].into());
    c
}

pub(crate) fn service_config(name: &str) -> ExtensionConfig {
    let mut c = config(name, "", None);
    c.spec.client_config.service.name = "svc".into();
    c.spec.client_config.service.namespace = "ns".into();
    c.spec.client_config.ca_bundle = ByteString(b"ca".to_vec());
    labelled(c, "on")
}

/// The API server's answer to creating `c`: its status code and message on refusal.
async fn refusal(kube: &kube::Client, c: &ExtensionConfig) -> (u16, String) {
    match configs(kube).create(&PostParams::default(), c).await {
        Ok(created) => panic!("created {:?}, expected a refusal", created.metadata.name),
        Err(kube::Error::Api(status)) => (status.code, status.message),
        Err(e) => panic!("unexpected error: {e}"),
    }
}

pub(crate) const DENIED: &str = "admission webhook \"validation.extensionconfig.runtime.cluster.x-k8s.io\" denied the request: ";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_registered_with_the_api_server() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    // It changes the CRD (its conversion) every test of this process uses.
    let _cluster = whole_cluster(&kube).await;
    let ca = TestCa::new("webhook-ca");
    let (on, on_url, _on_certs) = serve(&ca, true).await;
    let (off, off_url, _off_certs) = serve(&ca, false).await;
    let pem = ca.pem();

    let docs = manifests();
    let mutating: MutatingWebhookConfiguration = serde_json::from_value(aim(
        docs[0].clone(),
        "capi-test-mutating",
        &on_url,
        &pem,
        "on",
    ))
    .unwrap();
    let validating: ValidatingWebhookConfiguration = serde_json::from_value(aim(
        docs[1].clone(),
        "capi-test-validating",
        &on_url,
        &pem,
        "on",
    ))
    .unwrap();
    let gate_off: ValidatingWebhookConfiguration = serde_json::from_value(aim(
        docs[1].clone(),
        "capi-test-validating-gate-off",
        &off_url,
        &pem,
        "off",
    ))
    .unwrap();
    Api::<MutatingWebhookConfiguration>::all(kube.clone())
        .create(&PostParams::default(), &mutating)
        .await
        .unwrap();
    let validating_api = Api::<ValidatingWebhookConfiguration>::all(kube.clone());
    validating_api
        .create(&PostParams::default(), &validating)
        .await
        .unwrap();
    validating_api
        .create(&PostParams::default(), &gate_off)
        .await
        .unwrap();

    // The CRD conversion patch, aimed at our /convert.
    let patch_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../manager/config/crd/webhook_in_extensionconfigs.yaml"),
    )
    .unwrap();
    let mut patch: Value = serde_saphyr::from_str(&patch_text).unwrap();
    patch["spec"]["conversion"]["webhook"]["clientConfig"] = json!({
        "url": format!("{on_url}/convert"),
        "caBundle": ByteString(pem.as_bytes().to_vec()),
    });
    Api::<CustomResourceDefinition>::all(kube.clone())
        .patch(
            "extensionconfigs.runtime.cluster.x-k8s.io",
            &PatchParams::default(),
            &Patch::Merge(&patch),
        )
        .await
        .unwrap();

    // The API server picks the configurations up asynchronously: wait for a refusal.
    let mut attempt = 0;
    eventually(Duration::from_secs(30), || {
        attempt += 1;
        let probe = service_config(&format!("probe{attempt}.not.a.label"));
        let kube = kube.clone();
        async move {
            match configs(&kube).create(&PostParams::default(), &probe).await {
                Err(kube::Error::Api(s)) => s.message.starts_with(DENIED),
                _ => false,
            }
        }
    })
    .await;

    // Defaulting: a service without port gets 443, a missing selector becomes {}.
    let name = env.unique_name("svc");
    let mut c = service_config(&name);
    c.spec.namespace_selector = None;
    let created = create(&kube, &c).await;
    assert_eq!(created.spec.client_config.service.port, Some(443));
    assert_eq!(
        created.spec.namespace_selector,
        Some(LabelSelector::default())
    );
    // An update of a valid service config is accepted (and stays defaulted).
    let updated = configs(&kube)
        .patch(
            &name,
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"clientConfig": {"service": {"path": "/hooks"}}}})),
        )
        .await
        .unwrap();
    assert_eq!(updated.spec.client_config.service.path, "/hooks");

    // Rejections, rendered by the API server with our messages.
    let bad = "bad.name".to_string();
    let (code, message) = refusal(&kube, &service_config(&bad)).await;
    assert_eq!(code, 422);
    assert!(
        message.starts_with(&format!(
            "{DENIED}ExtensionConfig.runtime.cluster.x-k8s.io \"bad.name\" is invalid: metadata.name: Invalid value: \"bad.name\": ExtensionConfig name should be a valid DNS1123 label name: ["
        )),
        "{message}"
    );
    type Change = Box<dyn Fn(&mut ExtensionConfig)>;
    let cases: Vec<(Change, &str)> = vec![
        (
            Box::new(|c| c.spec.client_config.service.name = "NOT_ALLOWED".into()),
            "spec.clientConfig.service.name: Invalid value: \"NOT_ALLOWED\": a DNS-1035 label must consist of",
        ),
        (
            Box::new(|c| c.spec.client_config.service.namespace = "INVALID".into()),
            "spec.clientConfig.service.namespace: Invalid value: \"INVALID\": a lowercase RFC 1123 label must consist of",
        ),
        (
            Box::new(|c| {
                c.spec.namespace_selector = Some(LabelSelector {
                    match_expressions: Some(vec![LabelSelectorRequirement {
                        key: "foo".into(),
                        operator: "bad-operator".into(),
                        values: Some(vec!["x".into()]),
                    }]),
                    match_labels: None,
                })
            }),
            "spec.namespaceSelector: Invalid value: {\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"bad-operator\",\"values\":[\"x\"]}]}: \"bad-operator\" is not a valid label selector operator",
        ),
        (
            Box::new(|c| {
                c.spec.client_config.service = Default::default();
                c.spec.client_config.url = "https//extension-address.com".into();
            }),
            "spec.clientConfig.url: Invalid value: \"https//extension-address.com\": must be a valid URL, e.g. https://example.com: parse \"https//extension-address.com\": invalid URI for request",
        ),
        (
            Box::new(|c| {
                c.spec.client_config.service = Default::default();
                c.spec.client_config.url = "unknown://extension-address.com".into();
            }),
            "spec.clientConfig.url: Invalid value: \"unknown://extension-address.com\": 'https' is the only allowed URL scheme, e.g. https://example.com",
        ),
        (
            Box::new(|c| c.spec.client_config.service = Default::default()),
            "spec.clientConfig: Required value: either url or service must be defined",
        ),
        (
            Box::new(|c| c.spec.client_config.url = "https://extension-address.com".into()),
            "spec.clientConfig: Forbidden: only one of url or service can be defined",
        ),
        (
            Box::new(|c| c.spec.client_config.service.path = "https://example.com".into()),
            "spec.clientConfig.service.path: Invalid value: \"https://example.com\": must start with \"/\" to be a valid URL path",
        ),
        (
            Box::new(|c| c.spec.client_config.service.port = Some(90000)),
            "spec.clientConfig.service.port: Invalid value: 90000: must be between 1 and 65535, inclusive",
        ),
    ];
    for (change, expected) in cases {
        let name = env.unique_name("rej");
        let mut c = service_config(&name);
        change(&mut c);
        let (code, message) = refusal(&kube, &c).await;
        let prefix =
            format!("{DENIED}ExtensionConfig.runtime.cluster.x-k8s.io \"{name}\" is invalid: ");
        assert_eq!(code, 422, "{message}");
        assert!(
            message.starts_with(&format!("{prefix}{expected}")),
            "expected {expected:?} in {message:?}"
        );
    }
    // Accepted: a selector with `foo Exists`.
    let mut c = service_config(&env.unique_name("ok"));
    c.spec.namespace_selector = Some(LabelSelector {
        match_expressions: Some(vec![LabelSelectorRequirement {
            key: "foo".into(),
            operator: "Exists".into(),
            values: None,
        }]),
        match_labels: None,
    });
    create(&kube, &c).await;

    // The gate off: creates are refused with our message.
    let mut c = labelled(service_config(&env.unique_name("off")), "off");
    c.spec.client_config.service.port = Some(443);
    let (code, message) = refusal(&kube, &c).await;
    assert_eq!(code, 403);
    assert_eq!(
        message,
        format!(
            "{DENIED}spec: Forbidden: can be set only if the RuntimeSDK feature flag is enabled"
        )
    );

    // Conversion: a v1beta2-stored object read as v1alpha1 and written back through it.
    let name = env.unique_name("conv");
    let mut c = labelled(config(&name, "https://ext.example", Some(&pem)), "on");
    c.spec.settings.insert("k".into(), "v".into());
    create(&kube, &c).await;
    configs(&kube)
        .patch_status(
            &name,
            &PatchParams::default(),
            &Patch::Merge(json!({"status": {
                "handlers": [{"name": format!("first.{name}"), "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": "BeforeClusterCreate"}, "timeoutSeconds": 10, "failurePolicy": "Ignore"}],
                "conditions": [{"type": "Discovered", "status": "True", "reason": "Discovered", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z", "observedGeneration": 1}],
                "deprecated": {"v1beta1": {"conditions": [{"type": "Discovered", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}
            }})),
        )
        .await
        .unwrap();
    let hub = get(&kube, &name).await;
    let old_api: Api<v1alpha1::ExtensionConfig> = Api::all(kube.clone());
    let spoke = old_api.get(&name).await.unwrap();
    assert_eq!(spoke.api_version, "runtime.cluster.x-k8s.io/v1alpha1");
    assert_eq!(
        spoke.spec.client_config.url.as_deref(),
        Some("https://ext.example")
    );
    assert!(spoke.spec.client_config.service.is_none());
    assert_eq!(spoke.status.handlers[0].timeout_seconds, Some(10));
    assert_eq!(spoke.status.conditions[0].r#type, "Discovered");
    assert_eq!(
        spoke.status.v1beta2.as_ref().unwrap().conditions[0].type_,
        "Discovered"
    );
    // Write through v1alpha1, read back as v1beta2: nothing lost.
    let mut replaced = spoke.clone();
    replaced.spec.settings.insert("k2".into(), "v2".into());
    old_api
        .replace(&name, &PostParams::default(), &replaced)
        .await
        .unwrap();
    let back = get(&kube, &name).await;
    let mut expected = hub.clone();
    expected.spec.settings.insert("k2".into(), "v2".into());
    assert_eq!(back.spec, expected.spec);
    assert_eq!(back.status, expected.status);
    assert_eq!(back.metadata.labels, expected.metadata.labels);

    // Leave the cluster as the other tests of this process expect it: no webhooks, and the
    // CRD without a conversion webhook.
    Api::<MutatingWebhookConfiguration>::all(kube.clone())
        .delete("capi-test-mutating", &Default::default())
        .await
        .unwrap();
    for name in ["capi-test-validating", "capi-test-validating-gate-off"] {
        validating_api
            .delete(name, &Default::default())
            .await
            .unwrap();
    }
    Api::<CustomResourceDefinition>::all(kube.clone())
        .patch(
            "extensionconfigs.runtime.cluster.x-k8s.io",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"conversion": {"strategy": "None", "webhook": null}}})),
        )
        .await
        .unwrap();
    on.shutdown().await.unwrap();
    off.shutdown().await.unwrap();
}
