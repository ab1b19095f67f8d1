//! The Go policy around webpki, rule by rule, and a property test against plain webpki. (The
//! whole comparison with Go is `interop/oracle/tests/go_tls.rs`; calls over loopback are
//! `tests/it/client_trust.rs`.)

use std::sync::Arc;

use proptest::prelude::*;
use rcgen::{
    BasicConstraints, CertificateParams, CustomExtension, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose,
};
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::ServerCertVerifier;
use rustls::{CertificateError, RootCertStore};
use rustls_pki_types::{CertificateDer, ServerName, UnixTime};

use super::BundleVerifier;
use crate::tls::ChainError;
use crate::tls::crypto_provider;

/// The instant of every verdict: 2030-06-01T00:00:00Z.
fn now() -> UnixTime {
    let seconds = rcgen::date_time_ymd(2030, 6, 1).unix_timestamp();
    UnixTime::since_unix_epoch(std::time::Duration::from_secs(seconds as u64))
}

const HOST: &str = "ext.example.com";

/// What a test certificate is; the default is a CA valid at [`now`].
#[derive(Clone, Debug)]
struct Spec {
    name: &'static str,
    is_ca: IsCa,
    key_usages: Vec<KeyUsagePurpose>,
    eku: Vec<ExtendedKeyUsagePurpose>,
    /// (notBefore, notAfter) years.
    years: (i32, i32),
    sans: Vec<String>,
    critical: bool,
}

impl Spec {
    fn ca(name: &'static str) -> Spec {
        Spec {
            name,
            is_ca: IsCa::Ca(BasicConstraints::Unconstrained),
            key_usages: vec![],
            eku: vec![],
            years: (2029, 2031),
            sans: vec![],
            critical: false,
        }
    }

    fn leaf() -> Spec {
        Spec {
            is_ca: IsCa::ExplicitNoCa,
            eku: vec![ExtendedKeyUsagePurpose::ServerAuth],
            sans: vec![HOST.into()],
            ..Spec::ca("leaf")
        }
    }

    fn params(&self) -> CertificateParams {
        let mut p = CertificateParams::new(self.sans.clone()).unwrap();
        p.distinguished_name.push(DnType::CommonName, self.name);
        p.is_ca = self.is_ca;
        p.key_usages = self.key_usages.clone();
        p.extended_key_usages = self.eku.clone();
        p.not_before = rcgen::date_time_ymd(self.years.0, 1, 1);
        p.not_after = rcgen::date_time_ymd(self.years.1, 1, 1);
        if self.critical {
            let mut ext =
                CustomExtension::from_oid_content(&[1, 3, 6, 1, 4, 1, 55555, 9], vec![0x05, 0x00]);
            ext.set_criticality(true);
            p.custom_extensions.push(ext);
        }
        p
    }
}

/// A certificate made from a spec, and the issuer that signs with its key.
struct Made {
    der: CertificateDer<'static>,
    issuer: Issuer<'static, KeyPair>,
}

fn make(spec: &Spec, signer: Option<&Made>) -> Made {
    let key = KeyPair::generate().unwrap();
    let params = spec.params();
    let cert = match signer {
        Some(s) => params.signed_by(&key, &s.issuer).unwrap(),
        None => params.self_signed(&key).unwrap(),
    };
    Made {
        der: cert.der().clone(),
        issuer: Issuer::new(params, key),
    }
}

fn verifier(bundle: &[&Made]) -> BundleVerifier {
    BundleVerifier::new(
        bundle.iter().map(|m| m.der.clone()).collect(),
        crypto_provider(),
    )
    .unwrap()
}

/// The verdict of `bundle` on the chain `sent` (leaf first) for [`HOST`].
fn verdict(bundle: &[&Made], sent: &[&Made]) -> Result<(), rustls::Error> {
    let sent: Vec<_> = sent.iter().map(|m| m.der.clone()).collect();
    let host = ServerName::try_from(HOST).unwrap();
    verifier(bundle).verify(&sent[0], &sent[1..], &host, now())
}

fn chain_error(verdict: Result<(), rustls::Error>) -> ChainError {
    match verdict {
        Err(rustls::Error::InvalidCertificate(CertificateError::Other(e))) => {
            e.0.downcast_ref::<ChainError>()
                .unwrap_or_else(|| panic!("{e:?}"))
                .clone()
        }
        other => panic!("expected a ChainError, got {other:?}"),
    }
}

#[test]
fn a_bundle_ca_signs_a_leaf() {
    let root = make(&Spec::ca("root"), None);
    let leaf = make(&Spec::leaf(), Some(&root));
    verdict(&[&root], &[&leaf]).unwrap();
    let other = make(&Spec::ca("other"), None);
    assert!(matches!(
        verdict(&[&other], &[&leaf]),
        Err(rustls::Error::InvalidCertificate(
            CertificateError::UnknownIssuer
        ))
    ));
}

#[test]
fn an_expired_bundle_ca_is_refused_and_its_renewal_with_the_same_key_is_trusted() {
    let key = KeyPair::generate().unwrap();
    let old = Spec {
        years: (2020, 2029),
        ..Spec::ca("root")
    };
    let old_der = old.params().self_signed(&key).unwrap().der().clone();
    let renewed = Spec::ca("root").params().self_signed(&key).unwrap();
    let root = Made {
        der: renewed.der().clone(),
        issuer: Issuer::new(Spec::ca("root").params(), key),
    };
    let leaf = make(&Spec::leaf(), Some(&root));
    let old = Made {
        der: old_der,
        issuer: Issuer::new(old.params(), KeyPair::generate().unwrap()),
    };
    assert!(matches!(
        verdict(&[&old], &[&leaf]),
        Err(rustls::Error::InvalidCertificate(
            CertificateError::ExpiredContext { .. }
        ))
    ));
    verdict(&[&old, &root], &[&leaf]).unwrap();
}

#[test]
fn a_bundle_certificate_go_does_not_let_sign_is_no_anchor() {
    for spec in [
        Spec {
            is_ca: IsCa::ExplicitNoCa,
            ..Spec::ca("bundle-ca")
        },
        Spec {
            is_ca: IsCa::NoCa,
            ..Spec::ca("bundle-ca")
        },
        Spec {
            key_usages: vec![KeyUsagePurpose::DigitalSignature],
            ..Spec::ca("bundle-ca")
        },
    ] {
        let root = make(&spec, None);
        let leaf = make(&Spec::leaf(), Some(&root));
        let ChainError::UnknownAuthority {
            candidate: Some((name, why)),
        } = chain_error(verdict(&[&root], &[&leaf]))
        else {
            panic!("{spec:?}")
        };
        assert_eq!(name, "bundle-ca");
        assert!(matches!(*why, ChainError::CannotSign));
    }
}

#[test]
fn an_intermediate_with_a_key_usage_without_key_cert_sign_does_not_sign() {
    let root = make(&Spec::ca("root"), None);
    let inter = Spec {
        key_usages: vec![KeyUsagePurpose::DigitalSignature],
        ..Spec::ca("intermediate")
    };
    let inter = make(&inter, Some(&root));
    let leaf = make(&Spec::leaf(), Some(&inter));
    let ChainError::UnknownAuthority {
        candidate: Some((name, _)),
    } = chain_error(verdict(&[&root], &[&leaf, &inter]))
    else {
        panic!()
    };
    assert_eq!(name, "intermediate");
}

#[test]
fn the_bundle_ca_path_length_usages_and_critical_extensions_count() {
    let root = Spec {
        is_ca: IsCa::Ca(BasicConstraints::Constrained(0)),
        ..Spec::ca("root")
    };
    let root = make(&root, None);
    let inter = make(&Spec::ca("intermediate"), Some(&root));
    let leaf = make(&Spec::leaf(), Some(&inter));
    assert!(matches!(
        chain_error(verdict(&[&root], &[&leaf, &inter])),
        ChainError::TooManyIntermediates
    ));
    // The leaf right below it is fine.
    let direct = make(&Spec::leaf(), Some(&root));
    verdict(&[&root], &[&direct]).unwrap();

    let client_only = Spec {
        eku: vec![ExtendedKeyUsagePurpose::ClientAuth],
        ..Spec::ca("root")
    };
    let root = make(&client_only, None);
    let leaf = make(&Spec::leaf(), Some(&root));
    assert!(matches!(
        verdict(&[&root], &[&leaf]),
        Err(rustls::Error::InvalidCertificate(
            CertificateError::InvalidPurpose
        ))
    ));

    let critical = Spec {
        critical: true,
        ..Spec::ca("root")
    };
    let root = make(&critical, None);
    let leaf = make(&Spec::leaf(), Some(&root));
    assert!(matches!(
        chain_error(verdict(&[&root], &[&leaf])),
        ChainError::UnhandledCriticalExtension
    ));
}

#[test]
fn a_served_certificate_in_the_bundle_is_a_chain_of_its_own() {
    // The usual `openssl req -x509` certificate: self-signed, CA:TRUE, the host as SAN.
    let own = Spec {
        sans: vec![HOST.into()],
        ..Spec::ca("self-signed")
    };
    let own = make(&own, None);
    verdict(&[&own], &[&own]).unwrap();
    // A CA:TRUE leaf that is not in the bundle is refused, as webpki refuses it.
    let root = make(&Spec::ca("root"), None);
    let ca_leaf = Spec {
        is_ca: IsCa::Ca(BasicConstraints::Constrained(0)),
        ..Spec::leaf()
    };
    let ca_leaf = make(&ca_leaf, Some(&root));
    assert!(verdict(&[&root], &[&ca_leaf]).is_err());
    verdict(&[&root, &ca_leaf], &[&ca_leaf]).unwrap();

    // Its dates, usages and names still count.
    let expired = Spec {
        years: (2020, 2029),
        ..Spec::leaf()
    };
    let expired = make(&expired, None);
    assert!(matches!(
        verdict(&[&expired], &[&expired]),
        Err(rustls::Error::InvalidCertificate(
            CertificateError::ExpiredContext { .. }
        ))
    ));
    let client = Spec {
        eku: vec![ExtendedKeyUsagePurpose::ClientAuth],
        ..Spec::leaf()
    };
    let client = make(&client, None);
    assert!(matches!(
        verdict(&[&client], &[&client]),
        Err(rustls::Error::InvalidCertificate(
            CertificateError::InvalidPurpose
        ))
    ));
    let elsewhere = Spec {
        sans: vec!["other.example.com".into()],
        ..Spec::leaf()
    };
    let elsewhere = make(&elsewhere, None);
    assert!(matches!(
        verdict(&[&elsewhere], &[&elsewhere]),
        Err(rustls::Error::InvalidCertificate(
            CertificateError::NotValidForNameContext { .. }
        ))
    ));
}

#[test]
fn a_bundle_certificate_that_does_not_parse_is_an_error() {
    let root = make(&Spec::ca("root"), None);
    let certs = vec![
        root.der.clone(),
        CertificateDer::from(vec![0x30, 0x03, 0x02, 0x01, 0x00]),
    ];
    assert!(BundleVerifier::new(certs, crypto_provider()).is_err());
}

// ---------------------------------------------------------------------------------------------
// The property: nothing webpki refuses is accepted, except a served certificate of the bundle.

/// Plain webpki's verdict, with every certificate of `bundle` it can use as an anchor.
fn plain_webpki(
    bundle: &[CertificateDer<'static>],
    leaf: &CertificateDer<'_>,
    sent: &[CertificateDer<'_>],
    host: &ServerName<'_>,
) -> bool {
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(bundle.iter().cloned());
    let Ok(webpki) =
        WebPkiServerVerifier::builder_with_provider(Arc::new(roots), crypto_provider()).build()
    else {
        return false;
    };
    webpki
        .verify_server_cert(leaf, sent, host, &[], now())
        .is_ok()
}

/// One certificate of a generated hierarchy: mostly what the role needs (a CA above, a
/// serving certificate for [`HOST`] at the bottom), each property sometimes otherwise.
fn spec_strategy(name: &'static str, leaf: bool) -> impl Strategy<Value = Spec> {
    let usual = if leaf { Spec::leaf() } else { Spec::ca(name) };
    let is_ca = prop_oneof![
        12 => Just(usual.is_ca),
        1 => Just(IsCa::Ca(BasicConstraints::Unconstrained)),
        1 => Just(IsCa::Ca(BasicConstraints::Constrained(0))),
        1 => Just(IsCa::ExplicitNoCa),
        1 => Just(IsCa::NoCa),
    ];
    let ku = prop_oneof![
        12 => Just(vec![]),
        1 => Just(vec![KeyUsagePurpose::KeyCertSign]),
        1 => Just(vec![KeyUsagePurpose::DigitalSignature]),
    ];
    let eku = prop_oneof![
        12 => Just(usual.eku.clone()),
        1 => Just(vec![ExtendedKeyUsagePurpose::ServerAuth]),
        1 => Just(vec![ExtendedKeyUsagePurpose::ClientAuth]),
        1 => Just(vec![ExtendedKeyUsagePurpose::Any]),
    ];
    let years =
        prop_oneof![16 => Just((2029, 2031)), 1 => Just((2020, 2029)), 1 => Just((2031, 2032))];
    let sans = prop_oneof![
        12 => Just(usual.sans.clone()),
        1 => Just(vec![HOST.to_string()]),
        1 => Just(vec!["*.example.com".to_string()]),
        1 => Just(vec!["other.example.com".to_string()]),
    ];
    (is_ca, ku, eku, years, sans, proptest::bool::weighted(0.03)).prop_map(
        move |(is_ca, key_usages, eku, years, sans, critical)| Spec {
            name,
            is_ca,
            key_usages,
            eku,
            years,
            sans,
            critical,
        },
    )
}

/// A change to one certificate: truncated, or bytes flipped at positions (taken modulo its
/// length).
#[derive(Clone, Debug)]
enum Mutation {
    Truncate(usize),
    Flip(Vec<(usize, u8)>),
}

fn mutate(der: &CertificateDer<'static>, m: &Mutation) -> CertificateDer<'static> {
    let mut bytes = der.to_vec();
    match m {
        Mutation::Truncate(n) => bytes.truncate(n % (bytes.len() + 1)),
        Mutation::Flip(flips) => {
            for (at, xor) in flips {
                let i = at % bytes.len().max(1);
                if let Some(b) = bytes.get_mut(i) {
                    *b ^= (*xor).max(1);
                }
            }
        }
    }
    CertificateDer::from(bytes)
}

fn mutation_strategy() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4).prop_map(Mutation::Flip),
    ]
}

/// A generated case: the certificates made (root, intermediates, leaf, a stranger), which of
/// them go to the bundle and to the server's chain, mutations, arbitrary DER and the host.
#[derive(Clone, Debug)]
struct Draw {
    root: Spec,
    intermediates: Vec<Spec>,
    leaf: Spec,
    /// Indexes into the made certificates (root, intermediates..., leaf, stranger), after the
    /// root when `usual` (for the bundle) and after the intermediates (for the chain).
    bundle: Vec<usize>,
    sent: Vec<usize>,
    usual: (bool, bool),
    /// (index into bundle ++ sent, mutation).
    mutations: Vec<(usize, Mutation)>,
    /// Arbitrary DER added to the bundle and to the sent chain.
    junk: Vec<(bool, Vec<u8>)>,
    host: &'static str,
}

fn draw_strategy() -> impl Strategy<Value = Draw> {
    (
        spec_strategy("root", false),
        proptest::collection::vec(spec_strategy("intermediate", false), 0..3),
        spec_strategy("leaf", true),
        proptest::collection::vec(0usize..8, 0..3),
        proptest::collection::vec(0usize..8, 0..3),
        (proptest::bool::weighted(0.7), proptest::bool::weighted(0.7)),
        prop_oneof![
            5 => Just(vec![]),
            1 => proptest::collection::vec((0usize..16, mutation_strategy()), 1..3),
        ],
        prop_oneof![
            5 => Just(vec![]),
            1 => proptest::collection::vec(
                (proptest::bool::weighted(0.2), proptest::collection::vec(any::<u8>(), 0..64)),
                1..3,
            ),
        ],
        prop_oneof![4 => Just(HOST), 1 => Just("other.example.com"), 1 => Just("127.0.0.1")],
    )
        .prop_map(
            |(root, intermediates, leaf, bundle, sent, usual, mutations, junk, host)| Draw {
                root,
                intermediates,
                leaf,
                bundle,
                sent,
                usual,
                mutations,
                junk,
                host,
            },
        )
}

/// The bundle and the server's chain (leaf first) of a draw.
fn materialize(d: &Draw) -> (Vec<CertificateDer<'static>>, Vec<CertificateDer<'static>>) {
    let mut made = vec![make(&d.root, None)];
    for spec in &d.intermediates {
        let signer = made.last().unwrap();
        let next = make(spec, Some(signer));
        made.push(next);
    }
    let leaf = make(&d.leaf, made.last());
    made.push(leaf);
    made.push(make(&Spec::ca("root"), None));
    let leaf_index = made.len() - 2;
    let pick = |i: &usize| made[i % made.len()].der.clone();
    let mut bundle: Vec<_> = d.bundle.iter().map(pick).collect();
    if d.usual.0 || bundle.is_empty() {
        bundle.insert(0, made[0].der.clone());
    }
    let mut sent = vec![made[leaf_index].der.clone()];
    if d.usual.1 {
        sent.extend(made[1..leaf_index].iter().rev().map(|m| m.der.clone()));
    }
    sent.extend(d.sent.iter().map(pick));
    for (i, m) in &d.mutations {
        let n = bundle.len() + sent.len();
        match i % n {
            j if j < bundle.len() => bundle[j] = mutate(&bundle[j], m),
            j => sent[j - bundle.len()] = mutate(&sent[j - bundle.len()], m),
        }
    }
    for (to_bundle, bytes) in &d.junk {
        let der = CertificateDer::from(bytes.clone());
        if *to_bundle {
            bundle.push(der)
        } else {
            sent.push(der)
        }
    }
    (bundle, sent)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Arbitrary DER as the leaf, the chain and the bundle: no panic, and nothing accepted.
    #[test]
    fn arbitrary_der_is_refused_without_panic(
        certs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..512), 2..6),
        split in 1usize..5,
    ) {
        let certs: Vec<_> = certs.into_iter().map(CertificateDer::from).collect();
        let (bundle, sent) = certs.split_at(split.min(certs.len() - 1));
        let host = ServerName::try_from(HOST).unwrap();
        if let Ok(v) = BundleVerifier::new(bundle.to_vec(), crypto_provider()) {
            let verdict = v.verify(&sent[0], &sent[1..], &host, now());
            prop_assert!(verdict.is_err() || bundle.contains(&sent[0]));
        }
    }

    /// Generated hierarchies, chosen into bundles and chains, mutated and mixed with arbitrary
    /// DER: the verifier accepts only what plain webpki accepts, or a served certificate that
    /// is itself in the bundle.
    #[test]
    fn nothing_webpki_refuses_is_accepted_but_a_served_bundle_certificate(d in draw_strategy()) {
        let (bundle, sent) = materialize(&d);
        let host = ServerName::try_from(d.host).unwrap();
        let Ok(ours) = BundleVerifier::new(bundle.clone(), crypto_provider()) else {
            return Ok(());
        };
        let accepted = ours.verify(&sent[0], &sent[1..], &host, now()).is_ok();
        if accepted && !bundle.contains(&sent[0]) {
            prop_assert!(
                plain_webpki(&bundle, &sent[0], &sent[1..], &host),
                "accepted what webpki refuses"
            );
        }
    }
}
