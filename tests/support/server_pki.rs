//! Certificates and HTTPS clients for the extension-server tests: a throwaway CA, serving and
//! client certificates it signs, and reqwest clients that trust only that CA.
#![allow(dead_code)]

use std::path::Path;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// A test certificate authority.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A certificate and its private key, PEM-encoded.
pub struct Leaf {
    pub cert_pem: String,
    pub key_pem: String,
}

impl TestCa {
    /// A new CA with its own key.
    pub fn new(name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        TestCa { issuer }
    }

    /// The CA certificate, PEM-encoded.
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A serving certificate for `127.0.0.1` and `localhost`.
    pub fn serving(&self) -> Leaf {
        self.leaf(
            &["localhost", "127.0.0.1"],
            ExtendedKeyUsagePurpose::ServerAuth,
        )
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

    /// Writes a fresh serving certificate and key as `tls.crt` and `tls.key` into `dir`. The
    /// key is written first and the certificate is swapped in by rename, so a reader never sees
    /// a half-written certificate.
    pub fn write_serving(&self, dir: &Path) {
        let leaf = self.serving();
        write_atomically(&dir.join("tls.key"), &leaf.key_pem);
        write_atomically(&dir.join("tls.crt"), &leaf.cert_pem);
    }
}

/// Writes `contents` to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, contents: &str) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, contents).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// A reqwest client for plain HTTP (health and metrics listeners).
///
/// Every client these tests build goes through this module, and each one carries its own
/// rustls configuration with the ring provider named explicitly: reqwest is built without a
/// provider of its own (`rustls-no-provider`), and relying on a process-wide default would make
/// a test pass or fail depending on which other test happened to run first.
pub fn plain_client() -> reqwest::Client {
    builder(rustls::RootCertStore::empty(), None)
        .build()
        .unwrap()
}

/// A client that trusts only `ca_pem` and opens a new connection for every request, so a
/// rotated serving certificate is seen at once.
pub fn https_client(ca_pem: &str) -> reqwest::Client {
    builder(roots(ca_pem), None).build().unwrap()
}

/// Like [`https_client`], speaking HTTP/1.1 only.
pub fn https_client_http1(ca_pem: &str) -> reqwest::Client {
    builder_alpn(roots(ca_pem), None, false)
        .http1_only()
        .build()
        .unwrap()
}

/// Like [`https_client`], presenting `identity` as client certificate.
pub fn https_client_with_identity(ca_pem: &str, identity: &Leaf) -> reqwest::Client {
    builder(roots(ca_pem), Some(identity)).build().unwrap()
}

fn roots(ca_pem: &str) -> rustls::RootCertStore {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    roots
}

fn builder(roots: rustls::RootCertStore, identity: Option<&Leaf>) -> reqwest::ClientBuilder {
    builder_alpn(roots, identity, true)
}

fn builder_alpn(
    roots: rustls::RootCertStore,
    identity: Option<&Leaf>,
    http2: bool,
) -> reqwest::ClientBuilder {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    let mut config = match identity {
        None => config.with_no_client_auth(),
        Some(leaf) => {
            let chain = CertificateDer::pem_slice_iter(leaf.cert_pem.as_bytes())
                .collect::<Result<Vec<_>, _>>()
                .unwrap();
            let key = PrivateKeyDer::from_pem_slice(leaf.key_pem.as_bytes()).unwrap();
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
