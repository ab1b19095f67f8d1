//! [`ChainError`]: why the runtime client refused a server's certificate chain, in the terms
//! of Go's `crypto/x509`, and the rustls error it becomes.

use std::sync::Arc;

use rustls::CertificateError;
use rustls_pki_types::{ServerName, UnixTime};

/// Why a server's certificate chain is not trusted: the refusal of Go's `crypto/x509`, in its
/// words (each variant names the Go error it stands for).
///
/// It reaches the caller inside `rustls::CertificateError::Other`, which rustls writes with
/// `Debug`; so `Debug` writes what `Display` does, followed by the cause, as Go's text does
/// (`x509: certificate signed by unknown authority (...): x509: invalid signature: parent
/// certificate cannot sign this kind of certificate`).
#[derive(Clone)]
#[non_exhaustive]
pub enum ChainError {
    /// No chain reaches the bundle (Go's `UnknownAuthorityError`). `candidate` is the first
    /// certificate that could have issued one of the chain and was refused, with the reason
    /// (the error's source).
    UnknownAuthority {
        /// The refused issuer's name (common name, organization or serial) and why.
        candidate: Option<(String, Box<ChainError>)>,
    },
    /// A would-be issuer may not sign certificates: a version 3 certificate without basic
    /// constraints, cA false, or a key usage without keyCertSign (Go's
    /// `ConstraintViolationError`).
    CannotSign,
    /// The signature does not verify with the issuer's key.
    BadSignature,
    /// The signature algorithm (or the issuer's key type) is not supported.
    UnsupportedAlgorithm,
    /// An intermediate is not a CA (Go's `NotAuthorizedToSign`).
    NotAuthorizedToSign,
    /// A certificate of the chain is out of its validity dates (Go's `Expired`).
    Expired {
        /// The certificate's name.
        certificate: String,
        /// The time of the verdict, seconds since the Unix epoch.
        now: i64,
        /// Its notBefore.
        not_before: i64,
        /// Its notAfter.
        not_after: i64,
    },
    /// A path length constraint counts more intermediates below it.
    TooManyIntermediates,
    /// The leaf, an intermediate or the bundle's certificate lists extended key usages
    /// without server authentication (or any usage).
    IncompatibleUsage,
    /// A name is outside the name constraints of a certificate above it (the text says which).
    NameConstraints(String),
    /// A certificate carries a critical extension Go does not know.
    UnhandledCriticalExtension,
    /// The host is none of the leaf's subject alternative names.
    Hostname {
        /// The host.
        host: String,
        /// The leaf's DNS names and IP addresses.
        presented: Vec<String>,
    },
    /// Chain building gave up after 100 signature checks (as Go does).
    SignatureLimit,
    /// Every chain holds a certificate that requires an explicit certificate policy, which
    /// this verifier does not evaluate.
    ExplicitPolicy,
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
            ChainError::BadSignature => f.write_str("x509: invalid signature"),
            ChainError::UnsupportedAlgorithm => {
                f.write_str("x509: cannot verify signature: algorithm unimplemented")
            }
            ChainError::NotAuthorizedToSign => {
                f.write_str("x509: certificate is not authorized to sign other certificates")
            }
            ChainError::Expired {
                certificate,
                now,
                not_before,
                not_after,
            } => {
                let (relation, bound) = if now < not_before {
                    ("before", not_before)
                } else {
                    ("after", not_after)
                };
                write!(
                    f,
                    "x509: certificate has expired or is not yet valid: current time {} is {relation} {} (certificate {certificate:?})",
                    rfc3339(*now),
                    rfc3339(*bound)
                )
            }
            ChainError::TooManyIntermediates => {
                f.write_str("x509: too many intermediates for path length constraint")
            }
            ChainError::IncompatibleUsage => {
                f.write_str("x509: certificate specifies an incompatible key usage")
            }
            ChainError::NameConstraints(detail) => write!(
                f,
                "x509: a root or intermediate certificate is not authorized to sign for this name: {detail}"
            ),
            ChainError::UnhandledCriticalExtension => f.write_str("x509: unhandled critical extension"),
            ChainError::Hostname { host, presented } if presented.is_empty() => write!(
                f,
                "x509: certificate is not valid for any names, but wanted to match {host}"
            ),
            ChainError::Hostname { host, presented } => write!(
                f,
                "x509: certificate is valid for {}, not {host}",
                presented.join(", ")
            ),
            ChainError::SignatureLimit => f.write_str(
                "x509: signature check attempts limit reached while verifying certificate chain",
            ),
            ChainError::ExplicitPolicy => f.write_str(
                "x509: a certificate of the chain requires an explicit policy, which is not evaluated",
            ),
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

/// `seconds` as RFC 3339 in UTC (Go's `time.RFC3339` for a UTC time).
fn rfc3339(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

impl ChainError {
    /// The rustls error the handshake fails with.
    pub(crate) fn into_rustls(self, server_name: &ServerName<'_>, now: UnixTime) -> rustls::Error {
        let unix = |s: i64| {
            UnixTime::since_unix_epoch(std::time::Duration::from_secs(s.max(0).unsigned_abs()))
        };
        rustls::Error::InvalidCertificate(match self {
            ChainError::UnknownAuthority { candidate: None } => CertificateError::UnknownIssuer,
            ChainError::Expired {
                now: time,
                not_before,
                ..
            } if time < not_before => CertificateError::NotValidYetContext {
                time: now,
                not_before: unix(not_before),
            },
            ChainError::Expired { not_after, .. } => CertificateError::ExpiredContext {
                time: now,
                not_after: unix(not_after),
            },
            ChainError::Hostname { presented, .. } => CertificateError::NotValidForNameContext {
                expected: server_name.to_owned(),
                presented,
            },
            ChainError::IncompatibleUsage => CertificateError::InvalidPurpose,
            other => CertificateError::Other(rustls::OtherError(Arc::new(other))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_go_writes_them() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(981_158_400), "2001-02-03T00:00:00Z");
        assert_eq!(rfc3339(1_906_502_399), "2030-05-31T23:59:59Z");
    }
}
