//! The throwaway PKI of the workspace's tests: a certificate authority made with rcgen, serving
//! and client certificates it signs, and rustls and reqwest configurations that trust only it.
//!
//! Every configuration names the ring provider itself: reqwest is built without a provider of
//! its own (`rustls-no-provider`), and relying on a process-wide default would make a test pass
//! or fail depending on which other test of its binary ran first.

use std::path::Path;
use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;

/// The names of a loopback serving certificate.
pub const LOOPBACK: &[&str] = &["localhost", "127.0.0.1"];

/// A test certificate authority with its own key.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A certificate and its private key, PEM-encoded.
#[derive(Clone)]
pub struct Leaf {
    /// The certificate.
    pub cert_pem: String,
    /// Its private key.
    pub key_pem: String,
}

impl TestCa {
    /// A new CA.
    pub fn new(name: &str) -> TestCa {
        TestCa::from_params(ca_params(name))
    }

    /// A CA valid only between the two dates (year, month, day); its leaves are valid now.
    pub fn with_validity(
        name: &str,
        not_before: (i32, u8, u8),
        not_after: (i32, u8, u8),
    ) -> TestCa {
        let mut params = ca_params(name);
        params.not_before = rcgen::date_time_ymd(not_before.0, not_before.1, not_before.2);
        params.not_after = rcgen::date_time_ymd(not_after.0, not_after.1, not_after.2);
        TestCa::from_params(params)
    }

    fn from_params(params: CertificateParams) -> TestCa {
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

    /// A serving certificate for `localhost` and `127.0.0.1`.
    pub fn serving_loopback(&self) -> Leaf {
        self.serving(LOOPBACK)
    }

    /// A client certificate.
    pub fn client(&self) -> Leaf {
        self.leaf(&["client.test"], ExtendedKeyUsagePurpose::ClientAuth)
    }

    fn leaf(&self, names: &[&str], usage: ExtendedKeyUsagePurpose) -> Leaf {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let mut params = CertificateParams::new(names).unwrap();
        params.distinguished_name.push(DnType::CommonName, "leaf");
        params.extended_key_usages = vec![usage];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }

    /// Writes a fresh loopback serving certificate and key as `tls.crt` and `tls.key` into
    /// `dir`. The key is written first and the certificate is swapped in by rename, so a reader
    /// never sees a half-written certificate.
    pub fn write_serving(&self, dir: &Path) {
        let leaf = self.serving_loopback();
        write_atomically(&dir.join("tls.key"), &leaf.key_pem);
        write_atomically(&dir.join("tls.crt"), &leaf.cert_pem);
    }

    /// A new temporary directory holding a loopback serving certificate as `tls.crt`/`tls.key`.
    pub fn cert_dir(&self) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        self.write_serving(dir.path());
        dir
    }
}

fn ca_params(name: &str) -> CertificateParams {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    params
}

/// Writes `contents` to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, contents: &str) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, contents).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// The ring provider, named explicitly (see the crate documentation). rustls 0.23.48 deprecates
/// `ring::default_provider`; ring stays this crate's choice, as the SDK's.
#[allow(deprecated)]
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A root store holding every certificate of `ca_pem`.
pub fn roots(ca_pem: &str) -> rustls::RootCertStore {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    roots
}

fn chain_and_key(leaf: &Leaf) -> (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>) {
    let chain = CertificateDer::pem_slice_iter(leaf.cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(leaf.key_pem.as_bytes()).unwrap();
    (chain, key)
}

/// A rustls server configuration serving `leaf` (ALPN h2 and http/1.1), requiring client
/// certificates signed by `client_ca` when given.
pub fn server_config(leaf: &Leaf, client_ca: Option<&TestCa>) -> Arc<rustls::ServerConfig> {
    let provider = provider();
    let (chain, key) = chain_and_key(leaf);
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match client_ca {
        Some(ca) => {
            let verifier =
                WebPkiClientVerifier::builder_with_provider(Arc::new(roots(&ca.pem())), provider)
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

/// A reqwest client for plain HTTP (health and metrics listeners).
pub fn plain_client() -> reqwest::Client {
    client_builder(rustls::RootCertStore::empty(), None, true)
        .build()
        .unwrap()
}

/// A client that trusts only `ca_pem` and opens a new connection for every request, so a
/// rotated serving certificate is seen at once.
pub fn https_client(ca_pem: &str) -> reqwest::Client {
    client_builder(roots(ca_pem), None, true).build().unwrap()
}

/// Like [`https_client`], speaking HTTP/1.1 only.
pub fn https_client_http1(ca_pem: &str) -> reqwest::Client {
    client_builder(roots(ca_pem), None, false)
        .http1_only()
        .build()
        .unwrap()
}

/// Like [`https_client`], presenting `identity` as client certificate.
pub fn https_client_with_identity(ca_pem: &str, identity: &Leaf) -> reqwest::Client {
    client_builder(roots(ca_pem), Some(identity), true)
        .build()
        .unwrap()
}

fn client_builder(
    roots: rustls::RootCertStore,
    identity: Option<&Leaf>,
    http2: bool,
) -> reqwest::ClientBuilder {
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    let mut config = match identity {
        None => config.with_no_client_auth(),
        Some(leaf) => {
            let (chain, key) = chain_and_key(leaf);
            config.with_client_auth_cert(chain, key).unwrap()
        }
    };
    config.alpn_protocols = if http2 {
        vec![b"h2".to_vec(), b"http/1.1".to_vec()]
    } else {
        vec![b"http/1.1".to_vec()]
    };
    reqwest::Client::builder()
        .tls_backend_preconfigured(config)
        .pool_max_idle_per_host(0)
        .no_proxy()
}
