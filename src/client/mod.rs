//! The runtime client: discovers extensions and calls their handlers over HTTPS.
//!
//! A [`Client`] is built once per process (`Client::builder().registry(registry).build()?`)
//! over the hook [`Catalog`] (this crate's hooks unless told otherwise) and the [`Registry`]
//! shared with the ExtensionConfig controller, and cloned into every controller that calls
//! hooks. Calls are typed by hook:
//!
//! * [`Client::discover`] asks an ExtensionConfig's extension for its handlers and returns
//!   the ExtensionConfig with `status.handlers` rebuilt (nothing is registered).
//! * [`Client::call_extension`] calls one handler by its full name.
//! * [`Client::call_all_extensions`] calls every handler of a hook whose namespace selector
//!   matches the object's namespace and aggregates the answers, one at a time or
//!   concurrently ([`CallAllOptions`], per client or per call with
//!   [`Client::call_all_extensions_with`]).
//!
//! A handler registered for another version of the hook than the caller's is called in its
//! own version: the request is converted down and the response up through the catalog's
//! conversions (a missing conversion is a misconfiguration, never ignored).
//!
//! What a handler's failure policy covers: with `Ignore`, an error *communicating* with the
//! extension (connection, TLS, timeout, a status other than 200, a body too large or that does
//! not decode) gives a `Success` response with no message. It never covers a misconfiguration
//! (unknown hook, unregistered handler, hook or namespace mismatch, unusable URL or CA
//! bundle), a request that cannot be serialised, nor an answer whose status is `Failure` or
//! unknown. Cluster API also ignores serialisation errors; we treat those as bugs.
//!
//! What answers decode into is bounded twice: each answer by the wire codec's budget
//! ([`wire::Limits::memory_budget`](crate::wire::Limits::memory_budget), 256 MiB), and all
//! the answers of one client together by one shared budget
//! ([`ClientBuilder::max_decode_bytes`], [`DEFAULT_MAX_DECODE_BYTES`]), so that
//! [`Client::call_all_extensions`] over many hostile extensions, or many calls at once, cannot
//! take 256 MiB per answer. An answer counts against it while it is decoded and, in
//! `call_all_extensions`, until the answers are aggregated; the response a call returns (or
//! a [`ResponseCache`] keeps) is the caller's and no longer counts. An answer that finds the
//! shared budget used up is refused at once with a decode error of kind
//! [`OverBudget`](crate::wire::DecodeErrorKind::OverBudget)
//! ([`DecodeError::is_shared_budget`]), which, like every limit of this side, the `Ignore`
//! failure policy does not cover.

mod aggregate;
mod cache;
mod call;
mod discovery;
mod discovery_error;
mod error;
mod exchange;
mod fan_out;
mod http_clients;
mod metrics;
mod namespaces;
mod target;
mod urls;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

pub use crate::api::runtime::validation::{
    HandlerNameError, UrlError, extension_name_from_handler_name, name_for_handler,
};
pub use crate::go::httpproxy::ProxyConfig;
pub use crate::tls::{Cause, TlsError};
pub use crate::wire::DecodeError;
pub use aggregate::aggregate_responses;
pub use cache::{Clock, ResponseCache, SystemClock};
pub use discovery_error::{DiscoveryError, ValidationError};
pub use error::{BuildError, CallError, ClientConfigError, ExchangeError};
pub use metrics::{DURATION_BUCKETS, Metrics};
pub use namespaces::{NamespaceError, NamespaceLabels, NamespaceNotFound};
pub use target::{CallAllOptions, ForObject};
pub use urls::base_url;

use crate::api::runtime::v1beta2::{ClientConfig, ExtensionConfig};
use crate::catalog::{Catalog, HookId};
use crate::registry::{CallUrl, Registration, Registry, RegistryError};
use crate::wire::SharedBudget;
use http_clients::{HttpClients, IdentityFiles};

/// The most bytes of a response body the client reads, for any status (Cluster API caps
/// only non-200 bodies).
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 20 << 20;

/// The default of [`ClientBuilder::max_decode_bytes`]: 512 MiB, two answers at the wire
/// codec's per-message budget (the server's default too).
pub const DEFAULT_MAX_DECODE_BYTES: usize = 512 << 20;

/// The deadline of a Discovery call.
pub const DISCOVERY_TIMEOUT: Duration = Duration::from_secs(10);

/// Builds a [`Client`]: [`Client::builder()`], then the options that differ from the defaults.
///
/// Unless told otherwise, the client resolves hooks in this crate's catalog
/// ([`crate::hooks::catalog`]) and reads handlers from a registry of its own; pass the
/// registry your ExtensionConfig controller fills with [`registry`](ClientBuilder::registry).
pub struct ClientBuilder {
    catalog: Option<Arc<Catalog>>,
    registry: Option<Registry>,
    identity: Option<IdentityFiles>,
    identity_check_interval: Duration,
    metrics: Metrics,
    max_response_bytes: usize,
    max_decode_bytes: usize,
    call_all_options: CallAllOptions,
    proxy: Option<ProxyConfig>,
    namespace_labels: Option<Arc<dyn NamespaceLabels>>,
    without_controller: bool,
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("catalog", &self.catalog)
            .field("registry", &self.registry)
            .field("identity", &self.identity)
            .field("identity_check_interval", &self.identity_check_interval)
            .field("metrics", &self.metrics)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("max_decode_bytes", &self.max_decode_bytes)
            .field("call_all_options", &self.call_all_options)
            .field("proxy", &self.proxy)
            .field("namespace_labels", &self.namespace_labels.is_some())
            .field("without_controller", &self.without_controller)
            .finish()
    }
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            catalog: None,
            registry: None,
            identity: None,
            identity_check_interval: http_clients::DEFAULT_IDENTITY_CHECK_INTERVAL,
            metrics: Metrics::new(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            max_decode_bytes: DEFAULT_MAX_DECODE_BYTES,
            call_all_options: CallAllOptions::default(),
            proxy: None,
            namespace_labels: None,
            without_controller: false,
        }
    }
}

impl ClientBuilder {
    /// The hooks the client knows: their paths, versions and conversions (by default
    /// [`crate::hooks::catalog`], every hook of this crate). Takes a [`Catalog`] or an
    /// `Arc<Catalog>` shared with other parts of the program.
    pub fn catalog(mut self, catalog: impl Into<Arc<Catalog>>) -> Self {
        self.catalog = Some(catalog.into());
        self
    }

    /// The registry the client reads handlers from (by default a new, empty one). Pass a clone
    /// of the registry the ExtensionConfig controller fills: clones share their registrations.
    pub fn registry(mut self, registry: Registry) -> Self {
        self.registry = Some(registry);
        self
    }

    /// Presents the certificate in `cert_file` (PEM chain) with the key in `key_file` to
    /// every extension. The files are reloaded when they change.
    pub fn client_certificate(
        mut self,
        cert_file: impl Into<PathBuf>,
        key_file: impl Into<PathBuf>,
    ) -> Self {
        self.identity = Some(IdentityFiles {
            cert_file: cert_file.into(),
            key_file: key_file.into(),
        });
        self
    }

    /// How often, at most, the client certificate files are read to notice a rotation (5 s
    /// by default; zero looks before every call). They are read on tokio's blocking pool, never
    /// on the thread making the call.
    pub fn client_certificate_check_interval(mut self, interval: Duration) -> Self {
        self.identity_check_interval = interval;
        self
    }

    /// Records into `metrics` (register them with [`Metrics::register`]); by default the
    /// client records into metrics of its own that nothing exports.
    pub fn metrics(mut self, metrics: Metrics) -> Self {
        self.metrics = metrics;
        self
    }

    /// Reads at most `limit` bytes of a response body (default
    /// [`DEFAULT_MAX_RESPONSE_BYTES`]).
    pub fn max_response_bytes(mut self, limit: usize) -> Self {
        self.max_response_bytes = limit;
        self
    }

    /// Lets the answers the client decodes and holds at once take at most `bytes` together,
    /// as the wire codec charges them (default [`DEFAULT_MAX_DECODE_BYTES`]; each answer is
    /// also held to the codec's own 256 MiB). One budget per built client, shared by its
    /// clones: an answer counts while it is decoded and, in
    /// [`Client::call_all_extensions`], until the answers are aggregated. An answer that does
    /// not fit is refused at once ([`DecodeError::is_shared_budget`]), never waits. It is
    /// taken in steps of [`SharedBudget::STEP`] (1 MiB), so less than that refuses any
    /// answer the codec charges at all.
    pub fn max_decode_bytes(mut self, bytes: usize) -> Self {
        self.max_decode_bytes = bytes;
        self
    }

    /// How [`Client::call_all_extensions`] calls the handlers (default: one at a time, as
    /// Cluster API does); [`Client::call_all_extensions_with`] overrides it per call.
    pub fn call_all_options(mut self, options: CallAllOptions) -> Self {
        self.call_all_options = options;
        self
    }

    /// The proxy settings extensions are reached with (by default the process environment's,
    /// [`ProxyConfig::from_env`], read once by [`build`](Self::build)). The proxy of each
    /// call is chosen as Cluster API's client chooses it: Go's `http.ProxyFromEnvironment`
    /// rules (never for `localhost` or a loopback address, never for a host `no_proxy`
    /// covers; the book's client chapter has them all) behind apimachinery's CIDR check of
    /// `no_proxy`.
    /// A proxy setting that is not a URL is not used, as in Go (`build` logs a warning).
    /// `ProxyConfig::default()` uses no proxy.
    pub fn proxy(mut self, config: ProxyConfig) -> Self {
        self.proxy = Some(config);
        self
    }

    /// Where the client reads the labels of a namespace when a handler's namespace selector
    /// needs them and the [`ForObject`] does not carry them: a map of namespace names to
    /// labels, a kube reflector store or a `kube::Client` (`kube-client` feature; see also
    /// `kube_client`), or any [`NamespaceLabels`]. Cluster API's client
    /// reads the Namespace from the API server; without a source, this client knows only the
    /// namespace's name, and a selector reading any other label fails the call
    /// ([`NamespaceError::LabelsUnknown`]). A failed read fails the call
    /// ([`NamespaceError::Lookup`]), as in Go. Each call reads the namespace at most once,
    /// whatever the number of handlers.
    pub fn namespace_labels(mut self, source: impl NamespaceLabels + 'static) -> Self {
        self.namespace_labels = Some(Arc::new(source));
        self
    }

    /// Reads namespace labels from the API server through `client`, as Cluster API's client
    /// does (a metadata `GET` of the Namespace per call that needs it; RBAC `get` on
    /// `namespaces`). The same as [`namespace_labels`](Self::namespace_labels) with the
    /// client; give it a reflector store instead to read from a cache.
    #[cfg(feature = "kube-client")]
    pub fn kube_client(self, client: kube::Client) -> Self {
        self.namespace_labels(client)
    }

    /// Declares that no ExtensionConfig controller feeds this client's registry: the client
    /// you build is ready at once, with no handler registered, and you add extensions
    /// yourself with [`Client::register`] (after [`Client::discover`]) and remove them with
    /// [`Client::unregister`]. For tools, tests and programs that call extensions they know,
    /// outside a manager.
    ///
    /// Without it, the registry is *not ready* until the controller has listed the
    /// ExtensionConfigs and called [`Client::warm_up`] with them, and every call fails until
    /// then, as in Cluster API, so that a manager never answers from a half-loaded registry.
    /// A registry given with [`registry`](Self::registry) that is ready already stays as it is.
    ///
    /// ```no_run
    /// use capi_runtime::client::Client;
    ///
    /// # fn main() -> Result<(), capi_runtime::client::BuildError> {
    /// let client = Client::builder().without_controller().build()?;
    /// assert!(client.is_ready());
    /// # Ok(())
    /// # }
    /// ```
    pub fn without_controller(mut self) -> Self {
        self.without_controller = true;
        self
    }

    /// Builds the client; fails when the client certificate cannot be loaded.
    pub fn build(self) -> Result<Client, BuildError> {
        let catalog = self
            .catalog
            .unwrap_or_else(|| Arc::new(crate::hooks::catalog()));
        let registry = self.registry.unwrap_or_default();
        if self.without_controller && !registry.is_ready() {
            // Nothing to load, so the only error is a warm-up by someone else in between,
            // which leaves the registry ready as well.
            let _ = registry.warm_up([]);
        }
        Ok(Client {
            inner: Arc::new(Inner {
                catalog,
                pruned_at: AtomicU64::new(registry.generation()),
                registry,
                http: HttpClients::new(
                    self.identity,
                    self.identity_check_interval,
                    proxy_func(self.proxy.unwrap_or_else(ProxyConfig::from_env)),
                )?,
                metrics: self.metrics,
                max_response_bytes: self.max_response_bytes,
                decode_budget: SharedBudget::new(self.max_decode_bytes),
                call_all_options: self.call_all_options,
                namespace_labels: self.namespace_labels,
            }),
        })
    }
}

/// The client's proxy function. A setting Go would pass over (not a URL) is logged, since the
/// calls it meant to send through a proxy then go direct.
fn proxy_func(config: ProxyConfig) -> crate::go::httpproxy::ProxyFunc {
    for (name, value) in [
        ("https_proxy", &config.https_proxy),
        ("http_proxy", &config.http_proxy),
    ] {
        if let Err(error) = crate::go::httpproxy::parse_proxy(value) {
            tracing::warn!(setting = name, error = %crate::go::errors::chain(&error),
                "ignoring the proxy setting, as Go does: calls it covers go direct");
        }
    }
    config.proxy_func_with_no_proxy_cidr()
}

struct Inner {
    catalog: Arc<Catalog>,
    registry: Registry,
    /// The registry generation the cached HTTP clients were last pruned at.
    pruned_at: AtomicU64,
    http: HttpClients,
    metrics: Metrics,
    max_response_bytes: usize,
    /// What the answers decoded and held at once may take together.
    decode_budget: SharedBudget,
    call_all_options: CallAllOptions,
    /// Where namespace labels are read, if anywhere.
    namespace_labels: Option<Arc<dyn NamespaceLabels>>,
}

/// The runtime client. Cheap to clone; clones share the registry, the HTTP clients, the
/// metrics and the decode budget.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("catalog", &self.inner.catalog)
            .field("cached_http_clients", &self.inner.http.len())
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A builder with the defaults: this crate's hooks ([`crate::hooks::catalog`]), a new
    /// registry, no client certificate, the default limits. Set the registry shared with the
    /// ExtensionConfig controller with [`ClientBuilder::registry`] and another catalog with
    /// [`ClientBuilder::catalog`].
    ///
    /// ```
    /// # fn main() -> Result<(), capi_runtime::client::BuildError> {
    /// use capi_runtime::client::Client;
    /// use capi_runtime::registry::Registry;
    ///
    /// let registry = Registry::new(); // the one the ExtensionConfig controller fills
    /// let client = Client::builder().registry(registry.clone()).build()?;
    /// # use capi_runtime::hooks::v1alpha1::BeforeClusterCreate;
    /// assert!(client.catalog().group_version_hook::<BeforeClusterCreate>().is_ok());
    /// # Ok(())
    /// # }
    /// ```
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The catalog the client resolves hooks in.
    pub fn catalog(&self) -> &Catalog {
        &self.inner.catalog
    }

    /// The registry the client reads handlers from.
    pub fn registry(&self) -> &Registry {
        &self.inner.registry
    }

    /// Loads the registrations of `configs` (any iterator of borrowed ExtensionConfigs) and
    /// marks the registry ready; see [`Registry::warm_up`]. This is the ExtensionConfig
    /// controller's step (`capi-runtime-controller` takes it for you); a client no controller
    /// feeds is built ready with [`ClientBuilder::without_controller`] instead.
    pub fn warm_up<'a>(
        &self,
        configs: impl IntoIterator<Item = &'a ExtensionConfig>,
    ) -> Result<(), RegistryError> {
        self.inner.registry.warm_up(configs)
    }

    /// True once the registry is warmed up.
    pub fn is_ready(&self) -> bool {
        self.inner.registry.is_ready()
    }

    /// Registers (or replaces) the handlers in the ExtensionConfig's status, then drops the
    /// HTTP clients no registration uses any more.
    ///
    /// The same as [`Registry::add`] on the client's registry: when the registry is changed
    /// directly, the client notices the new [`Registry::generation`] at its next call and
    /// prunes then.
    pub fn register(&self, config: &ExtensionConfig) -> Result<(), RegistryError> {
        self.inner.registry.add(config)?;
        self.prune_http_clients();
        Ok(())
    }

    /// Removes the ExtensionConfig's handlers, then drops the HTTP clients no registration
    /// uses any more.
    pub fn unregister(&self, config: &ExtensionConfig) -> Result<(), RegistryError> {
        self.unregister_by_name(config.metadata.name.as_deref().unwrap_or_default())
    }

    /// Removes the handlers of the ExtensionConfig named `config_name` (see
    /// [`Registry::remove_by_name`]), then drops the HTTP clients no registration uses any
    /// more: for a caller that knows only the name of an ExtensionConfig that is gone.
    pub fn unregister_by_name(&self, config_name: &str) -> Result<(), RegistryError> {
        self.inner.registry.remove_by_name(config_name)?;
        self.prune_http_clients();
        Ok(())
    }

    /// The bytes of the shared decode budget ([`ClientBuilder::max_decode_bytes`]) that
    /// answers being decoded or aggregated hold now; 0 when no call is under way.
    pub fn decode_bytes_in_use(&self) -> usize {
        self.inner.decode_budget.in_use()
    }

    /// How many HTTP clients are cached (one per host and CA bundle in use).
    pub fn cached_http_clients(&self) -> usize {
        self.inner.http.len()
    }

    /// Prunes the HTTP clients when the registry changed since the last pruning.
    fn prune_if_changed(&self) {
        if self.inner.registry.generation() != self.inner.pruned_at.load(Ordering::Acquire) {
            self.prune_http_clients();
        }
    }

    fn prune_http_clients(&self) {
        // What changed since the last pruning, in proportion to the change: the endpoints
        // released since then (or, too far behind, a check of every cached client). A change
        // made meanwhile leaves a newer generation, which the next call prunes for.
        let since = self.inner.pruned_at.load(Ordering::Acquire);
        let (generation, released) = self.inner.registry.released_since(since);
        self.inner.registry.with_endpoints_in_use(|in_use| {
            self.inner.http.prune(released.as_deref(), in_use);
        });
        self.inner.pruned_at.fetch_max(generation, Ordering::AcqRel);
    }

    /// The HTTP client and the URL of a registered handler (the URL is made at its first
    /// call and kept with the registration).
    async fn registration_endpoint<'r>(
        &self,
        registration: &'r Registration,
    ) -> Result<(reqwest::Client, &'r CallUrl), ClientConfigError> {
        self.prune_if_changed();
        self.inner.http.refresh_identity().await;
        let config = &registration.client_config;
        let call_url = registration.call_url.get_or_make(|| {
            let base = urls::base_url(config)?;
            let url = urls::handler_url(
                &base,
                &registration.gvh,
                registration.handler_short_name(),
                registration.timeout(),
            );
            Ok::<_, ClientConfigError>(CallUrl {
                host: urls::host_of(&url),
                host_label: urls::host_label(&url),
                url,
            })
        })?;
        let http = self.inner.http.get(&call_url.host, &config.ca_bundle.0)?;
        Ok((http, call_url))
    }

    /// The HTTP client and full URL of a handler.
    async fn endpoint(
        &self,
        config: &ClientConfig,
        gvh: &HookId,
        handler: &str,
        timeout: Duration,
    ) -> Result<(reqwest::Client, ::url::Url), ClientConfigError> {
        self.prune_if_changed();
        self.inner.http.refresh_identity().await;
        let base = urls::base_url(config)?;
        let http = self
            .inner
            .http
            .get(&urls::host_of(&base), &config.ca_bundle.0)?;
        Ok((http, urls::handler_url(&base, gvh, handler, timeout)))
    }
}
