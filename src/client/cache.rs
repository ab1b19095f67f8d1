//! The caller-side response cache: answers of handlers kept for a while, so that a controller
//! asking the same question again does not call the extension again (upstream's
//! `WithCaching`, which Cluster API's ClusterClass controller uses for DiscoverVariables).
//!
//! An entry is keyed by the full handler name, the ExtensionConfig's `resourceVersion` when the
//! handler was registered, and the request's settings merged with the ExtensionConfig's (in
//! key order, so equal settings always give the same key; upstream appends them in map order).
//! Any write to the ExtensionConfig (a new discovery, a changed spec) changes its
//! resourceVersion and so retires its entries. Only real successes are stored: not errors, not
//! `Failure` answers, and not the `Success` the `Ignore` failure policy makes of a failed call.
//!
//! Because the key holds nothing of the request but its settings, a cache fits hooks whose
//! answer depends only on the settings (DiscoverVariables); use it for nothing else.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Where a [`ResponseCache`] reads the time; replaceable so that expiry can be tested without
/// waiting.
pub trait Clock: Send + Sync + 'static {
    /// The current instant.
    fn now(&self) -> Instant;
}

/// The monotonic system clock, [`Instant::now`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// What identifies a cached answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CacheKey {
    handler: String,
    resource_version: String,
    settings: Vec<(String, String)>,
    /// The response type, so that one cache shared by several hooks never hands out an answer
    /// of another hook.
    response: TypeId,
}

impl CacheKey {
    /// The key of a call to `handler`, registered at `resource_version`, with the merged
    /// `settings`, answering with a `R`.
    pub(crate) fn new<R: 'static>(
        handler: &str,
        resource_version: &str,
        settings: &BTreeMap<String, String>,
    ) -> Self {
        CacheKey {
            handler: handler.to_string(),
            resource_version: resource_version.to_string(),
            settings: settings
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            response: TypeId::of::<R>(),
        }
    }
}

impl fmt::Display for CacheKey {
    /// Upstream's key shape: `<handler>-<resourceVersion>` then `,<k>=<v>` per setting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.handler, self.resource_version)?;
        for (k, v) in &self.settings {
            write!(f, ",{k}={v}")?;
        }
        Ok(())
    }
}

struct Entry {
    response: Arc<dyn Any + Send + Sync>,
    expires: Instant,
}

struct Inner {
    ttl: Duration,
    clock: Arc<dyn Clock>,
    entries: Mutex<HashMap<CacheKey, Entry>>,
}

/// A cache of handler answers with a time to live; cheap to clone (clones share the entries).
/// Pass it to [`Client::call_extension_cached`](super::Client::call_extension_cached).
#[derive(Clone)]
pub struct ResponseCache {
    inner: Arc<Inner>,
}

impl fmt::Debug for ResponseCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseCache")
            .field("ttl", &self.inner.ttl)
            .field("entries", &self.lock().len())
            .finish_non_exhaustive()
    }
}

impl ResponseCache {
    /// The TTL Cluster API's ClusterClass controller uses for DiscoverVariables answers.
    pub const DISCOVER_VARIABLES_TTL: Duration = Duration::from_secs(10 * 60);

    /// An empty cache whose entries live for `ttl`.
    pub fn new(ttl: Duration) -> Self {
        Self::with_clock(ttl, SystemClock)
    }

    /// An empty cache whose entries live for `ttl` as measured by `clock`.
    pub fn with_clock(ttl: Duration, clock: impl Clock) -> Self {
        ResponseCache {
            inner: Arc::new(Inner {
                ttl,
                clock: Arc::new(clock),
                entries: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// How long an entry lives.
    pub fn ttl(&self) -> Duration {
        self.inner.ttl
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<CacheKey, Entry>> {
        // Every update leaves the map consistent, so a poisoned lock is still usable.
        self.inner
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// How many entries have not expired.
    pub fn len(&self) -> usize {
        let now = self.inner.clock.now();
        self.lock().values().filter(|e| e.expires > now).count()
    }

    /// True when no entry is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every entry.
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// The live answer stored under `key`, if any; an expired one is dropped.
    pub(crate) fn get<R: Clone + 'static>(&self, key: &CacheKey) -> Option<R> {
        let now = self.inner.clock.now();
        let mut entries = self.lock();
        match entries.get(key) {
            Some(e) if e.expires > now => e.response.downcast_ref::<R>().cloned(),
            Some(_) => {
                entries.remove(key);
                None
            }
            None => None,
        }
    }

    /// Stores `response` under `key` for the TTL, and drops the entries that expired.
    pub(crate) fn insert<R: Send + Sync + 'static>(&self, key: CacheKey, response: R) {
        let now = self.inner.clock.now();
        let Some(expires) = now.checked_add(self.inner.ttl) else {
            return;
        };
        let mut entries = self.lock();
        entries.retain(|_, e| e.expires > now);
        entries.insert(
            key,
            Entry {
                response: Arc::new(response),
                expires,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Shared(Arc<Mutex<Duration>>, Instant);

    impl Clock for Shared {
        fn now(&self) -> Instant {
            self.1 + *self.0.lock().unwrap()
        }
    }

    #[test]
    fn keys_are_deterministic_and_typed() {
        let settings = BTreeMap::from([
            ("b".to_string(), "2".to_string()),
            ("a".to_string(), "1".to_string()),
        ]);
        let key = CacheKey::new::<String>("h.ext", "7", &settings);
        assert_eq!(key.to_string(), "h.ext-7,a=1,b=2");
        assert_ne!(key, CacheKey::new::<u32>("h.ext", "7", &settings));
    }

    #[test]
    fn entries_expire_and_types_do_not_mix() {
        let offset = Arc::new(Mutex::new(Duration::ZERO));
        let cache = ResponseCache::with_clock(
            Duration::from_secs(60),
            Shared(offset.clone(), Instant::now()),
        );
        let key = CacheKey::new::<String>("h.ext", "1", &BTreeMap::new());
        cache.insert(key.clone(), "answer".to_string());
        assert_eq!(cache.get::<String>(&key).as_deref(), Some("answer"));
        assert_eq!(cache.get::<u32>(&key), None);
        *offset.lock().unwrap() = Duration::from_secs(59);
        assert_eq!(cache.len(), 1);
        *offset.lock().unwrap() = Duration::from_secs(60);
        assert_eq!(cache.get::<String>(&key), None);
        assert!(cache.is_empty());
    }
}
