//! The HTTP routes. The hook router holds one route per handler, Discovery, and 404 for the
//! rest; health and metrics have routers of their own, each served on its own plain-HTTP
//! listener.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};
use prometheus_client::registry::Registry;
use tokio::time::Instant;

use super::context::requested_timeout;
use super::failure::{Failed, FailureReason};
use super::handler::{admitted, decode_admitted, json_bytes_response, respond};
use super::intake::{Intake, admit};
use super::metrics::{EndpointMetrics, encode_registry};
use crate::catalog::{HookId, gvh_to_path};
use crate::hooks::v1alpha1::Discovery;

/// Path of the liveness endpoint.
pub const HEALTHZ_PATH: &str = "/healthz";
/// Path of the readiness endpoint.
pub const READYZ_PATH: &str = "/readyz";
/// Path of the Prometheus metrics endpoint.
pub const METRICS_PATH: &str = "/metrics";

/// The path Discovery is served at.
pub fn discovery_path() -> String {
    gvh_to_path(&HookId::of::<Discovery>(), "")
}

/// The routes of the HTTPS hook port: the handlers and Discovery, nothing else. Paths match exactly (query strings such as Cluster API's
/// `?timeout=10s` are read by the handlers, not by routing); a known path answers only POST
/// (405 otherwise, with `Allow`); anything else is 404. Every request first passes admission
/// ([`intake`](super::intake)).
pub(crate) fn hook_router(
    routes: Vec<(String, MethodRouter)>,
    discovery: Bytes,
    discovery_metrics: EndpointMetrics,
    intake: Intake,
) -> Router {
    let mut router = Router::new();
    for (path, route) in routes {
        router = router.route(&path, route);
    }
    let discovery_route = post(move |request: Request| {
        let body = discovery.clone();
        let metrics = discovery_metrics.clone();
        async move { serve_discovery(request, body, &metrics).await }
    });
    router
        .route(&discovery_path(), discovery_route)
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(intake, admit))
}

/// How long Discovery's request may take to decode: Cluster API's default call timeout.
const DISCOVERY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Discovery decodes its request like every other hook (a body that is not a
/// DiscoveryRequest is answered Failure, as upstream) and answers the list computed when the
/// server was built.
async fn serve_discovery(request: Request, body: Bytes, metrics: &EndpointMetrics) -> Response {
    let started = Instant::now();
    let (mut parts, request_body) = request.into_parts();
    let checked = async {
        let slot = admitted(&mut parts)?;
        let bytes = axum::body::to_bytes(request_body, usize::MAX)
            .await
            .map_err(|e| Failed {
                reason: FailureReason::Read,
                message: format!("error reading request: {e}"),
            })?;
        // Discovery has no handler timeout of its own: Cluster API's default call timeout,
        // or the caller's if shorter.
        let timeout = requested_timeout(parts.uri.query())
            .map_or(DISCOVERY_TIMEOUT, |t| t.min(DISCOVERY_TIMEOUT));
        // What it took of the shared decode budget is given back with the slot, here.
        decode_admitted::<Discovery>(bytes, &slot, started + timeout, timeout)
            .await
            .map(drop)
    };
    match checked.await {
        Ok(()) => {
            metrics.record_success();
            metrics.observe_duration(started.elapsed());
            json_bytes_response(body)
        }
        Err(failed) => respond::<Discovery>(Err(failed), metrics, started, ""),
    }
}

/// The probe routes, `/healthz` and `/readyz`, served on the health address when one is set.
/// Any other path is 404.
pub(crate) fn health_router() -> Router {
    Router::new()
        .route(HEALTHZ_PATH, get(ok))
        .route(READYZ_PATH, get(ok))
        .fallback(not_found)
}

/// The metrics route, `/metrics` answering `exposed` in the OpenMetrics text format, served on
/// the metrics address when one is set. Any other path is 404.
pub(crate) fn metrics_router(exposed: Arc<Registry>) -> Router {
    Router::new()
        .route(
            METRICS_PATH,
            get(move || {
                let exposed = exposed.clone();
                async move { metrics_response(&exposed) }
            }),
        )
        .fallback(not_found)
}

async fn ok() -> &'static str {
    "ok"
}

fn metrics_response(registry: &Registry) -> Response {
    let mut response = encode_registry(registry).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
    );
    response
}

async fn not_found(request: Request) -> Response {
    let path = request.uri().path().to_string();
    tracing::debug!(%path, method = %request.method(), "no handler for path");
    (
        StatusCode::NOT_FOUND,
        format!("no handler is registered for path \"{path}\""),
    )
        .into_response()
}
