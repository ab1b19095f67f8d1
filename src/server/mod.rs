//! The extension server: write one async function per hook, get everything else.
//!
//! A Runtime Extension is an HTTPS service that answers Discovery and the hooks it implements.
//! [`ServerBuilder::handle`] registers a typed handler per hook and handler name; the server
//! then serves it at the catalog's path, answers Discovery from the registrations, decodes and
//! checks requests, enforces the handler's timeout, turns errors and panics into Failure
//! responses, serves TLS from certificate files it reloads when they change, and exports
//! Prometheus metrics. The counterpart of Cluster API's `exp/runtime/server`.
//!
//! ```no_run
//! use capi_runtime::hooks::v1alpha1::{BeforeClusterCreate, BeforeClusterCreateRequest, BeforeClusterCreateResponse};
//! use capi_runtime::server::Server;
//!
//! async fn before_cluster_create(
//!     request: BeforeClusterCreateRequest,
//! ) -> Result<BeforeClusterCreateResponse, &'static str> {
//!     let name = request.cluster.metadata.name.unwrap_or_default();
//!     if name.is_empty() {
//!         return Err("the Cluster has no name");
//!     }
//!     Ok(BeforeClusterCreateResponse::success())
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! Server::builder()
//!     .cert_dir("/tmp/k8s-webhook-server/serving-certs")
//!     .handle("before-cluster-create", before_cluster_create)
//!     .build()?
//!     .run(capi_runtime::server::shutdown_signal())
//!     .await?;
//! # Ok(())
//! # }
//! ```
//!
//! A handler returns its hook's response, or a `Result` of it whose error's `Display` becomes a
//! Failure response ([`HandlerOutput`]); a handler that cannot fail returns the response
//! itself. Every response type has `success()` and `failure(message)` of its own, with no
//! trait to import. A handler that needs the call's headers, the handler name or the caller's
//! `?timeout=` takes a [`Context`] as second argument: `async fn(Request, Context)`. State the
//! handlers share (a client, a cache, counters) is given once with
//! [`ServerBuilder::state`] and read as [`Context::state`], typed: such a handler takes a
//! `Context<S>` of the state's type, and the builder accepts it only once it holds an `S`.
//!
//! # Listeners
//!
//! | listener | serves | default |
//! |---|---|---|
//! | HTTPS hook port ([`ServerBuilder::port`], 9443) | the handlers and Discovery; any other path is 404 | on |
//! | health ([`ServerBuilder::health_addr`], plain HTTP) | [`HEALTHZ_PATH`] and [`READYZ_PATH`], for the kubelet's probes | off |
//! | metrics ([`ServerBuilder::metrics_addr`], plain HTTP) | [`METRICS_PATH`], the Prometheus metrics | off |
//!
//! The hook port is what Cluster API calls and what the ExtensionConfig's Service exposes, so it
//! answers nothing else. The metrics name every handler and count its calls, and their listener
//! has no authentication, so it is off until asked for and best bound to loopback or fenced by a
//! NetworkPolicy (see [`ServerBuilder::metrics_addr`]).
//!
//! # Answers on bad input
//!
//! On a registered path, every problem is answered with HTTP 200 and a Failure response of the
//! hook's response type whose message says what went wrong: a body over 20 MiB
//! (`error reading request: …`), a body that is not the hook's JSON request
//! (`error unmarshalling request: …`), an `apiVersion` or `kind` naming another request, a
//! handler error (its text), a panic, a handler that outlives its timeout, a body that does not
//! arrive within the body deadline, or no free slot among the requests in flight ("server
//! busy"). Cluster API treats any other status as "extension unreachable", which an `Ignore`
//! failure policy would silently swallow. Each case is logged and counted. An unknown path gets
//! 404 and a method other than POST gets 405.
//!
//! # Limits
//!
//! Connections are bounded by the HTTPS host's deadlines ([`Timeouts`]: TLS handshake 10 s,
//! request head 32 s, idle 90 s); requests by [`Limits`] (16 in flight, 5 s waiting for a slot,
//! 30 s to read a body, 20 MiB per body, 512 MiB of decoded requests for all requests being
//! decoded or handled at once, besides the wire codec's 256 MiB per message). A request that
//! finds the shared decode budget used up is answered Failure at once, never left waiting;
//! what a request took of it is given back with its slot ([`Limits::max_decode_bytes`]).
//! Handlers run on the async runtime's workers, as axum's and tonic's do: a handler must not
//! block its thread, or it stalls the other requests of that worker and its timeout fires only
//! at its next `.await`. One that blocks (synchronous calls, long computation) is registered
//! with [`HandlerOptions::blocking`] and runs on a thread of tokio's blocking pool of its own,
//! where it stalls only itself and its timeout answers on time (see [`Handler`]). A body of
//! [`Limits::offload_decode_bytes`] (1 MiB) or more is decoded on one of the server's decoding
//! threads (one per core), so that the worker goes on serving probes and small requests
//! meanwhile, and every decoding runs under the request's deadline: a body still decoding (or
//! waiting for a decoding thread) when its handler's timeout (or the caller's, if shorter)
//! passes is answered with the timeout's Failure.

mod builder;
mod context;
mod decoders;
mod discovery;
mod error;
mod failure;
mod handler;
mod in_process;
mod intake;
mod metrics;
mod output;
mod router;
mod serve;
mod variables;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::routing::MethodRouter;

pub use crate::https::{Timeouts, TlsError};
pub use crate::signal::shutdown_signal;
pub use builder::{
    DEFAULT_CERT_NAME, DEFAULT_KEY_NAME, DEFAULT_PORT, MAX_TIMEOUT_SECONDS, ServerBuilder,
    default_cert_dir,
};
pub use context::Context;
pub use error::ServerError;
pub use handler::{Handler, HandlerOptions, RequestOnly, WithContext};
pub use in_process::{InProcess, InProcessError};
pub use intake::{
    DEFAULT_MAX_DECODE_BYTES, DEFAULT_OFFLOAD_DECODE_BYTES, DISCARD_LIMIT, Limits,
    MAX_REQUEST_BODY_BYTES,
};
pub use metrics::Metrics;
pub use output::{HandlerFailure, HandlerOutput};
pub use router::{HEALTHZ_PATH, METRICS_PATH, READYZ_PATH, discovery_path};
pub use serve::RunningServer;

use crate::hook::Hook;
use crate::hooks::v1alpha1::{Discovery, DiscoveryResponse};
use crate::https::HostOptions;
use prometheus_client::registry::Registry;

/// A built extension server, ready to [`start`](Server::start).
pub struct Server {
    host: HostOptions,
    metrics_addr: Option<SocketAddr>,
    discovery: DiscoveryResponse,
    router: Router,
    health: Router,
    metrics: Router,
    exposed: Arc<Registry>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("host", &self.host)
            .field("handlers", &self.discovery.handlers.len())
            .finish_non_exhaustive()
    }
}

impl Server {
    /// A builder with this crate's hooks and upstream's defaults.
    pub fn builder() -> ServerBuilder {
        ServerBuilder::new()
    }

    fn assemble(
        host: HostOptions,
        metrics_addr: Option<SocketAddr>,
        limits: Limits,
        discovery: DiscoveryResponse,
        routes: Vec<(String, MethodRouter)>,
        metrics: Metrics,
        exposed: Option<Arc<Registry>>,
    ) -> Server {
        let discovery_metrics = metrics.endpoint(Discovery::NAME, "");
        let exposed = exposed.unwrap_or_else(|| Arc::new(metrics.own_registry()));
        let router = router::hook_router(
            routes,
            discovery::discovery_body(&discovery),
            discovery_metrics,
            intake::Intake::new(limits),
        );
        Server {
            host,
            metrics_addr,
            discovery,
            router,
            health: router::health_router(),
            metrics: router::metrics_router(exposed.clone()),
            exposed,
        }
    }

    /// The Discovery response this server gives.
    pub fn discovery(&self) -> &DiscoveryResponse {
        &self.discovery
    }

    /// The routes of the hook port without TLS: every handler and Discovery (any other path is
    /// 404). Useful to serve the extension behind another listener, or to call it in-process in
    /// tests.
    pub fn router(&self) -> Router {
        self.router.clone()
    }

    /// The routes of the health listener: `/healthz` and `/readyz`, both answering 200 `ok`.
    pub fn health_router(&self) -> Router {
        self.health.clone()
    }

    /// The routes of the metrics listener: `/metrics`, the registry the server exposes.
    pub fn metrics_router(&self) -> Router {
        self.metrics.clone()
    }

    /// The address the server will listen on.
    pub fn addr(&self) -> SocketAddr {
        self.host.addr
    }

    /// The address of the plain-HTTP health listener, if one was set with
    /// [`ServerBuilder::health_addr`].
    pub fn health_addr(&self) -> Option<SocketAddr> {
        self.host.health_addr
    }

    /// The address of the plain-HTTP metrics listener, if one was set with
    /// [`ServerBuilder::metrics_addr`].
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// The metrics in the Prometheus text format, as `/metrics` serves them.
    pub fn metrics_text(&self) -> String {
        metrics::encode_registry(&self.exposed)
    }
}
