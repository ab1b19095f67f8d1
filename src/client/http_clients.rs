//! The cache of HTTP clients, one per (host, caBundle), and the client certificate they
//! present.
//!
//! A client is immutable once built: its TLS configuration pins the trusted CAs and the
//! client certificate, so concurrent calls never share mutable TLS state. A change of host or
//! CA bundle selects another entry; entries expire after a day and [`HttpClients::retain`]
//! drops those no registration uses any more. When the client certificate files change on
//! disk, the new pair is loaded and every cached client is dropped, so that no kept-alive
//! connection keeps using the old certificate.
//!
//! Every client chooses its proxy as Cluster API's does ([`crate::go::httpproxy`]: Go's
//! `ProxyFromEnvironment` behind apimachinery's CIDR check), from the settings the runtime
//! client was built with; reqwest never reads the environment itself.
//!
//! Change detection works as the HTTPS host's does for serving certificates: the files'
//! contents are compared with the last ones read (whatever the file system's timestamp
//! resolution), read on tokio's blocking pool and at most once per check interval (5 s by
//! default), so no call ever waits on a blocking file-system call.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::go::errors::chain;
use crate::go::httpproxy::ProxyFunc;
use crate::registry::Endpoint;
use crate::tls::{ClientIdentity, TlsError, cause, client_config};

/// How long a cached client is used before it is rebuilt.
pub(crate) const CLIENT_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Paths of a client certificate and its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IdentityFiles {
    pub(crate) cert_file: PathBuf,
    pub(crate) key_file: PathBuf,
}

/// How often, at most, the client certificate files are read to look for a change.
pub(crate) const DEFAULT_IDENTITY_CHECK_INTERVAL: Duration = Duration::from_secs(5);

struct Entry {
    ca_bundle: Vec<u8>,
    client: reqwest::Client,
    created: Instant,
}

#[derive(Default)]
struct State {
    by_host: HashMap<String, Vec<Entry>>,
    identity: Option<ClientIdentity>,
    /// Bumped on every certificate reload, so a client built with the previous certificate
    /// is not cached after the flush.
    generation: u64,
    /// The certificate and key files as last read (`None` for a file that could not be read).
    seen: Option<FilePair>,
    /// When the files were last read.
    checked: Option<Instant>,
    /// The (host, CA bundle) of the clients built since the last pruning: the ones that may
    /// serve no registration without one having been released.
    fresh: Vec<Endpoint>,
    /// More clients were built since the last pruning than `fresh` keeps: the next pruning
    /// checks every client.
    fresh_overflowed: bool,
}

/// How many clients built between two prunings are remembered one by one. A registry that does
/// not change for days sees clients rebuilt as they expire; past this many, the next pruning
/// checks the whole cache instead.
/// (Small in unit tests, where each client built loads the platform's roots.)
const FRESH_KEPT: usize = if cfg!(test) { 8 } else { 1024 };

/// The certificate and key files' contents, `None` for one that cannot be read.
type FilePair = (Option<Vec<u8>>, Option<Vec<u8>>);

/// Both files' contents (blocking: call it on the blocking pool, or when building the client).
fn read_pair(files: &IdentityFiles) -> FilePair {
    (
        std::fs::read(&files.cert_file).ok(),
        std::fs::read(&files.key_file).ok(),
    )
}

/// The proxy of a request to `url` (`None`: connect directly), as Go's proxy function answers
/// for its scheme, host and port. Its one error, an `http` request in CGI mode, cannot happen
/// here: extensions are called over `https`; were it to, the call goes direct.
fn go_proxy(proxy: &ProxyFunc, url: &url::Url) -> Option<String> {
    let hostname = match url.host()? {
        url::Host::Domain(name) => name.to_string(),
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => ip.to_string(),
    };
    let port = url.port().map(|p| p.to_string()).unwrap_or_default();
    match proxy.proxy_for(url.scheme(), &hostname, &port) {
        Ok(chosen) => chosen.map(|p| p.to_string()),
        Err(error) => {
            tracing::warn!(error = %chain(&error), %url, "no proxy for this call");
            None
        }
    }
}

/// The cache of HTTP clients.
pub(crate) struct HttpClients {
    identity_files: Option<IdentityFiles>,
    proxy: Arc<ProxyFunc>,
    check_interval: Duration,
    state: Mutex<State>,
}

impl HttpClients {
    /// A cache whose clients present the certificate in `identity_files`, loaded now, and
    /// reach extensions through the proxies `proxy` chooses.
    pub(crate) fn new(
        identity_files: Option<IdentityFiles>,
        check_interval: Duration,
        proxy: ProxyFunc,
    ) -> Result<Self, TlsError> {
        let mut state = State::default();
        if let Some(files) = &identity_files {
            state.seen = Some(read_pair(files));
            state.checked = Some(Instant::now());
            state.identity = Some(ClientIdentity::load(&files.cert_file, &files.key_file)?);
        }
        Ok(HttpClients {
            identity_files,
            proxy: Arc::new(proxy),
            check_interval,
            state: Mutex::new(state),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every update leaves the state consistent, so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reloads the client certificate when its files changed since the last look, looking at
    /// most once per check interval. Returns true when a new certificate was loaded (and the
    /// cache flushed). A pair that does not load keeps the previous certificate in use and is
    /// retried when the files change again.
    pub(crate) async fn refresh_identity(&self) -> bool {
        let Some(files) = self.identity_files.clone() else {
            return false;
        };
        {
            let mut state = self.lock();
            if state
                .checked
                .is_some_and(|at| at.elapsed() < self.check_interval)
            {
                return false;
            }
            state.checked = Some(Instant::now());
        }
        let reader = files.clone();
        let Ok(seen) = tokio::task::spawn_blocking(move || read_pair(&reader)).await else {
            return false;
        };
        if self.lock().seen.as_ref() == Some(&seen) {
            return false;
        }
        let loaded = match &seen {
            (Some(cert), Some(key)) => {
                ClientIdentity::from_pem(cert, key).map_err(|p| TlsError::ClientIdentity {
                    cert_file: files.cert_file.clone(),
                    key_file: files.key_file.clone(),
                    what: p.what,
                    error: p.error,
                })
            }
            // Unreadable now: keep the previous pair and look again at the next change.
            _ => ClientIdentity::load(&files.cert_file, &files.key_file),
        };
        let mut state = self.lock();
        state.seen = Some(seen);
        match loaded {
            Ok(identity) => {
                state.identity = Some(identity);
                state.generation += 1;
                state.by_host.clear();
                state.fresh.clear();
                state.fresh_overflowed = false;
                tracing::info!(cert_file = ?files.cert_file, "reloaded the client certificate");
                true
            }
            Err(error) => {
                tracing::warn!(error = %chain(&error), "keeping the previous client certificate");
                false
            }
        }
    }

    /// The client for `host` trusting `ca_bundle`, built on first use.
    pub(crate) fn get(&self, host: &str, ca_bundle: &[u8]) -> Result<reqwest::Client, TlsError> {
        let identity = {
            let mut state = self.lock();
            let now = Instant::now();
            if let Some(entries) = state.by_host.get_mut(host) {
                entries.retain(|e| now.duration_since(e.created) < CLIENT_TTL);
                if let Some(e) = entries.iter().find(|e| e.ca_bundle == ca_bundle) {
                    return Ok(e.client.clone());
                }
            }
            (state.identity.clone(), state.generation)
        };
        let (identity, generation) = identity;
        // Built without the lock: loading platform roots can take a while, and other calls
        // should not wait for it.
        let tls = client_config(ca_bundle, identity.as_ref())?;
        let proxy = self.proxy.clone();
        let client = reqwest::Client::builder()
            .no_proxy()
            .proxy(reqwest::Proxy::custom(move |url| go_proxy(&proxy, url)))
            .tls_backend_preconfigured(tls)
            .redirect(reqwest::redirect::Policy::none())
            .pool_idle_timeout(Duration::from_secs(90))
            .user_agent(concat!("capi-runtime/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| TlsError::HttpClient(cause(e)))?;
        let mut state = self.lock();
        if state.generation != generation {
            return Ok(client);
        }
        let entries = state.by_host.entry(host.to_string()).or_default();
        // Another call may have built one meanwhile; keep the first so connections are shared.
        if let Some(e) = entries.iter().find(|e| e.ca_bundle == ca_bundle) {
            return Ok(e.client.clone());
        }
        entries.push(Entry {
            ca_bundle: ca_bundle.to_vec(),
            client: client.clone(),
            created: Instant::now(),
        });
        if state.fresh.len() < FRESH_KEPT {
            state.fresh.push(Endpoint {
                host: host.to_string(),
                ca_bundle: ca_bundle.to_vec(),
            });
        } else {
            state.fresh.clear();
            state.fresh_overflowed = true;
        }
        Ok(client)
    }

    /// Drops the clients no registration uses any more: with `released` (the endpoints
    /// registry changes left unused since the last pruning), those and the clients built since
    /// then that `in_use` rejects; without it, every client `in_use` rejects.
    pub(crate) fn prune(
        &self,
        released: Option<&[Endpoint]>,
        in_use: &dyn Fn(&str, &[u8]) -> bool,
    ) {
        let mut state = self.lock();
        let fresh = std::mem::take(&mut state.fresh);
        let overflowed = std::mem::take(&mut state.fresh_overflowed);
        let Some(released) = released.filter(|_| !overflowed) else {
            state.by_host.retain(|host, entries| {
                entries.retain(|e| in_use(host, &e.ca_bundle));
                !entries.is_empty()
            });
            return;
        };
        let unused = fresh.iter().filter(|e| !in_use(&e.host, &e.ca_bundle));
        for gone in released.iter().chain(unused) {
            if let Some(entries) = state.by_host.get_mut(&gone.host) {
                entries.retain(|e| e.ca_bundle != gone.ca_bundle);
                if entries.is_empty() {
                    state.by_host.remove(&gone.host);
                }
            }
        }
    }

    /// How many clients are cached.
    pub(crate) fn len(&self) -> usize {
        self.lock().by_host.values().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::ProxyConfig;

    #[tokio::test]
    async fn past_what_is_remembered_the_next_pruning_checks_every_client() {
        let clients = HttpClients::new(
            None,
            DEFAULT_IDENTITY_CHECK_INTERVAL,
            ProxyConfig::default().proxy_func_with_no_proxy_cidr(),
        )
        .unwrap();
        for i in 0..=FRESH_KEPT {
            clients.get(&format!("host-{i}"), b"").unwrap();
        }
        // Nothing released and nothing in use: the remembered clients alone would leave some.
        clients.prune(Some(&[]), &|_, _| false);
        assert_eq!(clients.len(), 0);
    }
}
