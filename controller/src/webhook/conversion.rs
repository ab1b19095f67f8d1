//! The CRD conversion webhook: a `ConversionReview` (apiextensions.k8s.io/v1) handler that
//! converts ExtensionConfigs between `v1alpha1` and `v1beta2` through the generated conversion
//! code, with `v1beta2` as the hub.

use capi_runtime::api::runtime::{v1alpha1, v1beta2};
use kube::core::conversion::{ConversionRequest, ConversionResponse, ConversionReview};
use kube::core::response::{Status, StatusSummary};
use serde_json::Value;

/// The kind this webhook converts.
pub const KIND: &str = "ExtensionConfig";

/// Why an object could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversionError {
    /// The object is of a version (or kind) this webhook does not know.
    #[error("unsupported conversion from {from:?} to {to:?} for kind {kind:?}")]
    Unsupported {
        /// The object's apiVersion.
        from: String,
        /// The desired apiVersion.
        to: String,
        /// The object's kind.
        kind: String,
    },
    /// The object does not decode as its version's type.
    #[error("failed to decode {api_version} ExtensionConfig: {cause}")]
    Decode {
        /// The object's apiVersion.
        api_version: String,
        /// The decoder's message.
        cause: String,
    },
}

fn decode<T: serde::de::DeserializeOwned>(
    object: Value,
    api_version: &str,
) -> Result<T, ConversionError> {
    serde_json::from_value(object).map_err(|e| ConversionError::Decode {
        api_version: api_version.to_string(),
        cause: e.to_string(),
    })
}

fn encode<T: serde::Serialize>(object: &T) -> Value {
    serde_json::to_value(object).unwrap_or(Value::Null)
}

/// Converts one ExtensionConfig, given as JSON, to `desired` (`runtime.cluster.x-k8s.io/v1alpha1`
/// or `…/v1beta2`). An object already in that version is returned as it is.
pub fn convert(object: Value, desired: &str) -> Result<Value, ConversionError> {
    let from = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let unsupported = || ConversionError::Unsupported {
        from: from.clone(),
        to: desired.to_string(),
        kind: kind.clone(),
    };
    if kind != KIND {
        return Err(unsupported());
    }
    if from == desired && (from == v1alpha1::API_VERSION || from == v1beta2::API_VERSION) {
        return Ok(object);
    }
    match (from.as_str(), desired) {
        (v1alpha1::API_VERSION, v1beta2::API_VERSION) => {
            let spoke: v1alpha1::ExtensionConfig = decode(object, &from)?;
            let mut hub = v1beta2::ExtensionConfig::from(&spoke);
            hub.api_version = v1beta2::API_VERSION.into();
            hub.kind = KIND.into();
            Ok(encode(&hub))
        }
        (v1beta2::API_VERSION, v1alpha1::API_VERSION) => {
            let hub: v1beta2::ExtensionConfig = decode(object, &from)?;
            let mut spoke = v1alpha1::ExtensionConfig::from(&hub);
            spoke.api_version = v1alpha1::API_VERSION.into();
            spoke.kind = KIND.into();
            Ok(encode(&spoke))
        }
        _ => Err(unsupported()),
    }
}

/// Answers a ConversionReview: every object converted, or a failure naming the first object
/// that could not be.
pub fn review(review: ConversionReview) -> ConversionReview {
    let request = match ConversionRequest::from_review(review) {
        Ok(r) => r,
        Err(e) => {
            return ConversionResponse::invalid(Status {
                status: Some(StatusSummary::Failure),
                code: 400,
                message: e.to_string(),
                reason: "BadRequest".into(),
                details: None,
                metadata: None,
            })
            .into_review();
        }
    };
    let desired = request.desired_api_version.clone();
    let mut converted = Vec::with_capacity(request.objects.len());
    let mut failure = None;
    for object in request.objects.iter().cloned() {
        match convert(object, &desired) {
            Ok(v) => converted.push(v),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let response = ConversionResponse::for_request(request);
    match failure {
        None => response.success(converted).into_review(),
        Some(e) => response
            .failure(Status {
                status: Some(StatusSummary::Failure),
                code: 0,
                message: e.to_string(),
                reason: String::new(),
                details: None,
                metadata: None,
            })
            .into_review(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn hub() -> Value {
        json!({
            "apiVersion": "runtime.cluster.x-k8s.io/v1beta2",
            "kind": "ExtensionConfig",
            "metadata": {"name": "ext1", "resourceVersion": "7", "uid": "u", "annotations": {"a": "b"}},
            "spec": {
                "clientConfig": {"url": "https://x.example", "caBundle": "UEVN"},
                "namespaceSelector": {"matchLabels": {"k": "v"}},
                "settings": {"s": "t"}
            },
            "status": {
                "handlers": [{"name": "first.ext1", "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": "BeforeClusterCreate"}, "timeoutSeconds": 10, "failurePolicy": "Fail"}],
                "conditions": [{"type": "Discovered", "status": "True", "reason": "Discovered", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z", "observedGeneration": 1}],
                "deprecated": {"v1beta1": {"conditions": [{"type": "Discovered", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}
            }
        })
    }

    #[test]
    fn hub_to_spoke_and_back_is_lossless() {
        let spoke = convert(hub(), v1alpha1::API_VERSION).unwrap();
        assert_eq!(spoke["apiVersion"], "runtime.cluster.x-k8s.io/v1alpha1");
        assert_eq!(spoke["metadata"], hub()["metadata"]);
        assert_eq!(
            spoke["status"]["v1beta2"]["conditions"][0]["type"],
            "Discovered"
        );
        assert_eq!(spoke["status"]["conditions"][0]["type"], "Discovered");
        let back = convert(spoke, v1beta2::API_VERSION).unwrap();
        assert_eq!(back, hub());
    }

    #[test]
    fn same_version_is_untouched_and_unknown_versions_fail() {
        let mut odd = hub();
        odd["spec"]["unknownField"] = json!(1);
        assert_eq!(convert(odd.clone(), v1beta2::API_VERSION).unwrap(), odd);
        let err = convert(hub(), "runtime.cluster.x-k8s.io/v9").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported conversion from \"runtime.cluster.x-k8s.io/v1beta2\" to \"runtime.cluster.x-k8s.io/v9\" for kind \"ExtensionConfig\""
        );
    }

    #[test]
    fn a_review_converts_every_object_or_fails() {
        let review_json = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
            "request": {"uid": "abc", "desiredAPIVersion": "runtime.cluster.x-k8s.io/v1alpha1", "objects": [hub(), hub()]}
        });
        let out = review(serde_json::from_value(review_json.clone()).unwrap());
        let response = out.response.unwrap();
        assert_eq!(response.uid, "abc");
        assert_eq!(response.converted_objects.len(), 2);
        let mut bad = review_json;
        bad["request"]["objects"][1]["kind"] = json!("Other");
        let out = review(serde_json::from_value(bad).unwrap());
        let response = out.response.unwrap();
        assert_eq!(response.result.status, Some(StatusSummary::Failure));
        assert!(response.converted_objects.is_empty());
    }
}
