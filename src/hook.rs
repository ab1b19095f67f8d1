//! The traits behind every hook and hook message, and the outcome every response reports.
//!
//! Go's catalog learns a hook from a function signature; here a hook is a unit type that
//! implements [`Hook`] (usually through `#[derive(Hook)]`), which names its request and
//! response types and carries the metadata Go keeps in `HookMeta`. Nothing here needs the
//! generator's model ([`crate::schema`]): serving and calling hooks work with these traits
//! alone. This module sits below every hook version (`hooks::v1alpha1` re-exports
//! [`ResponseStatus`]) and below the catalog.

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::Schema;

/// The outcome an extension reports for a hook call (also `hooks::v1alpha1::ResponseStatus`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1",
    enum
)]
pub enum ResponseStatus {
    /// The extension handled the request.
    #[default]
    Success,
    /// The extension could not handle the request; `message` says why.
    Failure,
}

impl ResponseStatus {
    /// The wire value, `Success` or `Failure`.
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseStatus::Success => "Success",
            ResponseStatus::Failure => "Failure",
        }
    }
}

impl std::fmt::Display for ResponseStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Descriptive metadata of a hook, used for documentation and the OpenAPI document.
///
/// Built with [`HookMeta::new`] and the `with_*` methods (all `const`, so a `Hook::META` can
/// use them); new fields may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

impl HookMeta {
    /// Metadata with a summary and a description, no tags, not a singleton, not deprecated.
    pub const fn new(summary: &'static str, description: &'static str) -> Self {
        HookMeta {
            summary,
            description,
            tags: &[],
            singleton: false,
            deprecated: false,
        }
    }

    /// The same metadata with these OpenAPI tags.
    pub const fn with_tags(mut self, tags: &'static [&'static str]) -> Self {
        self.tags = tags;
        self
    }

    /// The same metadata, served without a handler name (`true` only for Discovery).
    pub const fn with_singleton(mut self, singleton: bool) -> Self {
        self.singleton = singleton;
        self
    }

    /// The same metadata, marked deprecated or not.
    pub const fn with_deprecated(mut self, deprecated: bool) -> Self {
        self.deprecated = deprecated;
        self
    }
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
}

/// A request type that belongs to one hook, so that the hook can be told from the request:
/// the server learns which hook a handler serves from the type of its request argument
/// ([`ServerBuilder::handle`](crate::server::ServerBuilder::handle)) and the client which hook
/// to call from the request it is given
/// ([`Client::call_extension`](crate::client::Client::call_extension)), so both
/// sides name a hook the same way, by its request.
///
/// `#[derive(Hook)]` implements it for the hook's request type. A hook of your own written
/// without the derive implements it by hand beside [`Hook`]:
///
/// ```
/// use capi_runtime::Schema;
/// use capi_runtime::hook::{Hook, HookMeta, RequestOf};
/// use capi_runtime::hooks::v1alpha1::BeforeClusterCreateResponse as PingResponse;
/// use serde::{Deserialize, Serialize};
///
/// /// The request of Ping.
/// #[derive(Clone, Debug, Default, Serialize, Deserialize, Schema)]
/// #[schema(package = "ping.example.com/v1", request)]
/// #[serde(default, rename_all = "camelCase")]
/// pub struct PingRequest {
///     pub api_version: String,
///     pub kind: String,
/// }
///
/// pub struct Ping;
///
/// impl Hook for Ping {
///     type Request = PingRequest;
///     type Response = PingResponse;
///     const NAME: &'static str = "Ping";
///     // ...
/// #   const GROUP: &'static str = "ping.example.com";
/// #   const VERSION: &'static str = "v1";
/// #   const API_VERSION: &'static str = "ping.example.com/v1";
/// #   const REQUEST_KIND: &'static str = "PingRequest";
/// #   const RESPONSE_KIND: &'static str = "PingResponse";
/// #   const META: HookMeta = HookMeta::new("Pings", "Pings the extension.");
/// }
///
/// impl RequestOf for PingRequest {
///     type Hook = Ping;
/// }
///
/// // The server and the client now tell Ping from a `PingRequest`.
/// let hook: fn() -> capi_runtime::hook::HookOf<PingRequest> = || Ping;
/// assert_eq!(<capi_runtime::hook::HookOf<PingRequest> as Hook>::NAME, "Ping");
/// # let _ = hook;
/// ```
///
/// A request type belongs to one hook only. A hook whose request type is another hook's (or
/// comes from a crate other than the hook's, which Rust's orphan rule keeps from implementing
/// this trait) is derived with `#[hook(shared_request)]`, which leaves the impl out: such a
/// hook can be described (catalog, OpenAPI document) but not served or called by request;
/// give it a request type of its own (a newtype of the shared one) to serve it.
pub trait RequestOf: HookRequest {
    /// The hook this is the request of.
    type Hook: Hook<Request = Self>;
}

/// The hook whose request is `R`.
pub type HookOf<R> = <R as RequestOf>::Hook;

/// The response of the hook whose request is `R`.
pub type ResponseOf<R> = <<R as RequestOf>::Hook as Hook>::Response;

/// What every hook message has: Kubernetes type metadata and a JSON form.
pub trait Message:
    Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync + 'static
{
    /// The `apiVersion` field (empty when absent).
    fn api_version(&self) -> &str;
    /// The `kind` field (empty when absent).
    fn kind(&self) -> &str;
    /// Sets `apiVersion` and `kind`.
    fn set_type_meta(&mut self, api_version: &str, kind: &str);

    /// The recorded model and wire shape of the message, by which the wire decoder reads it
    /// with Go's rules (times, bytes, fields Go holds by value); `#[derive(Schema)]` writes
    /// it. Without one the decoder reads the message by serde's ordinary rules for those.
    #[doc(hidden)]
    fn wire_info() -> Option<&'static crate::schema::TypeInfo> {
        None
    }
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

    /// How long the answer holds Cluster API back: `Some` for a Success whose
    /// `retryAfterSeconds` is above zero (Cluster API calls the hook again after that long and
    /// does not go on until then), `None` for an answer that lets it go on (or a Failure, which
    /// stops it whatever the delay). What a unit test of a blocking handler asserts:
    ///
    /// ```
    /// use std::time::Duration;
    /// use capi_runtime::hook::HookResponse;
    /// use capi_runtime::hooks::v1alpha1::BeforeClusterCreateResponse;
    ///
    /// let mut answer = BeforeClusterCreateResponse::success();
    /// assert_eq!(answer.blocks_for(), None);
    /// answer.set_retry_after_seconds(30);
    /// assert_eq!(answer.blocks_for(), Some(Duration::from_secs(30)));
    /// ```
    fn blocks_for(&self) -> Option<std::time::Duration> {
        let seconds = self.retry_after_seconds()?;
        (self.status() == ResponseStatus::Success && seconds > 0)
            .then(|| std::time::Duration::from_secs(seconds.unsigned_abs().into()))
    }

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
