//! Test PKI and loopback HTTPS servers for the runtime-client tests: a throwaway CA made with
//! rcgen, certificates it signs, and an axum server on 127.0.0.1 whose answers each test
//! scripts. Include it with `#[path = "support/tls.rs"] mod tls;`.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Response, Uri};
use axum_server::tls_rustls::RustlsConfig;
use futures::future::BoxFuture;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;

/// A test certificate authority.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A certificate and its key, PEM-encoded.
#[derive(Clone)]
pub struct Leaf {
    pub cert_pem: String,
    pub key_pem: String,
}

impl TestCa {
    /// A new CA.
    pub fn new(name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        TestCa {
            issuer: CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap(),
        }
    }

    /// A CA valid only between the two dates (year, month, day); its leaves are valid now.
    pub fn with_validity(
        name: &str,
        not_before: (i32, u8, u8),
        not_after: (i32, u8, u8),
    ) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        params.not_before = rcgen::date_time_ymd(not_before.0, not_before.1, not_before.2);
        params.not_after = rcgen::date_time_ymd(not_after.0, not_after.1, not_after.2);
        TestCa {
            issuer: CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap(),
        }
    }

    /// The CA certificate, PEM-encoded.
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A serving certificate for `names` (DNS names or IP addresses).
    pub fn serving(&self, names: &[&str]) -> Leaf {
        self.leaf(names, ExtendedKeyUsagePurpose::ServerAuth)
    }

    /// A client certificate.
    pub fn client(&self) -> Leaf {
        self.leaf(&["client.test"], ExtendedKeyUsagePurpose::ClientAuth)
    }

    fn leaf(&self, names: &[&str], usage: ExtendedKeyUsagePurpose) -> Leaf {
        let mut params =
            CertificateParams::new(names.iter().map(|s| s.to_string()).collect::<Vec<_>>())
                .unwrap();
        params.distinguished_name.push(DnType::CommonName, "leaf");
        params.extended_key_usages = vec![usage];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

/// A rustls server configuration serving `leaf`, requiring client certificates signed by
/// `client_ca` when given.
pub fn server_config(leaf: &Leaf, client_ca: Option<&TestCa>) -> Arc<rustls::ServerConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let chain = CertificateDer::pem_slice_iter(leaf.cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(leaf.key_pem.as_bytes()).unwrap();
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match client_ca {
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            for c in CertificateDer::pem_slice_iter(ca.pem().as_bytes()) {
                roots.add(c.unwrap()).unwrap();
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    let mut config = builder.with_single_cert(chain, key).unwrap();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Arc::new(config)
}

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
