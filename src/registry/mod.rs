//! The registry of discovered extension handlers.
//!
//! One [`Registry`] per process, created by the binary and handed (cloned) to the runtime
//! client and to the ExtensionConfig controller: there is no hidden global. The controller is
//! the only writer ([`Registry::warm_up`], [`Registry::add`], [`Registry::remove`], or the
//! client's `register`/`unregister`, which do the same); callers of hooks read through
//! [`Registry::list`] and [`Registry::get`]. Every change bumps [`Registry::generation`], which
//! the client follows to drop the HTTP clients no registration uses any more, whichever way
//! the registry was changed.
//!
//! A new registry is *not ready*: until [`Registry::warm_up`] succeeds, every operation returns
//! an error instead of an empty answer, so a controller that starts before the registrations
//! are loaded cannot mistake "not loaded yet" for "no extension registered".
//!
//! Adding an ExtensionConfig builds and checks all of its registrations first and then swaps
//! them in under the write lock, so a failed add leaves the previous registrations of that
//! ExtensionConfig in place. (Cluster API removes them before it checks the new ones.)

mod endpoints;
mod error;
mod registration;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

pub use crate::api::runtime::validation::{
    NAMESPACE_NAME_LABEL, NamespaceSelector, SelectorError, parse_group_version,
};
use endpoints::Endpoints;
pub(crate) use endpoints::{Endpoint, host_of};
pub use error::{HandlerError, RegistryError};
pub(crate) use registration::CallUrl;
pub use registration::Registration;

use crate::api::runtime::v1beta2::ExtensionConfig;
use crate::catalog::GroupHook;

#[derive(Debug, Default)]
struct Inner {
    ready: bool,
    items: BTreeMap<String, Arc<Registration>>,
    /// Per ExtensionConfig with registrations: their names and where they are called.
    configs: HashMap<String, Registered>,
    endpoints: Endpoints,
}

/// What one ExtensionConfig registered.
#[derive(Debug)]
struct Registered {
    names: Vec<String>,
    endpoint: Option<Endpoint>,
}

impl Inner {
    /// Replaces the registrations of `config_name`, as the change numbered `generation`.
    fn replace(
        &mut self,
        config_name: &str,
        registrations: Vec<Arc<Registration>>,
        generation: u64,
    ) {
        // Taken before the old one is let go, so an endpoint that stays is never released.
        let endpoint = registrations
            .first()
            .and_then(|r| Endpoint::of(&r.client_config));
        if let Some(endpoint) = &endpoint {
            self.endpoints.acquire(endpoint);
        }
        if let Some(old) = self.configs.remove(config_name) {
            for name in old.names {
                // A name another ExtensionConfig registered since is that one's.
                if self
                    .items
                    .get(&name)
                    .is_some_and(|r| r.extension_config_name == config_name)
                {
                    self.items.remove(&name);
                }
            }
            if let Some(endpoint) = old.endpoint {
                self.endpoints.release(endpoint, generation);
            }
        }
        if registrations.is_empty() {
            return;
        }
        let names = registrations.iter().map(|r| r.name.clone()).collect();
        for r in registrations {
            self.items.insert(r.name.clone(), r);
        }
        self.configs
            .insert(config_name.to_string(), Registered { names, endpoint });
    }
}

#[derive(Debug, Default)]
struct Shared {
    state: RwLock<Inner>,
    /// Bumped, under the write lock, by every change of the registrations.
    generation: AtomicU64,
}

/// A thread-safe store of registrations; cheap to clone (clones share the same store).
#[derive(Clone, Debug, Default)]
pub struct Registry {
    inner: Arc<Shared>,
}

impl Registry {
    /// An empty registry that is not ready.
    pub fn new() -> Self {
        Self::default()
    }

    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        // Writers never leave the map half-updated, so a poisoned lock is still consistent.
        self.inner
            .state
            .read()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.inner
            .state
            .write()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The number the next change will have; read with the write lock held.
    fn next_generation(&self) -> u64 {
        self.generation() + 1
    }

    /// Marks a change; called with the write lock held.
    fn changed(&self) {
        self.inner.generation.fetch_add(1, Ordering::Release);
    }

    /// A counter bumped by every change of the registrations (warm-up, add, remove); equal
    /// values mean nothing changed in between. Failed operations do not bump it.
    pub fn generation(&self) -> u64 {
        self.inner.generation.load(Ordering::Acquire)
    }

    /// Loads the registrations of every ExtensionConfig and marks the registry ready. Takes
    /// any iterator of borrowed ExtensionConfigs: a slice, a `Vec<&ExtensionConfig>`, or what
    /// a kube-runtime store hands out (`store.state().iter().map(|c| &**c)`).
    ///
    /// If any ExtensionConfig is invalid nothing is loaded and the registry stays not ready, so
    /// warm-up can be retried. Warming up a ready registry is an error and changes nothing.
    pub fn warm_up<'a>(
        &self,
        configs: impl IntoIterator<Item = &'a ExtensionConfig>,
    ) -> Result<(), RegistryError> {
        if self.is_ready() {
            return Err(RegistryError::AlreadyWarmedUp);
        }
        let mut built = Vec::new();
        let mut errors = Vec::new();
        for config in configs {
            match registration::registrations_of(config) {
                Ok(r) => built.push((config.metadata.name.clone().unwrap_or_default(), r)),
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(RegistryError::WarmUp { errors });
        }
        let mut inner = self.write();
        if inner.ready {
            return Err(RegistryError::AlreadyWarmedUp);
        }
        let generation = self.next_generation();
        let previous: Vec<String> = inner.configs.keys().cloned().collect();
        for name in previous {
            inner.replace(&name, Vec::new(), generation);
        }
        for (name, registrations) in built {
            inner.replace(&name, registrations, generation);
        }
        inner.ready = true;
        self.changed();
        Ok(())
    }

    /// True once warm-up succeeded.
    pub fn is_ready(&self) -> bool {
        self.read().ready
    }

    /// Replaces every registration of the ExtensionConfig with the handlers in its status.
    /// On error the previous registrations of the ExtensionConfig are kept.
    pub fn add(&self, config: &ExtensionConfig) -> Result<(), RegistryError> {
        let name = config.metadata.name.clone().unwrap_or_default();
        if !self.is_ready() {
            return Err(RegistryError::AddNotReady { config: name });
        }
        let registrations = registration::registrations_of(config)?;
        let mut inner = self.write();
        let generation = self.next_generation();
        inner.replace(&name, registrations, generation);
        self.changed();
        Ok(())
    }

    /// Removes every registration of the ExtensionConfig; an unknown name is not an error.
    pub fn remove(&self, config: &ExtensionConfig) -> Result<(), RegistryError> {
        self.remove_by_name(config.metadata.name.as_deref().unwrap_or_default())
    }

    /// Removes every registration of the ExtensionConfig named `config_name`.
    pub fn remove_by_name(&self, config_name: &str) -> Result<(), RegistryError> {
        let mut inner = self.write();
        if !inner.ready {
            return Err(RegistryError::RemoveNotReady {
                config: config_name.to_string(),
            });
        }
        let generation = self.next_generation();
        inner.replace(config_name, Vec::new(), generation);
        self.changed();
        Ok(())
    }

    /// Every registration of the hook's group and name, in any version, sorted by handler name.
    pub fn list(&self, group_hook: &GroupHook) -> Result<Vec<Arc<Registration>>, RegistryError> {
        if group_hook.group.is_empty() {
            return Err(RegistryError::EmptyGroupHook { field: "Group" });
        }
        if group_hook.hook.is_empty() {
            return Err(RegistryError::EmptyGroupHook { field: "Hook" });
        }
        let inner = self.read();
        if !inner.ready {
            return Err(RegistryError::ListNotReady {
                group_hook: group_hook.clone(),
            });
        }
        Ok(inner
            .items
            .values()
            .filter(|r| r.gvh.group == group_hook.group && r.gvh.hook == group_hook.hook)
            .cloned()
            .collect())
    }

    /// The registration with the full handler name `name`.
    pub fn get(&self, name: &str) -> Result<Arc<Registration>, RegistryError> {
        let inner = self.read();
        if !inner.ready {
            return Err(RegistryError::GetNotReady {
                handler: name.to_string(),
            });
        }
        inner
            .items
            .get(name)
            .cloned()
            .ok_or_else(|| RegistryError::NotRegistered {
                handler: name.to_string(),
            })
    }

    /// Every registration, sorted by handler name (empty before warm-up).
    pub fn snapshot(&self) -> Vec<Arc<Registration>> {
        self.read().items.values().cloned().collect()
    }

    /// The current generation and the endpoints released after generation `since` (`None`:
    /// too far back, check everything with [`Registry::uses_endpoint`]).
    pub(crate) fn released_since(&self, since: u64) -> (u64, Option<Vec<Endpoint>>) {
        let inner = self.read();
        (self.generation(), inner.endpoints.released_since(since))
    }

    /// Calls `f` with a test of whether an ExtensionConfig with registrations is called at a
    /// host with a CA bundle, under one read of the registry.
    pub(crate) fn with_endpoints_in_use<R>(
        &self,
        f: impl FnOnce(&dyn Fn(&str, &[u8]) -> bool) -> R,
    ) -> R {
        let inner = self.read();
        f(&|host, ca_bundle| inner.endpoints.contains(host, ca_bundle))
    }
}
