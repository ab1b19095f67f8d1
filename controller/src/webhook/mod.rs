//! The ExtensionConfig webhooks, on Cluster API's paths:
//!
//! | path | what |
//! |---|---|
//! | [`MUTATE_PATH`] | defaulting ([`admission::default`], [`admission::defaulting_patch`]) |
//! | [`VALIDATE_PATH`] | validation ([`admission::validate`]) and the `RuntimeSDK` gate |
//! | [`CONVERT_PATH`] | CRD conversion v1alpha1 ⇄ v1beta2 ([`conversion::convert`]) |
//!
//! [`router`] gives the three routes as one axum `Router`, to be served over HTTPS, e.g. on
//! `capi_runtime::https::RunningHost` (certificate files reloaded when they change).

pub mod admission;
pub mod conversion;
pub mod review;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use kube::core::conversion::ConversionReview;

/// The path of the mutating (defaulting) webhook.
pub const MUTATE_PATH: &str = "/mutate-runtime-cluster-x-k8s-io-v1beta2-extensionconfig";
/// The path of the validating webhook.
pub const VALIDATE_PATH: &str = "/validate-runtime-cluster-x-k8s-io-v1beta2-extensionconfig";
/// The path of the conversion webhook.
pub const CONVERT_PATH: &str = "/convert";
/// The name of the mutating webhook in its configuration.
pub const MUTATING_WEBHOOK_NAME: &str = "default.extensionconfig.runtime.addons.cluster.x-k8s.io";
/// The name of the validating webhook in its configuration.
pub const VALIDATING_WEBHOOK_NAME: &str = "validation.extensionconfig.runtime.cluster.x-k8s.io";
/// The largest request body the conversion webhook reads. The admission webhooks read up
/// to [`review::MAX_REVIEW_BYTES`], as controller-runtime does.
pub const MAX_BODY_BYTES: usize = 16 << 20;

/// What the webhooks need to know about the process.
#[derive(Clone, Copy, Debug)]
pub struct WebhookOptions {
    /// Whether the `RuntimeSDK` feature gate is on.
    pub runtime_sdk_enabled: bool,
}

fn json_response<T: serde::Serialize>(value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

fn bad_request(e: serde_json::Error) -> Response {
    (
        StatusCode::BAD_REQUEST,
        format!("failed to decode review: {e}"),
    )
        .into_response()
}

// A body that is not a review is answered with a review that denies it (review::read).
async fn mutate(headers: HeaderMap, body: Body) -> Response {
    match review::read(&headers, body).await {
        Ok(review) => json_response(&admission::mutate(review)),
        Err(e) => json_response(&e.into_review()),
    }
}

async fn validate(
    State(options): State<WebhookOptions>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    match review::read(&headers, body).await {
        Ok(review) => json_response(&admission::validate_review(
            review,
            options.runtime_sdk_enabled,
        )),
        Err(e) => json_response(&e.into_review()),
    }
}

async fn convert(body: Bytes) -> Response {
    match serde_json::from_slice::<ConversionReview>(&body) {
        Ok(review) => json_response(&conversion::review(review)),
        Err(e) => bad_request(e),
    }
}

/// The three webhook routes.
pub fn router(options: WebhookOptions) -> Router {
    Router::new()
        .route(MUTATE_PATH, post(mutate))
        .route(VALIDATE_PATH, post(validate))
        .route(
            CONVERT_PATH,
            post(convert).layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
        )
        .with_state(options)
}
