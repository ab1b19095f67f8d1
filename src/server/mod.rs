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
//! use capi_runtime::HookResponse;
//! use capi_runtime::hooks::v1alpha1::{BeforeClusterCreate, BeforeClusterCreateRequest, BeforeClusterCreateResponse};
//! use capi_runtime::server::Server;
//!
//! async fn before_cluster_create(
//!     request: BeforeClusterCreateRequest,
//! ) -> Result<BeforeClusterCreateResponse, String> {
//!     let name = request.cluster.metadata.name.unwrap_or_default();
//!     if name.is_empty() {
//!         return Err("the Cluster has no name".into());
//!     }
//!     Ok(BeforeClusterCreateResponse::success())
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let mut builder = Server::builder();
//! builder
//!     .cert_dir("/tmp/k8s-webhook-server/serving-certs")
//!     .handle(BeforeClusterCreate, "before-cluster-create", before_cluster_create)?;
//! builder.build().run(capi_runtime::server::shutdown_signal()).await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Answers on bad input
//!
//! On a registered path, every problem is answered with HTTP 200 and a Failure response of the
//! hook's response type whose message says what went wrong: a body over 20 MiB
//! (`error reading request: …`), a body that is not the hook's JSON request
//! (`error unmarshalling request: …`), an `apiVersion` or `kind` naming another request, a
//! handler error (its text), a panic, or a handler that outlives its timeout. Cluster API
//! treats any other status as "extension unreachable", which an `Ignore` failure policy would
//! silently swallow. Each case is logged and counted. An unknown path gets 404 and a method
//! other than POST gets 405.

mod builder;
mod discovery;
mod error;
mod handler;
mod metrics;
mod router;
mod serve;
mod tls;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::MethodRouter;

pub use builder::{
    DEFAULT_CERT_NAME, DEFAULT_KEY_NAME, DEFAULT_PORT, MAX_TIMEOUT_SECONDS, ServerBuilder,
    default_cert_dir,
};
pub use error::{ServerError, TlsError};
pub use handler::{HandlerOptions, MAX_REQUEST_BODY_BYTES};
pub use router::{HEALTHZ_PATH, METRICS_PATH, READYZ_PATH, discovery_path};
pub use serve::{RunningServer, shutdown_signal};

use crate::hook::Hook;
use crate::hooks::v1alpha1::{Discovery, DiscoveryResponse};
use metrics::ServerMetrics;
use tls::TlsFiles;

/// How the server listens; fixed when it is built.
#[derive(Clone, Debug)]
struct Settings {
    addr: SocketAddr,
    tls: TlsFiles,
    tls_reload_interval: Duration,
    shutdown_grace: Duration,
    health_addr: Option<SocketAddr>,
}

/// A built extension server, ready to [`start`](Server::start).
pub struct Server {
    settings: Settings,
    discovery: DiscoveryResponse,
    router: Router,
    metrics: Arc<ServerMetrics>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("settings", &self.settings)
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
        settings: Settings,
        discovery: DiscoveryResponse,
        routes: Vec<(String, MethodRouter)>,
        metrics: ServerMetrics,
    ) -> Server {
        let discovery_metrics = metrics.endpoint(Discovery::NAME, "");
        let metrics = Arc::new(metrics);
        let router = router::hook_router(
            routes,
            discovery::discovery_body(&discovery),
            discovery_metrics,
            metrics.clone(),
        );
        Server {
            settings,
            discovery,
            router,
            metrics,
        }
    }

    /// The Discovery response this server gives.
    pub fn discovery(&self) -> &DiscoveryResponse {
        &self.discovery
    }

    /// The routes without TLS: every handler, Discovery, `/healthz`, `/readyz` and `/metrics`.
    /// Useful to serve the extension behind another listener, or to call it in-process in tests.
    pub fn router(&self) -> Router {
        self.router.clone()
    }

    /// The address the server will listen on.
    pub fn addr(&self) -> SocketAddr {
        self.settings.addr
    }

    /// The metrics in the Prometheus text format, as `/metrics` serves them.
    pub fn metrics_text(&self) -> String {
        self.metrics.encode()
    }
}
