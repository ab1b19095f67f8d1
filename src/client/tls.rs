//! TLS for calls to extensions: which certificates are trusted and which client certificate
//! is shown.
//!
//! Every configuration uses the ring crypto provider explicitly, so the library works whether
//! or not the process installed a default provider. The server name is the host of the URL
//! being called (reqwest passes it to rustls), so a service reference is verified against its
//! `<name>.<namespace>.svc` name and an IP address against the certificate's IP SANs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// Why a TLS configuration or HTTP client could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TlsError {
    /// The ExtensionConfig's `caBundle` holds no usable certificate.
    #[error("failed to create tls config: unable to load root certificates: {0}")]
    CaBundle(String),
    /// rustls refused the configuration.
    #[error("failed to create tls config: {0}")]
    Config(String),
    /// The client certificate or key file could not be read or parsed.
    #[error(
        "failed to load client certificate from {cert_file:?} and key from {key_file:?}: {reason}"
    )]
    ClientIdentity {
        /// The certificate file.
        cert_file: PathBuf,
        /// The key file.
        key_file: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// reqwest refused to build a client.
    #[error("failed to create http client: {0}")]
    HttpClient(String),
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
    pub(crate) fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Self, String> {
        let chain = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("invalid certificate PEM: {e}"))?;
        if chain.is_empty() {
            return Err("no certificate found".to_string());
        }
        let key = PrivateKeyDer::from_pem_slice(key_pem)
            .map_err(|e| format!("invalid private key PEM: {e}"))?;
        // Checks that the key is usable and belongs to the certificate, so that a half-rotated
        // pair is refused here rather than at the next handshake.
        rustls::sign::CertifiedKey::from_der(chain.clone(), key.clone_key(), &provider())
            .map_err(|e| format!("unusable certificate and key: {e}"))?;
        Ok(ClientIdentity { chain, key })
    }

    /// Reads the certificate and key files.
    pub(crate) fn load(cert_file: &Path, key_file: &Path) -> Result<Self, TlsError> {
        let err = |reason: String| TlsError::ClientIdentity {
            cert_file: cert_file.to_path_buf(),
            key_file: key_file.to_path_buf(),
            reason,
        };
        let cert =
            std::fs::read(cert_file).map_err(|e| err(format!("reading certificate: {e}")))?;
        let key = std::fs::read(key_file).map_err(|e| err(format!("reading key: {e}")))?;
        Self::from_pem(&cert, &key).map_err(err)
    }
}

/// The trust anchors of a non-empty `caBundle`; every PEM certificate in it must parse.
pub(crate) fn root_store(ca_bundle: &[u8]) -> Result<RootCertStore, TlsError> {
    let certs = CertificateDer::pem_slice_iter(ca_bundle)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::CaBundle(e.to_string()))?;
    if certs.is_empty() {
        return Err(TlsError::CaBundle("no PEM certificate found".to_string()));
    }
    let mut store = RootCertStore::empty();
    for cert in certs {
        store
            .add(cert)
            .map_err(|e| TlsError::CaBundle(e.to_string()))?;
    }
    Ok(store)
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
        .map_err(|e| TlsError::Config(e.to_string()))?;
    let builder = if ca_bundle.is_empty() {
        let verifier = rustls_platform_verifier::Verifier::new(provider)
            .map_err(|e| TlsError::Config(e.to_string()))?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
    } else {
        let verifier =
            WebPkiServerVerifier::builder_with_provider(Arc::new(root_store(ca_bundle)?), provider)
                .build()
                .map_err(|e| TlsError::Config(e.to_string()))?;
        builder.with_webpki_verifier(verifier)
    };
    let mut config = match identity {
        Some(id) => builder
            .with_client_auth_cert(id.chain.clone(), id.key.clone_key())
            .map_err(|e| TlsError::Config(e.to_string()))?,
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
            root_store(b"not a pem"),
            Err(TlsError::CaBundle(_))
        ));
        assert!(matches!(
            root_store(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
            Err(TlsError::CaBundle(_))
        ));
        assert!(client_config(b"garbage", None).is_err());
    }

    #[test]
    fn an_identity_needs_a_certificate_and_a_key() {
        assert!(ClientIdentity::from_pem(b"", b"").is_err());
    }
}
