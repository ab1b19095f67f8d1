//! Trust anchors count only within their validity dates, as in Go's verifier: a `caBundle`
//! whose CA has expired, or is not valid yet, does not authenticate an extension even though
//! the serving certificate itself is within its dates. (rustls alone ignores a trust anchor's
//! dates; Go's `crypto/x509` checks every certificate of the chain, the root included.)

use crate::support::{extension, tls};

use capi_runtime::client::{CallError, ExchangeError, ForObject};
use capi_runtime::hooks::v1alpha1::BeforeClusterCreate;
use extension::{config, handler, ready_client};
use rustls::CertificateError;
use serde_json::json;
use tls::{TestCa, TestServer, answer};

const HOOK: &str = "BeforeClusterCreate";

/// Calls an extension served with a leaf of `serving`, trusting `bundle`.
async fn call(serving: &TestCa, bundle: &str) -> Result<(), CallError> {
    let server = TestServer::with_ca(
        serving,
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await;
    let client = ready_client(&[config("ext", &server.url(), bundle, &[handler("h", HOOK)])]);
    client
        .call_extension::<BeforeClusterCreate>(
            "h.ext",
            &Default::default(),
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
