//! Defaulting and validation of ExtensionConfigs (runtime.md §5), as pure functions over the
//! object, and the AdmissionReview handlers that apply them.
//!
//! Validation follows Cluster API's webhook rule for rule, with its field paths, error kinds
//! and details, and renders the result as the API server shows it: a `Forbidden` denial (403)
//! when the `RuntimeSDK` feature gate is off, otherwise one `Invalid` status (422) listing
//! every problem as `ExtensionConfig.runtime.cluster.x-k8s.io "<name>" is invalid: [...]`.
//!
//! Our own rules, stricter than Cluster API's: a `spec.clientConfig.url` with user info, a
//! query or a fragment is refused (the API documents them as not allowed; Cluster API does not
//! check).

use capi_runtime::api::runtime::GROUP;
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::api::runtime::validation::{
    ErrorType, FieldError, FieldPath, NamespaceSelector, dns1035_label, dns1123_label,
};
use capi_runtime::go::errors::aggregate_messages;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview, Operation};
use kube::core::response::{Status, StatusCause, StatusDetails, StatusSummary};
use serde_json::{Value, json};

/// The kind in Kubernetes' `Kind.group` form, as error messages name it.
pub const QUALIFIED_KIND: &str = "ExtensionConfig.runtime.cluster.x-k8s.io";
/// The detail of the denial when the RuntimeSDK feature gate is off.
pub const GATE_OFF_DETAIL: &str = "can be set only if the RuntimeSDK feature flag is enabled";
/// The port a service reference gets when it names none.
pub const DEFAULT_SERVICE_PORT: i64 = 443;

/// Applies Cluster API's defaults to an ExtensionConfig given as JSON: a missing or null
/// `spec.namespaceSelector` becomes `{}`, and a service reference with any field set but no
/// port gets port 443. Fields it does not know are left alone. Idempotent.
pub fn default_object(object: &mut Value) {
    let Some(root) = object.as_object_mut() else {
        return;
    };
    let spec = root.entry("spec").or_insert_with(|| json!({}));
    if spec.is_null() {
        *spec = json!({});
    }
    let Some(spec) = spec.as_object_mut() else {
        return;
    };
    let selector = spec.entry("namespaceSelector").or_insert(Value::Null);
    if selector.is_null() {
        *selector = json!({});
    }
    let service = spec
        .get_mut("clientConfig")
        .and_then(|c| c.get_mut("service"))
        .and_then(Value::as_object_mut);
    if let Some(service) = service {
        let set = |v: Option<&Value>| match v {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) => !s.is_empty(),
            Some(_) => true,
        };
        let defined = ["namespace", "name", "path", "port"]
            .iter()
            .any(|k| set(service.get(*k)));
        if defined && !set(service.get("port")) {
            service.insert("port".into(), json!(DEFAULT_SERVICE_PORT));
        }
    }
}

/// How Go's `url.ParseRequestURI` judges `raw`: `Err` with Go's message (`parse "<raw>": …`)
/// when it refuses it, otherwise the scheme, lower-cased (empty for an absolute path).
pub fn parse_request_uri(raw: &str) -> Result<String, String> {
    let fail = |why: &str| Err(format!("parse {raw:?}: {why}"));
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return fail("net/url: invalid control character in URL");
    }
    if raw.is_empty() {
        return fail("empty url");
    }
    let mut scheme = "";
    let mut rest = raw;
    for (i, c) in raw.char_indices() {
        if c.is_ascii_alphabetic() {
            continue;
        }
        if c.is_ascii_digit() || c == '+' || c == '-' || c == '.' {
            if i == 0 {
                break;
            }
            continue;
        }
        if c == ':' {
            if i == 0 {
                return fail("missing protocol scheme");
            }
            scheme = &raw[..i];
            rest = &raw[i + 1..];
        }
        break;
    }
    let rest = rest.split_once('?').map_or(rest, |(path, _)| path);
    if !rest.starts_with('/') {
        if !scheme.is_empty() {
            return Ok(scheme.to_ascii_lowercase());
        }
        return fail("invalid URI for request");
    }
    if !scheme.is_empty()
        && let Some(authority) = rest.strip_prefix("//")
    {
        let authority = authority.split('/').next().unwrap_or_default();
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if let Some(port) = port_of(host)
            && !port.bytes().all(|b| b.is_ascii_digit())
        {
            return fail(&format!("invalid port {:?} after host", format!(":{port}")));
        }
    }
    Ok(scheme.to_ascii_lowercase())
}

/// The port part of `host[:port]` (IPv6 literals in brackets).
fn port_of(host: &str) -> Option<&str> {
    if let Some(after) = host.strip_prefix('[') {
        let (_, tail) = after.split_once(']')?;
        return tail.strip_prefix(':');
    }
    host.rsplit_once(':').map(|(_, p)| p)
}

/// A label selector as Go's generated `String()` prints it, which is how apimachinery shows
/// a rejected selector value.
pub fn go_selector_string(s: &LabelSelector) -> String {
    let mut labels = String::from("map[string]string{");
    for (k, v) in s.match_labels.iter().flatten() {
        labels.push_str(&format!("{k}: {v},"));
    }
    labels.push('}');
    let mut expressions = String::from("[]LabelSelectorRequirement{");
    for e in s.match_expressions.iter().flatten() {
        let values = e.values.as_deref().unwrap_or_default().join(" ");
        expressions.push_str(&format!(
            "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{values}],}},",
            e.key, e.operator
        ));
    }
    expressions.push('}');
    format!("&LabelSelector{{MatchLabels:{labels},MatchExpressions:{expressions},}}")
}

/// One problem found by [`validate`]: the field error, and how its value is shown (a
/// selector is shown the way Go prints it, which a [`FieldError`] cannot carry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The field error.
    pub error: FieldError,
    /// The value as shown, when it is not the field error's own.
    pub shown_value: Option<String>,
}

impl Violation {
    fn of(error: FieldError) -> Self {
        Violation {
            error,
            shown_value: None,
        }
    }

    /// The message without the field path, as apimachinery's `ErrorBody` (the `message` of a
    /// status cause).
    pub fn body(&self) -> String {
        match &self.shown_value {
            None => {
                let full = self.error.to_string();
                match full.strip_prefix(&format!("{}: ", self.error.field)) {
                    Some(body) if !self.error.field.is_empty() => body.to_string(),
                    _ => full,
                }
            }
            Some(value) => {
                let mut s = format!("{}: {value}", self.error.kind.as_str());
                if !self.error.detail.is_empty() {
                    s.push_str(": ");
                    s.push_str(&self.error.detail);
                }
                s
            }
        }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.error.field, self.body())
    }
}

/// Every rule of runtime.md §5.2 (and ours on URLs) that `config` breaks, in Cluster API's
/// order. The feature gate is checked by the caller.
pub fn validate(config: &ExtensionConfig) -> Vec<Violation> {
    let mut out = Vec::new();
    let name = config.metadata.name.as_deref().unwrap_or_default();
    let reasons = dns1123_label(name);
    if !reasons.is_empty() {
        out.push(Violation::of(FieldError::invalid(
            &FieldPath::new("metadata").child("name"),
            name,
            format!(
                "ExtensionConfig name should be a valid DNS1123 label name: [{}]",
                reasons.join(" ")
            ),
        )));
    }
    let spec = FieldPath::new("spec");
    let client = spec.child("clientConfig");
    let cc = &config.spec.client_config;
    let has_url = !cc.url.is_empty();
    let has_service = cc.service.is_defined();
    if !has_url && !has_service {
        out.push(Violation::of(FieldError::required(
            &client,
            "either url or service must be defined",
        )));
    }
    if has_url && has_service {
        out.push(Violation::of(FieldError::forbidden(
            &client,
            "only one of url or service can be defined",
        )));
    }
    if has_url {
        let at = client.child("url");
        match parse_request_uri(&cc.url) {
            Err(e) => out.push(Violation::of(FieldError::invalid(
                &at,
                cc.url.as_str(),
                format!("must be a valid URL, e.g. https://example.com: {e}"),
            ))),
            Ok(scheme) if scheme != "https" => out.push(Violation::of(FieldError::invalid(
                &at,
                cc.url.as_str(),
                "'https' is the only allowed URL scheme, e.g. https://example.com",
            ))),
            Ok(_) => {
                if let Some(detail) = stricter_url_rule(&cc.url) {
                    out.push(Violation::of(FieldError::invalid(
                        &at,
                        cc.url.as_str(),
                        detail,
                    )));
                }
            }
        }
    }
    if has_service {
        let s = &cc.service;
        let at = client.child("service");
        if s.name.is_empty() {
            out.push(Violation::of(FieldError::required(
                &at.child("name"),
                "must not be empty",
            )));
        }
        for msg in dns1035_label(&s.name) {
            out.push(Violation::of(FieldError::invalid(
                &at.child("name"),
                s.name.as_str(),
                msg,
            )));
        }
        if s.namespace.is_empty() {
            out.push(Violation::of(FieldError::required(
                &at.child("namespace"),
                "must not be empty",
            )));
        }
        for msg in dns1123_label(&s.namespace) {
            out.push(Violation::of(FieldError::invalid(
                &at.child("namespace"),
                s.namespace.as_str(),
                msg,
            )));
        }
        if !s.path.is_empty() {
            let path = at.child("path");
            if let Err(e) = parse_request_uri(&s.path) {
                out.push(Violation::of(FieldError::invalid(
                    &path,
                    s.path.as_str(),
                    format!("must be a valid URL path e.g. /path/to/hook: {e}"),
                )));
            }
            if !s.path.starts_with('/') {
                out.push(Violation::of(FieldError::invalid(
                    &path,
                    s.path.as_str(),
                    "must start with \"/\" to be a valid URL path",
                )));
            }
        }
        if let Some(port) = s.port
            && !(1..=65535).contains(&port)
        {
            out.push(Violation::of(FieldError::invalid(
                &at.child("port"),
                port,
                "must be between 1 and 65535, inclusive",
            )));
        }
    }
    let selector = spec.child("namespaceSelector");
    match &config.spec.namespace_selector {
        None => out.push(Violation::of(FieldError::required(
            &selector,
            "must be defined",
        ))),
        Some(s) => {
            if let Err(e) = NamespaceSelector::compile(Some(s)) {
                out.push(Violation {
                    error: FieldError::new(ErrorType::Invalid, &selector, "", e.to_string()),
                    shown_value: Some(go_selector_string(s)),
                });
            }
        }
    }
    out
}

/// Our rule on top of Cluster API's: no user info, query or fragment in the URL.
fn stricter_url_rule(raw: &str) -> Option<&'static str> {
    let url = url_parts(raw)?;
    if url.0 {
        Some("must not contain user info")
    } else if url.1 {
        Some("must not contain a query")
    } else if url.2 {
        Some("must not contain a fragment")
    } else {
        None
    }
}

/// (has user info, has query, has fragment) of an absolute URL.
fn url_parts(raw: &str) -> Option<(bool, bool, bool)> {
    let (_, rest) = raw.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    Some((
        authority.contains('@'),
        rest.contains('?'),
        rest.contains('#'),
    ))
}

/// The status the validating webhook answers with for `violations` of the object `name`.
pub fn invalid_status(name: &str, violations: &[Violation]) -> Status {
    let messages: Vec<String> = violations.iter().map(ToString::to_string).collect();
    Status {
        status: Some(StatusSummary::Failure),
        code: 422,
        message: format!(
            "{QUALIFIED_KIND} {name:?} is invalid: {}",
            aggregate_messages(&messages)
        ),
        reason: "Invalid".into(),
        details: Some(StatusDetails {
            name: name.to_string(),
            group: GROUP.to_string(),
            kind: "ExtensionConfig".into(),
            uid: String::new(),
            causes: violations
                .iter()
                .map(|v| StatusCause {
                    reason: v.error.kind.reason().to_string(),
                    message: v.body(),
                    field: v.error.field.clone(),
                })
                .collect(),
            retry_after_seconds: 0,
        }),
        metadata: None,
    }
}

/// The status of the denial when the RuntimeSDK feature gate is off.
pub fn gate_off_status() -> Status {
    Status {
        status: Some(StatusSummary::Failure),
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

/// Answers a mutating AdmissionReview: the JSON patch that applies [`default_object`].
pub fn mutate(review: AdmissionReview<DynamicObject>) -> AdmissionReview<DynamicObject> {
    let request: AdmissionRequest<DynamicObject> = match review.try_into() {
        Ok(r) => r,
        Err(e) => return AdmissionResponse::invalid(e).into_review(),
    };
    let Some(object) = request.object.as_ref() else {
        return AdmissionResponse::from(&request).into_review();
    };
    if !matches!(request.operation, Operation::Create | Operation::Update) {
        return AdmissionResponse::from(&request).into_review();
    }
    let original = match serde_json::to_value(object) {
        Ok(v) => v,
        Err(e) => return errored(&request, 400, e.to_string()).into_review(),
    };
    let mut defaulted = original.clone();
    default_object(&mut defaulted);
    let patch = json_patch::diff(&original, &defaulted);
    if patch.0.is_empty() {
        return AdmissionResponse::from(&request).into_review();
    }
    match AdmissionResponse::from(&request).with_patch(patch) {
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
        return AdmissionResponse::from(&request).into_review();
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
        return AdmissionResponse::from(&request).into_review();
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
    use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;

    use super::*;

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

    #[test]
    fn defaulting_sets_selector_and_port_and_is_idempotent() {
        let mut o = json!({"spec": {"clientConfig": {"service": {"name": "s", "namespace": "n"}}}});
        default_object(&mut o);
        assert_eq!(o["spec"]["namespaceSelector"], json!({}));
        assert_eq!(o["spec"]["clientConfig"]["service"]["port"], json!(443));
        let again = o.clone();
        default_object(&mut o);
        assert_eq!(o, again);
        let mut url = json!({"spec": {"clientConfig": {"url": "https://x"}, "namespaceSelector": {"matchLabels": {"a": "b"}}}});
        default_object(&mut url);
        assert_eq!(
            url["spec"]["namespaceSelector"],
            json!({"matchLabels": {"a": "b"}})
        );
        assert!(url["spec"]["clientConfig"].get("service").is_none());
        let mut explicit =
            json!({"spec": {"clientConfig": {"service": {"name": "s", "port": 8443}}}});
        default_object(&mut explicit);
        assert_eq!(
            explicit["spec"]["clientConfig"]["service"]["port"],
            json!(8443)
        );
    }

    #[test]
    fn a_valid_config_passes_and_defaulted_configs_validate() {
        assert!(validate(&valid()).is_empty());
        let mut o = json!({"metadata": {"name": "ext1"}, "spec": {"clientConfig": {"service": {"name": "svc", "namespace": "ns"}}}});
        default_object(&mut o);
        let c: ExtensionConfig = serde_json::from_value(o).unwrap();
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
                "spec.namespaceSelector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:foo,Operator:bad-operator,Values:[a],},},}: \"bad-operator\" is not a valid label selector operator",
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

    #[test]
    fn request_uri_parsing_follows_go() {
        assert_eq!(parse_request_uri("/path").unwrap(), "");
        assert_eq!(parse_request_uri("HTTPS://x").unwrap(), "https");
        assert_eq!(parse_request_uri("").unwrap_err(), "parse \"\": empty url");
        assert_eq!(
            parse_request_uri(":x").unwrap_err(),
            "parse \":x\": missing protocol scheme"
        );
        assert_eq!(
            parse_request_uri("https://x:abc/").unwrap_err(),
            "parse \"https://x:abc/\": invalid port \":abc\" after host"
        );
        assert!(parse_request_uri("path/to").is_err());
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
