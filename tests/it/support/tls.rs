//! Loopback HTTPS servers for the runtime-client tests: an axum server on 127.0.0.1 whose
//! answers each test scripts, with certificates of the workspace's test CA
//! (`capi-runtime-test-pki`, re-exported here). The benchmarks include this file by path.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Response, Uri};
use axum_server::tls_rustls::RustlsConfig;
#[allow(unused_imports)] // not every includer uses each of them
pub use capi_runtime_test_pki::{Leaf, TestCa, server_config};
use futures::future::BoxFuture;

/// One request a test server received.
#[derive(Clone, Debug)]
pub struct Received {
    pub path: String,
    pub query: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Received {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

/// How a test server answers: any async function of the request.
pub type Answer = Arc<dyn Fn(Received) -> BoxFuture<'static, Response<Body>> + Send + Sync>;

/// Makes an [`Answer`] from an async closure.
pub fn answer<F, Fut>(f: F) -> Answer
where
    F: Fn(Received) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Response<Body>> + Send + 'static,
{
    Arc::new(move |r| Box::pin(f(r)))
}

/// A 200 answer with a JSON body and no content type, like Go's server helper sends.
pub fn json(body: serde_json::Value) -> Response<Body> {
    Response::new(Body::from(serde_json::to_vec(&body).unwrap()))
}

/// An answer with the given status and raw body.
pub fn raw(status: u16, body: impl Into<Body>) -> Response<Body> {
    Response::builder()
        .status(status)
        .body(body.into())
        .unwrap()
}

#[derive(Clone)]
struct ServerState {
    answer: Answer,
    received: Arc<Mutex<Vec<Received>>>,
}

async fn serve(
    State(state): State<ServerState>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response<Body> {
    let received = Received {
        path: uri.path().to_string(),
        query: uri.query().unwrap_or_default().to_string(),
        headers,
        body,
    };
    state.received.lock().unwrap().push(received.clone());
    (state.answer)(received).await
}

/// An HTTPS server on 127.0.0.1 with a scripted answer; stops when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    pub tls: RustlsConfig,
    handle: axum_server::Handle<SocketAddr>,
    received: Arc<Mutex<Vec<Received>>>,
}

impl TestServer {
    /// Starts a server with `tls` that answers every request with `answer`.
    pub async fn start(tls: Arc<rustls::ServerConfig>, answer: Answer) -> TestServer {
        let received = Arc::new(Mutex::new(Vec::new()));
        let app = Router::new().fallback(serve).with_state(ServerState {
            answer,
            received: received.clone(),
        });
        let tls = RustlsConfig::from_config(tls);
        let handle = axum_server::Handle::new();
        let server = axum_server::bind_rustls(SocketAddr::from(([127, 0, 0, 1], 0)), tls.clone())
            .handle(handle.clone());
        tokio::spawn(async move {
            let _ = server.serve(app.into_make_service()).await;
        });
        let addr = handle.listening().await.expect("the test server listens");
        TestServer {
            addr,
            tls,
            handle,
            received,
        }
    }

    /// Starts a server whose certificate, signed by `ca`, names 127.0.0.1 and localhost.
    pub async fn with_ca(ca: &TestCa, answer: Answer) -> TestServer {
        Self::start(
            server_config(&ca.serving(&["127.0.0.1", "localhost"]), None),
            answer,
        )
        .await
    }

    /// `https://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("https://{}", self.addr)
    }

    /// Every request received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.handle.shutdown();
    }
}

/// A loopback port that refuses connections for as long as this value lives.
///
/// The socket is bound but never listens: the port stays ours, so no other test can start a
/// server on it in the meantime, and every connection attempt is refused at once.
pub struct RefusedPort {
    _socket: tokio::net::TcpSocket,
    /// The port.
    pub port: u16,
}

impl RefusedPort {
    /// Binds a fresh loopback port without listening on it.
    pub fn new() -> RefusedPort {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
        let port = socket.local_addr().unwrap().port();
        RefusedPort {
            _socket: socket,
            port,
        }
    }
}
