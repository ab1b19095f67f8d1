//! One HTTP exchange with an extension: POST the JSON request, wait for the answer within the
//! deadline, read a bounded body and decode it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use url::Url;

use super::error::ExchangeError;
use super::metrics::Metrics;
use crate::catalog::HookId;
use crate::tls::message;
use crate::wire::{BudgetHold, DecodeError, DecodeErrorKind, Limits, RawStatus, SharedBudget};

/// How many bytes of a non-200 body an error message quotes.
const EXCERPT_BYTES: usize = 512;

/// Everything one exchange needs.
pub(crate) struct Request<'a> {
    pub(crate) http: &'a reqwest::Client,
    pub(crate) url: &'a Url,
    /// The host label of the metrics.
    pub(crate) host: &'a str,
    /// The caller's hook, for the metrics.
    pub(crate) hook: &'a HookId,
    pub(crate) timeout: Duration,
    pub(crate) body: bytes::Bytes,
    pub(crate) max_body: usize,
    /// The client's decode budget, shared by the answers it decodes and holds at once.
    pub(crate) decode_budget: &'a SharedBudget,
    pub(crate) metrics: &'a Metrics,
}

enum ReadError {
    TooLarge,
    Failed(reqwest::Error),
}

/// Reads the whole body, refusing more than `limit` bytes.
async fn read_capped(response: &mut reqwest::Response, limit: usize) -> Result<Vec<u8>, ReadError> {
    let announced = response.content_length().unwrap_or(0);
    if announced > limit as u64 {
        return Err(ReadError::TooLarge);
    }
    let mut body = Vec::with_capacity(announced as usize);
    while let Some(chunk) = response.chunk().await.map_err(ReadError::Failed)? {
        if body.len() + chunk.len() > limit {
            return Err(ReadError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Quotes the start of a body for an error message.
fn excerpt(body: &[u8]) -> String {
    let cut = body.len() > EXCERPT_BYTES;
    let mut text = String::from_utf8_lossy(&body[..body.len().min(EXCERPT_BYTES)]).into_owned();
    if cut {
        text.push_str("...");
    }
    format!("{text:?}")
}

/// A decoded answer: the response, the status the extension wrote and what decoding took of
/// the client's decode budget (given back when dropped).
pub(crate) type Answer<T> = (T, RawStatus, BudgetHold);

/// Runs the exchange and records its metrics. On success returns the response `decode` made of
/// the body, the status the extension wrote and what decoding took of the client's decode
/// budget (given back when dropped). `decode` gets the wire codec's limits with the call's
/// deadline and the client's shared budget, so decoding counts against the call's timeout
/// (past it, the call times out) and against the memory of the client's other answers.
pub(crate) async fn exchange<T>(
    req: Request<'_>,
    decode: impl FnOnce(&[u8], &Limits) -> Result<Answer<T>, DecodeError>,
) -> Result<Answer<T>, ExchangeError> {
    let start = Instant::now();
    let limits = Limits::default()
        .with_deadline(start + req.timeout)
        .with_shared_budget(req.decode_budget.clone());
    let mut code: Option<u16> = None;
    let url = req.url.as_str();
    let attempt = async {
        let mut response = req
            .http
            .post(req.url.clone())
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(req.body.clone())
            .send()
            .await
            .map_err(|e| ExchangeError::Transport {
                url: url.to_string(),
                // The message names the URL already.
                error: Arc::new(e.without_url()),
            })?;
        let status = response.status().as_u16();
        code = Some(status);
        let body = read_capped(&mut response, req.max_body).await;
        if status != 200 {
            return Err(match body {
                Ok(body) => ExchangeError::HttpStatus {
                    url: url.to_string(),
                    code: status,
                    excerpt: excerpt(&body),
                },
                Err(ReadError::TooLarge) => ExchangeError::HttpStatusBody {
                    url: url.to_string(),
                    code: status,
                    error: message(format!("body is larger than {} bytes", req.max_body)),
                },
                Err(ReadError::Failed(e)) => ExchangeError::HttpStatusBody {
                    url: url.to_string(),
                    code: status,
                    error: Arc::new(e.without_url()),
                },
            });
        }
        let body = body.map_err(|e| match e {
            ReadError::TooLarge => ExchangeError::BodyTooLarge {
                url: url.to_string(),
                code: status,
                limit: req.max_body,
            },
            ReadError::Failed(e) => ExchangeError::Body {
                url: url.to_string(),
                error: Arc::new(e.without_url()),
            },
        })?;
        decode(&body, &limits).map_err(|error| match error.kind() {
            DecodeErrorKind::Timeout => ExchangeError::Timeout {
                url: url.to_string(),
                timeout: req.timeout,
            },
            _ if error.is_shared_budget() => {
                let message = format!(
                    "the client's shared decode budget of {} bytes is used up by the answers \
                     it is decoding and holding at once (ClientBuilder::max_decode_bytes)",
                    req.decode_budget.capacity()
                );
                ExchangeError::Decode {
                    url: url.to_string(),
                    error: Box::new(error.with_message(message)),
                }
            }
            _ => ExchangeError::Decode {
                url: url.to_string(),
                error: Box::new(error),
            },
        })
    };
    let result = match tokio::time::timeout(req.timeout, attempt).await {
        Ok(result) => result,
        Err(_) => Err(ExchangeError::Timeout {
            url: url.to_string(),
            timeout: req.timeout,
        }),
    };
    let status = match &result {
        Ok((_, RawStatus(s), _)) => s.as_str(),
        Err(_) => "",
    };
    let span = tracing::Span::current();
    if let Some(c) = code {
        span.record("code", c);
    }
    span.record("status", status);
    req.metrics.count(req.hook, req.host, code, status);
    req.metrics.observe(req.hook, req.host, start.elapsed());
    result
}
