//! The generated conversions (`src/generated/conversion.rs` with the hand-written status part
//! in `src/api/runtime/v1alpha1/conversion.rs`) between ExtensionConfig v1alpha1 and v1beta2
//! (hub), and between the test hooks' FakeRequest/FakeResponse v1alpha1 and v1alpha2.
//!
//! - the examples of api.md §5.5, field by field;
//! - round trips over generated values of every field, both ways, lossless once the values
//!   the older or newer version cannot tell apart are normalized (the same normalizations
//!   upstream's fuzz round-trip test applies);
//! - the valid instances under `testdata/extensionconfig/valid` convert to valid instances
//!   of the other version.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use capi_runtime::api::core::v1beta2::Condition as LegacyCondition;
use capi_runtime::api::runtime::{convert_extension_config, v1alpha1, v1beta2};
use capi_runtime::conversion::{ConversionError, ConversionErrorKind};
use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::jiff::Timestamp;
use proptest::prelude::*;
use serde_json::{Value, json};
use support::test_hooks;

/// The typed conversion to the hub; every example also goes through the JSON function a
/// ConversionReview handler calls ([`through_json`]), which must agree.
fn up(x: &v1alpha1::ExtensionConfig) -> v1beta2::ExtensionConfig {
    let hub = v1beta2::ExtensionConfig::try_from(x).unwrap();
    through_json(x, v1alpha1::API_VERSION, v1beta2::API_VERSION, &hub);
    hub
}

/// The typed conversion from the hub, checked against the JSON function as [`up`] is.
fn down(x: &v1beta2::ExtensionConfig) -> v1alpha1::ExtensionConfig {
    let spoke = v1alpha1::ExtensionConfig::try_from(x).unwrap();
    through_json(x, v1beta2::API_VERSION, v1alpha1::API_VERSION, &spoke);
    spoke
}

/// Asserts that `convert_extension_config` turns `x` (as JSON of version `from`) into exactly
/// the JSON of `typed`, the typed conversion's result, with its type meta set to `to`.
fn through_json<A: serde::Serialize, B: serde::Serialize>(x: &A, from: &str, to: &str, typed: &B) {
    let tagged = |value: Value, api_version: &str| {
        let mut value = value;
        value["apiVersion"] = json!(api_version);
        value["kind"] = json!("ExtensionConfig");
        value
    };
    let object = tagged(serde_json::to_value(x).unwrap(), from);
    let converted = convert_extension_config(object, to).unwrap();
    assert_eq!(converted, tagged(serde_json::to_value(typed).unwrap(), to));
}

fn time(seconds: i64) -> metav1::Time {
    metav1::Time(Timestamp::from_second(seconds).unwrap())
}

fn condition(type_: &str, status: &str) -> metav1::Condition {
    metav1::Condition {
        last_transition_time: time(1_767_323_045),
        message: format!("{type_} is {status}"),
        observed_generation: Some(3),
        reason: format!("{type_}Reason"),
        status: status.into(),
        type_: type_.into(),
    }
}

fn legacy_condition(type_: &str, status: &str) -> LegacyCondition {
    LegacyCondition {
        last_transition_time: Some(time(1_767_323_045)),
        message: "m".into(),
        reason: "R".into(),
        severity: "Warning".into(),
        status: status.into(),
        r#type: type_.into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Examples (api.md §5.5)
// ---------------------------------------------------------------------------------------------

fn alpha_client_config(
    url: Option<&str>,
    service: Option<v1alpha1::ServiceReference>,
) -> v1alpha1::ExtensionConfig {
    v1alpha1::ExtensionConfig {
        spec: v1alpha1::ExtensionConfigSpec {
            client_config: v1alpha1::ClientConfig {
                url: url.map(str::to_string),
                service,
                ca_bundle: ByteString(b"ca".to_vec()),
            },
            ..Default::default()
        },
        ..Default::default()
    }
}

fn beta_client_config(url: &str, service: v1beta2::ServiceReference) -> v1beta2::ExtensionConfig {
    v1beta2::ExtensionConfig {
        spec: v1beta2::ExtensionConfigSpec {
            client_config: v1beta2::ClientConfig {
                url: url.into(),
                service,
                ca_bundle: ByteString(b"ca".to_vec()),
            },
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn url_none_is_empty_in_v1beta2_and_back() {
    let hub = up(&alpha_client_config(None, None));
    assert_eq!(hub.spec.client_config.url, "");
    assert_eq!(hub.spec.client_config.ca_bundle, ByteString(b"ca".to_vec()));
    let spoke = down(&beta_client_config("", Default::default()));
    assert_eq!(spoke.spec.client_config.url, None);
    assert_eq!(
        spoke.spec.client_config.ca_bundle,
        ByteString(b"ca".to_vec())
    );

    let url = "https://extension.example.com";
    assert_eq!(
        up(&alpha_client_config(Some(url), None))
            .spec
            .client_config
            .url,
        url
    );
    assert_eq!(
        down(&beta_client_config(url, Default::default()))
            .spec
            .client_config
            .url
            .as_deref(),
        Some(url)
    );
    // An empty string in v1alpha1 has no v1beta2 counterpart distinct from absence.
    assert_eq!(
        up(&alpha_client_config(Some(""), None))
            .spec
            .client_config
            .url,
        ""
    );
}

#[test]
fn service_none_is_the_zero_service_and_back() {
    let hub = up(&alpha_client_config(None, None));
    assert_eq!(
        hub.spec.client_config.service,
        v1beta2::ServiceReference::default()
    );
    assert!(!hub.spec.client_config.service.is_defined());
    let spoke = down(&beta_client_config("", Default::default()));
    assert_eq!(spoke.spec.client_config.service, None);

    // A defined service converts field by field; path None <-> "", port copied.
    let alpha = v1alpha1::ServiceReference {
        namespace: "ns".into(),
        name: "svc".into(),
        path: None,
        port: Some(9443),
    };
    let beta = v1beta2::ServiceReference {
        namespace: "ns".into(),
        name: "svc".into(),
        path: String::new(),
        port: Some(9443),
    };
    assert_eq!(
        up(&alpha_client_config(None, Some(alpha.clone())))
            .spec
            .client_config
            .service,
        beta
    );
    assert_eq!(
        down(&beta_client_config("", beta.clone()))
            .spec
            .client_config
            .service,
        Some(alpha.clone())
    );

    // path "" <-> None; a set path is kept.
    let alpha_path = v1alpha1::ServiceReference {
        path: Some("/hooks".into()),
        ..alpha.clone()
    };
    let beta_path = v1beta2::ServiceReference {
        path: "/hooks".into(),
        ..beta.clone()
    };
    assert_eq!(
        up(&alpha_client_config(None, Some(alpha_path.clone())))
            .spec
            .client_config
            .service,
        beta_path
    );
    assert_eq!(
        down(&beta_client_config("", beta_path))
            .spec
            .client_config
            .service,
        Some(alpha_path)
    );

    // A service with only a port is defined: it is not dropped going down.
    let port_only = v1beta2::ServiceReference {
        port: Some(443),
        ..Default::default()
    };
    assert_eq!(
        down(&beta_client_config("", port_only))
            .spec
            .client_config
            .service,
        Some(v1alpha1::ServiceReference {
            port: Some(443),
            ..Default::default()
        })
    );
}

fn alpha_handler(
    timeout: Option<i32>,
    policy: Option<v1alpha1::FailurePolicy>,
) -> v1alpha1::ExtensionHandler {
    v1alpha1::ExtensionHandler {
        name: "before-cluster-create.ext".into(),
        request_hook: v1alpha1::GroupVersionHook {
            api_version: "hooks.runtime.cluster.x-k8s.io/v1alpha1".into(),
            hook: "BeforeClusterCreate".into(),
        },
        timeout_seconds: timeout,
        failure_policy: policy,
    }
}

fn beta_handler(timeout: i32, policy: Option<v1beta2::FailurePolicy>) -> v1beta2::ExtensionHandler {
    v1beta2::ExtensionHandler {
        name: "before-cluster-create.ext".into(),
        request_hook: v1beta2::GroupVersionHook {
            api_version: "hooks.runtime.cluster.x-k8s.io/v1alpha1".into(),
            hook: "BeforeClusterCreate".into(),
        },
        timeout_seconds: timeout,
        failure_policy: policy,
    }
}

fn alpha_with_handlers(handlers: Vec<v1alpha1::ExtensionHandler>) -> v1alpha1::ExtensionConfig {
    v1alpha1::ExtensionConfig {
        status: v1alpha1::ExtensionConfigStatus {
            handlers,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn beta_with_handlers(handlers: Vec<v1beta2::ExtensionHandler>) -> v1beta2::ExtensionConfig {
    v1beta2::ExtensionConfig {
        status: v1beta2::ExtensionConfigStatus {
            handlers,
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn handler_timeout_and_failure_policy() {
    use v1alpha1::FailurePolicy as A;
    use v1beta2::FailurePolicy as B;
    let pairs = [
        // (v1alpha1, v1beta2): timeoutSeconds None <-> 0, failurePolicy None <-> absent.
        (alpha_handler(None, None), beta_handler(0, None)),
        (
            alpha_handler(Some(5), Some(A::Ignore)),
            beta_handler(5, Some(B::Ignore)),
        ),
        (
            alpha_handler(Some(30), Some(A::Fail)),
            beta_handler(30, Some(B::Fail)),
        ),
    ];
    for (alpha, beta) in pairs {
        let hub = up(&alpha_with_handlers(vec![alpha.clone()]));
        assert_eq!(hub.status.handlers, std::slice::from_ref(&beta));
        let spoke = down(&beta_with_handlers(vec![beta]));
        assert_eq!(spoke.status.handlers, [alpha]);
    }
    // Some(0) in v1alpha1 becomes 0, which comes back as None.
    let hub = up(&alpha_with_handlers(vec![alpha_handler(Some(0), None)]));
    assert_eq!(hub.status.handlers[0].timeout_seconds, 0);
    assert_eq!(down(&hub).status.handlers[0].timeout_seconds, None);
    // An absent failure policy (and a zero timeout) is absent on the wire in both versions.
    let expected = json!({
        "name": "before-cluster-create.ext",
        "requestHook": {
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "hook": "BeforeClusterCreate"
        }
    });
    let hub_json = serde_json::to_value(&hub).unwrap();
    assert_eq!(hub_json["status"]["handlers"][0], expected);
    let spoke_json = serde_json::to_value(down(&hub)).unwrap();
    assert_eq!(spoke_json["status"]["handlers"][0], expected);
    // The order of handlers is kept.
    let many: Vec<_> = (1..=3)
        .map(|i| v1alpha1::ExtensionHandler {
            name: format!("h{i}.ext"),
            ..alpha_handler(Some(i), None)
        })
        .collect();
    let hub = up(&alpha_with_handlers(many.clone()));
    let names: Vec<&str> = hub
        .status
        .handlers
        .iter()
        .map(|h| h.name.as_str())
        .collect();
    assert_eq!(names, ["h1.ext", "h2.ext", "h3.ext"]);
    assert_eq!(down(&hub).status.handlers, many);
}

#[test]
fn legacy_conditions_move_to_deprecated_v1beta1_and_back() {
    let legacy = vec![
        legacy_condition("Ready", "False"),
        legacy_condition("Discovered", "True"),
    ];
    let alpha = v1alpha1::ExtensionConfig {
        status: v1alpha1::ExtensionConfigStatus {
            conditions: legacy.clone(),
            ..Default::default()
        },
        ..Default::default()
    };
    let hub = up(&alpha);
    assert_eq!(
        hub.status.deprecated,
        Some(v1beta2::ExtensionConfigDeprecatedStatus {
            v1beta1: Some(v1beta2::ExtensionConfigV1Beta1DeprecatedStatus {
                conditions: legacy.clone()
            })
        })
    );
    assert!(hub.status.conditions.is_empty());
    let back = down(&hub);
    assert_eq!(back.status.conditions, legacy);
    assert_eq!(back.status.v1beta2, None);

    // No legacy conditions: no deprecated container.
    let hub = up(&v1alpha1::ExtensionConfig::default());
    assert_eq!(hub.status.deprecated, None);
    assert_eq!(hub.status, v1beta2::ExtensionConfigStatus::default());
    // Going down, an empty or half-empty container gives no legacy conditions.
    for deprecated in [
        v1beta2::ExtensionConfigDeprecatedStatus { v1beta1: None },
        v1beta2::ExtensionConfigDeprecatedStatus {
            v1beta1: Some(Default::default()),
        },
    ] {
        let beta = v1beta2::ExtensionConfig {
            status: v1beta2::ExtensionConfigStatus {
                deprecated: Some(deprecated),
                ..Default::default()
            },
            ..Default::default()
        };
        assert_eq!(
            down(&beta).status,
            v1alpha1::ExtensionConfigStatus::default()
        );
    }
}

#[test]
fn v1beta2_conditions_move_to_status_conditions_and_back() {
    let conditions = vec![
        condition("Discovered", "True"),
        condition("Paused", "False"),
    ];
    let alpha = v1alpha1::ExtensionConfig {
        status: v1alpha1::ExtensionConfigStatus {
            v1beta2: Some(v1alpha1::ExtensionConfigV1Beta2Status {
                conditions: conditions.clone(),
            }),
            ..Default::default()
        },
        ..Default::default()
    };
    let hub = up(&alpha);
    assert_eq!(hub.status.conditions, conditions);
    assert_eq!(hub.status.deprecated, None);
    let back = down(&hub);
    assert_eq!(back, alpha);

    // No conditions: no v1beta2 container going down.
    let beta = beta_with_handlers(vec![beta_handler(10, None)]);
    assert_eq!(down(&beta).status.v1beta2, None);
    // An empty v1beta2 container going up is the same as none.
    let empty = v1alpha1::ExtensionConfig {
        status: v1alpha1::ExtensionConfigStatus {
            v1beta2: Some(Default::default()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(up(&empty), v1beta2::ExtensionConfig::default());

    // Both condition kinds at once, each to its place.
    let both = v1alpha1::ExtensionConfig {
        status: v1alpha1::ExtensionConfigStatus {
            conditions: vec![legacy_condition("Ready", "True")],
            v1beta2: Some(v1alpha1::ExtensionConfigV1Beta2Status {
                conditions: conditions.clone(),
            }),
            handlers: vec![alpha_handler(Some(10), None)],
        },
        ..Default::default()
    };
    let hub = up(&both);
    assert_eq!(hub.status.conditions, conditions);
    assert_eq!(
        hub.status
            .deprecated
            .as_ref()
            .unwrap()
            .v1beta1
            .as_ref()
            .unwrap()
            .conditions,
        [legacy_condition("Ready", "True")]
    );
    assert_eq!(down(&hub), both);
}

#[test]
fn type_meta_is_set_to_the_target_version_when_the_source_has_it() {
    let alpha = v1alpha1::ExtensionConfig {
        api_version: v1alpha1::API_VERSION.into(),
        kind: "ExtensionConfig".into(),
        ..Default::default()
    };
    let hub = up(&alpha);
    assert_eq!(hub.api_version, "runtime.cluster.x-k8s.io/v1beta2");
    assert_eq!(hub.kind, "ExtensionConfig");
    let back = down(&hub);
    assert_eq!(back.api_version, "runtime.cluster.x-k8s.io/v1alpha1");
    assert_eq!(back.kind, "ExtensionConfig");
    // Without type meta, none is invented.
    let hub = up(&v1alpha1::ExtensionConfig::default());
    assert_eq!((hub.api_version.as_str(), hub.kind.as_str()), ("", ""));
    let spoke = down(&v1beta2::ExtensionConfig::default());
    assert_eq!((spoke.api_version.as_str(), spoke.kind.as_str()), ("", ""));
}

#[test]
fn metadata_selector_settings_ca_bundle_and_request_hook_are_copied() {
    let metadata = metav1::ObjectMeta {
        name: Some("ext".into()),
        labels: Some([("a".to_string(), "b".to_string())].into()),
        annotations: Some(
            [(
                capi_runtime::api::runtime::INJECT_CA_FROM_SECRET_ANNOTATION.to_string(),
                "ns/secret".to_string(),
            )]
            .into(),
        ),
        generation: Some(4),
        ..Default::default()
    };
    let selector = metav1::LabelSelector {
        match_expressions: Some(vec![metav1::LabelSelectorRequirement {
            key: "tier".into(),
            operator: "In".into(),
            values: Some(vec!["a".into(), "b".into()]),
        }]),
        match_labels: Some([("env".to_string(), "dev".to_string())].into()),
    };
    let settings: BTreeMap<String, String> = [("k".to_string(), "v".to_string())].into();
    let mut alpha = alpha_with_handlers(vec![alpha_handler(Some(3), None)]);
    alpha.metadata = metadata.clone();
    alpha.spec.namespace_selector = Some(selector.clone());
    alpha.spec.settings = settings.clone();
    alpha.spec.client_config.ca_bundle = ByteString(vec![0, 1, 2, 255]);
    let hub = up(&alpha);
    assert_eq!(hub.metadata, metadata);
    assert_eq!(hub.spec.namespace_selector, Some(selector));
    assert_eq!(hub.spec.settings, settings);
    assert_eq!(
        hub.spec.client_config.ca_bundle,
        ByteString(vec![0, 1, 2, 255])
    );
    assert_eq!(
        hub.status.handlers[0].request_hook.hook,
        "BeforeClusterCreate"
    );
    assert_eq!(down(&hub), alpha);
    // An empty selector stays an empty selector (it means "every namespace"), not absent.
    alpha.spec.namespace_selector = Some(Default::default());
    assert_eq!(up(&alpha).spec.namespace_selector, Some(Default::default()));
}

/// A whole object on the wire: the v1alpha1 example in JSON converts to the expected v1beta2
/// JSON and back.
#[test]
fn a_full_object_converts_on_the_wire() {
    let time = "2026-01-02T03:04:05Z";
    let legacy = json!([{"lastTransitionTime": time, "status": "True", "type": "Ready"}]);
    let conditions = json!([{
        "lastTransitionTime": time,
        "message": "",
        "reason": "Discovered",
        "status": "True",
        "type": "Discovered"
    }]);
    let handlers = json!([{
        "name": "h.ext",
        "requestHook": {
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "hook": "BeforeClusterCreate"
        },
        "timeoutSeconds": 10,
        "failurePolicy": "Ignore"
    }]);
    let spec = json!({
        "clientConfig": {"service": {"name": "svc", "namespace": "ns"}},
        "namespaceSelector": {}
    });
    let alpha_json = json!({
        "apiVersion": "runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "ExtensionConfig",
        "metadata": {"name": "ext"},
        "spec": spec,
        "status": {
            "conditions": legacy,
            "handlers": handlers,
            "v1beta2": {"conditions": conditions}
        }
    });
    let beta_json = json!({
        "apiVersion": "runtime.cluster.x-k8s.io/v1beta2",
        "kind": "ExtensionConfig",
        "metadata": {"name": "ext"},
        "spec": spec,
        "status": {
            "conditions": conditions,
            "deprecated": {"v1beta1": {"conditions": legacy}},
            "handlers": handlers
        }
    });
    let alpha: v1alpha1::ExtensionConfig = serde_json::from_value(alpha_json.clone()).unwrap();
    let hub = up(&alpha);
    assert_eq!(serde_json::to_value(&hub).unwrap(), beta_json);
    assert_eq!(serde_json::to_value(down(&hub)).unwrap(), alpha_json);
}

/// The whole-object example through the JSON function, both ways, as a ConversionReview
/// handler calls it.
#[test]
fn the_json_function_converts_both_ways_through_the_hub() {
    let alpha = json!({
        "apiVersion": "runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "ExtensionConfig",
        "metadata": {"name": "ext"},
        "spec": {"clientConfig": {"url": "https://ext.example.com", "service": null}},
        "status": {"handlers": [{
            "name": "h.ext",
            "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": "BeforeClusterCreate"}
        }]}
    });
    let beta = convert_extension_config(alpha, v1beta2::API_VERSION).unwrap();
    assert_eq!(
        beta,
        json!({
            "apiVersion": "runtime.cluster.x-k8s.io/v1beta2",
            "kind": "ExtensionConfig",
            "metadata": {"name": "ext"},
            "spec": {"clientConfig": {"url": "https://ext.example.com"}},
            "status": {"handlers": [{
                "name": "h.ext",
                "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": "BeforeClusterCreate"}
            }]}
        })
    );
    let back = convert_extension_config(beta, v1alpha1::API_VERSION).unwrap();
    assert_eq!(back["apiVersion"], v1alpha1::API_VERSION);
    assert_eq!(
        back["spec"]["clientConfig"],
        json!({"url": "https://ext.example.com"})
    );
    // timeoutSeconds 0 and failurePolicy "" have no v1alpha1 form: they are left out.
    assert_eq!(
        back["status"]["handlers"][0],
        json!({
            "name": "h.ext",
            "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": "BeforeClusterCreate"}
        })
    );
}

/// An object already in the version asked for comes back as it is (unknown fields too).
#[test]
fn the_json_function_returns_an_object_in_the_target_version_unchanged() {
    let object = json!({
        "apiVersion": "runtime.cluster.x-k8s.io/v1beta2",
        "kind": "ExtensionConfig",
        "spec": {"clientConfig": {"url": "https://x"}},
        "extra": true
    });
    let same = convert_extension_config(object.clone(), v1beta2::API_VERSION).unwrap();
    assert_eq!(same, object);
}

#[test]
fn the_json_function_refuses_unknown_api_versions() {
    let object = |api_version: &str| json!({"apiVersion": api_version, "kind": "ExtensionConfig", "spec": {}});
    let err = convert_extension_config(
        object("runtime.cluster.x-k8s.io/v1alpha3"),
        v1beta2::API_VERSION,
    )
    .unwrap_err();
    assert_eq!(err.path(), "apiVersion");
    assert!(
        matches!(err.kind(), ConversionErrorKind::UnknownVersion { api_version, known }
            if api_version == "runtime.cluster.x-k8s.io/v1alpha3" && known.len() == 2),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "apiVersion: unknown apiVersion \"runtime.cluster.x-k8s.io/v1alpha3\" (known: \
         runtime.cluster.x-k8s.io/v1alpha1, runtime.cluster.x-k8s.io/v1beta2)"
    );
    // An unknown target version, for an object that is fine.
    let err =
        convert_extension_config(object(v1alpha1::API_VERSION), "runtime.cluster.x-k8s.io/v2")
            .unwrap_err();
    assert_eq!(err.path(), "");
    assert!(
        matches!(err.kind(), ConversionErrorKind::UnknownVersion { api_version, .. }
            if api_version == "runtime.cluster.x-k8s.io/v2"),
        "{err}"
    );
}

#[test]
fn the_json_function_refuses_malformed_objects_and_other_kinds() {
    use std::error::Error as _;
    // Not an object.
    let err =
        convert_extension_config(json!(["ExtensionConfig"]), v1beta2::API_VERSION).unwrap_err();
    assert!(
        matches!(err.kind(), ConversionErrorKind::Malformed(None)),
        "{err}"
    );
    // Another kind.
    let err = convert_extension_config(
        json!({"apiVersion": v1alpha1::API_VERSION, "kind": "Cluster"}),
        v1beta2::API_VERSION,
    )
    .unwrap_err();
    assert_eq!(err.path(), "kind");
    assert!(
        matches!(err.kind(), ConversionErrorKind::WrongKind { kind, expected: "ExtensionConfig" } if kind == "Cluster"),
        "{err}"
    );
    // No apiVersion.
    let err = convert_extension_config(json!({"kind": "ExtensionConfig"}), v1beta2::API_VERSION)
        .unwrap_err();
    assert_eq!(err.path(), "apiVersion");
    assert!(
        matches!(err.kind(), ConversionErrorKind::Malformed(None)),
        "{err}"
    );
    // A field of the wrong type: the decoder's error is the source.
    for (from, to) in [
        (v1alpha1::API_VERSION, v1beta2::API_VERSION),
        (v1beta2::API_VERSION, v1alpha1::API_VERSION),
        (v1beta2::API_VERSION, v1beta2::API_VERSION),
    ] {
        let object =
            json!({"apiVersion": from, "kind": "ExtensionConfig", "spec": "not an object"});
        let err = convert_extension_config(object, to).unwrap_err();
        assert!(
            matches!(err.kind(), ConversionErrorKind::Malformed(Some(_))),
            "{err}"
        );
        let source = err.source().expect("the decoder's error");
        assert!(source.to_string().contains("invalid type"), "{source}");
    }
}

/// Paths are built from the inside out, in JSON names, as apimachinery renders them.
#[test]
fn conversion_error_paths_name_the_field() {
    let err = ConversionError::invalid("no counterpart")
        .at("name")
        .at_index(2)
        .at("handlers")
        .at("status");
    assert_eq!(err.path(), "status.handlers[2].name");
    assert_eq!(err.to_string(), "status.handlers[2].name: no counterpart");
    let err = ConversionError::invalid("bad").at_key("k").at("settings");
    assert_eq!(err.path(), "settings[k]");
    assert_eq!(ConversionError::invalid("bad").to_string(), "bad");
}

/// A catalog conversion that refuses its input is an error of the catalog, with the
/// conversion's error as its source.
#[test]
fn a_failing_catalog_conversion_is_an_error() {
    use capi_runtime::catalog::CatalogError;
    use std::error::Error as _;
    let mut catalog = capi_runtime::Catalog::new();
    catalog.add_conversion(
        |_: &v1alpha1::ExtensionConfig| -> Result<v1beta2::ExtensionConfig, _> {
            Err(ConversionError::invalid("refused").at("spec"))
        },
    );
    let err = catalog
        .convert::<_, v1beta2::ExtensionConfig>(&v1alpha1::ExtensionConfig::default())
        .unwrap_err();
    assert!(
        matches!(&err, CatalogError::Conversion { source, .. } if source.path() == "spec"),
        "{err}"
    );
    assert_eq!(err.source().unwrap().to_string(), "spec: refused");
    let any = catalog.convert_any(
        &v1alpha1::ExtensionConfig::default(),
        std::any::TypeId::of::<v1alpha1::ExtensionConfig>(),
        std::any::TypeId::of::<v1beta2::ExtensionConfig>(),
    );
    assert!(matches!(any, Some(Err(_))));
}

// ---------------------------------------------------------------------------------------------
// Valid instances convert to valid instances
// ---------------------------------------------------------------------------------------------

fn schema_validators() -> BTreeMap<String, jsonschema::Validator> {
    let crd = support::structure::load_yaml(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml"),
    );
    crd["spec"]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let validator = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft4)
                .should_validate_formats(true)
                .build(&v["schema"]["openAPIV3Schema"])
                .unwrap();
            (v["name"].as_str().unwrap().to_string(), validator)
        })
        .collect()
}

/// v1alpha1 instances that are valid only in v1alpha1, because v1beta2's schema is stricter
/// there, each with the reason. Upstream converts them the same way (the apiserver validates a
/// request against the schema of the version it was sent in).
const ONLY_VALID_IN_V1ALPHA1: &[(&str, &str)] = &[
    ("v1alpha1-no-spec.yaml", "v1beta2 requires spec"),
    (
        "v1alpha1-empty-client-config.yaml",
        "an empty clientConfig is omitted in v1beta2 (omitzero), and clientConfig is required",
    ),
];

#[test]
fn valid_instances_convert_to_valid_instances_of_the_other_version() {
    let validators = schema_validators();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/extensionconfig/valid");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut problems = Vec::new();
    let mut only_alpha_seen = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc = support::structure::load_yaml(&path);
        let errors = |version: &str, v: &Value| -> Vec<String> {
            validators[version]
                .iter_errors(v)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect()
        };
        match doc["apiVersion"].as_str() {
            Some(v1alpha1::API_VERSION) => {
                let alpha: v1alpha1::ExtensionConfig = serde_json::from_value(doc).unwrap();
                let beta = serde_json::to_value(up(&alpha)).unwrap();
                let e = errors("v1beta2", &beta);
                let listed = ONLY_VALID_IN_V1ALPHA1.iter().any(|(n, _)| *n == name);
                if !e.is_empty() && !listed {
                    problems.push(format!("{name} converted to v1beta2: {}", e.join("; ")));
                }
                if !e.is_empty() {
                    only_alpha_seen.push(name.clone());
                }
            }
            Some(v1beta2::API_VERSION) => {
                let beta: v1beta2::ExtensionConfig = serde_json::from_value(doc).unwrap();
                let alpha = down(&beta);
                let e = errors("v1alpha1", &serde_json::to_value(&alpha).unwrap());
                if !e.is_empty() {
                    problems.push(format!("{name} converted to v1alpha1: {}", e.join("; ")));
                }
                // And a valid v1beta2 object survives the trip through v1alpha1 unchanged.
                if up(&alpha) != beta {
                    problems.push(format!("{name}: v1beta2 -> v1alpha1 -> v1beta2 differs"));
                }
            }
            other => panic!("{name}: apiVersion {other:?}"),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Listed files that do convert to valid v1beta2 are stale entries.
    let listed: Vec<&str> = ONLY_VALID_IN_V1ALPHA1.iter().map(|(n, _)| *n).collect();
    let stale: Vec<&&str> = listed
        .iter()
        .filter(|n| !only_alpha_seen.iter().any(|s| s == *n))
        .collect();
    assert!(
        stale.is_empty(),
        "these convert to valid v1beta2 now: {stale:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

/// Short strings, often empty (empty is where the versions differ).
fn short() -> impl Strategy<Value = String> {
    prop_oneof![1 => Just(String::new()), 3 => "[a-zA-Z0-9./-]{1,12}"]
}

fn string_map() -> impl Strategy<Value = BTreeMap<String, String>> {
    proptest::collection::btree_map("[a-z0-9./-]{1,10}", short(), 0..4)
}

fn times() -> impl Strategy<Value = metav1::Time> {
    // 1970 .. 2100, with nanoseconds.
    (0i64..4_102_444_800, 0i32..1_000_000_000)
        .prop_map(|(s, n)| metav1::Time(Timestamp::new(s, n).unwrap()))
}

fn object_meta() -> impl Strategy<Value = metav1::ObjectMeta> {
    (
        proptest::option::of(short()),
        proptest::option::of(string_map()),
        proptest::option::of(string_map()),
        proptest::option::of(0i64..100),
        proptest::option::of(times()),
        proptest::option::of(proptest::collection::vec(short(), 0..3)),
    )
        .prop_map(
            |(name, labels, annotations, generation, created, finalizers)| metav1::ObjectMeta {
                name,
                labels,
                annotations,
                generation,
                creation_timestamp: created,
                finalizers,
                ..Default::default()
            },
        )
}

fn label_selector() -> impl Strategy<Value = metav1::LabelSelector> {
    let requirement = (
        short(),
        prop_oneof![
            Just("In"),
            Just("NotIn"),
            Just("Exists"),
            Just("DoesNotExist")
        ],
        proptest::option::of(proptest::collection::vec(short(), 0..3)),
    )
        .prop_map(|(key, op, values)| metav1::LabelSelectorRequirement {
            key,
            operator: op.to_string(),
            values,
        });
    (
        proptest::option::of(proptest::collection::vec(requirement, 0..3)),
        proptest::option::of(string_map()),
    )
        .prop_map(|(match_expressions, match_labels)| metav1::LabelSelector {
            match_expressions,
            match_labels,
        })
}

fn ca_bundle() -> impl Strategy<Value = ByteString> {
    proptest::collection::vec(any::<u8>(), 0..16).prop_map(ByteString)
}

fn metav1_condition() -> impl Strategy<Value = metav1::Condition> {
    (
        times(),
        short(),
        proptest::option::of(any::<i64>()),
        short(),
        prop_oneof![Just("True"), Just("False"), Just("Unknown"), Just("")],
        short(),
    )
        .prop_map(
            |(t, message, generation, reason, status, type_)| metav1::Condition {
                last_transition_time: t,
                message,
                observed_generation: generation,
                reason,
                status: status.to_string(),
                type_,
            },
        )
}

fn legacy_conditions() -> impl Strategy<Value = Vec<LegacyCondition>> {
    let c = (
        proptest::option::of(times()),
        short(),
        short(),
        prop_oneof![Just("Error"), Just("Warning"), Just("Info"), Just("")],
        prop_oneof![Just("True"), Just("False"), Just("Unknown")],
        short(),
    )
        .prop_map(
            |(t, message, reason, severity, status, type_)| LegacyCondition {
                last_transition_time: t,
                message,
                reason,
                severity: severity.to_string(),
                status: status.to_string(),
                r#type: type_,
            },
        );
    proptest::collection::vec(c, 0..3)
}

fn metav1_conditions() -> impl Strategy<Value = Vec<metav1::Condition>> {
    proptest::collection::vec(metav1_condition(), 0..3)
}

/// apiVersion and kind: absent, the right ones, or another version's (the conversion sets
/// the target's whenever the source has one).
fn type_meta(api_version: &'static str) -> impl Strategy<Value = (String, String)> {
    (
        prop_oneof![
            Just(""),
            Just(api_version),
            Just("runtime.cluster.x-k8s.io/v9")
        ],
        prop_oneof![Just(""), Just("ExtensionConfig")],
    )
        .prop_map(|(a, k)| (a.to_string(), k.to_string()))
}

fn port() -> impl Strategy<Value = Option<i32>> {
    proptest::option::of(prop_oneof![Just(0), Just(443), any::<i32>()])
}

fn alpha_service() -> impl Strategy<Value = v1alpha1::ServiceReference> {
    (short(), short(), proptest::option::of(short()), port()).prop_map(
        |(namespace, name, path, port)| v1alpha1::ServiceReference {
            namespace,
            name,
            path,
            port,
        },
    )
}

fn beta_service() -> impl Strategy<Value = v1beta2::ServiceReference> {
    (short(), short(), short(), port()).prop_map(|(namespace, name, path, port)| {
        v1beta2::ServiceReference {
            namespace,
            name,
            path,
            port,
        }
    })
}

fn alpha_handler_strategy() -> impl Strategy<Value = v1alpha1::ExtensionHandler> {
    (
        short(),
        short(),
        short(),
        proptest::option::of(prop_oneof![Just(0), any::<i32>()]),
        proptest::option::of(prop_oneof![
            Just(v1alpha1::FailurePolicy::Ignore),
            Just(v1alpha1::FailurePolicy::Fail)
        ]),
    )
        .prop_map(
            |(name, api_version, hook, timeout, policy)| v1alpha1::ExtensionHandler {
                name,
                request_hook: v1alpha1::GroupVersionHook { api_version, hook },
                timeout_seconds: timeout,
                failure_policy: policy,
            },
        )
}

fn beta_handler_strategy() -> impl Strategy<Value = v1beta2::ExtensionHandler> {
    (
        short(),
        short(),
        short(),
        prop_oneof![Just(0), any::<i32>()],
        proptest::option::of(prop_oneof![
            Just(v1beta2::FailurePolicy::Ignore),
            Just(v1beta2::FailurePolicy::Fail)
        ]),
    )
        .prop_map(
            |(name, api_version, hook, timeout, policy)| v1beta2::ExtensionHandler {
                name,
                request_hook: v1beta2::GroupVersionHook { api_version, hook },
                timeout_seconds: timeout,
                failure_policy: policy,
            },
        )
}

fn alpha_config() -> impl Strategy<Value = v1alpha1::ExtensionConfig> {
    let spec = (
        proptest::option::of(short()),
        proptest::option::of(alpha_service()),
        ca_bundle(),
        proptest::option::of(label_selector()),
        string_map(),
    )
        .prop_map(|(url, service, ca_bundle, selector, settings)| {
            v1alpha1::ExtensionConfigSpec {
                client_config: v1alpha1::ClientConfig {
                    url,
                    service,
                    ca_bundle,
                },
                namespace_selector: selector,
                settings,
            }
        });
    let status = (
        proptest::collection::vec(alpha_handler_strategy(), 0..3),
        legacy_conditions(),
        proptest::option::of(metav1_conditions()),
    )
        .prop_map(
            |(handlers, conditions, v1beta2)| v1alpha1::ExtensionConfigStatus {
                handlers,
                conditions,
                v1beta2: v1beta2
                    .map(|conditions| v1alpha1::ExtensionConfigV1Beta2Status { conditions }),
            },
        );
    (
        type_meta(v1alpha1::API_VERSION),
        object_meta(),
        spec,
        status,
    )
        .prop_map(
            |((api_version, kind), metadata, spec, status)| v1alpha1::ExtensionConfig {
                api_version,
                kind,
                metadata,
                spec,
                status,
            },
        )
}

fn beta_config() -> impl Strategy<Value = v1beta2::ExtensionConfig> {
    let spec = (
        short(),
        prop_oneof![1 => Just(v1beta2::ServiceReference::default()), 3 => beta_service()],
        ca_bundle(),
        proptest::option::of(label_selector()),
        string_map(),
    )
        .prop_map(|(url, service, ca_bundle, selector, settings)| {
            v1beta2::ExtensionConfigSpec {
                client_config: v1beta2::ClientConfig {
                    url,
                    service,
                    ca_bundle,
                },
                namespace_selector: selector,
                settings,
            }
        });
    let deprecated = proptest::option::of(proptest::option::of(legacy_conditions()).prop_map(
        |v1beta1| v1beta2::ExtensionConfigDeprecatedStatus {
            v1beta1:
                v1beta1.map(
                    |conditions| v1beta2::ExtensionConfigV1Beta1DeprecatedStatus { conditions },
                ),
        },
    ));
    let status = (
        metav1_conditions(),
        proptest::collection::vec(beta_handler_strategy(), 0..3),
        deprecated,
    )
        .prop_map(
            |(conditions, handlers, deprecated)| v1beta2::ExtensionConfigStatus {
                conditions,
                handlers,
                deprecated,
            },
        );
    (type_meta(v1beta2::API_VERSION), object_meta(), spec, status).prop_map(
        |((api_version, kind), metadata, spec, status)| v1beta2::ExtensionConfig {
            api_version,
            kind,
            metadata,
            spec,
            status,
        },
    )
}

/// What a v1alpha1 object becomes after v1alpha1 -> v1beta2 -> v1alpha1: the values v1beta2
/// cannot tell apart are folded together, as upstream's round-trip fuzzer does.
fn normalize_alpha(mut x: v1alpha1::ExtensionConfig) -> v1alpha1::ExtensionConfig {
    // Type meta: the conversion writes the target version's apiVersion/kind when the source
    // has any (the conversion webhook sets the GVK the request asks for).
    if !x.api_version.is_empty() {
        x.api_version = v1alpha1::API_VERSION.into();
    }
    if !x.kind.is_empty() {
        x.kind = "ExtensionConfig".into();
    }
    let cc = &mut x.spec.client_config;
    // url: Some("") -> None (v1beta2 has a plain string; "" is its absence).
    if cc.url.as_deref() == Some("") {
        cc.url = None;
    }
    if let Some(service) = &mut cc.service {
        // service.path: Some("") -> None (same reason).
        if service.path.as_deref() == Some("") {
            service.path = None;
        }
    }
    // service: Some(zero ServiceReference) -> None (v1beta2 has a value; the zero value is its
    // absence, upstream's `IsDefined`). After the path normalization above.
    if cc.service == Some(v1alpha1::ServiceReference::default()) {
        cc.service = None;
    }
    for h in &mut x.status.handlers {
        // timeoutSeconds: Some(0) -> None (v1beta2 has a plain int32 with omitempty).
        if h.timeout_seconds == Some(0) {
            h.timeout_seconds = None;
        }
    }
    // status.v1beta2: Some(no conditions) -> None (the container exists in v1alpha1 only to
    // carry conditions; it is created only when there are some).
    if x.status
        .v1beta2
        .as_ref()
        .is_some_and(|v| v.conditions.is_empty())
    {
        x.status.v1beta2 = None;
    }
    x
}

/// What a v1beta2 object becomes after v1beta2 -> v1alpha1 -> v1beta2.
fn normalize_beta(mut x: v1beta2::ExtensionConfig) -> v1beta2::ExtensionConfig {
    // Type meta, as above.
    if !x.api_version.is_empty() {
        x.api_version = v1beta2::API_VERSION.into();
    }
    if !x.kind.is_empty() {
        x.kind = "ExtensionConfig".into();
    }
    // status.deprecated: a container without legacy conditions (`deprecated: {}` or
    // `deprecated: {v1beta1: {}}`) -> None (v1alpha1 has only the list; the container is
    // created only when the list is not empty).
    let has_legacy = x
        .status
        .deprecated
        .as_ref()
        .and_then(|d| d.v1beta1.as_ref())
        .is_some_and(|v| !v.conditions.is_empty());
    if !has_legacy {
        x.status.deprecated = None;
    }
    x
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn v1alpha1_round_trips_through_v1beta2(x in alpha_config()) {
        let hub = up(&x);
        prop_assert_eq!(down(&hub), normalize_alpha(x.clone()));
        // The normalization folds only values the hub cannot tell apart.
        prop_assert_eq!(up(&normalize_alpha(x)), hub);
    }

    #[test]
    fn v1beta2_round_trips_through_v1alpha1(x in beta_config()) {
        let spoke = down(&x);
        prop_assert_eq!(up(&spoke), normalize_beta(x.clone()));
        prop_assert_eq!(down(&normalize_beta(x)), spoke);
    }

    /// Converting twice is the same as converting once (a converted object is normalized).
    #[test]
    fn conversion_is_stable(x in alpha_config(), y in beta_config()) {
        let once = down(&up(&x));
        prop_assert_eq!(down(&up(&once)), once);
        let once = up(&down(&y));
        prop_assert_eq!(up(&down(&once)), once);
    }
}

// ---------------------------------------------------------------------------------------------
// Test hooks (FakeRequest/FakeResponse v1alpha1 <-> v1alpha2)
// ---------------------------------------------------------------------------------------------

mod test_hook_conversions {
    use super::*;
    use capi_runtime::hooks::v1alpha1::ResponseStatus;
    use test_hooks::{v1alpha1 as a1, v1alpha2 as a2};

    fn cluster() -> impl Strategy<Value = capi_runtime::api::core::v1beta2::Cluster> {
        (object_meta(), proptest::option::of(any::<bool>()), short()).prop_map(
            |(metadata, paused, host)| {
                let mut c = capi_runtime::api::core::v1beta2::Cluster {
                    api_version: "cluster.x-k8s.io/v1beta2".into(),
                    kind: "Cluster".into(),
                    metadata,
                    ..Default::default()
                };
                c.spec.paused = paused;
                c.spec.control_plane_endpoint.host = host;
                c
            },
        )
    }

    fn request_parts() -> impl Strategy<
        Value = (
            BTreeMap<String, String>,
            capi_runtime::api::core::v1beta2::Cluster,
            String,
            i32,
        ),
    > {
        (string_map(), cluster(), short(), any::<i32>())
    }

    fn response_parts() -> impl Strategy<Value = (ResponseStatus, String, String, i32)> {
        (
            prop_oneof![Just(ResponseStatus::Success), Just(ResponseStatus::Failure)],
            short(),
            short(),
            any::<i32>(),
        )
    }

    proptest! {
        #![proptest_config(config())]

        /// Type meta is not converted (upstream's conversion-gen leaves TypeMeta to the
        /// scheme, which sets the target's GVK); every other field round-trips exactly.
        #[test]
        fn fake_request_round_trips((settings, cluster, second, first) in request_parts()) {
            let old = a1::FakeRequest {
                api_version: String::new(),
                kind: String::new(),
                settings,
                cluster,
                second,
                first,
            };
            let new = a2::FakeRequest::try_from(&old).unwrap();
            prop_assert_eq!(&new.settings, &old.settings);
            prop_assert_eq!(&new.cluster, &old.cluster);
            prop_assert_eq!((&new.second, new.first), (&old.second, old.first));
            prop_assert_eq!(a1::FakeRequest::try_from(&new).unwrap(), old.clone());
            // With type meta set, only type meta is lost.
            let mut typed = old.clone();
            typed.api_version = "test.runtime.cluster.x-k8s.io/v1alpha1".into();
            typed.kind = "FakeRequest".into();
            let new = a2::FakeRequest::try_from(&typed).unwrap();
            prop_assert_eq!((new.api_version.as_str(), new.kind.as_str()), ("", ""));
            prop_assert_eq!(a1::FakeRequest::try_from(&new).unwrap(), old);
        }

        #[test]
        fn fake_response_round_trips((status, message, second, first) in response_parts()) {
            let old = a1::FakeResponse {
                api_version: String::new(),
                kind: String::new(),
                status,
                message,
                second,
                first,
            };
            let new = a2::FakeResponse::try_from(&old).unwrap();
            prop_assert_eq!(
                (new.status, &new.message, &new.second, new.first),
                (old.status, &old.message, &old.second, old.first)
            );
            prop_assert_eq!(a1::FakeResponse::try_from(&new).unwrap(), old.clone());
            // Through the catalog, which registers the same functions.
            let catalog = test_hooks::catalog();
            let via: a2::FakeResponse = catalog.convert(&old).unwrap();
            prop_assert_eq!(via, new);
        }
    }

    /// upstream's `internal/runtime/test/v1alpha1/conversion_test.go` examples.
    #[test]
    fn upstream_examples() {
        let mut request = a2::FakeRequest::default();
        request.cluster.metadata.name = Some("test".into());
        let down = a1::FakeRequest::try_from(&request).unwrap();
        assert_eq!(down.cluster.metadata.name.as_deref(), Some("test"));
        let response = a1::FakeResponse {
            first: 1,
            second: "foo".into(),
            ..Default::default()
        };
        let up = a2::FakeResponse::try_from(&response).unwrap();
        assert_eq!((up.first, up.second.as_str()), (1, "foo"));
        assert_eq!(
            serde_json::to_value(&up).unwrap(),
            serde_json::to_value(&response).unwrap()
        );
    }
}
