//! The traits behind every hook and hook message.
//!
//! Go's catalog learns a hook from a function signature; here a hook is a unit type that
//! implements [`Hook`] (usually through `#[derive(Hook)]`), which names its request and
//! response types and carries the metadata Go keeps in `HookMeta`.

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::hooks::v1alpha1::ResponseStatus;
use crate::schema::{HookInfo, Schema};

/// Descriptive metadata of a hook, used for documentation and the OpenAPI document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HookMeta {
    /// One-line summary.
    pub summary: &'static str,
    /// Longer description.
    pub description: &'static str,
    /// OpenAPI tags.
    pub tags: &'static [&'static str],
    /// Served without a handler-name path segment (only Discovery).
    pub singleton: bool,
    /// Marked deprecated.
    pub deprecated: bool,
}

/// A hook: one kind of call Cluster API makes to extensions.
pub trait Hook: Send + Sync + 'static {
    /// The request Cluster API sends.
    type Request: HookRequest;
    /// The response the extension returns.
    type Response: HookResponse;
    /// Hook name, e.g. `BeforeClusterCreate`.
    const NAME: &'static str;
    /// API group, e.g. `hooks.runtime.cluster.x-k8s.io`.
    const GROUP: &'static str;
    /// API version, e.g. `v1alpha1`.
    const VERSION: &'static str;
    /// `<group>/<version>`, the `apiVersion` of the messages.
    const API_VERSION: &'static str;
    /// The `kind` of the request, e.g. `BeforeClusterCreateRequest`.
    const REQUEST_KIND: &'static str;
    /// The `kind` of the response.
    const RESPONSE_KIND: &'static str;
    /// Documentation metadata.
    const META: HookMeta;
    /// The generator's model of the hook.
    fn hook_info() -> &'static HookInfo;
}

/// What every hook message has: Kubernetes type metadata and a JSON form.
pub trait Message:
    Schema + Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync + 'static
{
    /// The `apiVersion` field (empty when absent).
    fn api_version(&self) -> &str;
    /// The `kind` field (empty when absent).
    fn kind(&self) -> &str;
    /// Sets `apiVersion` and `kind`.
    fn set_type_meta(&mut self, api_version: &str, kind: &str);
}

/// A hook request.
pub trait HookRequest: Message {
    /// The settings passed to the call, or `None` for requests without settings (Discovery).
    fn settings(&self) -> Option<&BTreeMap<String, String>>;
    /// Mutable access to the settings, or `None` for requests without settings.
    fn settings_mut(&mut self) -> Option<&mut BTreeMap<String, String>>;
}

/// A hook response.
pub trait HookResponse: Message {
    /// Whether the response carries `retryAfterSeconds` (a blocking hook).
    const RETRYABLE: bool;
    /// The outcome.
    fn status(&self) -> ResponseStatus;
    /// Sets the outcome.
    fn set_status(&mut self, status: ResponseStatus);
    /// The human-readable message (empty when absent).
    fn message(&self) -> &str;
    /// Sets the message.
    fn set_message(&mut self, message: String);
    /// `retryAfterSeconds` of a retryable response, `None` for other responses.
    fn retry_after_seconds(&self) -> Option<i32>;
    /// Sets `retryAfterSeconds`; returns false (and does nothing) for non-retryable responses.
    fn set_retry_after_seconds(&mut self, seconds: i32) -> bool;

    /// A response with status Success.
    fn success() -> Self {
        let mut r = Self::default();
        r.set_status(ResponseStatus::Success);
        r
    }

    /// A response with status Failure and the given message.
    fn failure(message: impl Into<String>) -> Self {
        let mut r = Self::default();
        r.set_status(ResponseStatus::Failure);
        r.set_message(message.into());
        r
    }
}
