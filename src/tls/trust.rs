//! The trust of a `caBundle`: webpki (rustls' verifier) decides, and a thin policy layer adds
//! the rules where Cluster API's Go client (Go's `crypto/x509`) refuses what webpki accepts or
//! accepts what webpki refuses on purpose.
//!
//! Every certificate of the bundle is a webpki trust anchor; webpki builds the chain from the
//! served leaf through the certificates the server sent up to one of them, checks signatures,
//! validity dates, basic constraints and path lengths of the intermediates, extended key usages
//! (server authentication when a certificate lists any), name constraints (the anchor's
//! included) and the host name. A path webpki verified is then held to Go's rules about the
//! certificates that signed it, which webpki does not look at:
//!
//! - a bundle certificate signs only if Go lets it: basic constraints with cA true (a version 1
//!   certificate has none and may sign; a version 3 one without them may not), and
//!   keyCertSign when it has a key usage; an intermediate needs keyCertSign too when it has a
//!   key usage (webpki ignores key usages). A refusal names the certificate, as Go's does:
//!   [`ChainError::UnknownAuthority`] caused by [`ChainError::CannotSign`];
//! - the bundle certificate counts only within its validity dates (webpki reduces an anchor to
//!   its name and key), and is refused with rustls' expired or not-yet-valid error otherwise;
//! - its path length constraint counts the intermediates below it
//!   ([`ChainError::TooManyIntermediates`]), a critical extension x509-parser does not know
//!   makes it unusable ([`ChainError::UnhandledCriticalExtension`]), and extended key usages
//!   without server authentication (or any usage) refuse the chain (rustls' invalid purpose).
//!
//! The policy only refuses paths webpki found, so nothing webpki refuses is accepted, with one
//! exception taken from Go: a served certificate byte-identical to a certificate of the bundle
//! is a chain of its own. It is accepted when it parses, is within its validity dates, allows
//! server authentication and is valid for the host; its basic constraints do not matter (the
//! usual self-signed `openssl req -x509` certificate, CA:TRUE, is accepted).
//!
//! Where webpki is stricter than Go (a CA:TRUE leaf under a bundle CA, `anyExtendedKeyUsage`,
//! among others), webpki's verdict stands; the book's client chapter lists every difference
//! `go_tls` finds.

use std::cell::RefCell;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::{CertificateError, DigitallySignedStruct, OtherError, SignatureScheme};
use rustls_pki_types::{CertificateDer, ServerName, TrustAnchor, UnixTime};
use webpki::{EndEntityCert, KeyUsage, VerifiedPath};
use x509_parser::certificate::X509Certificate;
use x509_parser::extensions::ParsedExtension;
use x509_parser::prelude::{FromDer, X509Version};

use super::refusal::ChainError;

/// What Go's verifier reads from one certificate of the bundle.
#[derive(Debug)]
struct BundleCert {
    der: CertificateDer<'static>,
    /// How Go names the certificate in an error.
    name: String,
    not_before: UnixTime,
    not_after: UnixTime,
    /// Whether Go lets it sign certificates (basic constraints and key usage).
    may_sign: bool,
    /// Its extended key usages allow server authentication (or it lists none).
    server_auth: bool,
    /// The path length constraint of its basic constraints.
    path_len: Option<u32>,
    /// A critical extension x509-parser does not know.
    unknown_critical: bool,
}

impl BundleCert {
    /// Reads `der`; `None` when x509-parser cannot.
    fn read(der: CertificateDer<'static>) -> Option<BundleCert> {
        let (_, x509) = X509Certificate::from_der(&der).ok()?;
        let basic = x509.basic_constraints().ok()?.map(|b| b.value.clone());
        let usage = x509.extended_key_usage().ok()?.map(|e| e.value.clone());
        let server_auth = usage.is_none_or(|e| {
            let others = e.client_auth
                || e.code_signing
                || e.email_protection
                || e.time_stamping
                || e.ocsp_signing
                || !e.other.is_empty();
            e.any || e.server_auth || !others
        });
        let unknown_critical = x509.extensions().iter().any(|e| {
            let parsed = e.parsed_extension();
            e.critical && matches!(parsed, ParsedExtension::UnsupportedExtension { .. })
        });
        let time = |t: &x509_parser::time::ASN1Time| unix_time(t.timestamp());
        Some(BundleCert {
            name: name_of(&x509),
            not_before: time(&x509.validity().not_before),
            not_after: time(&x509.validity().not_after),
            may_sign: may_sign(&x509)?,
            server_auth,
            path_len: basic.and_then(|b| b.path_len_constraint),
            unknown_critical,
            der,
        })
    }

    /// rustls' error when `now` is outside the certificate's validity dates.
    fn check_dates(&self, now: UnixTime) -> Result<(), CertificateError> {
        if now < self.not_before {
            Err(CertificateError::NotValidYetContext {
                time: now,
                not_before: self.not_before,
            })
        } else if now > self.not_after {
            Err(CertificateError::ExpiredContext {
                time: now,
                not_after: self.not_after,
            })
        } else {
            Ok(())
        }
    }

    /// Go's refusal of a path webpki verified up to this certificate, below which
    /// `intermediates` certificates sit.
    fn check_as_root(&self, intermediates: usize, now: UnixTime) -> Result<(), CertificateError> {
        if !self.may_sign {
            return Err(cannot_sign(&self.name));
        }
        if self.unknown_critical {
            return Err(go(ChainError::UnhandledCriticalExtension));
        }
        self.check_dates(now)?;
        if self
            .path_len
            .is_some_and(|max| intermediates > max as usize)
        {
            return Err(go(ChainError::TooManyIntermediates));
        }
        self.check_usage()
    }

    fn check_usage(&self) -> Result<(), CertificateError> {
        match self.server_auth {
            true => Ok(()),
            false => Err(CertificateError::InvalidPurpose),
        }
    }
}

/// Go's rule for an intermediate webpki took as an issuer: keyCertSign when it has a key
/// usage (webpki checked its basic constraints).
fn check_intermediate(der: &[u8]) -> Result<(), CertificateError> {
    let (_, x509) = X509Certificate::from_der(der).map_err(|_| CertificateError::BadEncoding)?;
    match may_sign(&x509) {
        Some(true) => Ok(()),
        _ => Err(cannot_sign(&name_of(&x509))),
    }
}

/// How Go names a certificate in an error: its common name, else its first organization, else
/// `serial:` and its serial number.
fn name_of(x509: &X509Certificate<'_>) -> String {
    let subject = x509.subject();
    subject
        .iter_common_name()
        .next()
        .or_else(|| subject.iter_organization().next())
        .and_then(|a| a.as_str().ok())
        .map_or_else(
            || format!("serial:{}", x509.tbs_certificate.serial),
            str::to_string,
        )
}

/// Go's rule for a certificate signing another: basic constraints with cA true (none at all
/// for a version 1 or 2 certificate) and keyCertSign when there is a key usage. `None` when
/// an extension is there twice.
fn may_sign(x509: &X509Certificate<'_>) -> Option<bool> {
    let ca = match x509.basic_constraints().ok()? {
        Some(basic) => basic.value.ca,
        None => x509.version().0 < X509Version::V3.0,
    };
    let usage = x509.key_usage().ok()?;
    Some(ca && usage.is_none_or(|u| u.value.key_cert_sign()))
}

/// Go's refusal as the rustls error it reaches the caller in.
fn go(e: ChainError) -> CertificateError {
    CertificateError::Other(OtherError(Arc::new(e)))
}

fn cannot_sign(name: &str) -> CertificateError {
    go(ChainError::UnknownAuthority {
        candidate: Some((name.to_string(), Box::new(ChainError::CannotSign))),
    })
}

fn unix_time(seconds: i64) -> UnixTime {
    UnixTime::since_unix_epoch(std::time::Duration::from_secs(
        seconds.max(0).unsigned_abs(),
    ))
}

/// A server-certificate verifier trusting a `caBundle` (see the module documentation).
#[derive(Debug)]
pub(crate) struct BundleVerifier {
    bundle: Vec<BundleCert>,
    /// The trust anchors, each with the index of its certificate in `bundle`.
    anchors: Vec<TrustAnchor<'static>>,
    anchor_of: Vec<usize>,
    provider: Arc<CryptoProvider>,
}

impl BundleVerifier {
    /// Reads every certificate of `certs`; fails on one x509-parser cannot read. A certificate
    /// webpki cannot use as an anchor is not one (it may still be served as it is).
    pub(crate) fn new(
        certs: Vec<CertificateDer<'static>>,
        provider: Arc<CryptoProvider>,
    ) -> Result<Self, rustls::Error> {
        let mut verifier = BundleVerifier {
            bundle: Vec::with_capacity(certs.len()),
            anchors: Vec::new(),
            anchor_of: Vec::new(),
            provider,
        };
        for der in certs {
            if let Ok(anchor) = webpki::anchor_from_trusted_cert(&der) {
                verifier.anchors.push(anchor.to_owned());
                verifier.anchor_of.push(verifier.bundle.len());
            }
            let cert = BundleCert::read(der).ok_or(CertificateError::BadEncoding)?;
            verifier.bundle.push(cert);
        }
        Ok(verifier)
    }

    /// Go's rules for a path webpki verified, from the leaf's issuer up (see the module
    /// documentation). A refusal makes webpki try another path; the first one is kept in
    /// `refused`, to be reported if no path is left.
    fn check_path(
        &self,
        path: &VerifiedPath<'_>,
        now: UnixTime,
        refused: &RefCell<Option<CertificateError>>,
    ) -> Result<(), webpki::Error> {
        let anchor = self
            .anchors
            .iter()
            .position(|a| std::ptr::eq(a, path.anchor()));
        let root = &self.bundle[self.anchor_of[anchor.ok_or(webpki::Error::UnknownIssuer)?]];
        let intermediates: Vec<_> = path.intermediate_certificates().collect();
        let verdict = intermediates
            .iter()
            .try_for_each(|c| check_intermediate(&c.der()))
            .and_then(|()| root.check_as_root(intermediates.len(), now));
        verdict.map_err(|e| {
            refused.borrow_mut().get_or_insert(e);
            webpki::Error::UnknownIssuer
        })
    }

    /// The verdict on `leaf` (and the certificates the server sent with it) for `host`.
    fn verify(
        &self,
        leaf: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        host: &ServerName<'_>,
        now: UnixTime,
    ) -> Result<(), rustls::Error> {
        let end_entity = EndEntityCert::try_from(leaf).map_err(rustls_error)?;
        if let Some(cert) = self.bundle.iter().find(|c| c.der.as_ref() == leaf.as_ref()) {
            // Go trusts a certificate of the pool as a chain of its own.
            cert.check_dates(now)?;
            cert.check_usage()?;
        } else {
            let refused = RefCell::new(None);
            let policy = |path: &VerifiedPath<'_>| self.check_path(path, now, &refused);
            end_entity
                .verify_for_usage(
                    self.provider.signature_verification_algorithms.all,
                    &self.anchors,
                    intermediates,
                    now,
                    KeyUsage::server_auth(),
                    None,
                    Some(&policy),
                )
                // A path webpki verified and Go's rules refused says more than the errors of
                // the paths webpki gave up on.
                .map_err(|e| refused.take().map_or_else(|| rustls_error(e), Into::into))?;
        }
        end_entity
            .verify_is_valid_for_subject_name(host)
            .map_err(rustls_error)
    }
}

/// webpki's refusal as rustls reports it (rustls' own mapping is private): the kinds rustls
/// names keep their variant, the rest are `CertificateError::Other`.
fn rustls_error(e: webpki::Error) -> rustls::Error {
    use webpki::Error as E;
    rustls::Error::InvalidCertificate(match e {
        E::BadDer | E::BadDerTime | E::TrailingData(_) => CertificateError::BadEncoding,
        E::CertExpired { time, not_after } => CertificateError::ExpiredContext { time, not_after },
        E::CertNotValidYet { time, not_before } => {
            CertificateError::NotValidYetContext { time, not_before }
        }
        E::InvalidCertValidity => CertificateError::Expired,
        E::UnknownIssuer => CertificateError::UnknownIssuer,
        E::CertNotValidForName(name) => CertificateError::NotValidForNameContext {
            expected: name.expected,
            presented: name.presented,
        },
        E::InvalidSignatureForPublicKey => CertificateError::BadSignature,
        E::RequiredEkuNotFoundContext(_) => CertificateError::InvalidPurpose,
        other => CertificateError::Other(OtherError(Arc::new(other))),
    })
}

impl ServerCertVerifier for BundleVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.verify(end_entity, intermediates, server_name, now)
            .map(|()| ServerCertVerified::assertion())
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

#[cfg(test)]
mod tests;
