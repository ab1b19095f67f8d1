//! TLS for calls to extensions: which certificates are trusted and which client certificate
//! is shown.
//!
//! Every configuration uses the ring crypto provider explicitly, so the library works whether
//! or not the process installed a default provider. The server name is the host of the URL
//! being called (reqwest passes it to rustls), so a service reference is verified against its
//! `<name>.<namespace>.svc` name and an IP address against the certificate's IP SANs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::anchors::DatedAnchors;
use rustls::crypto::CryptoProvider;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// A cause kept as a value: any error, shared so that the errors holding it stay `Clone`.
pub type Cause = Arc<dyn std::error::Error + Send + Sync>;

pub(crate) fn cause(e: impl std::error::Error + Send + Sync + 'static) -> Cause {
    Arc::new(e)
}

/// A cause that is only a message (nothing below it failed).
pub(crate) fn message(text: impl Into<String>) -> Cause {
    Arc::from(Box::<dyn std::error::Error + Send + Sync>::from(
        text.into(),
    ))
}

/// Why a TLS configuration or HTTP client could not be built.
///
/// The messages carry their causes; the causes are kept as values in the variants (and are
/// not also returned by [`source`](std::error::Error::source), so a chain reporter prints
/// each once).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum TlsError {
    /// The ExtensionConfig's `caBundle` holds no usable certificate.
    #[error("failed to create tls config: unable to load root certificates: {0}")]
    CaBundle(Cause),
    /// rustls refused the configuration.
    #[error("failed to create tls config: {0}")]
    Config(Cause),
    /// The client certificate or key file could not be read or parsed.
    #[error(
        "failed to load client certificate from {cert_file:?} and key from {key_file:?}: {what}: {error}"
    )]
    ClientIdentity {
        /// The certificate file.
        cert_file: PathBuf,
        /// The key file.
        key_file: PathBuf,
        /// Which step failed (`reading certificate`, `invalid private key PEM`, ...).
        what: &'static str,
        /// Why.
        error: Cause,
    },
    /// reqwest refused to build a client.
    #[error("failed to create http client: {0}")]
    HttpClient(Arc<reqwest::Error>),
}

impl TlsError {
    /// The rustls error behind this one, if rustls refused something.
    pub fn rustls_error(&self) -> Option<&rustls::Error> {
        let cause: &(dyn std::error::Error + 'static) = match self {
            TlsError::CaBundle(c)
            | TlsError::Config(c)
            | TlsError::ClientIdentity { error: c, .. } => &**c,
            TlsError::HttpClient(e) => &**e,
        };
        find_in_chain(cause)
    }
}

/// The first error of type `T` in the chain starting at `error`.
pub(crate) fn find_in_chain<'a, T: std::error::Error + 'static>(
    error: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(t) = e.downcast_ref::<T>() {
            return Some(t);
        }
        // An I/O error's `source` skips the error it wraps; look at that one too.
        next = match e
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
        {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    None
}

/// Why a client identity (certificate and key) could not be used.
#[derive(Debug)]
pub(crate) struct IdentityProblem {
    pub(crate) what: &'static str,
    pub(crate) error: Cause,
}

/// Wraps an error of the step `what` into an [`IdentityProblem`].
fn problem<E: std::error::Error + Send + Sync + 'static>(
    what: &'static str,
) -> impl FnOnce(E) -> IdentityProblem {
    move |e| IdentityProblem {
        what,
        error: cause(e),
    }
}

/// The crypto provider of every TLS configuration this crate builds.
pub(crate) fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
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
        let chain = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(problem("invalid certificate PEM"))?;
        if chain.is_empty() {
            return Err(IdentityProblem {
                what: "invalid certificate PEM",
                error: message("no certificate found"),
            });
        }
        let key =
            PrivateKeyDer::from_pem_slice(key_pem).map_err(problem("invalid private key PEM"))?;
        // Checks that the key is usable and belongs to the certificate, so that a half-rotated
        // pair is refused here rather than at the next handshake.
        rustls::sign::CertifiedKey::from_der(chain.clone(), key.clone_key(), &provider())
            .map_err(problem("unusable certificate and key"))?;
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

/// The certificates of a non-empty `caBundle`; every PEM certificate in it must parse.
fn bundle_certificates(ca_bundle: &[u8]) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let certs = CertificateDer::pem_slice_iter(ca_bundle)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::CaBundle(cause(e)))?;
    if certs.is_empty() {
        return Err(TlsError::CaBundle(message("no PEM certificate found")));
    }
    Ok(certs)
}

/// A rustls client configuration that trusts exactly `ca_bundle` (or, when it is empty, the
/// platform's roots) and presents `identity` when set. TLS 1.2 and 1.3 only; ALPN offers
/// HTTP/2 and HTTP/1.1.
pub(crate) fn client_config(
    ca_bundle: &[u8],
    identity: Option<&ClientIdentity>,
) -> Result<rustls::ClientConfig, TlsError> {
    let provider = provider();
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(cause(e)))?;
    let builder = if ca_bundle.is_empty() {
        let verifier = rustls_platform_verifier::Verifier::new(provider)
            .map_err(|e| TlsError::Config(cause(e)))?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
    } else {
        // The bundle's CAs count only while they are within their validity dates, as in Go's
        // verifier (see `anchors`); webpki alone would trust an expired CA.
        let verifier = DatedAnchors::new(bundle_certificates(ca_bundle)?, provider)
            .map_err(|e| TlsError::CaBundle(cause(e)))?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
    };
    let mut config = match identity {
        Some(id) => builder
            .with_client_auth_cert(id.chain.clone(), id.key.clone_key())
            .map_err(|e| TlsError::Config(cause(e)))?,
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
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
        assert!(
            std::error::Error::source(&err).is_none(),
            "the message already has it"
        );
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
