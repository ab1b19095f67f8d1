//! Calling a built server's handlers from the same process, without a socket: for unit tests
//! of an extension.
//!
//! See [`InProcess`].

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use http::{Method, Request, StatusCode, header};
use tower::ServiceExt;

use super::Server;
use crate::api::runtime::validation::call_timeout;
use crate::catalog::{HookId, gvh_to_path};
use crate::go::time::format_duration;
use crate::hook::{Hook, RequestOf, ResponseOf};
use crate::hooks::v1alpha1::{DiscoveryRequest, DiscoveryResponse, ExtensionHandler};
use crate::wire;

/// A built server's handlers, called from the same process without a socket: for unit tests of
/// an extension.
///
/// `InProcess` sends a typed request through the server's own hook router
/// ([`Server::router`]) with `tower::ServiceExt::oneshot`, so the request takes every step a
/// request from Cluster API takes after TLS: it is encoded as Cluster API's client encodes it
/// (`apiVersion` and `kind` set, `Content-Type: application/json`, `POST` to the handler's path
/// with `?timeout=` the handler's timeout), then admitted (body cap, slot, decode budget),
/// type-checked, decoded, handled under the timeout and the panic guard, and the answer
/// encoded; the answer is then decoded as Cluster API's client decodes it. Only the TLS host
/// and its connection deadlines are left out.
///
/// ```
/// use capi_runtime::hooks::v1alpha1::{BeforeClusterCreateRequest, BeforeClusterCreateResponse};
/// use capi_runtime::hook::ResponseStatus;
/// use capi_runtime::server::Server;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = Server::builder()
///     .handle("before-cluster-create", |request: BeforeClusterCreateRequest| async move {
///         match request.cluster.metadata.name {
///             Some(_) => Ok(BeforeClusterCreateResponse::success()),
///             None => Err("the Cluster has no name"),
///         }
///     })
///     .build()?;
///
/// let response = server
///     .in_process()
///     .call("before-cluster-create", &BeforeClusterCreateRequest::default())
///     .await?;
/// assert_eq!(response.status, ResponseStatus::Failure);
/// assert_eq!(response.message, "the Cluster has no name");
/// # Ok(())
/// # }
/// ```
///
/// Made by [`Server::in_process`]; cheap to clone, and every call is independent, so one value
/// can serve many calls at once.
#[derive(Clone, Debug)]
pub struct InProcess {
    router: Router,
    handlers: Vec<ExtensionHandler>,
}

impl Server {
    /// This server's handlers, to be called in process, without sockets or TLS: see
    /// [`InProcess`]. The server itself is not started.
    pub fn in_process(&self) -> InProcess {
        InProcess {
            router: self.router(),
            handlers: self.discovery().handlers.clone(),
        }
    }
}

impl InProcess {
    /// Calls the handler `name` of the hook whose request `request` is
    /// ([`RequestOf`](crate::hook::RequestOf)) with it, as Cluster API calls it, and returns
    /// its response decoded as Cluster API decodes it.
    ///
    /// A Failure response is a response, not an error: its `status` and `message` are what the
    /// handler (or the server, for a request it refused) answered. The `?timeout=` sent is
    /// the one Cluster API sends: the handler's timeout as Discovery advertises it, else 10 s.
    /// The errors are what keeps a response from coming back at all: a request that cannot
    /// be encoded, a path the server does not serve (an unregistered name, HTTP 404), any
    /// other HTTP status, or an answer that is not the hook's response.
    pub async fn call<R: RequestOf>(
        &self,
        name: &str,
        request: &R,
    ) -> Result<ResponseOf<R>, InProcessError> {
        self.call_hook::<R::Hook>(name, request).await
    }

    async fn call_hook<H: Hook>(
        &self,
        name: &str,
        request: &H::Request,
    ) -> Result<H::Response, InProcessError> {
        let path = gvh_to_path(&HookId::of::<H>(), name);
        let body = wire::encode_request::<H>(request).map_err(|source| InProcessError::Encode {
            path: path.clone(),
            source,
        })?;
        let timeout = self.timeout_of::<H>(name);
        let uri = format!("{path}?timeout={}", format_duration(timeout));
        let (status, bytes) =
            self.post(&uri, body)
                .await
                .map_err(|source| InProcessError::Read {
                    path: path.clone(),
                    source,
                })?;
        if status != StatusCode::OK {
            return Err(InProcessError::Status {
                path,
                status,
                body: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
        let decoded =
            wire::decode_response::<H>(&bytes).map_err(|source| InProcessError::Decode {
                path: path.clone(),
                source,
            })?;
        if wire::parse_status(&decoded.status).is_none() {
            return Err(InProcessError::UnknownStatus {
                path,
                status: decoded.status,
            });
        }
        Ok(decoded.message)
    }

    /// Calls Discovery, as Cluster API does when it registers the extension.
    pub async fn discovery(&self) -> Result<DiscoveryResponse, InProcessError> {
        self.call("", &DiscoveryRequest::default()).await
    }

    /// The timeout Cluster API would send for handler `name` of `H`: what Discovery advertises.
    fn timeout_of<H: Hook>(&self, name: &str) -> Duration {
        let seconds = self
            .handlers
            .iter()
            .find(|h| {
                h.name == name
                    && h.request_hook.hook == H::NAME
                    && h.request_hook.api_version == H::API_VERSION
            })
            .and_then(|h| h.timeout_seconds)
            .unwrap_or_default();
        call_timeout(seconds)
    }

    async fn post(
        &self,
        uri: &str,
        body: Vec<u8>,
    ) -> Result<(StatusCode, bytes::Bytes), axum::Error> {
        let request = Request::builder()
            .method(Method::POST)
            .uri(uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .expect("a path from the catalog and a static header make a valid request");
        let response = match self.router.clone().oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
        Ok((status, bytes))
    }
}

/// Why an in-process call brought back no response. Each variant names the handler's path;
/// its [`source`](std::error::Error::source), when it has one, is the cause.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InProcessError {
    /// The request could not be encoded.
    #[error("calling {path}: encoding the request")]
    Encode {
        /// The handler's path.
        path: String,
        /// The encoder's error.
        source: wire::EncodeError,
    },
    /// The answer's body could not be read.
    #[error("calling {path}: reading the answer")]
    Read {
        /// The handler's path.
        path: String,
        /// The body's error.
        source: axum::Error,
    },
    /// The server answered another HTTP status than 200: 404 when no handler is registered
    /// under that name, 500 when it could not encode its response.
    #[error("calling {path}: HTTP {status}: {body}")]
    Status {
        /// The handler's path.
        path: String,
        /// The HTTP status.
        status: StatusCode,
        /// The answer's body, as text.
        body: String,
    },
    /// The answer is not the hook's response.
    #[error("calling {path}: decoding the response")]
    Decode {
        /// The handler's path.
        path: String,
        /// The decoder's error.
        source: wire::DecodeError,
    },
    /// The answer's `status` is neither `Success` nor `Failure`.
    #[error("calling {path}: the response's status {status:?} is neither Success nor Failure")]
    UnknownStatus {
        /// The handler's path.
        path: String,
        /// The status as written.
        status: String,
    },
}

impl InProcessError {
    /// The HTTP status, when the server answered one other than 200.
    pub fn http_status(&self) -> Option<StatusCode> {
        match self {
            InProcessError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::errors::chain;
    use crate::hook::ResponseStatus;
    use crate::hooks::v1alpha1::{
        AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
        BeforeClusterCreateRequest, BeforeClusterCreateResponse,
    };
    use crate::server::{Context, HandlerOptions};

    fn server() -> Server {
        Server::builder()
            .handle("named", |request: BeforeClusterCreateRequest| async move {
                match request.cluster.metadata.name.as_deref() {
                    Some("panic") => panic!("asked to"),
                    Some(_) => Ok(BeforeClusterCreateResponse::success()),
                    None => Err("no name"),
                }
            })
            .handle(
                HandlerOptions::new("timed").timeout_seconds(3),
                |_: AfterControlPlaneInitializedRequest, context: Context| async move {
                    let mut response = AfterControlPlaneInitializedResponse::success();
                    response.message = format!(
                        "{:?} {}",
                        context.requested_timeout(),
                        context.handler_name()
                    );
                    response
                },
            )
            .build()
            .unwrap()
    }

    fn named(name: &str) -> BeforeClusterCreateRequest {
        let mut request = BeforeClusterCreateRequest::default();
        request.cluster.metadata.name = Some(name.to_string());
        request
    }

    #[tokio::test]
    async fn a_call_reaches_the_handler_and_brings_its_answer_back() {
        let calls = server().in_process();
        let ok = calls.call("named", &named("c1")).await.unwrap();
        assert_eq!(ok.status, ResponseStatus::Success);
        assert_eq!(ok.kind, "BeforeClusterCreateResponse");
        let failed = calls
            .call("named", &BeforeClusterCreateRequest::default())
            .await
            .unwrap();
        assert_eq!(
            (failed.status, failed.message.as_str()),
            (ResponseStatus::Failure, "no name")
        );
    }

    #[tokio::test]
    async fn a_panic_is_answered_failure_as_over_the_network() {
        let calls = server().in_process();
        let answer = calls.call("named", &named("panic")).await.unwrap();
        assert_eq!(answer.status, ResponseStatus::Failure);
        assert!(!answer.message.is_empty());
    }

    #[tokio::test]
    async fn the_timeout_sent_is_the_advertised_one_or_ten_seconds() {
        let calls = server().in_process();
        let answer = calls
            .call("timed", &AfterControlPlaneInitializedRequest::default())
            .await
            .unwrap();
        assert_eq!(answer.message, "Some(3s) timed");
    }

    #[tokio::test]
    async fn an_unknown_name_is_an_error_with_the_status() {
        let calls = server().in_process();
        let err = calls.call("other", &named("c1")).await.unwrap_err();
        assert_eq!(err.http_status(), Some(StatusCode::NOT_FOUND));
        assert!(
            chain(&err)
                .to_string()
                .starts_with("calling /hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/other: HTTP 404"),
            "{}",
            chain(&err)
        );
    }

    #[tokio::test]
    async fn discovery_lists_the_handlers() {
        let discovery = server().in_process().discovery().await.unwrap();
        let names: Vec<_> = discovery.handlers.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names.len(), 2);
        assert!(names.contains(&"named") && names.contains(&"timed"));
    }
}
