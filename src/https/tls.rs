//! The serving certificate: loaded from PEM files (parsed by [`crate::tls`]) and reloaded when
//! the files change.
//!
//! Certificates in Kubernetes are usually mounted from a Secret that cert-manager rotates, so
//! the host polls the files and swaps the rustls configuration in place; connections made
//! after a change use the new certificate without a restart. A change that does not load (for
//! example a certificate written before its key) is logged and the previous configuration stays.
//!
//! Change detection compares the files' contents (whatever the file system's timestamp
//! resolution), read on tokio's blocking pool: no file-system call ever runs on a thread that
//! serves requests.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum_server::tls_rustls::RustlsConfig;

use crate::go::errors::chain;
use crate::tls::{self, TlsError};

/// Where the serving certificate, its key and the optional client CA live.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The serving certificate chain (PEM).
    pub cert: PathBuf,
    /// Its private key (PEM).
    pub key: PathBuf,
    /// When set, clients must present a certificate signed by one of these CAs (mTLS).
    pub client_ca: Option<PathBuf>,
}

impl TlsFiles {
    /// A certificate chain and its key, without client authentication.
    pub fn new(cert: impl Into<PathBuf>, key: impl Into<PathBuf>) -> Self {
        TlsFiles {
            cert: cert.into(),
            key: key.into(),
            client_ca: None,
        }
    }

    /// Also requires clients to present a certificate signed by a CA in `path`.
    pub fn client_ca(mut self, path: impl Into<PathBuf>) -> Self {
        self.client_ca = Some(path.into());
        self
    }

    fn paths(&self) -> impl Iterator<Item = &Path> {
        [
            Some(self.cert.as_path()),
            Some(self.key.as_path()),
            self.client_ca.as_deref(),
        ]
        .into_iter()
        .flatten()
    }

    /// The contents of every file, read in one go; comparing it with the previous read tells
    /// whether anything changed, whatever the file system's timestamp resolution.
    fn snapshot(&self) -> Result<Vec<Vec<u8>>, TlsError> {
        self.paths().map(read).collect()
    }

    /// Builds the rustls configuration from the files.
    pub(crate) fn load(&self) -> Result<(rustls::ServerConfig, Vec<Vec<u8>>), TlsError> {
        let snapshot = self.snapshot()?;
        let config = self.config_from(&snapshot)?;
        Ok((config, snapshot))
    }

    fn config_from(&self, snapshot: &[Vec<u8>]) -> Result<rustls::ServerConfig, TlsError> {
        tls::server_config(
            tls::Pem {
                path: &self.cert,
                text: &snapshot[0],
            },
            tls::Pem {
                path: &self.key,
                text: &snapshot[1],
            },
            self.client_ca.as_deref().map(|path| tls::Pem {
                path,
                text: &snapshot[2],
            }),
        )
    }
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        path: path.to_path_buf(),
        source: Arc::new(source),
    })
}

/// Polls the files every `interval` and reloads `config` when their contents change. Runs until
/// the task is aborted.
pub(crate) async fn watch(
    files: TlsFiles,
    config: RustlsConfig,
    mut last: Vec<Vec<u8>>,
    interval: Duration,
) {
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticker.tick().await;
    loop {
        ticker.tick().await;
        let reader = files.clone();
        let read = tokio::task::spawn_blocking(move || reader.snapshot()).await;
        let snapshot = match read {
            Ok(Ok(s)) => s,
            Err(e) => {
                tracing::warn!(error = %e, "reading the serving certificate files failed");
                continue;
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %chain(&e), "cannot read serving certificate files; keeping the current ones");
                continue;
            }
        };
        if snapshot == last {
            continue;
        }
        match files.config_from(&snapshot) {
            Ok(new) => {
                config.reload_from_config(Arc::new(new));
                tracing::info!(cert = %files.cert.display(), "reloaded serving certificate");
            }
            Err(e) => {
                tracing::warn!(error = %chain(&e), "changed serving certificate files do not load; keeping the current ones");
            }
        }
        // Remember what was seen either way, so a broken file is reported once and the next
        // change is tried again.
        last = snapshot;
    }
}
