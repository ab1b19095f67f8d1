//! Trust anchors that expire, as Go's verifier treats them.
//!
//! rustls (through webpki) reduces a trust anchor to its subject and key and never looks at the
//! anchor's own validity dates; Go's `crypto/x509` checks every certificate of the chain it
//! builds, the root included, against the current time. So a `caBundle` whose CA has expired
//! (or is not valid yet) is accepted by a plain rustls client and refused by Cluster API's Go
//! client. This verifier follows Go: at each handshake it trusts only the anchors valid at that
//! moment, and when a chain only reaches an anchor that is out of its dates it fails with
//! rustls' expired / not-yet-valid error naming that anchor's dates.
//!
//! The dates are read with x509-parser. The rule itself is written here because no library
//! applies it as Go does: webpki, rustls' verifier, has no option to check an anchor's dates.

use std::sync::{Arc, Mutex};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use rustls_pki_types::{CertificateDer, ServerName, UnixTime};
use x509_parser::certificate::X509CertificateParser;
use x509_parser::nom::Parser;

/// One CA certificate of the bundle with its validity period (seconds since the Unix epoch).
#[derive(Debug, Clone)]
struct Anchor {
    der: CertificateDer<'static>,
    not_before: i64,
    not_after: i64,
}

impl Anchor {
    fn valid_at(&self, now: i64) -> bool {
        self.not_before <= now && now <= self.not_after
    }
}

/// A server-certificate verifier over a CA bundle whose anchors' dates count.
#[derive(Debug)]
pub(crate) struct DatedAnchors {
    anchors: Vec<Anchor>,
    provider: Arc<CryptoProvider>,
    /// The webpki verifier for the last set of valid anchors (it changes only when an anchor
    /// crosses one of its dates).
    cached: Mutex<Option<(Vec<bool>, Arc<WebPkiServerVerifier>)>>,
}

impl DatedAnchors {
    /// Reads the validity of every certificate of `certs`; fails on a certificate that does not
    /// parse, as building a root store would.
    pub(crate) fn new(
        certs: Vec<CertificateDer<'static>>,
        provider: Arc<CryptoProvider>,
    ) -> Result<Self, rustls::Error> {
        let mut anchors = Vec::with_capacity(certs.len());
        for der in certs {
            let (not_before, not_after) = validity(&der)
                .ok_or_else(|| rustls::Error::InvalidCertificate(CertificateError::BadEncoding))?;
            anchors.push(Anchor {
                der,
                not_before,
                not_after,
            });
        }
        let verifier = DatedAnchors {
            anchors,
            provider,
            cached: Mutex::new(None),
        };
        // Fails now, not at the first handshake, when webpki cannot use the anchors at all.
        verifier.webpki(&vec![true; verifier.anchors.len()])?;
        Ok(verifier)
    }

    fn webpki(&self, which: &[bool]) -> Result<Arc<WebPkiServerVerifier>, rustls::Error> {
        let mut guard = self.cached.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((set, verifier)) = guard.as_ref()
            && set == which
        {
            return Ok(verifier.clone());
        }
        let roots = super::pem::root_store(
            self.anchors
                .iter()
                .zip(which)
                .filter(|(_, keep)| **keep)
                .map(|(anchor, _)| anchor.der.clone()),
        )?;
        let verifier =
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), self.provider.clone())
                .build()
                .map_err(|e| rustls::Error::Other(rustls::OtherError(Arc::new(e))))?;
        *guard = Some((which.to_vec(), verifier.clone()));
        Ok(verifier)
    }
}

impl ServerCertVerifier for DatedAnchors {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seconds = i64::try_from(now.as_secs()).unwrap_or(i64::MAX);
        let valid: Vec<bool> = self.anchors.iter().map(|a| a.valid_at(seconds)).collect();
        let outcome = if valid.iter().any(|v| *v) {
            self.webpki(&valid)?.verify_server_cert(
                end_entity,
                intermediates,
                server_name,
                ocsp_response,
                now,
            )
        } else {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::UnknownIssuer,
            ))
        };
        match outcome {
            Err(rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer))
                if valid.iter().any(|v| !*v) =>
            {
                // Would an anchor out of its dates have completed the chain? Then say so, as Go
                // does, instead of "unknown issuer".
                let all = self.webpki(&vec![true; self.anchors.len()])?;
                all.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)?;
                let out_of_date = self
                    .anchors
                    .iter()
                    .find(|a| !a.valid_at(seconds))
                    .expect("one anchor is out of its dates");
                Err(rustls::Error::InvalidCertificate(
                    if seconds > out_of_date.not_after {
                        CertificateError::ExpiredContext {
                            time: now,
                            not_after: unix_time(out_of_date.not_after),
                        }
                    } else {
                        CertificateError::NotValidYetContext {
                            time: now,
                            not_before: unix_time(out_of_date.not_before),
                        }
                    },
                ))
            }
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

fn unix_time(seconds: i64) -> UnixTime {
    UnixTime::since_unix_epoch(std::time::Duration::from_secs(
        seconds.max(0).unsigned_abs(),
    ))
}

/// The `notBefore` and `notAfter` of a DER certificate, in seconds since the Unix epoch, as
/// x509-parser reads them (UTCTime and GeneralizedTime, as Go's `crypto/x509`). The contents
/// of extensions are not parsed: webpki judges those when it builds the chain.
fn validity(der: &[u8]) -> Option<(i64, i64)> {
    let (_, certificate) = X509CertificateParser::new()
        .with_deep_parse_extensions(false)
        .parse(der)
        .ok()?;
    let validity = certificate.validity();
    Some((
        validity.not_before.timestamp(),
        validity.not_after.timestamp(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ca(not_before: (i32, u8, u8), not_after: (i32, u8, u8)) -> CertificateDer<'static> {
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params.not_before = rcgen::date_time_ymd(not_before.0, not_before.1, not_before.2);
        params.not_after = rcgen::date_time_ymd(not_after.0, not_after.1, not_after.2);
        let key = rcgen::KeyPair::generate().unwrap();
        params.self_signed(&key).unwrap().der().clone()
    }

    #[test]
    fn validity_is_read_from_the_certificate() {
        // 2001-02-03 and 2049-12-31 (UTCTime) / 2051-01-01 (GeneralizedTime).
        let der = ca((2001, 2, 3), (2049, 12, 31));
        assert_eq!(validity(&der), Some((981_158_400, 2_524_521_600)));
        let der = ca((1999, 12, 31), (2051, 1, 1));
        assert_eq!(validity(&der), Some((946_598_400, 2_556_144_000)));
        assert_eq!(validity(b"\x30\x03\x02\x01\x00"), None);
        assert_eq!(validity(b""), None);
    }
}
