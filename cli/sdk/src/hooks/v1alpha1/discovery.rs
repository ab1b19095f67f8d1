//! The Discovery hook: how an extension tells Cluster API which handlers it serves.

use serde::{Deserialize, Serialize};

use super::ResponseStatus;
use crate::{Hook, Schema};

/// Asks an extension which handlers it serves.
///
/// Cluster API calls it when it reconciles an ExtensionConfig and stores the answer in the
/// ExtensionConfig's status; every other hook call goes to a handler listed here. Every
/// extension must serve Discovery; the extension server of this crate answers it for you from
/// the handlers you register.
#[derive(Clone, Copy, Debug, Default, Hook)]
#[hook(
    crate = "crate",
    group = "hooks.runtime.cluster.x-k8s.io",
    version = "v1alpha1",
    request = DiscoveryRequest,
    response = DiscoveryResponse,
    tags("Discovery"),
    summary = "Lists the handlers an extension serves",
    singleton
)]
pub struct Discovery;

/// The request of the Discovery hook; it carries only its type metadata.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    request
)]
#[serde(default, rename_all = "camelCase")]
pub struct DiscoveryRequest {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `DiscoveryRequest`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

/// The handlers an extension serves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    response
)]
#[serde(default, rename_all = "camelCase")]
pub struct DiscoveryResponse {
    /// The schema version of the message: `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The message kind: `DiscoveryResponse`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Outcome of the call.
    pub status: ResponseStatus,
    /// Human-readable explanation of the outcome, mostly for failures.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The handlers the extension serves; names are unique.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub handlers: Vec<ExtensionHandler>,
}

/// One handler an extension serves: a hook it implements under a name, with the call options
/// Cluster API should use.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ExtensionHandler {
    /// The handler's name: a DNS-1123 label, unique within the extension. It is the last
    /// segment of the handler's URL path.
    pub name: String,
    /// The hook the handler implements.
    pub request_hook: GroupVersionHook,
    /// Seconds Cluster API waits for an answer (0 to 30; 10 when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i32>,
    /// What Cluster API does when the call fails (Fail when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<FailurePolicy>,
}

/// Identifies a hook on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct GroupVersionHook {
    /// `<group>/<version>` of the hook, e.g. `hooks.runtime.cluster.x-k8s.io/v1alpha1`.
    pub api_version: String,
    /// The hook name as the catalog spells it, e.g. `BeforeClusterCreate`.
    pub hook: String,
}

crate::catalog::wire_hook_id!(GroupVersionHook);

/// What Cluster API does when calling a handler fails.
///
/// Go's `FailurePolicy` is a plain string with two named values, so a Discovery answer with
/// any other string still decodes: it arrives as [`FailurePolicy::Other`], exactly as written.
/// Cluster API refuses such a handler when it validates the Discovery answer, and so does this
/// crate's client ([`Client::discover`](crate::client::Client::discover) reports
/// `handler <name> failurePolicy <value> must equal "Ignore" or "Fail"`).
///
/// The default is `Fail`, the policy Cluster API gives a handler whose `failurePolicy` is left
/// out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
pub enum FailurePolicy {
    /// Errors reaching the handler are ignored and the operation goes on.
    Ignore,
    /// Errors reaching the handler fail the operation (the default).
    #[default]
    Fail,
    /// Any other value, exactly as written (serialized as it is). Cluster API accepts no
    /// handler with such a policy.
    #[serde(untagged)]
    Other(String),
}

impl FailurePolicy {
    /// The wire value: `Ignore`, `Fail` or the other value as written.
    pub fn as_str(&self) -> &str {
        match self {
            FailurePolicy::Ignore => "Ignore",
            FailurePolicy::Fail => "Fail",
            FailurePolicy::Other(other) => other,
        }
    }
}

impl std::fmt::Display for FailurePolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
