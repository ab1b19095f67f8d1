//! A throwaway CA and a serving certificate for `localhost`/`127.0.0.1`, written as
//! `tls.crt`/`tls.key` into a temporary directory, so the samples run over real TLS.

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};

/// A temporary certificate directory and the PEM of the CA that signed its certificate.
pub struct Certs {
    /// The directory with `tls.crt` and `tls.key`.
    pub dir: tempfile::TempDir,
    /// The CA certificate, PEM-encoded (an ExtensionConfig's `caBundle`).
    pub ca_pem: String,
}

/// A new CA and a serving certificate it signed, in a new directory.
pub fn certs() -> Certs {
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let issuer = CertifiedIssuer::self_signed(ca, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    written(&key, &leaf.pem(), issuer.pem())
}

/// A self-signed serving certificate for `localhost`/`127.0.0.1` marked CA:FALSE, as the book's
/// "Run it locally" recipe makes it with openssl, in a new directory; `ca_pem` is the certificate
/// itself.
pub fn self_signed() -> Certs {
    self_signed_with(IsCa::ExplicitNoCa)
}

/// The same marked CA:TRUE, as `openssl req -x509` makes it without `basicConstraints`.
pub fn self_signed_ca() -> Certs {
    self_signed_with(IsCa::Ca(BasicConstraints::Unconstrained))
}

fn self_signed_with(is_ca: IsCa) -> Certs {
    let mut params =
        CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()]).unwrap();
    params.is_ca = is_ca;
    let key = KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    written(&key, &cert.pem(), cert.pem())
}

/// `tls.key` and `tls.crt` in a new directory, with the PEM a client trusts for them.
fn written(key: &KeyPair, cert_pem: &str, ca_pem: String) -> Certs {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tls.key"), key.serialize_pem()).unwrap();
    std::fs::write(dir.path().join("tls.crt"), cert_pem).unwrap();
    Certs { dir, ca_pem }
}
