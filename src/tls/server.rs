//! Serving (feature `server`): the rustls configuration of the HTTPS host, from PEM texts.
//!
//! Where the texts come from (files, and watching them for changes) is the host's business
//! ([`crate::https`]); this only turns them into a configuration.

use std::path::Path;
use std::sync::Arc;

use rustls::server::WebPkiClientVerifier;

use super::{TlsError, alpn, cause, crypto_provider, pem};

/// A PEM text and the file it was read from (named by the errors).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pem<'a> {
    pub(crate) path: &'a Path,
    pub(crate) text: &'a [u8],
}

impl Pem<'_> {
    fn error(&self, error: crate::tls::Cause) -> TlsError {
        TlsError::Parse {
            path: self.path.to_path_buf(),
            error,
        }
    }
}

/// A serving configuration presenting the chain `cert` with its private key `key`, and, when
/// `client_ca` is set, requiring client certificates signed by one of its CAs.
pub(crate) fn server_config(
    cert: Pem<'_>,
    key: Pem<'_>,
    client_ca: Option<Pem<'_>>,
) -> Result<rustls::ServerConfig, TlsError> {
    let certs = pem::certificate_list(cert.text, "no CERTIFICATE block found")
        .map_err(|e| cert.error(e))?;
    let private_key = pem::private_key(key.text).map_err(|e| key.error(e))?;
    let provider = crypto_provider();
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::ServerConfig(cause(e)))?;
    let builder = match client_ca {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let cas = pem::certificates(ca.text).map_err(|e| ca.error(e))?;
            let roots = pem::root_store(cas).map_err(|e| ca.error(cause(e)))?;
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| TlsError::ServerConfig(cause(e)))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder
        .with_single_cert(certs, private_key)
        .map_err(|e| TlsError::ServerConfig(cause(e)))?;
    config.alpn_protocols = alpn();
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pem(text: &[u8]) -> Pem<'_> {
        Pem {
            path: Path::new("tls.crt"),
            text,
        }
    }

    #[test]
    fn a_file_without_a_certificate_names_the_file() {
        let err = server_config(pem(b"garbage"), pem(b"garbage"), None).unwrap_err();
        assert_eq!(err.to_string(), "failed to parse tls.crt");
        assert_eq!(
            crate::go::errors::chain(&err).to_string(),
            "failed to parse tls.crt: no CERTIFICATE block found"
        );
    }

    #[test]
    fn a_key_that_does_not_match_is_a_configuration_error() {
        let issued = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
        let other = rcgen::KeyPair::generate().unwrap();
        let cert = issued.cert.pem();
        let key = other.serialize_pem();
        let err = server_config(pem(cert.as_bytes()), pem(key.as_bytes()), None).unwrap_err();
        assert!(matches!(err, TlsError::ServerConfig(_)), "{err}");
        assert!(err.rustls_error().is_some(), "{err}");
        let key = issued.signing_key.serialize_pem();
        server_config(pem(cert.as_bytes()), pem(key.as_bytes()), None).unwrap();
    }
}
