//! The HTTP routes: one per handler, Discovery, health, metrics, and 404 for the rest.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};

use super::handler::{MAX_REQUEST_BODY_BYTES, json_bytes_response};
use super::metrics::{EndpointMetrics, ServerMetrics};
use crate::catalog::{GroupVersionHook, gvh_to_path};
use crate::hooks::v1alpha1::Discovery;

/// Path of the liveness endpoint.
pub const HEALTHZ_PATH: &str = "/healthz";
/// Path of the readiness endpoint.
pub const READYZ_PATH: &str = "/readyz";
/// Path of the Prometheus metrics endpoint.
pub const METRICS_PATH: &str = "/metrics";

/// The path Discovery is served at.
pub fn discovery_path() -> String {
    gvh_to_path(&GroupVersionHook::of::<Discovery>(), "")
}

/// All routes of a server. Paths match exactly (query strings such as Cluster API's
/// `?timeout=10s` are ignored); a known path answers only POST (405 otherwise, with `Allow`);
/// anything else is 404.
pub(crate) fn hook_router(
    routes: Vec<(String, MethodRouter)>,
    discovery: Bytes,
    discovery_metrics: EndpointMetrics,
    metrics: Arc<ServerMetrics>,
) -> Router {
    let mut router = Router::new();
    for (path, route) in routes {
        router = router.route(&path, route);
    }
    let discovery_route = post(move || {
        let body = discovery.clone();
        let metrics = discovery_metrics.clone();
        async move {
            // Discovery ignores the request body, as upstream; the answer never changes.
            metrics.record_success();
            json_bytes_response(body)
        }
    });
    router
        .route(&discovery_path(), discovery_route)
        .merge(ops_router(metrics))
        .fallback(not_found)
        .layer(axum::middleware::from_fn(read_body_first))
}

/// Reads every request body (up to the cap) before routing. A connection whose request body
/// was left unread cannot carry the next request, so answers that ignore the body (Discovery,
/// 404, 405) would otherwise make a keep-alive client's next request fail. A body over the cap
/// is passed on as its read error, which hook handlers turn into a Failure response.
async fn read_body_first(request: Request, next: axum::middleware::Next) -> Response {
    let (parts, body) = request.into_parts();
    let body = match axum::body::to_bytes(body, MAX_REQUEST_BODY_BYTES).await {
        Ok(bytes) => axum::body::Body::from(bytes),
        Err(e) => {
            axum::body::Body::from_stream(futures::stream::once(async move { Err::<Bytes, _>(e) }))
        }
    };
    next.run(Request::from_parts(parts, body)).await
}

/// Health and metrics routes, also served alone on the optional plain-HTTP health address.
pub(crate) fn ops_router(metrics: Arc<ServerMetrics>) -> Router {
    Router::new()
        .route(HEALTHZ_PATH, get(ok))
        .route(READYZ_PATH, get(ok))
        .route(
            METRICS_PATH,
            get(move || {
                let metrics = metrics.clone();
                async move { metrics_response(&metrics) }
            }),
        )
}

async fn ok() -> &'static str {
    "ok"
}

fn metrics_response(metrics: &ServerMetrics) -> Response {
    let mut response = metrics.encode().into_response();
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
