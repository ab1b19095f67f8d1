//! [`ChainError`]: the refusals of the `caBundle` verifier's Go policy, in Go's words.

/// Why a server's certificate chain is not trusted where Go's `crypto/x509` refuses a chain
/// that webpki verified, in Go's words (each variant names the Go error it stands for).
///
/// webpki's own refusals stay rustls' `CertificateError` variants (unknown issuer, bad
/// signature, expired or not yet valid, not valid for the name, invalid purpose, or `Other`
/// holding webpki's error). A `ChainError` reaches the caller inside
/// `rustls::CertificateError::Other`, which rustls writes with `Debug`; so `Debug` writes what
/// `Display` does, followed by the cause, as Go's text does (`x509: certificate signed by
/// unknown authority (...): x509: invalid signature: parent certificate cannot sign this kind
/// of certificate`).
#[derive(Clone)]
#[non_exhaustive]
pub enum ChainError {
    /// No chain reaches the bundle (Go's `UnknownAuthorityError`). `candidate` is the first
    /// certificate that signed one of the chain and was refused, with the reason (the error's
    /// source).
    UnknownAuthority {
        /// The refused issuer's name (common name, organization or serial) and why.
        candidate: Option<(String, Box<ChainError>)>,
    },
    /// An issuer may not sign certificates: a version 3 certificate without basic constraints,
    /// cA false, or a key usage without keyCertSign (Go's `ConstraintViolationError`).
    CannotSign,
    /// The path length constraint of the bundle's certificate counts fewer intermediates than
    /// the chain has.
    TooManyIntermediates,
    /// The bundle's certificate carries a critical extension Go does not know.
    UnhandledCriticalExtension,
}

impl std::fmt::Display for ChainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChainError::UnknownAuthority { candidate: None } => {
                f.write_str("x509: certificate signed by unknown authority")
            }
            ChainError::UnknownAuthority {
                candidate: Some((name, _)),
            } => write!(
                f,
                "x509: certificate signed by unknown authority (candidate authority certificate {name:?} refused)"
            ),
            ChainError::CannotSign => f.write_str(
                "x509: invalid signature: parent certificate cannot sign this kind of certificate",
            ),
            ChainError::TooManyIntermediates => {
                f.write_str("x509: too many intermediates for path length constraint")
            }
            ChainError::UnhandledCriticalExtension => {
                f.write_str("x509: unhandled critical extension")
            }
        }
    }
}

impl std::fmt::Debug for ChainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")?;
        if let ChainError::UnknownAuthority {
            candidate: Some((_, why)),
        } = self
        {
            write!(f, ": {why:?}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ChainError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ChainError::UnknownAuthority {
                candidate: Some((_, why)),
            } => Some(&**why),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_writes_the_text_and_its_cause_as_go_does() {
        let e = ChainError::UnknownAuthority {
            candidate: Some(("bundle-ca".into(), Box::new(ChainError::CannotSign))),
        };
        assert_eq!(
            format!("{e:?}"),
            "x509: certificate signed by unknown authority (candidate authority certificate \
             \"bundle-ca\" refused): x509: invalid signature: parent certificate cannot sign \
             this kind of certificate"
        );
        assert!(std::error::Error::source(&e).is_some());
        assert!(std::error::Error::source(&ChainError::CannotSign).is_none());
    }
}
