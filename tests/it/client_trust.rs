//! What a `caBundle` trusts, through the client over loopback HTTPS: webpki's verdict with
//! Go's rules where they are stricter (the whole comparison with Go is
//! `interop/oracle/tests/go_tls.rs`; the rules one by one are the unit tests of `src/tls/trust.rs`):
//!
//! - trust anchors count only within their validity dates: a `caBundle` whose CA has expired,
//!   or is not valid yet, does not authenticate an extension even though the serving
//!   certificate itself is within its dates (webpki alone ignores a trust anchor's dates);
//! - a bundle certificate that may not sign (CA:FALSE, no basic constraints, a key usage
//!   without keyCertSign) does not authenticate the leaves it signed;
//! - a certificate that is itself in the bundle is trusted as it is, even self-signed with
//!   CA:TRUE (the usual `openssl req -x509` certificate), as Go trusts it; a CA:TRUE leaf
//!   signed by a bundle CA is refused, as webpki refuses it (Go accepts it: a documented
//!   difference).

use crate::support::{extension, tls};

use capi_runtime::client::{CallError, ExchangeError, ForObject};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;
use capi_runtime::tls::ChainError;
use extension::{config, handler, ready_client};
use rustls::CertificateError;
use serde_json::json;
use tls::{TestCa, TestServer, answer};

const HOOK: &str = "BeforeClusterCreate";

/// Calls an extension served with a leaf of `serving`, trusting `bundle`.
async fn call(serving: &TestCa, bundle: &str) -> Result<(), CallError> {
    call_serving(&serving.serving(&["127.0.0.1", "localhost"]), bundle).await
}

/// Calls an extension serving `leaf` (its chain and key), trusting `bundle`.
async fn call_serving(leaf: &tls::Leaf, bundle: &str) -> Result<(), CallError> {
    let server = TestServer::start(
        tls::server_config(leaf, None),
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let client = ready_client(&[config("ext", &server.url(), bundle, &[handler("h", HOOK)])]);
    client
        .call_extension(
            "h.ext",
            &BeforeClusterCreateRequest::default(),
            &ForObject::new("default", "c"),
        )
        .await
        .map(drop)
}

fn certificate_error(err: &CallError) -> &CertificateError {
    let CallError::Exchange { source, .. } = err else {
        panic!("expected an exchange error, got {err}")
    };
    let source: &ExchangeError = source;
    match source.tls_error() {
        Some(rustls::Error::InvalidCertificate(e)) => e,
        other => panic!("expected a certificate error, got {other:?} from {err}"),
    }
}

#[tokio::test]
async fn an_expired_ca_is_refused() {
    let ca = TestCa::with_validity("expired", (2000, 1, 1), (2001, 1, 1));
    let err = call(&ca, &ca.pem()).await.unwrap_err();
    assert!(
        matches!(
            certificate_error(&err),
            CertificateError::ExpiredContext { .. }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn a_ca_not_valid_yet_is_refused() {
    let ca = TestCa::with_validity("future", (2090, 1, 1), (2091, 1, 1));
    let err = call(&ca, &ca.pem()).await.unwrap_err();
    assert!(
        matches!(
            certificate_error(&err),
            CertificateError::NotValidYetContext { .. }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn a_ca_within_its_dates_is_trusted_and_an_expired_neighbour_does_not_matter() {
    let valid = TestCa::with_validity("valid", (2000, 1, 1), (2090, 1, 1));
    call(&valid, &valid.pem()).await.unwrap();
    let expired = TestCa::with_validity("expired", (2000, 1, 1), (2001, 1, 1));
    // A bundle holding both: the chain through the valid CA is taken.
    call(&valid, &format!("{}{}", expired.pem(), valid.pem()))
        .await
        .unwrap();
    // A bundle holding both, served by the expired CA's leaf: refused for its date, not as an
    // unknown issuer.
    let err = call(&expired, &format!("{}{}", expired.pem(), valid.pem()))
        .await
        .unwrap_err();
    assert!(
        matches!(
            certificate_error(&err),
            CertificateError::ExpiredContext { .. }
        ),
        "{err}"
    );
}

/// A certificate for 127.0.0.1 with basic constraints `is_ca` and `key_usages`, signed by
/// `issuer` or self-signed; its certificate and key, and the issuer to sign with it.
fn made(
    name: &str,
    is_ca: rcgen::IsCa,
    key_usages: Vec<rcgen::KeyUsagePurpose>,
    issuer: Option<&rcgen::Issuer<'_, rcgen::KeyPair>>,
) -> (tls::Leaf, rcgen::Issuer<'static, rcgen::KeyPair>) {
    let mut params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    params.is_ca = is_ca;
    params.key_usages = key_usages;
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = match issuer {
        Some(issuer) => params.signed_by(&key, issuer).unwrap(),
        None => params.self_signed(&key).unwrap(),
    };
    let leaf = tls::Leaf {
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
    };
    (leaf, rcgen::Issuer::new(params, key))
}

fn chain_error(err: &CallError) -> &ChainError {
    match certificate_error(err) {
        CertificateError::Other(other) => other
            .0
            .downcast_ref::<ChainError>()
            .unwrap_or_else(|| panic!("expected a ChainError, got {other:?}")),
        other => panic!("expected a ChainError, got {other:?} from {err}"),
    }
}

fn assert_cannot_sign(err: &CallError) {
    let ChainError::UnknownAuthority {
        candidate: Some((name, why)),
    } = chain_error(err)
    else {
        panic!("{}", chain(err))
    };
    assert_eq!(name, "bundle-ca");
    assert!(matches!(**why, ChainError::CannotSign), "{}", chain(err));
    let text = chain(err).to_string();
    assert!(
        text.contains("parent certificate cannot sign this kind of certificate"),
        "{text}"
    );
}

#[tokio::test]
async fn a_bundle_certificate_marked_ca_false_does_not_authenticate_what_it_signed() {
    use rcgen::{IsCa, KeyUsagePurpose};
    let cert_sign = || {
        vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::DigitalSignature,
        ]
    };
    for is_ca in [IsCa::ExplicitNoCa, IsCa::NoCa] {
        let (ca, issuer) = made("bundle-ca", is_ca, cert_sign(), None);
        let (leaf, _) = made("leaf", IsCa::NoCa, vec![], Some(&issuer));
        let err = call_serving(&leaf, &ca.cert_pem).await.unwrap_err();
        assert_cannot_sign(&err);
    }
}

#[tokio::test]
async fn a_bundle_ca_without_key_cert_sign_does_not_authenticate_what_it_signed() {
    use rcgen::{BasicConstraints, IsCa, KeyUsagePurpose};
    let (ca, issuer) = made(
        "bundle-ca",
        IsCa::Ca(BasicConstraints::Unconstrained),
        vec![KeyUsagePurpose::DigitalSignature],
        None,
    );
    let (leaf, _) = made("leaf", IsCa::NoCa, vec![], Some(&issuer));
    let err = call_serving(&leaf, &ca.cert_pem).await.unwrap_err();
    assert_cannot_sign(&err);
}

#[tokio::test]
async fn a_self_signed_ca_true_certificate_served_and_in_the_bundle_is_trusted() {
    // What `openssl req -x509 -addext subjectAltName=IP:127.0.0.1` makes: CA:TRUE, self-signed.
    use rcgen::{BasicConstraints, IsCa};
    let (cert, _) = made(
        "self-signed",
        IsCa::Ca(BasicConstraints::Unconstrained),
        vec![],
        None,
    );
    call_serving(&cert, &cert.cert_pem).await.unwrap();
    // Not in the bundle, it is not trusted: webpki refuses a CA as a leaf before it looks for
    // an issuer (Go says its issuer is unknown).
    let other = TestCa::new("other");
    let err = call_serving(&cert, &other.pem()).await.unwrap_err();
    let CertificateError::Other(other) = certificate_error(&err) else {
        panic!("{}", chain(&err))
    };
    assert_eq!(format!("{other:?}"), "OtherError(CaUsedAsEndEntity)");
}

#[tokio::test]
async fn a_ca_true_leaf_signed_by_a_bundle_ca_is_refused_as_webpki_refuses_it() {
    use rcgen::{BasicConstraints, IsCa, KeyUsagePurpose};
    let (ca, issuer) = made(
        "bundle-ca",
        IsCa::Ca(BasicConstraints::Unconstrained),
        vec![KeyUsagePurpose::KeyCertSign],
        None,
    );
    let (leaf, _) = made(
        "leaf",
        IsCa::Ca(BasicConstraints::Constrained(0)),
        vec![],
        Some(&issuer),
    );
    let err = call_serving(&leaf, &ca.cert_pem).await.unwrap_err();
    let CertificateError::Other(other) = certificate_error(&err) else {
        panic!("{}", chain(&err))
    };
    assert_eq!(format!("{other:?}"), "OtherError(CaUsedAsEndEntity)");
    // Put in the bundle itself, it is trusted as it is.
    call_serving(&leaf, &format!("{}{}", ca.cert_pem, leaf.cert_pem))
        .await
        .unwrap();
}
