//! Reading an admission request's body as an `AdmissionReview`, in the order and with the
//! answers of controller-runtime's admission handler, which serves Cluster API's webhooks.
//!
//! A body that cannot be read as a review is not refused at the HTTP level: the API server
//! expects an `AdmissionReview` back, so the answer is one (HTTP 200) whose response denies
//! the request with the error and its code, and an empty UID (there is no request to take
//! it from). The checks, in order:
//!
//! | body | code | message |
//! |---|---|---|
//! | empty | 400 | `request body is empty` |
//! | [`MAX_REVIEW_BYTES`] or more | 413 | `request entity is too large; limit is 7340032 bytes` |
//! | `Content-Type` other than exactly `application/json` | 400 | `contentType=<value>, expected application/json` |
//! | not a JSON object, or a review whose fields do not decode | 400 | why |
//! | a review without a request | 400 | why |
//!
//! A review is read as `admission.k8s.io/v1` whatever type it names (v1beta1's fields are
//! v1's), and answered with the type it names, as controller-runtime does. Where
//! controller-runtime writes no type at all (the body was not read, or named none), the
//! answer is `admission.k8s.io/v1` `AdmissionReview`, which is what the API server checks
//! before it reads the response. (Compared with controller-runtime's handler, through
//! HTTPS, in `tests/it/go_webhook.rs`.)

use axum::body::Body;
use axum::http::{HeaderMap, header};
use kube::core::admission::{AdmissionResponse, AdmissionReview};
use kube::core::response::StatusSummary;
use kube::core::{DynamicObject, TypeMeta};
use serde_json::Value;

/// The largest admission request body read, as controller-runtime's limit: a body of this
/// size or more is refused (code 413).
pub const MAX_REVIEW_BYTES: usize = 7 << 20;

const V1: &str = "admission.k8s.io/v1";
const KIND: &str = "AdmissionReview";

/// Why a request body is not an `AdmissionReview` this webhook can answer.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The request has no body.
    #[error("request body is empty")]
    Empty,
    /// The body could not be read.
    #[error("failed to read the request body")]
    Read(#[source] axum::Error),
    /// The body is [`MAX_REVIEW_BYTES`] or larger.
    #[error("request entity is too large; limit is {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The media type is not `application/json`.
    #[error("contentType={found}, expected application/json")]
    ContentType {
        /// The `Content-Type` header as sent (empty when there is none).
        found: String,
    },
    /// The body is not JSON, or not an object.
    #[error("the body is not a JSON object")]
    Syntax(#[source] serde_json::Error),
    /// The review's fields do not have their types.
    #[error("the AdmissionReview's fields do not decode")]
    Decode {
        /// The type the review names (or v1's when it names none), for the answer.
        types: TypeMeta,
        /// The request's UID, when the body gives one as a string, for the answer.
        uid: String,
        /// Why the fields do not decode.
        #[source]
        source: serde_json::Error,
    },
    /// The review holds no request.
    #[error("the AdmissionReview holds no request")]
    NoRequest {
        /// The type the review names (or v1's when it names none), for the answer.
        types: TypeMeta,
    },
}

impl ReviewError {
    /// The code of the denial, as controller-runtime gives it.
    pub fn code(&self) -> u16 {
        match self {
            ReviewError::TooLarge { .. } => 413,
            _ => 400,
        }
    }

    /// The answer to the API server: a review whose response denies the request with this
    /// error (of the review's own type when the body named one, else `admission.k8s.io/v1`,
    /// and with the request's UID when it gave one).
    pub fn into_review(self) -> AdmissionReview<DynamicObject> {
        let message = capi_runtime::go::errors::chain(&self).to_string();
        let mut response = AdmissionResponse::invalid(message);
        response.result.code = self.code();
        response.result.status = Some(StatusSummary::Failure);
        response.result.reason = String::new();
        match self {
            ReviewError::Decode { types, uid, .. } => {
                response.types = types;
                response.uid = uid;
            }
            ReviewError::NoRequest { types } => response.types = types,
            _ => {}
        }
        response.into_review()
    }
}

/// Reads an admission request (its headers and body) as a review, checking what
/// controller-runtime checks, in its order (see the module docs).
pub async fn read(
    headers: &HeaderMap,
    body: Body,
) -> Result<AdmissionReview<DynamicObject>, ReviewError> {
    let bytes = match axum::body::to_bytes(body, MAX_REVIEW_BYTES - 1).await {
        Ok(bytes) => bytes,
        Err(e) if is_length_limit(&e) => {
            return Err(ReviewError::TooLarge {
                limit: MAX_REVIEW_BYTES,
            });
        }
        Err(e) => return Err(ReviewError::Read(e)),
    };
    if bytes.is_empty() {
        return Err(ReviewError::Empty);
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_default();
    if content_type != "application/json" {
        return Err(ReviewError::ContentType {
            found: content_type,
        });
    }
    decode(&bytes)
}

/// Decodes a review, as controller-runtime does: as the v1 type whatever version or kind
/// the body names (v1beta1's fields are v1's), `apiVersion` and `kind` defaulting to
/// `admission.k8s.io/v1` and `AdmissionReview`; the answer has the review's own type.
pub fn decode(body: &[u8]) -> Result<AdmissionReview<DynamicObject>, ReviewError> {
    let mut value: Value = serde_json::from_slice(body).map_err(ReviewError::Syntax)?;
    let Value::Object(fields) = &mut value else {
        return Err(ReviewError::Syntax(serde::de::Error::custom(
            "expected an object",
        )));
    };
    let text = |v: Option<&Value>, default: &str| match v.and_then(Value::as_str) {
        Some(s) if !s.is_empty() => s.to_owned(),
        _ => default.to_owned(),
    };
    let types = TypeMeta {
        api_version: text(fields.get("apiVersion"), V1),
        kind: text(fields.get("kind"), KIND),
    };
    if fields.get("request").is_none_or(Value::is_null) {
        return Err(ReviewError::NoRequest { types });
    }
    let uid = fields["request"]["uid"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    fields.insert(
        "apiVersion".into(),
        Value::String(types.api_version.clone()),
    );
    fields.insert("kind".into(), Value::String(types.kind.clone()));
    serde_json::from_value(value).map_err(|source| ReviewError::Decode { types, uid, source })
}

fn is_length_limit(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = s.source();
    }
    false
}
