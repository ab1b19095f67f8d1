//! The ExtensionConfig API (`runtime.cluster.x-k8s.io`): how an operator registers a Runtime
//! Extension with Cluster API.

pub mod v1alpha1;
pub mod v1beta2;
pub mod validation;

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
