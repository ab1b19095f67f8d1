//! A cluster the test did not start (envtest's `UseExistingCluster`): [`ExistingCluster`].
//!
//! Tests written for [`ClusterApi`](crate::ClusterApi) run against any reachable cluster with
//! [`ClusterApiBuilder::existing_cluster`](crate::ClusterApiBuilder::existing_cluster): the
//! CRDs are applied there and Cluster API's manager runs in the test process's machine with
//! that kubeconfig. Nothing is stopped or deleted in the cluster afterwards; give each run its
//! own names. A CA of the test's own signs the serving certificates of servers the test runs
//! (extensions, webhooks), since the cluster's CA key is not at hand.

use std::path::{Path, PathBuf};

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

use crate::certs::Pki;
use crate::{Error, Result};

/// The variable that, set to `true`, makes [`ExistingCluster::from_env`] use the cluster of
/// `KUBECONFIG` (envtest's name for it).
pub const USE_EXISTING_CLUSTER: &str = "USE_EXISTING_CLUSTER";

/// A cluster reached through a kubeconfig file.
pub struct ExistingCluster {
    kubeconfig: Kubeconfig,
    kubeconfig_path: PathBuf,
    pki: Pki,
}

impl std::fmt::Debug for ExistingCluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExistingCluster")
            .field("kubeconfig_path", &self.kubeconfig_path)
            .finish_non_exhaustive()
    }
}

impl ExistingCluster {
    /// The cluster of the kubeconfig file at `path` (its current context).
    pub fn from_kubeconfig(path: impl Into<PathBuf>) -> Result<ExistingCluster> {
        let kubeconfig_path = path.into();
        let kubeconfig = Kubeconfig::read_from(&kubeconfig_path)?;
        Ok(ExistingCluster {
            kubeconfig,
            kubeconfig_path,
            pki: Pki::generate()?,
        })
    }

    /// With `USE_EXISTING_CLUSTER=true`, the cluster of `KUBECONFIG` (else
    /// `~/.kube/config`); `None` otherwise.
    pub fn from_env() -> Result<Option<ExistingCluster>> {
        let wanted = std::env::var(USE_EXISTING_CLUSTER).is_ok_and(|v| v == "true");
        if !wanted {
            return Ok(None);
        }
        let path = std::env::var_os("KUBECONFIG")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".kube/config")))
            .ok_or_else(|| Error::Io {
                what: "USE_EXISTING_CLUSTER=true: neither KUBECONFIG nor HOME is set".to_string(),
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            })?;
        ExistingCluster::from_kubeconfig(path).map(Some)
    }

    /// A client for the kubeconfig's current context, bound to the current tokio runtime.
    pub async fn client(&self) -> Result<Client> {
        let config =
            Config::from_custom_kubeconfig(self.kubeconfig.clone(), &KubeConfigOptions::default())
                .await?;
        Ok(Client::try_from(config)?)
    }

    /// The kubeconfig file.
    pub fn kubeconfig_path(&self) -> &Path {
        &self.kubeconfig_path
    }

    /// The CA of the certificates [`ExistingCluster::write_serving_certificate`] writes (PEM):
    /// the `caBundle` of a server the test runs. Not the cluster's CA.
    pub fn ca_pem(&self) -> &str {
        &self.pki.ca_pem
    }

    /// Writes `tls.crt` and `tls.key` into `dir`: a serving certificate for `127.0.0.1` and
    /// `localhost`, signed by [`ExistingCluster::ca_pem`].
    pub fn write_serving_certificate(&self, dir: &Path) -> Result<()> {
        crate::env::write_serving_certificate(&self.pki, dir)
    }

    /// Applies every CRD of `files` and waits until the API server serves them.
    pub async fn install_crds(&self, files: &[PathBuf]) -> Result<Vec<String>> {
        let client = self.client().await?;
        crate::crds::install(&client, files, crate::env::CRD_READY).await
    }
}
