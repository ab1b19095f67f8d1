//! Where registered handlers are called, counted: each ExtensionConfig with registrations uses
//! one endpoint, the (host, CA bundle) pair the runtime client keys its HTTP clients by, and a
//! change that leaves an endpoint unused records it as released.
//!
//! The client reads the releases since its last look ([`Endpoints::released_since`]) and drops
//! just those HTTP clients, so a registry change costs the client work in proportion to what it
//! changed, not to the number of registrations. The record is bounded; a client that fell
//! further behind checks its whole cache against [`Endpoints::contains`] instead.

use std::collections::{HashMap, VecDeque};

use crate::api::runtime::v1beta2::ClientConfig;
use crate::api::runtime::validation::extension_base_url;

/// How many releases are kept for clients to catch up with.
const RELEASE_LOG: usize = 1024;

/// The host (without the port) of an extension's URL and the CA bundle its certificate is
/// checked against: what one HTTP client of the runtime client serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Endpoint {
    pub(crate) host: String,
    pub(crate) ca_bundle: Vec<u8>,
}

impl Endpoint {
    /// The endpoint of a client config; `None` when its URL cannot be made (no call can be
    /// made to it either).
    pub(crate) fn of(config: &ClientConfig) -> Option<Endpoint> {
        let url = extension_base_url(config).ok()?;
        Some(Endpoint {
            host: host_of(&url),
            ca_bundle: config.ca_bundle.0.clone(),
        })
    }
}

/// The host a URL's TLS identity is checked against and its HTTP clients are cached by:
/// the host without the port.
pub(crate) fn host_of(url: &url::Url) -> String {
    url.host_str().unwrap_or_default().to_string()
}

/// The endpoints in use, with how many ExtensionConfigs use each, and the recent releases.
#[derive(Debug, Default)]
pub(crate) struct Endpoints {
    /// host → CA bundle → number of ExtensionConfigs.
    in_use: HashMap<String, HashMap<Vec<u8>, usize>>,
    /// Endpoints left unused, with the generation of the change that left them so.
    released: VecDeque<(u64, Endpoint)>,
    /// Every release of a change with a later generation is in `released`.
    complete_after: u64,
}

impl Endpoints {
    /// One more ExtensionConfig uses `endpoint`.
    pub(crate) fn acquire(&mut self, endpoint: &Endpoint) {
        let count = self
            .in_use
            .entry(endpoint.host.clone())
            .or_default()
            .entry(endpoint.ca_bundle.clone())
            .or_insert(0);
        *count += 1;
    }

    /// One ExtensionConfig fewer uses `endpoint`; when none is left, it is recorded as
    /// released by the change numbered `generation`.
    pub(crate) fn release(&mut self, endpoint: Endpoint, generation: u64) {
        let Some(bundles) = self.in_use.get_mut(&endpoint.host) else {
            return;
        };
        let Some(count) = bundles.get_mut(endpoint.ca_bundle.as_slice()) else {
            return;
        };
        *count -= 1;
        if *count > 0 {
            return;
        }
        bundles.remove(endpoint.ca_bundle.as_slice());
        if bundles.is_empty() {
            self.in_use.remove(&endpoint.host);
        }
        if self.released.len() == RELEASE_LOG
            && let Some((dropped, _)) = self.released.pop_front()
        {
            self.complete_after = self.complete_after.max(dropped);
        }
        self.released.push_back((generation, endpoint));
    }

    /// True when some ExtensionConfig with registrations is called at `host` with `ca_bundle`.
    pub(crate) fn contains(&self, host: &str, ca_bundle: &[u8]) -> bool {
        self.in_use
            .get(host)
            .is_some_and(|bundles| bundles.contains_key(ca_bundle))
    }

    /// The endpoints released by changes after generation `since`, or `None` when the record
    /// no longer reaches back that far.
    pub(crate) fn released_since(&self, since: u64) -> Option<Vec<Endpoint>> {
        if since < self.complete_after {
            return None;
        }
        Some(
            self.released
                .iter()
                .filter(|(generation, _)| *generation > since)
                .map(|(_, endpoint)| endpoint.clone())
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(host: &str, ca: &str) -> Endpoint {
        Endpoint {
            host: host.into(),
            ca_bundle: ca.as_bytes().to_vec(),
        }
    }

    #[test]
    fn an_endpoint_is_released_when_its_last_user_goes() {
        let mut e = Endpoints::default();
        e.acquire(&endpoint("a", "ca"));
        e.acquire(&endpoint("a", "ca"));
        e.acquire(&endpoint("a", "other"));
        e.release(endpoint("a", "ca"), 1);
        assert!(e.contains("a", b"ca"));
        assert_eq!(e.released_since(0), Some(vec![]));
        e.release(endpoint("a", "ca"), 2);
        assert!(!e.contains("a", b"ca"));
        assert!(e.contains("a", b"other"));
        assert_eq!(e.released_since(0), Some(vec![endpoint("a", "ca")]));
        assert_eq!(e.released_since(2), Some(vec![]));
        // Releasing what is not in use records nothing.
        e.release(endpoint("b", "ca"), 3);
        assert_eq!(e.released_since(2), Some(vec![]));
    }

    #[test]
    fn a_client_too_far_behind_is_told_to_check_everything() {
        let mut e = Endpoints::default();
        for generation in 1..=(RELEASE_LOG as u64 + 1) {
            let one = endpoint(&generation.to_string(), "ca");
            e.acquire(&one);
            e.release(one, generation);
        }
        assert_eq!(e.released_since(0), None);
        assert_eq!(e.released_since(1).map(|r| r.len()), Some(RELEASE_LOG));
        assert_eq!(
            e.released_since(RELEASE_LOG as u64),
            Some(vec![endpoint(&(RELEASE_LOG + 1).to_string(), "ca")])
        );
    }
}
