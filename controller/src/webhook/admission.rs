//! Defaulting and validation of ExtensionConfigs (runtime.md §5), and the AdmissionReview
//! handlers that apply them: a thin adapter over the runtime crate's shared rules.
//!
//! The rules are Cluster API's, rule for rule, and live once, in
//! [`capi_runtime::api::runtime::validation::extension_config`] (the same function the
//! registry's and the client's checks are built from). This module turns their field errors
//! into the answer Cluster API's webhook server gives: a `Forbidden` denial (403) when the
//! `RuntimeSDK` feature gate is off, otherwise one `Invalid` status (422) listing every
//! problem, `ExtensionConfig.runtime.cluster.x-k8s.io "<name>" is invalid: [...]`
//! (apimachinery's `NewInvalid`). `controller/tests/it/go_webhook.rs` holds both answers to
//! Cluster API's own webhook, run by the Go oracle.
//!
//! Our own rules, stricter than Cluster API's: a `spec.clientConfig.url` with user info, a
//! query or a fragment is refused (the API documents them as not allowed; Cluster API does not
//! check).

use capi_runtime::api::runtime::GROUP;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::api::runtime::validation::{self, FieldError, FieldPath};
use capi_runtime::go::field::invalid_message;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview, Operation};
use kube::core::response::{Status, StatusCause, StatusDetails, StatusSummary};
use serde_json::Value;

/// The kind in Kubernetes' `Kind.group` form, as error messages name it.
pub const QUALIFIED_KIND: &str = "ExtensionConfig.runtime.cluster.x-k8s.io";
/// The detail of the denial when the RuntimeSDK feature gate is off.
pub const GATE_OFF_DETAIL: &str = "can be set only if the RuntimeSDK feature flag is enabled";
/// The port a service reference gets when it names none.
pub const DEFAULT_SERVICE_PORT: i32 = 443;

/// Applies Cluster API's defaults (its webhook's `Default`): a missing
/// `spec.namespaceSelector` becomes `{}` (match every namespace), and a service reference
/// with any field set but no port gets port 443. Idempotent.
pub fn default(config: &mut ExtensionConfig) {
    if config.spec.namespace_selector.is_none() {
        config.spec.namespace_selector = Some(Default::default());
    }
    let service = &mut config.spec.client_config.service;
    if service.is_defined() && service.port.is_none() {
        service.port = Some(DEFAULT_SERVICE_PORT);
    }
}

/// The JSON patch a defaulting webhook answers with for the object it was sent, as
/// controller-runtime's typed defaulter computes it around Cluster API's `Default`: none when
/// defaulting changes nothing; otherwise the difference from the object as sent to the
/// defaulted object as the type encodes it, without the removals that decoding and encoding
/// alone would make (members the type does not hold, empty ones it leaves out), so that those
/// stay as they were sent.
pub fn defaulting_patch(object: &Value) -> Result<json_patch::Patch, serde_json::Error> {
    let original: ExtensionConfig = serde_json::from_value(object.clone())?;
    let mut defaulted = original.clone();
    default(&mut defaulted);
    if defaulted == original {
        return Ok(json_patch::Patch(Vec::new()));
    }
    let round_trip = json_patch::diff(object, &serde_json::to_value(&original)?);
    let mut patch = json_patch::diff(object, &serde_json::to_value(&defaulted)?);
    patch.0.retain(|op| {
        !matches!(op, json_patch::PatchOperation::Remove(_)) || !round_trip.0.contains(op)
    });
    Ok(patch)
}

/// Every rule of runtime.md §5.2 (and ours on URLs) that `config` breaks, in Cluster API's
/// order: [`validation::extension_config`]. The feature gate is checked by the caller.
pub fn validate(config: &ExtensionConfig) -> Vec<FieldError> {
    validation::extension_config(config)
}

/// The status the validating webhook answers with for `errors` of the object `name`
/// (apimachinery's `NewInvalid`): code 422, reason `Invalid`, the message naming the object
/// and the aggregate of the errors, one cause per error.
pub fn invalid_status(name: &str, errors: &[FieldError]) -> Status {
    let message = invalid_message(QUALIFIED_KIND, name, errors);
    Status {
        status: Some(StatusSummary::Failure),
        code: 422,
        message,
        reason: "Invalid".into(),
        details: Some(StatusDetails {
            name: name.to_string(),
            group: GROUP.to_string(),
            kind: "ExtensionConfig".into(),
            uid: String::new(),
            causes: errors
                .iter()
                .map(|e| StatusCause {
                    reason: e.kind.reason().to_string(),
                    message: e.body(),
                    field: e.field.clone(),
                })
                .collect(),
            retry_after_seconds: 0,
        }),
        metadata: None,
    }
}

/// The status of the denial when the RuntimeSDK feature gate is off: the field error
/// `spec: Forbidden: ...`, answered as controller-runtime answers an error that is not an API
/// status (403, reason `Forbidden`).
pub fn gate_off_status() -> Status {
    Status {
        status: None,
        code: 403,
        message: FieldError::forbidden(&FieldPath::new("spec"), GATE_OFF_DETAIL).to_string(),
        reason: "Forbidden".into(),
        details: None,
        metadata: None,
    }
}

fn errored(
    request: &AdmissionRequest<DynamicObject>,
    code: u16,
    message: String,
) -> AdmissionResponse {
    let mut response = AdmissionResponse::from(request).deny(&message);
    response.result.code = code;
    response.result.status = Some(StatusSummary::Failure);
    response
}

/// An answer that admits the request, with code 200 as controller-runtime writes it.
fn allowed(request: &AdmissionRequest<DynamicObject>) -> AdmissionResponse {
    let mut response = AdmissionResponse::from(request);
    response.result.code = 200;
    response
}

/// Answers a mutating AdmissionReview: the JSON patch of [`defaulting_patch`].
pub fn mutate(review: AdmissionReview<DynamicObject>) -> AdmissionReview<DynamicObject> {
    let request: AdmissionRequest<DynamicObject> = match review.try_into() {
        Ok(r) => r,
        Err(e) => return AdmissionResponse::invalid(e).into_review(),
    };
    let Some(object) = request.object.as_ref() else {
        return allowed(&request).into_review();
    };
    if !matches!(request.operation, Operation::Create | Operation::Update) {
        return allowed(&request).into_review();
    }
    let original = match serde_json::to_value(object) {
        Ok(v) => v,
        Err(e) => return errored(&request, 400, e.to_string()).into_review(),
    };
    let patch = match defaulting_patch(&original) {
        Ok(p) => p,
        Err(e) => return errored(&request, 400, e.to_string()).into_review(),
    };
    if patch.0.is_empty() {
        return allowed(&request).into_review();
    }
    match allowed(&request).with_patch(patch) {
        Ok(r) => r.into_review(),
        Err(e) => errored(&request, 500, e.to_string()).into_review(),
    }
}

/// Answers a validating AdmissionReview: delete is always allowed; create and update are
/// denied when the gate is off, and otherwise checked with [`validate`].
pub fn validate_review(
    review: AdmissionReview<DynamicObject>,
    runtime_sdk_enabled: bool,
) -> AdmissionReview<DynamicObject> {
    let request: AdmissionRequest<DynamicObject> = match review.try_into() {
        Ok(r) => r,
        Err(e) => return AdmissionResponse::invalid(e).into_review(),
    };
    if !matches!(request.operation, Operation::Create | Operation::Update) {
        return allowed(&request).into_review();
    }
    if !runtime_sdk_enabled {
        let mut response = AdmissionResponse::from(&request);
        response.allowed = false;
        response.result = gate_off_status();
        return response.into_review();
    }
    let Some(object) = request.object.as_ref() else {
        return errored(&request, 400, "there is no content to decode".into()).into_review();
    };
    let config: ExtensionConfig =
        match serde_json::to_value(object).and_then(serde_json::from_value) {
            Ok(c) => c,
            Err(e) => return errored(&request, 400, e.to_string()).into_review(),
        };
    let violations = validate(&config);
    if violations.is_empty() {
        return allowed(&request).into_review();
    }
    let mut response = AdmissionResponse::from(&request);
    response.allowed = false;
    response.result = invalid_status(
        config.metadata.name.as_deref().unwrap_or_default(),
        &violations,
    );
    response.into_review()
}

#[cfg(test)]
mod tests {
    use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::{
        LabelSelector, LabelSelectorRequirement,
    };

    use super::*;
    use serde_json::json;

    fn valid() -> ExtensionConfig {
        serde_json::from_value(json!({
            "metadata": {"name": "ext1"},
            "spec": {
                "clientConfig": {"service": {"name": "svc", "namespace": "ns", "port": 443}},
                "namespaceSelector": {}
            }
        }))
        .unwrap()
    }

    fn messages(c: &ExtensionConfig) -> Vec<String> {
        validate(c).iter().map(ToString::to_string).collect()
    }

    /// The object after its defaulting patch.
    fn defaulted_object(object: &Value) -> Result<Value, serde_json::Error> {
        let mut out = object.clone();
        json_patch::patch(&mut out, &defaulting_patch(object)?).unwrap();
        Ok(out)
    }

    #[test]
    fn defaulting_sets_selector_and_port_and_is_idempotent() {
        let o = json!({"metadata": {"name": "e"}, "spec": {"clientConfig": {"service": {"name": "s", "namespace": "n"}}}});
        let o = defaulted_object(&o).unwrap();
        assert_eq!(o["spec"]["namespaceSelector"], json!({}));
        assert_eq!(o["spec"]["clientConfig"]["service"]["port"], json!(443));
        assert_eq!(defaulted_object(&o).unwrap(), o);
        let url = json!({"spec": {"clientConfig": {"url": "https://x"}, "namespaceSelector": {"matchLabels": {"a": "b"}}}});
        let url = defaulted_object(&url).unwrap();
        assert_eq!(
            url["spec"]["namespaceSelector"],
            json!({"matchLabels": {"a": "b"}})
        );
        assert!(url["spec"]["clientConfig"].get("service").is_none());
        // Members the type leaves out stay as sent.
        let kept = json!({"spec": {"clientConfig": {"url": "https://x", "service": {"name": ""}}, "extra": 1}});
        let kept = defaulted_object(&kept).unwrap();
        assert_eq!(kept["spec"]["extra"], json!(1));
        assert_eq!(kept["spec"]["clientConfig"]["service"], json!({"name": ""}));
        let explicit = json!({"spec": {"clientConfig": {"service": {"name": "s", "port": 8443}}}});
        let explicit = defaulted_object(&explicit).unwrap();
        assert_eq!(
            explicit["spec"]["clientConfig"]["service"]["port"],
            json!(8443)
        );
    }

    #[test]
    fn a_valid_config_passes_and_defaulted_configs_validate() {
        assert!(validate(&valid()).is_empty());
        let mut c: ExtensionConfig = serde_json::from_value(json!({"metadata": {"name": "ext1"}, "spec": {"clientConfig": {"service": {"name": "svc", "namespace": "ns"}}}})).unwrap();
        default(&mut c);
        assert!(validate(&c).is_empty());
    }

    #[test]
    fn each_rejected_case_of_upstream() {
        type Change = Box<dyn Fn(&mut ExtensionConfig)>;
        let cases: Vec<(Change, &str)> = vec![
            (
                Box::new(|c| c.spec.client_config.service.name.clear()),
                "spec.clientConfig.service.name: Required value: must not be empty",
            ),
            (
                Box::new(|c| c.metadata.name = Some("bad.name".into())),
                "metadata.name: Invalid value: \"bad.name\": ExtensionConfig name should be a valid DNS1123 label name: [",
            ),
            (
                Box::new(|c| c.spec.client_config.service.name = "NOT_ALLOWED".into()),
                "spec.clientConfig.service.name: Invalid value: \"NOT_ALLOWED\": a DNS-1035 label must consist of",
            ),
            (
                Box::new(|c| c.spec.client_config.service.namespace.clear()),
                "spec.clientConfig.service.namespace: Required value: must not be empty",
            ),
            (
                Box::new(|c| c.spec.client_config.service.namespace = "INVALID".into()),
                "spec.clientConfig.service.namespace: Invalid value: \"INVALID\": a lowercase RFC 1123 label must consist of",
            ),
            (
                Box::new(|c| c.spec.client_config.service.path = "https://example.com".into()),
                "spec.clientConfig.service.path: Invalid value: \"https://example.com\": must start with \"/\" to be a valid URL path",
            ),
            (
                Box::new(|c| c.spec.client_config.service.port = Some(90000)),
                "spec.clientConfig.service.port: Invalid value: 90000: must be between 1 and 65535, inclusive",
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
                Box::new(|c| c.spec.namespace_selector = None),
                "spec.namespaceSelector: Required value: must be defined",
            ),
            (
                Box::new(|c| {
                    c.spec.namespace_selector = Some(LabelSelector {
                        match_expressions: Some(vec![LabelSelectorRequirement {
                            key: "foo".into(),
                            operator: "bad-operator".into(),
                            values: Some(vec!["a".into()]),
                        }]),
                        match_labels: None,
                    });
                }),
                "spec.namespaceSelector: Invalid value: {\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"bad-operator\",\"values\":[\"a\"]}]}: \"bad-operator\" is not a valid label selector operator",
            ),
        ];
        for (change, expected) in cases {
            let mut c = valid();
            change(&mut c);
            let got = messages(&c);
            assert!(
                got.iter().any(|m| m.starts_with(expected)),
                "expected {expected:?} in {got:?}"
            );
        }
    }

    #[test]
    fn an_empty_service_name_is_both_required_and_invalid() {
        let mut c = valid();
        c.spec.client_config.service.name.clear();
        let got = messages(&c);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[1].starts_with("spec.clientConfig.service.name: Invalid value: \"\": "));
    }

    #[test]
    fn accepted_selector_exists() {
        let mut c = valid();
        c.spec.namespace_selector = Some(LabelSelector {
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "foo".into(),
                operator: "Exists".into(),
                values: None,
            }]),
            match_labels: None,
        });
        assert!(validate(&c).is_empty());
    }

    #[test]
    fn our_stricter_url_rules() {
        for (url, detail) in [
            ("https://user@x.example", "must not contain user info"),
            ("https://x.example/p?q=1", "must not contain a query"),
            ("https://x.example/p#f", "must not contain a fragment"),
        ] {
            let mut c = valid();
            c.spec.client_config.service = Default::default();
            c.spec.client_config.url = url.into();
            assert_eq!(
                messages(&c),
                [format!(
                    "spec.clientConfig.url: Invalid value: {url:?}: {detail}"
                )]
            );
        }
    }

    /// An AdmissionReview of `operation` on the valid object (old object too on update and
    /// delete), as the API server sends it.
    fn review(operation: &str) -> AdmissionReview<DynamicObject> {
        let object = serde_json::to_value(valid()).unwrap();
        let (new, old) = match operation {
            "CREATE" => (object, Value::Null),
            "UPDATE" => (object.clone(), object),
            _ => (Value::Null, object),
        };
        serde_json::from_value(json!({
            "apiVersion": "admission.k8s.io/v1",
            "kind": "AdmissionReview",
            "request": {
                "uid": "u-1",
                "kind": {"group": GROUP, "version": "v1beta2", "kind": "ExtensionConfig"},
                "resource": {"group": GROUP, "version": "v1beta2", "resource": "extensionconfigs"},
                "name": "ext1",
                "operation": operation,
                "userInfo": {},
                "object": new,
                "oldObject": old,
            }
        }))
        .unwrap()
    }

    #[test]
    fn the_gate_refuses_create_and_update_and_never_delete() {
        for (operation, gate, allowed) in [
            ("CREATE", false, false),
            ("UPDATE", false, false),
            ("DELETE", false, true),
            ("CREATE", true, true),
            ("UPDATE", true, true),
            ("DELETE", true, true),
        ] {
            let answer = validate_review(review(operation), gate).response.unwrap();
            assert_eq!(answer.allowed, allowed, "{operation} with the gate {gate}");
            assert_eq!(answer.uid, "u-1");
            if !allowed {
                assert_eq!(answer.result.code, 403, "{operation}");
                assert_eq!(
                    answer.result.message,
                    "spec: Forbidden: can be set only if the RuntimeSDK feature flag is enabled"
                );
            }
        }
    }

    #[test]
    fn statuses_render_as_the_api_server_does() {
        let mut c = valid();
        c.metadata.name = Some("bad.name".into());
        c.spec.client_config.service.port = Some(0);
        let v = validate(&c);
        let s = invalid_status("bad.name", &v);
        assert_eq!(s.code, 422);
        assert_eq!(s.reason, "Invalid");
        assert!(s.message.starts_with("ExtensionConfig.runtime.cluster.x-k8s.io \"bad.name\" is invalid: [metadata.name: Invalid value: \"bad.name\": "), "{}", s.message);
        assert!(s.message.ends_with(", spec.clientConfig.service.port: Invalid value: 0: must be between 1 and 65535, inclusive]"));
        let causes = &s.details.as_ref().unwrap().causes;
        assert_eq!(causes[1].reason, "FieldValueInvalid");
        assert_eq!(causes[1].field, "spec.clientConfig.service.port");
        assert_eq!(
            causes[1].message,
            "Invalid value: 0: must be between 1 and 65535, inclusive"
        );
        let one = invalid_status("x", &v[1..]);
        assert!(!one.message.contains('['));
        let gate = gate_off_status();
        assert_eq!((gate.code, gate.reason.as_str()), (403, "Forbidden"));
        assert_eq!(
            gate.message,
            "spec: Forbidden: can be set only if the RuntimeSDK feature flag is enabled"
        );
    }
}
