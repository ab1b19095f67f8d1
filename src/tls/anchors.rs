//! The trust of a `caBundle`, decided as Cluster API's Go client decides it.
//!
//! Cluster API's runtime client verifies an extension's serving certificate with Go's
//! `crypto/x509` (`Certificate.Verify`, called by `crypto/tls` with the bundle as the only root
//! pool, the rest of the server's chain as intermediates, the URL's host as the name and server
//! authentication as the usage). This verifier follows the same steps, so that a chain Cluster
//! API accepts is accepted here and one it refuses is refused:
//!
//! 1. The leaf must be within its validity dates, and carry no critical extension Go does not
//!    know; the host must be one of its subject alternative names (an address against the IP
//!    SANs, IPv4 written either way; a DNS name case-insensitively, `*` standing for one whole
//!    first label; the common name is not looked at).
//! 2. A leaf that is itself in the bundle is a chain of its own: nothing signs it, and its
//!    basic constraints do not matter (the usual self-signed `openssl req -x509` certificate,
//!    CA:TRUE, served and put in the bundle, is accepted).
//! 3. Otherwise chains are built from the leaf up to a certificate of the bundle through the
//!    certificates the server sent, trying each possible issuer in turn. An issuer must be
//!    allowed to sign: basic constraints with cA true (a version 1 certificate has none and
//!    may sign) and, when it has a key usage, keyCertSign; its signature must verify. Every
//!    certificate of the chain, the bundle's included, must be within its validity dates and
//!    free of unknown critical extensions; the ones in between must be CAs, and a path length
//!    constraint counts the intermediates below it. The leaf's own basic constraints are not
//!    looked at: a CA:TRUE leaf signed by a bundle CA is accepted, as in Go.
//! 4. A chain counts when each of its certificates that lists extended key usages allows
//!    server authentication (or any usage), the bundle's certificate included, and when the
//!    names of each certificate are within the name constraints (DNS, IP, email, URI) of every
//!    certificate above it.
//!
//! When nothing is left the error says why, as Go's does: the certificate that could have
//! signed and why it could not ([`ChainError::UnknownAuthority`] with its cause, e.g. a bundle
//! CA marked CA:FALSE is [`ChainError::CannotSign`]), an expired or not yet valid certificate,
//! the name, the usage or the name constraint. The error reaches the caller as rustls'
//! certificate error: expired, not valid yet, unknown issuer (no candidate issuer at all),
//! not valid for the name and invalid purpose in rustls' own terms, the others as
//! `CertificateError::Other` holding the [`ChainError`].
//!
//! What is not Go's: signatures are checked with the ring provider's algorithms, so an
//! ECDSA P-521 key, RSA keys under 2048 bits and the other algorithms ring lacks are refused
//! where Go accepts them (Go refuses SHA-1 signatures too); certificate policies are not
//! evaluated, and a chain in which a certificate requires an explicit policy is refused (Go
//! may accept it when the policies line up); certificates are read with x509-parser, which
//! may refuse or read otherwise some malformed certificates Go's parser judges its own way;
//! a bundle certificate that does not parse makes the whole bundle an error, where Go's pool
//! passes over it; and rustls drops a trailing dot of the host before the verifier sees it,
//! so a SAN written with a trailing dot does not match a host written with one (Go matches
//! the two exactly). `testenv/tests/go_tls.rs` compares the verdicts with Go's.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::SignatureVerificationAlgorithm;
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use rustls_pki_types::{CertificateDer, ServerName, UnixTime};

use super::refusal::ChainError;
use super::x509::{Cert, Host};

/// Certificates without duplicates, in the order given.
#[derive(Debug, Default)]
struct Pool(Vec<Cert>);

impl Pool {
    fn add(&mut self, cert: Cert) {
        if !self.0.iter().any(|c| c.der == cert.der) {
            self.0.push(cert);
        }
    }

    fn contains(&self, cert: &Cert) -> bool {
        self.0.iter().any(|c| c.der == cert.der)
    }

    /// The certificates whose subject is `child`'s issuer, those whose key identifier matches
    /// `child`'s authority key identifier first.
    fn parents(&self, child: &Cert) -> Vec<&Cert> {
        let mut found: Vec<&Cert> = self
            .0
            .iter()
            .filter(|c| c.subject == child.issuer)
            .collect();
        found.sort_by_key(|c| c.key_id_rank(child));
        found
    }
}

/// Go's limit of signature checks for one verification.
const MAX_SIGNATURE_CHECKS: usize = 100;

/// One verification: the pools, the time and the algorithms.
struct Verification<'a> {
    roots: &'a Pool,
    intermediates: &'a Pool,
    now: i64,
    algorithms: &'a [&'a dyn SignatureVerificationAlgorithm],
    signature_checks: usize,
}

impl<'a> Verification<'a> {
    /// Every chain from `chain` (leaf first, `chain.last()` to be issued) up to a root, as Go's
    /// `buildChains` finds them; the error when there is none.
    fn build(&mut self, chain: &[&'a Cert]) -> Result<Vec<Vec<&'a Cert>>, ChainError> {
        let child = *chain.last().expect("a chain has a leaf");
        let mut chains = Vec::new();
        let mut hint: Option<(String, ChainError)> = None;
        let mut err: Option<ChainError> = None;
        let candidates = self
            .roots
            .parents(child)
            .into_iter()
            .map(|c| (c, true))
            .chain(
                self.intermediates
                    .parents(child)
                    .into_iter()
                    .map(|c| (c, false)),
            );
        for (candidate, root) in candidates {
            self.signature_checks += 1;
            if self.signature_checks > MAX_SIGNATURE_CHECKS {
                err = Some(ChainError::SignatureLimit);
                break;
            }
            if chain.iter().any(|c| candidate.same_as(c)) {
                continue;
            }
            if let Err(e) = child.check_signature_from(candidate, self.algorithms) {
                hint.get_or_insert((candidate.name.clone(), e));
                continue;
            }
            // As in Go, the last refusal of a candidate's own validity is the error returned
            // when no chain is found.
            match candidate.is_valid(chain.len(), !root, self.now) {
                Ok(()) => err = None,
                Err(e) => {
                    hint.get_or_insert((candidate.name.clone(), e.clone()));
                    err = Some(e);
                    continue;
                }
            }
            let mut longer = chain.to_vec();
            longer.push(candidate);
            if root {
                chains.push(longer);
            } else {
                match self.build(&longer) {
                    Ok(found) => {
                        chains.extend(found);
                        err = None;
                    }
                    Err(e) => err = Some(e),
                }
            }
            if matches!(err, Some(ChainError::SignatureLimit)) {
                break;
            }
        }
        if !chains.is_empty() {
            return Ok(chains);
        }
        Err(err.unwrap_or_else(|| ChainError::UnknownAuthority {
            candidate: hint.map(|(name, why)| (name, Box::new(why))),
        }))
    }
}

/// A server-certificate verifier trusting a `caBundle` as Go's `crypto/x509` trusts a root
/// pool (see the module documentation).
#[derive(Debug)]
pub(crate) struct BundleVerifier {
    roots: Pool,
    provider: Arc<CryptoProvider>,
}

impl BundleVerifier {
    /// Reads every certificate of `certs`; fails on one that does not parse.
    pub(crate) fn new(
        certs: Vec<CertificateDer<'static>>,
        provider: Arc<CryptoProvider>,
    ) -> Result<Self, rustls::Error> {
        let mut roots = Pool::default();
        for der in certs {
            roots.add(Cert::parse(&der).ok_or(rustls::Error::InvalidCertificate(
                CertificateError::BadEncoding,
            ))?);
        }
        Ok(BundleVerifier { roots, provider })
    }

    /// Go's `Certificate.Verify` of `leaf` with the bundle as roots.
    fn verify(
        &self,
        leaf: &Cert,
        intermediates: &Pool,
        host: &Host<'_>,
        now: i64,
    ) -> Result<(), ChainError> {
        leaf.is_valid(0, false, now)?;
        leaf.verify_hostname(host)?;
        let chains = if self.roots.contains(leaf) {
            vec![vec![leaf]]
        } else {
            Verification {
                roots: &self.roots,
                intermediates,
                now,
                algorithms: self.provider.signature_verification_algorithms.all,
                signature_checks: 0,
            }
            .build(&[leaf])?
        };
        let (mut usage, mut policy, mut constraints) = (false, false, None);
        for chain in &chains {
            if chain.len() > 1 && chain.iter().any(|c| c.requires_explicit_policy()) {
                policy = true;
            } else if !chain.iter().all(|c| c.allows_server_auth()) {
                usage = true;
            } else if let Err(e) = Cert::check_chain_constraints(chain) {
                constraints.get_or_insert(e);
            } else {
                return Ok(());
            }
        }
        Err(match constraints {
            Some(e) => e,
            None if usage => ChainError::IncompatibleUsage,
            None if policy => ChainError::ExplicitPolicy,
            None => ChainError::UnknownAuthority { candidate: None },
        })
    }
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
        let bad = || rustls::Error::InvalidCertificate(CertificateError::BadEncoding);
        let leaf = Cert::parse(end_entity).ok_or_else(bad)?;
        let mut pool = Pool::default();
        for der in intermediates {
            pool.add(Cert::parse(der).ok_or_else(bad)?);
        }
        let host = match server_name {
            ServerName::DnsName(name) => Host::Dns(name.as_ref()),
            ServerName::IpAddress(ip) => Host::Ip(std::net::IpAddr::from(*ip)),
            _ => {
                return Err(rustls::Error::InvalidCertificate(
                    CertificateError::NotValidForName,
                ));
            }
        };
        let seconds = i64::try_from(now.as_secs()).unwrap_or(i64::MAX);
        self.verify(&leaf, &pool, &host, seconds)
            .map(|()| ServerCertVerified::assertion())
            .map_err(|e| e.into_rustls(server_name, now))
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
        let cert = Cert::parse(&ca((2001, 2, 3), (2049, 12, 31))).unwrap();
        assert_eq!(
            (cert.not_before, cert.not_after),
            (981_158_400, 2_524_521_600)
        );
        let cert = Cert::parse(&ca((1999, 12, 31), (2051, 1, 1))).unwrap();
        assert_eq!(
            (cert.not_before, cert.not_after),
            (946_598_400, 2_556_144_000)
        );
        assert!(Cert::parse(b"\x30\x03\x02\x01\x00").is_none());
        assert!(Cert::parse(b"").is_none());
    }
}
