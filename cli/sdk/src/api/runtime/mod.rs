//! The ExtensionConfig API (`runtime.cluster.x-k8s.io`): how an operator registers a Runtime
//! Extension with Cluster API.

pub mod v1alpha1;
pub mod v1beta2;
pub mod validation;

/// Converts an ExtensionConfig object (JSON) of either version to the apiVersion asked for,
/// through the hub v1beta2: what a ConversionReview handler calls for each object. The typed
/// conversions are `TryFrom<&v1alpha1::ExtensionConfig> for v1beta2::ExtensionConfig` and back.
///
/// ```
/// use capi_runtime::api::runtime::convert_extension_config;
/// let old = serde_json::json!({
///     "apiVersion": "runtime.cluster.x-k8s.io/v1alpha1",
///     "kind": "ExtensionConfig",
///     "spec": {"clientConfig": {"url": "https://ext.example.com"}},
/// });
/// let new = convert_extension_config(old, "runtime.cluster.x-k8s.io/v1beta2").unwrap();
/// assert_eq!(new["apiVersion"], "runtime.cluster.x-k8s.io/v1beta2");
/// assert_eq!(new["spec"]["clientConfig"]["url"], "https://ext.example.com");
/// ```
pub use crate::generated::conversion::convert_extension_config;

/// The API group of ExtensionConfig.
pub const GROUP: &str = "runtime.cluster.x-k8s.io";

/// Annotation on an ExtensionConfig naming a Secret (`<namespace>/<name>`) whose `ca.crt` the
/// controller copies into `spec.clientConfig.caBundle`.
pub const INJECT_CA_FROM_SECRET_ANNOTATION: &str = "runtime.cluster.x-k8s.io/inject-ca-from-secret";
/// Annotation on a Cluster or Machine listing (comma-separated) the hooks whose call is still
/// pending.
pub const PENDING_HOOKS_ANNOTATION: &str = "runtime.cluster.x-k8s.io/pending-hooks";
/// Annotation set on a Cluster once BeforeClusterDelete allowed its deletion.
pub const OK_TO_DELETE_ANNOTATION: &str = "runtime.cluster.x-k8s.io/ok-to-delete";
