//! Admission webhook configurations pointed at a server the test runs (envtest's
//! `WebhookInstallOptions`): [`TestEnv::install_webhooks`].
//!
//! A project's webhook manifests name a Service (`clientConfig.service`), which a control plane
//! without nodes cannot reach. Installed through here, each webhook's `clientConfig` is
//! rewritten to `https://<host>:<port><service path>` with the environment's CA as its
//! `caBundle`, and a serving certificate for that address, signed by the same CA, is written
//! for the test's server to use.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration, WebhookClientConfig,
};
use kube::Resource;
use kube::api::{Api, Patch, PatchParams};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{Error, Result, TestEnv, free_port};

/// The field manager of the applies.
const MANAGER: &str = "capi-testenv";

/// What [`TestEnv::install_webhooks`] installs and where the server will listen.
#[derive(Clone, Debug, Default)]
pub struct WebhookInstallOptions {
    files: Vec<PathBuf>,
    validating: Vec<ValidatingWebhookConfiguration>,
    mutating: Vec<MutatingWebhookConfiguration>,
    port: Option<u16>,
}

impl WebhookInstallOptions {
    /// Nothing yet, on a free loopback port.
    pub fn new() -> Self {
        Self::default()
    }

    /// A YAML file of webhook configurations (several documents allowed; documents of other
    /// kinds are skipped, so a whole manifest may be given).
    pub fn file(mut self, path: impl Into<PathBuf>) -> Self {
        self.files.push(path.into());
        self
    }

    /// A ValidatingWebhookConfiguration.
    pub fn validating(mut self, config: ValidatingWebhookConfiguration) -> Self {
        self.validating.push(config);
        self
    }

    /// A MutatingWebhookConfiguration.
    pub fn mutating(mut self, config: MutatingWebhookConfiguration) -> Self {
        self.mutating.push(config);
        self
    }

    /// The loopback port the test's server will listen on (else a free one is picked).
    pub fn port(mut self, port: u16) -> Self {
        self.port = Some(port);
        self
    }
}

/// Webhook configurations installed by [`TestEnv::install_webhooks`]: where to serve them.
#[derive(Debug)]
pub struct LocalWebhooks {
    /// The loopback port the API server calls.
    pub port: u16,
    /// `https://127.0.0.1:<port>`, the base of every webhook's URL.
    pub url: String,
    /// The names of the configurations installed.
    pub names: Vec<String>,
    cert_dir: tempfile::TempDir,
}

impl LocalWebhooks {
    /// The directory with `tls.crt` and `tls.key` for the server (removed when this is
    /// dropped).
    pub fn cert_dir(&self) -> &Path {
        self.cert_dir.path()
    }
}

impl TestEnv {
    /// Installs the webhook configurations of `options`, each webhook's `clientConfig`
    /// rewritten to `https://127.0.0.1:<port><path>` (the path of its `service`, else its
    /// URL's path, else `/`) with the environment's CA as `caBundle`, and writes a serving
    /// certificate for the test's server. The API server calls the server from then on: start
    /// it before creating objects the webhooks match (with `failurePolicy: Fail` a missing
    /// server refuses them).
    pub async fn install_webhooks(&self, options: WebhookInstallOptions) -> Result<LocalWebhooks> {
        let port = match options.port {
            Some(p) => p,
            None => free_port()?,
        };
        let url = format!("https://127.0.0.1:{port}");
        let cert_dir = tempfile::tempdir().map_err(Error::io("making a temporary directory"))?;
        self.write_serving_certificate(cert_dir.path())?;
        let client = self.client().await?;
        let names = install(&client, self.ca_pem(), &url, options).await?;
        Ok(LocalWebhooks {
            port,
            url,
            names,
            cert_dir,
        })
    }
}

/// Installs the webhook configurations of `options` (its port aside) through `client`, each
/// pointed at `url` (see [`TestEnv::install_webhooks`]) with `ca_pem` as its `caBundle`;
/// returns their names.
pub(crate) async fn install(
    client: &kube::Client,
    ca_pem: &str,
    url: &str,
    options: WebhookInstallOptions,
) -> Result<Vec<String>> {
    let mut validating = options.validating;
    let mut mutating = options.mutating;
    for file in &options.files {
        let text = std::fs::read_to_string(file)
            .map_err(Error::io(format!("reading {}", file.display())))?;
        let bad = |e: Box<dyn std::error::Error + Send + Sync>| Error::Io {
            what: format!("{}: not webhook configurations", file.display()),
            source: std::io::Error::other(e),
        };
        let documents: Vec<Value> =
            serde_saphyr::from_multiple(&text).map_err(|e| bad(Box::new(e)))?;
        for document in documents {
            let parse = |e: serde_json::Error| bad(Box::new(e));
            match document["kind"].as_str() {
                Some("ValidatingWebhookConfiguration") => {
                    validating.push(serde_json::from_value(document).map_err(parse)?)
                }
                Some("MutatingWebhookConfiguration") => {
                    mutating.push(serde_json::from_value(document).map_err(parse)?)
                }
                _ => {}
            }
        }
    }
    let ca = ByteString(ca_pem.as_bytes().to_vec());
    let mut names = Vec::new();
    let params = PatchParams::apply(MANAGER).force();
    for mut config in validating {
        for webhook in config.webhooks.iter_mut().flatten() {
            local(&mut webhook.client_config, url, &ca);
        }
        names.push(apply(client, &params, config).await?);
    }
    for mut config in mutating {
        for webhook in config.webhooks.iter_mut().flatten() {
            local(&mut webhook.client_config, url, &ca);
        }
        names.push(apply(client, &params, config).await?);
    }
    Ok(names)
}

/// Server-side applies the webhook configuration `config` (either kind) with `params`, once
/// the `managedFields` and `resourceVersion` a manifest read back from a cluster may carry are
/// dropped; returns its name.
async fn apply<K>(client: &kube::Client, params: &PatchParams, mut config: K) -> Result<String>
where
    K: Resource<DynamicType = ()> + Clone + Debug + DeserializeOwned + Serialize,
{
    let name = config.meta().name.clone().unwrap_or_default();
    let metadata = config.meta_mut();
    metadata.managed_fields = None;
    metadata.resource_version = None;
    Api::<K>::all(client.clone())
        .patch(&name, params, &Patch::Apply(&config))
        .await
        .map_err(|source| Error::Request {
            what: format!("installing {} {name}", K::kind(&())),
            source,
        })?;
    Ok(name)
}

/// Points `config` at `base` (keeping the service's or URL's path) with `ca` as its CA.
fn local(config: &mut WebhookClientConfig, base: &str, ca: &ByteString) {
    let path = match (&config.service, &config.url) {
        (Some(service), _) => service.path.clone(),
        (None, Some(url)) => url
            .split_once("://")
            .and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_string())),
        (None, None) => None,
    }
    .unwrap_or_else(|| "/".to_string());
    config.service = None;
    config.url = Some(format!("{base}{path}"));
    config.ca_bundle = Some(ca.clone());
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::admissionregistration::v1::ServiceReference;

    #[test]
    fn a_service_or_url_becomes_the_local_url_with_its_path() {
        let ca = ByteString(b"pem".to_vec());
        let mut by_service = WebhookClientConfig {
            service: Some(ServiceReference {
                name: "webhook-service".into(),
                namespace: "system".into(),
                path: Some("/validate-x".into()),
                port: Some(443),
            }),
            ..Default::default()
        };
        local(&mut by_service, "https://127.0.0.1:9443", &ca);
        assert_eq!(by_service.service, None);
        assert_eq!(
            by_service.url.as_deref(),
            Some("https://127.0.0.1:9443/validate-x")
        );
        assert_eq!(by_service.ca_bundle, Some(ca.clone()));

        let mut by_url = WebhookClientConfig {
            url: Some("https://example.com:8443/mutate".into()),
            ..Default::default()
        };
        local(&mut by_url, "https://127.0.0.1:1", &ca);
        assert_eq!(by_url.url.as_deref(), Some("https://127.0.0.1:1/mutate"));

        let mut bare = WebhookClientConfig::default();
        local(&mut bare, "https://127.0.0.1:1", &ca);
        assert_eq!(bare.url.as_deref(), Some("https://127.0.0.1:1/"));
    }
}
