//! Calling (feature `client`): which certificates are trusted and which client certificate is
//! shown.
//!
//! The server name is the host of the URL being called (reqwest passes it to rustls), so a
//! service reference is verified against its `<name>.<namespace>.svc` name and an IP address
//! against the certificate's IP SANs.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use super::trust::BundleVerifier;
use super::{Cause, TlsError, alpn, cause, crypto_provider, pem};

/// Why a client identity (certificate and key) could not be used.
#[derive(Debug)]
pub(crate) struct IdentityProblem {
    pub(crate) what: &'static str,
    pub(crate) error: Cause,
}

/// Wraps an error of the step `what` into an [`IdentityProblem`].
fn problem(what: &'static str) -> impl FnOnce(Cause) -> IdentityProblem {
    move |error| IdentityProblem { what, error }
}

/// A client certificate chain and its private key.
#[derive(Debug)]
pub(crate) struct ClientIdentity {
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

impl Clone for ClientIdentity {
    fn clone(&self) -> Self {
        ClientIdentity {
            chain: self.chain.clone(),
            key: self.key.clone_key(),
        }
    }
}

impl ClientIdentity {
    /// Parses a PEM certificate chain and the matching PEM private key.
    pub(crate) fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Self, IdentityProblem> {
        let chain = pem::certificate_list(cert_pem, "no certificate found")
            .map_err(problem("invalid certificate PEM"))?;
        let key = pem::private_key(key_pem).map_err(problem("invalid private key PEM"))?;
        // Checks that the key is usable and belongs to the certificate, so that a half-rotated
        // pair is refused here rather than at the next handshake.
        rustls::sign::CertifiedKey::from_der(chain.clone(), key.clone_key(), &crypto_provider())
            .map_err(|e| problem("unusable certificate and key")(cause(e)))?;
        Ok(ClientIdentity { chain, key })
    }

    /// Reads the certificate and key files.
    pub(crate) fn load(cert_file: &Path, key_file: &Path) -> Result<Self, TlsError> {
        let err = |p: IdentityProblem| TlsError::ClientIdentity {
            cert_file: cert_file.to_path_buf(),
            key_file: key_file.to_path_buf(),
            what: p.what,
            error: p.error,
        };
        let read = |path: &Path, what: &'static str| {
            std::fs::read(path).map_err(|e| {
                err(IdentityProblem {
                    what,
                    error: cause(e),
                })
            })
        };
        let cert = read(cert_file, "reading certificate")?;
        let key = read(key_file, "reading key")?;
        Self::from_pem(&cert, &key).map_err(err)
    }
}

/// A rustls client configuration that trusts exactly `ca_bundle` (or, when it is empty, the
/// platform's roots) and presents `identity` when set.
pub(crate) fn client_config(
    ca_bundle: &[u8],
    identity: Option<&ClientIdentity>,
) -> Result<rustls::ClientConfig, TlsError> {
    let provider = crypto_provider();
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::ClientConfig(cause(e)))?;
    let builder = if ca_bundle.is_empty() {
        let verifier = rustls_platform_verifier::Verifier::new(provider)
            .map_err(|e| TlsError::ClientConfig(cause(e)))?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(bundle_verifier(ca_bundle, provider)?))
    };
    let mut config = match identity {
        Some(id) => builder
            .with_client_auth_cert(id.chain.clone(), id.key.clone_key())
            .map_err(|e| TlsError::ClientConfig(cause(e)))?,
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = alpn();
    // The runtime client builds one configuration per (host, CA bundle), so its session cache
    // only ever holds one server's sessions. rustls's default cache is sized for 32 servers
    // and allocated up front (about 14 KiB of heap per client, 4 KiB of it resident); one
    // server's worth (its 8 TLS 1.3 tickets) is all a client here can use.
    config.resumption = rustls::client::Resumption::in_memory_sessions(SESSIONS_PER_CLIENT);
    Ok(config)
}

/// TLS sessions a client configuration remembers: one server's worth (rustls keeps up to
/// eight TLS 1.3 tickets per server).
const SESSIONS_PER_CLIENT: usize = 8;

/// The verifier of server certificates the runtime client uses for a non-empty `caBundle`,
/// for a rustls client of your own that calls extensions: webpki's verdict, held to Cluster
/// API's Go rules about the certificates of the bundle (see the [module documentation](super)).
/// Every PEM certificate of the bundle must decode and parse as X.509; a bundle without any is
/// a [`TlsError::CaBundle`].
pub fn ca_bundle_verifier(
    ca_bundle: &[u8],
) -> Result<Arc<dyn rustls::client::danger::ServerCertVerifier>, TlsError> {
    Ok(Arc::new(bundle_verifier(ca_bundle, crypto_provider())?))
}

/// [`ca_bundle_verifier`] with `provider`'s signature algorithms.
fn bundle_verifier(
    ca_bundle: &[u8],
    provider: Arc<rustls::crypto::CryptoProvider>,
) -> Result<BundleVerifier, TlsError> {
    let certs =
        pem::certificate_list(ca_bundle, "no PEM certificate found").map_err(TlsError::CaBundle)?;
    BundleVerifier::new(certs, provider).map_err(|e| TlsError::CaBundle(cause(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_without_certificates_is_an_error() {
        assert!(matches!(
            client_config(b"not a pem", None),
            Err(TlsError::CaBundle(_))
        ));
        assert!(matches!(
            client_config(
                b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
                None
            ),
            Err(TlsError::CaBundle(_))
        ));
        assert!(client_config(b"garbage", None).is_err());
    }

    #[test]
    fn an_identity_needs_a_certificate_and_a_key() {
        assert!(ClientIdentity::from_pem(b"", b"").is_err());
        let dir = std::path::Path::new("/nonexistent");
        let err = ClientIdentity::load(&dir.join("tls.crt"), &dir.join("tls.key")).unwrap_err();
        let TlsError::ClientIdentity { what, error, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(*what, "reading certificate");
        let io = error
            .downcast_ref::<std::io::Error>()
            .expect("the io error is kept");
        assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
        let source = std::error::Error::source(&err).expect("the io error is the source");
        assert_eq!(
            source.downcast_ref::<std::io::Error>().map(|e| e.kind()),
            Some(std::io::ErrorKind::NotFound)
        );
    }

    /// Handshakes `client` with `server` in memory, both ways until neither has anything to
    /// send (so the client has read the server's session tickets), and says how it went.
    fn handshake(
        client: &Arc<rustls::ClientConfig>,
        server: &Arc<rustls::ServerConfig>,
    ) -> rustls::HandshakeKind {
        fn pass(
            from: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl Sized>>,
            to: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl Sized>>,
        ) -> bool {
            let mut bytes = Vec::new();
            while from.wants_write() {
                from.write_tls(&mut bytes).unwrap();
            }
            let mut rest = &bytes[..];
            while !rest.is_empty() {
                to.read_tls(&mut rest).unwrap();
                to.process_new_packets().unwrap();
            }
            !bytes.is_empty()
        }
        let name = rustls_pki_types::ServerName::try_from("ext.example").unwrap();
        let mut c = rustls::ClientConnection::new(client.clone(), name).unwrap();
        let mut s = rustls::ServerConnection::new(server.clone()).unwrap();
        while pass(&mut c, &mut s) | pass(&mut s, &mut c) {}
        assert!(!c.is_handshaking());
        c.handshake_kind().unwrap()
    }

    #[test]
    fn a_client_resumes_its_session_with_the_one_server_it_calls() {
        let ca = capi_runtime_test_pki::TestCa::new("resumption-ca");
        let server = capi_runtime_test_pki::server_config(&ca.serving(&["ext.example"]), None);
        let client = Arc::new(client_config(ca.pem().as_bytes(), None).unwrap());
        assert_eq!(handshake(&client, &server), rustls::HandshakeKind::Full);
        for _ in 0..2 * SESSIONS_PER_CLIENT {
            assert_eq!(handshake(&client, &server), rustls::HandshakeKind::Resumed);
        }
    }

    #[test]
    fn a_bad_bundle_keeps_the_pem_error() {
        let err = client_config(
            b"-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n",
            None,
        )
        .unwrap_err();
        let TlsError::CaBundle(c) = &err else {
            panic!("{err}")
        };
        assert!(
            c.downcast_ref::<rustls_pki_types::pem::Error>().is_some(),
            "{err}"
        );
    }
}
