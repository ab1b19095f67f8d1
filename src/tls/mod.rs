//! TLS for both directions (feature `client` or `server`): PEM parsing, the rustls
//! configurations, and the one error type they report, [`TlsError`].
//!
//! The HTTPS host (`https`, feature `server`) serves a certificate chain and key read
//! from PEM files and may require client certificates signed by a CA file. The runtime client
//! (`client`, feature `client`) trusts exactly an ExtensionConfig's `caBundle` and may present a
//! client certificate. The bundle's verifier (`trust`, [`ca_bundle_verifier`]) is rustls'
//! webpki with a thin layer of Cluster API's Go rules where Go refuses more (a bundle
//! certificate signs only if it is a CA, and counts only within its validity dates) and where
//! Go accepts a certificate webpki refuses (one that is itself in the bundle is trusted as it
//! is); a refusal of that layer is a [`ChainError`]. Both sides read their PEM here, by the
//! same rules: every PEM block of the expected kind must decode, and a certificate text
//! without any certificate is refused.
//!
//! Every configuration uses the ring crypto provider explicitly, so the library works whether
//! or not the process installed a default provider. Both sides offer HTTP/2 and HTTP/1.1 by
//! ALPN and speak TLS 1.2 and 1.3 only.

#[cfg(feature = "client")]
mod client;
mod pem;
#[cfg(feature = "client")]
mod refusal;
#[cfg(feature = "server")]
mod server;
#[cfg(feature = "client")]
mod trust;

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use rustls::crypto::CryptoProvider;

#[cfg(feature = "client")]
pub use client::ca_bundle_verifier;
#[cfg(feature = "client")]
pub(crate) use client::{ClientIdentity, client_config};
#[cfg(feature = "client")]
pub use refusal::ChainError;
#[cfg(feature = "server")]
pub(crate) use server::{Pem, server_config};

/// A cause kept as a value: any error, shared so that the errors holding it stay `Clone`.
pub type Cause = Arc<dyn std::error::Error + Send + Sync>;

/// `e` as a [`Cause`].
pub(crate) fn cause(e: impl std::error::Error + Send + Sync + 'static) -> Cause {
    Arc::new(e)
}

/// A cause that is only a message (nothing below it failed).
pub(crate) fn message(text: impl Into<String>) -> Cause {
    Arc::from(Box::<dyn std::error::Error + Send + Sync>::from(
        text.into(),
    ))
}

/// Why a TLS configuration (serving or calling) or an HTTP client could not be built.
///
/// The variants say which side they come from. Each shows its own layer and returns its cause
/// (an I/O error, a PEM error, the rustls or reqwest error, or a message) as its
/// [`source`](std::error::Error::source); the one-line text Cluster API would show is
/// [`chain(&err)`](crate::go::errors::chain). [`TlsError::rustls_error`] finds the rustls
/// error behind any of them.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum TlsError {
    /// Serving: a certificate, key or client CA file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: Arc<io::Error>,
    },
    /// Serving: a file holds no usable PEM item of the expected kind.
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong (a PEM error, a certificate the trust store refuses, or a message).
        error: Cause,
    },
    /// Serving: rustls refused the certificate, the key or the client CA.
    ServerConfig(Cause),
    /// Calling: the ExtensionConfig's `caBundle` holds no usable certificate.
    CaBundle(Cause),
    /// Calling: rustls refused the client configuration.
    ClientConfig(Cause),
    /// Calling: the client certificate or key file could not be read or parsed.
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
    /// Calling: reqwest refused to build a client (the cause is the `reqwest::Error`).
    HttpClient(Cause),
}

impl std::fmt::Display for TlsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TlsError::Read { path, .. } => write!(f, "failed to read {}", path.display()),
            TlsError::Parse { path, .. } => write!(f, "failed to parse {}", path.display()),
            TlsError::ServerConfig(_) => f.write_str("invalid TLS configuration"),
            TlsError::CaBundle(_) => {
                f.write_str("failed to create tls config: unable to load root certificates")
            }
            TlsError::ClientConfig(_) => f.write_str("failed to create tls config"),
            TlsError::ClientIdentity {
                cert_file,
                key_file,
                what,
                ..
            } => write!(
                f,
                "failed to load client certificate from {cert_file:?} and key from {key_file:?}: {what}"
            ),
            TlsError::HttpClient(_) => f.write_str("failed to create http client"),
        }
    }
}

impl std::error::Error for TlsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            TlsError::Read { source, .. } => &**source,
            TlsError::Parse { error: c, .. }
            | TlsError::ServerConfig(c)
            | TlsError::CaBundle(c)
            | TlsError::ClientConfig(c)
            | TlsError::ClientIdentity { error: c, .. }
            | TlsError::HttpClient(c) => &**c,
        })
    }
}

impl TlsError {
    /// The rustls error behind this one, if rustls refused something.
    pub fn rustls_error(&self) -> Option<&rustls::Error> {
        find_in_chain(self)
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
        next = match e.downcast_ref::<io::Error>().and_then(io::Error::get_ref) {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    None
}

/// The crypto provider of every TLS configuration this crate builds: ring's, with its key
/// exchange groups in a fixed order of preference (X25519, P-256, P-384).
///
/// A program that also makes TLS connections of its own, or installs a process-wide default
/// (`crypto_provider().as_ref().clone().install_default()`), can use it to agree with the SDK.
///
/// rustls 0.23.48 deprecates `ring::default_provider` (ring has no post-quantum key exchange)
/// and moves P-384 to the front of its groups; its replacement is the aws-lc-rs provider, which
/// needs a C toolchain (and cmake on some platforms) to build. Ring stays the deliberate choice,
/// so the deprecation is allowed here, once, and the groups are named rather than taken from
/// the default, so that a build against any 0.23 release behaves the same and stays free of
/// warnings.
#[allow(deprecated)]
pub fn crypto_provider() -> Arc<CryptoProvider> {
    use rustls::crypto::ring::{default_provider, kx_group};
    let mut provider = default_provider();
    provider.kx_groups = vec![kx_group::X25519, kx_group::SECP256R1, kx_group::SECP384R1];
    Arc::new(provider)
}

/// The ALPN protocols both sides offer, most preferred first.
fn alpn() -> Vec<Vec<u8>> {
    vec![b"h2".to_vec(), b"http/1.1".to_vec()]
}
