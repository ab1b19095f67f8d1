//! PEM texts: certificate chains, CA bundles and private keys.
//!
//! Only blocks of the kind asked for are read (a key in a certificate file is passed over),
//! and a block of that kind that does not decode is an error rather than being passed over.
//! The errors are rustls-pki-types' PEM errors, kept as values in the [`Cause`].

#[cfg(feature = "server")]
use rustls::RootCertStore;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use super::{Cause, cause, message};

/// Every certificate of `pem`, in order (none when it has none).
pub(crate) fn certificates(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, Cause> {
    CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(cause)
}

/// Every certificate of `pem`, which must have at least one; `none` is the message when it
/// has none.
pub(crate) fn certificate_list(
    pem: &[u8],
    none: &'static str,
) -> Result<Vec<CertificateDer<'static>>, Cause> {
    let certs = certificates(pem)?;
    if certs.is_empty() {
        return Err(message(none));
    }
    Ok(certs)
}

/// The first private key of `pem` (PKCS#8, PKCS#1 or SEC1).
pub(crate) fn private_key(pem: &[u8]) -> Result<PrivateKeyDer<'static>, Cause> {
    PrivateKeyDer::from_pem_slice(pem).map_err(cause)
}

/// A trust store of `certs`; fails on the first certificate webpki cannot use as an anchor.
#[cfg(feature = "server")]
pub(crate) fn root_store(
    certs: impl IntoIterator<Item = CertificateDer<'static>>,
) -> Result<RootCertStore, rustls::Error> {
    let mut roots = RootCertStore::empty();
    for cert in certs {
        roots.add(cert)?;
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_without_certificates_has_none() {
        assert!(certificates(b"not a pem").unwrap().is_empty());
        let err = certificate_list(b"", "no certificate found").unwrap_err();
        assert_eq!(err.to_string(), "no certificate found");
    }

    #[test]
    fn a_block_that_does_not_decode_is_an_error() {
        let err = certificates(b"-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n")
            .unwrap_err();
        assert!(err.downcast_ref::<rustls_pki_types::pem::Error>().is_some());
        assert!(private_key(b"no key here").is_err());
    }
}
