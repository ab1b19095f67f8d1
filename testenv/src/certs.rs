//! The certificates of one environment, made at start: a CA, the API server's serving
//! certificate, an admin client certificate and the service-account signing key.

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// The user name of the admin client certificate; its group is `system:masters`.
pub const ADMIN_USER: &str = "capi-testenv-admin";

/// PEM text of everything the API server and its clients need.
pub struct Pki {
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

        let mut admin = CertificateParams::new(Vec::<String>::new())?;
        admin
            .distinguished_name
            .push(DnType::CommonName, ADMIN_USER);
        admin
            .distinguished_name
            .push(DnType::OrganizationName, "system:masters");
        admin.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        admin.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        let admin_key = KeyPair::generate()?;
        let admin_cert = admin.signed_by(&admin_key, &ca)?;

        let sa = KeyPair::generate()?;
        Ok(Pki {
            ca_pem: ca.pem(),
            serving_cert_pem: serving_cert.pem(),
            serving_key_pem: serving_key.serialize_pem(),
            admin_cert_pem: admin_cert.pem(),
            admin_key_pem: admin_key.serialize_pem(),
            sa_key_pem: sa.serialize_pem(),
            sa_pub_pem: sa.public_key_pem(),
        })
    }
}
