//! Registering handlers and setting the server's options.

use std::any::{Any, type_name};
use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::routing::{MethodRouter, post};
use prometheus_client::registry::Registry;

use super::Server;
use super::discovery::{Advertised, discovery_response};
use super::error::ServerError;
use super::handler::{Endpoint, Handler, HandlerOptions};
use super::intake::Limits;
use super::metrics::Metrics;
use super::variables::DeclaredVariables;
use crate::api::runtime::validation::{self, FieldPath};
use crate::catalog::{Catalog, HookId, gvh_to_path};
use crate::hook::Hook;
use crate::https::{HostOptions, Timeouts, TlsFiles};
use crate::variable::Variable;

/// The port the server listens on unless told otherwise, as upstream.
pub const DEFAULT_PORT: u16 = 9443;
/// The file name of the serving certificate in the certificate directory.
pub const DEFAULT_CERT_NAME: &str = "tls.crt";
/// The file name of the serving key in the certificate directory.
pub const DEFAULT_KEY_NAME: &str = "tls.key";
/// The largest handler timeout Cluster API accepts.
pub const MAX_TIMEOUT_SECONDS: i32 = validation::MAX_TIMEOUT_SECONDS;

/// The certificate directory used unless told otherwise:
/// `<temp dir>/k8s-webhook-server/serving-certs`, as upstream.
pub fn default_cert_dir() -> PathBuf {
    std::env::temp_dir()
        .join("k8s-webhook-server")
        .join("serving-certs")
}

/// Collects handlers and options, then builds a [`Server`].
///
/// Handlers are added before the server starts; Discovery lists exactly the handlers added
/// here, sorted by path so the list is the same on every start.
///
/// `S` is the state the handlers share ([`state`](ServerBuilder::state)): `()` until one is
/// given, and then the type a handler's [`Context`](super::Context) carries (or `()`),
/// wherever in the chain the state is given: handlers are bound to it by
/// [`build`](ServerBuilder::build).
pub struct ServerBuilder<S = ()> {
    catalog: Catalog,
    host: IpAddr,
    port: u16,
    cert_dir: PathBuf,
    cert_name: String,
    key_name: String,
    client_ca_name: Option<String>,
    tls_reload_interval: Duration,
    shutdown_grace: Duration,
    health_addr: Option<SocketAddr>,
    metrics_addr: Option<SocketAddr>,
    timeouts: Timeouts,
    limits: Limits,
    metrics: Metrics,
    exposed: Option<Arc<Registry>>,
    handlers: BTreeMap<String, (Advertised, Unbound)>,
    variables: DeclaredVariables,
    errors: Vec<ServerError>,
    state: Arc<S>,
}

impl<S> fmt::Debug for ServerBuilder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerBuilder")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("cert_dir", &self.cert_dir)
            .field("handlers", &self.handlers.keys().collect::<Vec<_>>())
            .field("errors", &self.errors)
            .field("state", &std::any::type_name::<S>())
            .finish_non_exhaustive()
    }
}

impl Default for ServerBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ServerBuilder {
    /// A builder that knows the hooks of this crate ([`crate::hooks::catalog`]) and uses
    /// upstream's defaults: all interfaces, port 9443, certificates in [`default_cert_dir`].
    pub fn new() -> Self {
        Self::with_catalog(crate::hooks::catalog())
    }

    /// A builder that knows the hooks of `catalog`.
    pub fn with_catalog(catalog: Catalog) -> Self {
        ServerBuilder {
            catalog,
            host: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            port: DEFAULT_PORT,
            cert_dir: default_cert_dir(),
            cert_name: DEFAULT_CERT_NAME.to_string(),
            key_name: DEFAULT_KEY_NAME.to_string(),
            client_ca_name: None,
            tls_reload_interval: Duration::from_secs(2),
            shutdown_grace: Duration::from_secs(10),
            health_addr: None,
            metrics_addr: None,
            timeouts: Timeouts::default(),
            limits: Limits::default(),
            metrics: Metrics::new(),
            exposed: None,
            handlers: BTreeMap::new(),
            variables: DeclaredVariables::default(),
            errors: Vec::new(),
            state: Arc::new(()),
        }
    }

    /// Shares `state` with the handlers registered from here on: each reads it as
    /// [`Context::state`](super::Context::state) through a `Context<S>` argument, without
    /// capturing or cloning it itself. The value is stored once and shared by reference
    /// (behind an `Arc`), so it needs no `Clone`; put what handlers change in a lock or an
    /// atomic. One state per server: gather several values in a struct of your own.
    ///
    /// ```no_run
    /// use std::sync::atomic::{AtomicU64, Ordering};
    ///
    /// use capi_runtime::hooks::v1alpha1::{
    ///     AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
    /// };
    /// use capi_runtime::server::{Context, Server};
    ///
    /// /// What the handlers share.
    /// struct Counters {
    ///     initialized: AtomicU64,
    /// }
    ///
    /// async fn after_control_plane_initialized(
    ///     _request: AfterControlPlaneInitializedRequest,
    ///     context: Context<Counters>,
    /// ) -> AfterControlPlaneInitializedResponse {
    ///     context.state().initialized.fetch_add(1, Ordering::Relaxed);
    ///     AfterControlPlaneInitializedResponse::success()
    /// }
    ///
    /// # fn main() -> Result<(), capi_runtime::server::ServerError> {
    /// let server = Server::builder()
    ///     .state(Counters { initialized: AtomicU64::new(0) })
    ///     .handle("count", after_control_plane_initialized)
    ///     .build()?;
    /// # let _ = server;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// It may come anywhere in the chain: handlers are bound to the state when the server is
    /// built, before or after this call alike. A handler whose `Context` names a state type
    /// other than this one (and other than `()`, which any handler may take) is one of the
    /// mistakes [`build`](ServerBuilder::build) returns
    /// ([`ServerError::StateMismatch`]):
    ///
    /// ```
    /// use capi_runtime::hooks::v1alpha1::{
    ///     AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
    /// };
    /// use capi_runtime::server::{Context, Server, ServerError};
    ///
    /// struct Counters;
    /// struct Other;
    ///
    /// async fn counts(
    ///     _request: AfterControlPlaneInitializedRequest,
    ///     _context: Context<Counters>,
    /// ) -> AfterControlPlaneInitializedResponse {
    ///     AfterControlPlaneInitializedResponse::success()
    /// }
    ///
    /// // The state after the handler that reads it: the same server.
    /// assert!(Server::builder().handle("count", counts).state(Counters).build().is_ok());
    ///
    /// // A state of another type: the handler is reported, with both types.
    /// let error = Server::builder()
    ///     .handle("count", counts)
    ///     .state(Other)
    ///     .build()
    ///     .unwrap_err();
    /// assert!(matches!(error, ServerError::StateMismatch { .. }));
    /// let text = error.to_string();
    /// assert!(text.contains("handler \"count\""), "{text}");
    /// assert!(text.contains("::Counters>") && text.ends_with("::Other: a handler's Context carries the server's state type or ()"), "{text}");
    /// ```
    pub fn state<S: Send + Sync + 'static>(self, state: S) -> ServerBuilder<S> {
        ServerBuilder {
            catalog: self.catalog,
            host: self.host,
            port: self.port,
            cert_dir: self.cert_dir,
            cert_name: self.cert_name,
            key_name: self.key_name,
            client_ca_name: self.client_ca_name,
            tls_reload_interval: self.tls_reload_interval,
            shutdown_grace: self.shutdown_grace,
            health_addr: self.health_addr,
            metrics_addr: self.metrics_addr,
            timeouts: self.timeouts,
            limits: self.limits,
            metrics: self.metrics,
            exposed: self.exposed,
            handlers: self.handlers,
            variables: self.variables,
            errors: self.errors,
            state: Arc::new(state),
        }
    }
}

impl<S: Send + Sync + 'static> ServerBuilder<S> {
    /// The address to listen on (all interfaces by default).
    pub fn host(mut self, host: IpAddr) -> Self {
        self.host = host;
        self
    }

    /// The port to listen on (9443 by default; 0 picks a free port, handy in tests).
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// The directory holding the serving certificate and key.
    pub fn cert_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cert_dir = dir.into();
        self
    }

    /// The certificate file name in the certificate directory (`tls.crt` by default).
    pub fn cert_name(mut self, name: impl Into<String>) -> Self {
        self.cert_name = name.into();
        self
    }

    /// The key file name in the certificate directory (`tls.key` by default).
    pub fn key_name(mut self, name: impl Into<String>) -> Self {
        self.key_name = name.into();
        self
    }

    /// A CA file name in the certificate directory. When set, clients must present a
    /// certificate signed by it (mutual TLS).
    pub fn client_ca_name(mut self, name: impl Into<String>) -> Self {
        self.client_ca_name = Some(name.into());
        self
    }

    /// How often the certificate files are checked for changes (2 s by default).
    pub fn tls_reload_interval(mut self, interval: Duration) -> Self {
        self.tls_reload_interval = interval;
        self
    }

    /// How long a graceful shutdown waits for requests in flight (10 s by default).
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// The connection deadlines (TLS handshake, request head, idle); see [`Timeouts`].
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// Limits on the requests taken on at once, the body deadline and the body cap; see
    /// [`Limits`].
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Records into `metrics` instead of metrics of the server's own; register them into your
    /// registry with [`Metrics::register`].
    pub fn metrics(mut self, metrics: Metrics) -> Self {
        self.metrics = metrics;
        self
    }

    /// Serves `registry` at `/metrics` instead of the server's own metrics, so that one process
    /// exposes one registry (the server's and, say, the runtime client's metrics together).
    /// Register the server's [`Metrics`] into it and pass them to [`metrics`](Self::metrics).
    /// The registry is served only on the [metrics listener](Self::metrics_addr).
    pub fn metrics_registry(mut self, registry: Arc<Registry>) -> Self {
        self.exposed = Some(registry);
        self
    }

    /// Serves `/healthz` and `/readyz` over plain HTTP at `addr`, for the kubelet's probes,
    /// which do not carry the CA of the serving certificate. Nothing else is served there, and
    /// the HTTPS hook port does not serve the probes: without this call there are none.
    pub fn health_addr(mut self, addr: SocketAddr) -> Self {
        self.health_addr = Some(addr);
        self
    }

    /// Serves `/metrics` over plain HTTP at `addr`, on a listener of its own; without this call
    /// the metrics are not served at all (they are still recorded, and
    /// [`Server::metrics_text`] reads them).
    ///
    /// The listener has no authentication: anyone who reaches it reads the handler names and
    /// request counts. Prefer a loopback address (`127.0.0.1:8080`, for a sidecar or
    /// `kubectl port-forward`), or restrict who reaches the port with a NetworkPolicy. For
    /// metrics behind authentication, read the manager's diagnostics endpoint (HTTPS, each
    /// scraper's token checked with the API server), which serves the calling side's (the
    /// runtime client's) metrics.
    pub fn metrics_addr(mut self, addr: SocketAddr) -> Self {
        self.metrics_addr = Some(addr);
        self
    }

    /// Registers `handler` under `options` (a handler name, or [`HandlerOptions`] with a
    /// timeout and failure policy) for the hook whose request it takes: a handler of
    /// `BeforeClusterCreateRequest` serves BeforeClusterCreate
    /// ([`RequestOf`](crate::hook::RequestOf) tells the hook from the request type).
    ///
    /// The handler is an async function from the hook's request, and optionally the call's
    /// [`Context`](super::Context), to its response, or to a `Result` whose error becomes a
    /// Failure response carrying the error's text (see [`Handler`]). It is served at
    /// [`gvh_to_path`]`(hook, name)`.
    ///
    /// ```no_run
    /// use capi_runtime::hooks::v1alpha1::{BeforeClusterCreateRequest, BeforeClusterCreateResponse};
    /// use capi_runtime::server::{HandlerOptions, Server};
    ///
    /// async fn before_cluster_create(_request: BeforeClusterCreateRequest) -> BeforeClusterCreateResponse {
    ///     BeforeClusterCreateResponse::success()
    /// }
    ///
    /// # fn main() -> Result<(), capi_runtime::server::ServerError> {
    /// let server = Server::builder()
    ///     .handle("before-create", before_cluster_create)
    ///     .handle(
    ///         HandlerOptions::new("slow-create").timeout_seconds(20).blocking(),
    ///         |_request: BeforeClusterCreateRequest| async {
    ///             Ok::<_, String>(BeforeClusterCreateResponse::success())
    ///         },
    ///     )
    ///     .build()?;
    /// # let _ = server;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// Registering never fails here, so handlers are added as one chain: a mistake (the hook
    /// is not in the catalog, the name is not a DNS-1123 label, the timeout is outside
    /// 0..=30 s, the failure policy is neither `Ignore` nor `Fail`, or the path is taken) is
    /// remembered, the handler is left out, and [`build`](Self::build) returns every mistake,
    /// with those it finds binding the handlers to the server's state.
    pub fn handle<T, F>(mut self, options: impl Into<HandlerOptions>, handler: F) -> Self
    where
        F: Handler<T>,
    {
        if let Err(error) = self.try_handle(options.into(), handler) {
            self.errors.push(error);
        }
        self
    }

    fn try_handle<T, F>(&mut self, options: HandlerOptions, handler: F) -> Result<(), ServerError>
    where
        F: Handler<T>,
    {
        let gvh = self
            .catalog
            .group_version_hook::<F::Hook>()
            .map_err(|source| ServerError::UnknownHook {
                hook: <F::Hook as Hook>::NAME,
                source,
            })?;
        validation::handler_name(&FieldPath::new("name"), &options.name).map_err(|e| {
            ServerError::InvalidHandlerName {
                name: options.name.clone(),
                reason: e.detail,
            }
        })?;
        let timeout_seconds = validation::timeout_seconds(
            &FieldPath::new("timeoutSeconds"),
            options.timeout_seconds.map(i64::from),
        )
        .map_err(|_| ServerError::InvalidTimeout {
            name: options.name.clone(),
            seconds: options.timeout_seconds.unwrap_or_default(),
        })?;
        if let Some(policy) = &options.failure_policy {
            let written = policy.as_str();
            validation::failure_policy(&FieldPath::new("failurePolicy"), Some(written)).map_err(
                |_| ServerError::InvalidFailurePolicy {
                    name: options.name.clone(),
                    policy: written.to_owned(),
                },
            )?;
        }
        let path = gvh_to_path(&gvh, &options.name);
        if self.handlers.contains_key(&path) {
            return Err(ServerError::DuplicatePath(path));
        }
        let name = options.name.clone();
        let blocking = options.blocking;
        let timeout = validation::call_timeout(timeout_seconds);
        let bind: Unbound = Box::new(move |bound: &Binding<'_>| {
            let state = bound.state_for::<F::State>(<F::Hook as Hook>::NAME, &name)?;
            let endpoint = Arc::new(Endpoint::<F::Hook>::new(
                &name,
                timeout,
                bound.metrics.endpoint(<F::Hook as Hook>::NAME, &name),
                blocking,
                state,
                handler,
            ));
            Ok(post(move |request: Request| {
                let endpoint = endpoint.clone();
                async move { endpoint.serve(request).await }
            }))
        });
        self.handlers
            .insert(path, (Advertised { gvh, options }, bind));
        Ok(())
    }

    /// Declares the ClusterClass variable `V` (a type with `#[derive(Variable)]` and
    /// `#[variable(name = "...")]`): the handler [`discover_variables`](Self::discover_variables)
    /// registers answers with its definition, schema and all, so the schema is written once,
    /// as the type.
    ///
    /// ```no_run
    /// use capi_runtime::server::Server;
    /// use capi_runtime::variable::Variable;
    /// use serde::{Deserialize, Serialize};
    ///
    /// /// The registry the Cluster's images come from.
    /// #[derive(Serialize, Deserialize, Variable)]
    /// #[variable(name = "registry", required)]
    /// pub struct Registry {
    ///     /// Its host name.
    ///     #[schema(min_length = 1)]
    ///     pub host: String,
    /// }
    ///
    /// # fn main() -> Result<(), capi_runtime::server::ServerError> {
    /// let server = Server::builder()
    ///     .variable::<Registry>()
    ///     .discover_variables("discover-variables")
    ///     .build()?;
    /// # let _ = server;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// A variable whose name is declared already (Cluster API refuses a class whose variables
    /// share a name) is left out, and [`build`](Self::build) reports it
    /// ([`ServerError::DuplicateVariable`]).
    #[must_use]
    pub fn variable<V: Variable>(mut self) -> Self {
        if let Err(error) = self.variables.declare::<V>() {
            self.errors.push(error);
        }
        self
    }

    /// Registers a DiscoverVariables handler under `options` that answers with every variable
    /// declared with [`variable`](Self::variable), before or after this call, in the order
    /// they were declared. Its mistakes are reported by [`build`](Self::build), as those of
    /// [`handle`](Self::handle) are.
    pub fn discover_variables(mut self, options: impl Into<HandlerOptions>) -> Self {
        let handler = self.variables.handler();
        self.handle(options, handler)
    }

    /// The Discovery response the server will give, for inspection before building: the
    /// handlers registered so far without a mistake. A handler whose registration failed is
    /// not listed; [`errors`](Self::errors) lists the mistakes and [`build`](Self::build)
    /// returns them.
    pub fn discovery(&self) -> crate::hooks::v1alpha1::DiscoveryResponse {
        discovery_response(self.handlers.values().map(|(a, _)| a))
    }

    /// The mistakes made so far in registering handlers and declaring variables, in the order
    /// they were made; [`build`](Self::build) fails with them.
    pub fn errors(&self) -> &[ServerError] {
        &self.errors
    }

    /// The hooks and names registered so far, in Discovery order (without the handlers whose
    /// registration failed).
    pub fn registered(&self) -> impl Iterator<Item = (&HookId, &str)> {
        self.handlers
            .values()
            .map(|(a, _)| (&a.gvh, a.options.name.as_str()))
    }

    /// Builds the server. Nothing is read or bound yet; see [`Server::start`].
    ///
    /// Fails with the mistakes the chain made: every handler that could not be registered,
    /// every variable declared twice, variables declared with [`variable`](Self::variable)
    /// that no [`discover_variables`](Self::discover_variables) handler answers with
    /// ([`ServerError::UndiscoveredVariables`]), and, binding the handlers to the server's
    /// [state](ServerBuilder::state), every handler whose `Context` carries another state type
    /// ([`ServerError::StateMismatch`], in Discovery order). One mistake is returned as it is;
    /// several as [`ServerError::Registrations`], in the order they were made
    /// ([`ServerError::errors`] lists them either way).
    pub fn build(mut self) -> Result<Server, ServerError> {
        if let Err(error) = self.variables.finish() {
            self.errors.push(error);
        }
        let discovery = self.discovery();
        let binding = Binding {
            state: self.state.clone(),
            state_name: type_name::<S>(),
            metrics: &self.metrics,
        };
        let mut routes = Vec::with_capacity(self.handlers.len());
        for (path, (_, bind)) in std::mem::take(&mut self.handlers) {
            match bind(&binding) {
                Ok(route) => routes.push((path, route)),
                Err(error) => self.errors.push(error),
            }
        }
        if let Some(error) = ServerError::from_mistakes(std::mem::take(&mut self.errors)) {
            return Err(error);
        }
        let mut tls = TlsFiles::new(
            self.cert_dir.join(&self.cert_name),
            self.cert_dir.join(&self.key_name),
        );
        if let Some(name) = &self.client_ca_name {
            tls = tls.client_ca(self.cert_dir.join(name));
        }
        let mut host = HostOptions::new(SocketAddr::new(self.host, self.port), tls);
        host.tls_reload_interval = self.tls_reload_interval;
        host.shutdown_grace = self.shutdown_grace;
        host.health_addr = self.health_addr;
        host.timeouts = self.timeouts;
        Ok(Server::assemble(
            host,
            self.metrics_addr,
            self.limits,
            discovery,
            routes.into_iter().collect(),
            self.metrics,
            self.exposed,
        ))
    }
}

/// A registered handler not yet bound to the server's state: [`ServerBuilder::build`] binds
/// it and gets its route, or the mistake of a state type that is not the server's.
type Unbound = Box<dyn FnOnce(&Binding<'_>) -> Result<MethodRouter, ServerError> + Send + Sync>;

/// What handlers are bound to when the server is built.
struct Binding<'a> {
    state: Arc<dyn Any + Send + Sync>,
    state_name: &'static str,
    metrics: &'a Metrics,
}

impl Binding<'_> {
    /// The state a handler whose `Context` carries `X` gets: the server's when `X` is its type,
    /// a `()` of its own when `X` is `()`, and otherwise the mistake.
    fn state_for<X: Send + Sync + 'static>(
        &self,
        hook: &'static str,
        name: &str,
    ) -> Result<Arc<X>, ServerError> {
        let unit: Arc<dyn Any + Send + Sync> = Arc::new(());
        self.state
            .clone()
            .downcast::<X>()
            .or_else(|_| unit.downcast::<X>())
            .map_err(|_| ServerError::StateMismatch {
                hook,
                name: name.to_owned(),
                handler_state: type_name::<X>(),
                server_state: self.state_name,
            })
    }
}
