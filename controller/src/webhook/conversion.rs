//! The CRD conversion webhook: a `ConversionReview` (apiextensions.k8s.io/v1) handler that
//! converts ExtensionConfigs between `v1alpha1` and `v1beta2` through the generated conversion
//! code, with `v1beta2` as the hub.

use kube::core::conversion::{ConversionRequest, ConversionResponse, ConversionReview};
use kube::core::response::{Status, StatusSummary};
use serde_json::Value;

/// The kind this webhook converts.
pub const KIND: &str = "ExtensionConfig";

/// Why an object could not be converted: the generated conversion's error (a version or
/// kind it does not know, an object that does not decode, a value one version cannot hold).
pub use capi_runtime::conversion::ConversionError;

/// Converts one ExtensionConfig, given as JSON, to `desired` (`runtime.cluster.x-k8s.io/v1alpha1`
/// or `…/v1beta2`) with the generated conversion (hub v1beta2). An object already in that
/// version is returned as it is.
pub fn convert(object: Value, desired: &str) -> Result<Value, ConversionError> {
    capi_runtime::api::runtime::convert_extension_config(object, desired)
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

    const V1ALPHA1: &str = "runtime.cluster.x-k8s.io/v1alpha1";
    const V1BETA2: &str = "runtime.cluster.x-k8s.io/v1beta2";

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
        let spoke = convert(hub(), V1ALPHA1).unwrap();
        assert_eq!(spoke["apiVersion"], "runtime.cluster.x-k8s.io/v1alpha1");
        assert_eq!(spoke["metadata"], hub()["metadata"]);
        assert_eq!(
            spoke["status"]["v1beta2"]["conditions"][0]["type"],
            "Discovered"
        );
        assert_eq!(spoke["status"]["conditions"][0]["type"], "Discovered");
        let back = convert(spoke, V1BETA2).unwrap();
        assert_eq!(back, hub());
    }

    #[test]
    fn same_version_is_untouched_and_unknown_versions_fail() {
        let mut odd = hub();
        odd["spec"]["unknownField"] = json!(1);
        assert_eq!(convert(odd.clone(), V1BETA2).unwrap(), odd);
        assert!(convert(hub(), "runtime.cluster.x-k8s.io/v9").is_err());
        let mut other = hub();
        other["kind"] = json!("Other");
        assert!(convert(other, V1BETA2).is_err());
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
