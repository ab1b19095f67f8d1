//! The certificates of one environment, made at start: a CA, the API server's serving
//! certificate, an admin client certificate and the service-account signing key. The CA is
//! kept, so more client certificates can be signed later ([`Pki::client_certificate`]).

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// The user name of the admin client certificate; its group is `system:masters`.
pub const ADMIN_USER: &str = "capi-testenv-admin";

/// PEM text of everything the API server and its clients need, and the CA that signs client
/// certificates.
pub struct Pki {
    pub ca: CertifiedIssuer<'static, KeyPair>,
    pub ca_pem: String,
    pub serving_cert_pem: String,
    pub serving_key_pem: String,
    pub admin_cert_pem: String,
    pub admin_key_pem: String,
    pub sa_key_pem: String,
    pub sa_pub_pem: String,
}

impl Pki {
    /// Makes a fresh set (ECDSA P-256 keys throughout).
    pub fn generate() -> Result<Pki, rcgen::Error> {
        let mut ca = CertificateParams::new(Vec::<String>::new())?;
        ca.distinguished_name
            .push(DnType::CommonName, "capi-testenv-ca");
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate()?)?;

        let mut serving =
            CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])?;
        serving
            .distinguished_name
            .push(DnType::CommonName, "kube-apiserver");
        serving.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        serving.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        let serving_key = KeyPair::generate()?;
        let serving_cert = serving.signed_by(&serving_key, &ca)?;

        let (admin_cert_pem, admin_key_pem) =
            client_certificate(&ca, ADMIN_USER, Some("system:masters"))?;

        let sa = KeyPair::generate()?;
        Ok(Pki {
            ca_pem: ca.pem(),
            serving_cert_pem: serving_cert.pem(),
            serving_key_pem: serving_key.serialize_pem(),
            admin_cert_pem,
            admin_key_pem,
            sa_key_pem: sa.serialize_pem(),
            sa_pub_pem: sa.public_key_pem(),
            ca,
        })
    }

    /// A client certificate and its key (PEM) for the user `name`, in `group` when one is
    /// given, signed by the CA the API server trusts for clients.
    /// A serving certificate for `127.0.0.1` and `localhost` named `name`, signed by the CA:
    /// (certificate PEM, key PEM).
    pub fn serving_certificate(&self, name: &str) -> Result<(String, String), rcgen::Error> {
        let mut params =
            CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])?;
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        let key = KeyPair::generate()?;
        let cert = params.signed_by(&key, &self.ca)?;
        Ok((cert.pem(), key.serialize_pem()))
    }

    pub fn client_certificate(
        &self,
        name: &str,
        group: Option<&str>,
    ) -> Result<(String, String), rcgen::Error> {
        client_certificate(&self.ca, name, group)
    }
}

/// A client certificate whose common name is the user and whose organization is its group
/// (how the API server reads a certificate's identity), with its key. rcgen writes one value
/// per attribute type, so a certificate carries one group at most.
fn client_certificate(
    ca: &CertifiedIssuer<'static, KeyPair>,
    name: &str,
    group: Option<&str>,
) -> Result<(String, String), rcgen::Error> {
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params.distinguished_name.push(DnType::CommonName, name);
    if let Some(group) = group {
        params
            .distinguished_name
            .push(DnType::OrganizationName, group);
    }
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    let key = KeyPair::generate()?;
    let cert = params.signed_by(&key, ca)?;
    Ok((cert.pem(), key.serialize_pem()))
}
