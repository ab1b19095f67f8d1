//! The ExtensionConfigs the controller's watch holds, with the controller's state of each, and
//! the registry kept in step with them: the one place where registrations go away.
//!
//! Feed [`WatchedConfigs::apply`] every event of the ExtensionConfig watch (as
//! [`crate::index::SecretIndex`] is fed). An ExtensionConfig leaves when the watch deletes it,
//! when it gets a deletion timestamp, or when a re-list (`Init`, `InitApply`…, `InitDone`)
//! completes without it; it then loses its registrations and everything the controller kept
//! about it (the time of its last reconcile, its failure count). This is Cluster API's one
//! deletion path (its informer reports each of these as a deletion, and its reconcile then
//! unregisters), in the order the watch saw them.
//!
//! Registering goes through [`WatchedConfigs::register`], under the same lock: it registers
//! only an object the watch still holds (same UID, not being deleted), so a reconcile that
//! finishes after its object was deleted cannot bring the registrations back. State is kept
//! only for watched objects, so a late reconcile of a deleted object leaves nothing behind
//! either. It also skips a registration that would change nothing: each object's last
//! registered spec and handlers are kept, and the same again is not written to the registry
//! (every write makes the runtime client re-examine its HTTP clients against all
//! registrations, and most reconciles, those that follow the controller's own status patch,
//! discover what is registered already). This assumes the registry entries of a watched
//! object are written through here only, as the controller does.
//!
//! Before the registry is warmed up, removals have nothing to remove from: warm-up loads the
//! registry from its own list, and [`WatchedConfigs::sweep`] (called when warm-up succeeded)
//! removes what the watch no longer holds by then.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::Client as RuntimeClient;
use capi_runtime::go::errors::chain;
use capi_runtime::registry::RegistryError;
use kube::ResourceExt;
use kube::runtime::watcher::Event;

/// What the controller keeps about one watched ExtensionConfig.
#[derive(Debug, Clone, Default)]
struct Entry {
    /// The object's UID: a new object of the same name starts afresh.
    uid: Option<String>,
    /// When its last reconcile started (rate limiting).
    last_started: Option<Instant>,
    /// Consecutive failed reconciles (back-off).
    failures: u32,
    /// What its registrations were last made from (see [`registered_from`]), while the
    /// registry holds them.
    registered: Option<Vec<u8>>,
}

/// What the registrations of `config` are made from, as bytes to compare: its spec (client
/// configuration, namespace selector, settings) and the handlers in its status. `None` when it
/// does not encode (it is then always registered).
fn registered_from(config: &ExtensionConfig) -> Option<Vec<u8>> {
    serde_json::to_vec(&(&config.spec, &config.status.handlers)).ok()
}

#[derive(Debug, Default)]
struct State {
    live: HashMap<String, Entry>,
    /// The re-list in progress, if any (`Init` seen, `InitDone` not yet).
    relist: Option<HashMap<String, Entry>>,
    /// Whether a list has completed (the live set is the cluster's, not empty for lack of one).
    listed: bool,
}

/// The watched ExtensionConfigs and the controller's state of each; cheap to clone (clones
/// share it).
#[derive(Clone, Debug, Default)]
pub struct WatchedConfigs {
    state: Arc<Mutex<State>>,
}

/// Whether the watch shows the object as present (not being deleted).
fn present(config: &ExtensionConfig) -> bool {
    config.metadata.deletion_timestamp.is_none()
}

/// The entry `config` gets: `previous` when it is of the same object, a fresh one otherwise.
fn entry_for(config: &ExtensionConfig, previous: Option<&Entry>) -> Entry {
    match previous {
        Some(e) if e.uid == config.metadata.uid => e.clone(),
        _ => Entry {
            uid: config.metadata.uid.clone(),
            ..Entry::default()
        },
    }
}

impl WatchedConfigs {
    /// Nothing watched yet.
    pub fn new() -> Self {
        WatchedConfigs::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change below leaves the maps consistent, so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies one event of the ExtensionConfig watch: objects that left lose their state and,
    /// once the registry is ready, their registrations in `runtime`'s registry.
    pub fn apply(&self, event: &Event<ExtensionConfig>, runtime: &RuntimeClient) {
        let mut state = self.lock();
        match event {
            Event::Apply(config) if present(config) => {
                let name = config.name_any();
                let entry = entry_for(config, state.live.get(&name));
                state.live.insert(name.clone(), entry);
                // An object changed during a re-list is current in the next generation too.
                if let Some(relist) = state.relist.as_mut() {
                    let entry = entry_for(config, relist.get(&name));
                    relist.insert(name, entry);
                }
            }
            Event::Apply(config) | Event::Delete(config) => {
                let name = config.name_any();
                state.live.remove(&name);
                if let Some(relist) = state.relist.as_mut() {
                    relist.remove(&name);
                }
                unregister(runtime, &name);
            }
            Event::Init => state.relist = Some(HashMap::new()),
            Event::InitApply(config) => {
                if present(config) {
                    let name = config.name_any();
                    let entry = entry_for(config, state.live.get(&name));
                    state
                        .relist
                        .get_or_insert_with(HashMap::new)
                        .insert(name, entry);
                }
            }
            Event::InitDone => {
                if let Some(relist) = state.relist.take() {
                    state.live = relist;
                }
                state.listed = true;
                sweep_locked(&state, runtime);
            }
        }
    }

    /// Removes the registrations of every ExtensionConfig the watch does not hold, once the
    /// watch has listed and the registry is ready: call it when warm-up succeeded (warm-up
    /// registers what its own list held, which may have gone since).
    pub fn sweep(&self, runtime: &RuntimeClient) {
        sweep_locked(&self.lock(), runtime);
    }

    /// Registers `config` in `runtime`'s registry if the watch still holds that object (same
    /// UID, not being deleted); `Ok(false)` when it does not, and nothing is registered. When
    /// the last registration of this object was made from the same spec and handlers, the
    /// registry already holds what this one would write, and it is left as it is.
    pub fn register(
        &self,
        runtime: &RuntimeClient,
        config: &ExtensionConfig,
    ) -> Result<bool, RegistryError> {
        let mut state = self.lock();
        let Some(entry) = state
            .live
            .get_mut(&config.name_any())
            .filter(|e| e.uid == config.metadata.uid)
        else {
            return Ok(false);
        };
        if !present(config) {
            return Ok(false);
        }
        let from = registered_from(config);
        if from.is_some() && entry.registered == from {
            return Ok(true);
        }
        entry.registered = None;
        runtime.register(config)?;
        entry.registered = from;
        Ok(true)
    }

    /// Notes that a reconcile of `name` starts at `now`, unless the previous one started less
    /// than `min_interval` before: then returns how long to wait, and notes nothing. An object
    /// the watch does not hold gets no state (and no wait).
    pub fn start(&self, name: &str, now: Instant, min_interval: Duration) -> Option<Duration> {
        let mut state = self.lock();
        let entry = state.live.get_mut(name)?;
        if let Some(at) = entry.last_started {
            let since = now.saturating_duration_since(at);
            if since < min_interval {
                return Some(min_interval - since);
            }
        }
        entry.last_started = Some(now);
        None
    }

    /// Counts a failed reconcile of `name`; returns the number of failures before this one (0
    /// for an object the watch does not hold, which gets no state).
    pub fn record_failure(&self, name: &str) -> u32 {
        let mut state = self.lock();
        match state.live.get_mut(name) {
            Some(entry) => {
                let before = entry.failures;
                entry.failures = before.saturating_add(1);
                before
            }
            None => 0,
        }
    }

    /// Forgets the failures of `name` (its reconcile succeeded).
    pub fn reset_failures(&self, name: &str) {
        if let Some(entry) = self.lock().live.get_mut(name) {
            entry.failures = 0;
        }
    }

    /// Whether the watch holds an ExtensionConfig named `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.lock().live.contains_key(name)
    }

    /// How many entries are kept, those of a re-list in progress included.
    pub fn len(&self) -> usize {
        let state = self.lock();
        state.live.len() + state.relist.as_ref().map_or(0, HashMap::len)
    }

    /// True when nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Removes the registrations of the ExtensionConfig `name`, if it has any and the registry is
/// ready, with the line Cluster API logs.
fn unregister(runtime: &RuntimeClient, name: &str) {
    if !runtime.is_ready()
        || !runtime
            .registry()
            .snapshot()
            .iter()
            .any(|r| r.extension_config_name == name)
    {
        return;
    }
    tracing::info!(ExtensionConfig = %name, "Unregistering ExtensionConfig information from registry");
    if let Err(e) = runtime.unregister_by_name(name) {
        tracing::error!(ExtensionConfig = %name, error = %chain(&e), "failed to unregister ExtensionConfig");
    }
}

fn sweep_locked(state: &State, runtime: &RuntimeClient) {
    if !state.listed || !runtime.is_ready() {
        return;
    }
    let registered: HashSet<String> = runtime
        .registry()
        .snapshot()
        .iter()
        .map(|r| r.extension_config_name.clone())
        .collect();
    for name in registered {
        if !state.live.contains_key(&name) {
            unregister(runtime, &name);
        }
    }
}

#[cfg(test)]
mod tests {

    use capi_runtime::api::runtime::v1beta2::{
        ExtensionConfigSpec, ExtensionHandler, GroupVersionHook,
    };
    use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, Time};
    use capi_runtime::k8s_openapi::jiff::Timestamp;

    use super::*;

    fn runtime() -> RuntimeClient {
        let c = RuntimeClient::builder().build().unwrap();
        c.warm_up([]).unwrap();
        c
    }

    /// An ExtensionConfig `name` (UID `uid`) with one discovered handler.
    fn config(name: &str, uid: &str) -> ExtensionConfig {
        let mut c = ExtensionConfig::new(name, ExtensionConfigSpec::default());
        c.metadata.uid = Some(uid.to_string());
        c.spec.client_config.url = "https://127.0.0.1:1".into();
        c.spec.namespace_selector = Some(LabelSelector::default());
        c.status.handlers = vec![ExtensionHandler {
            name: format!("first.{name}"),
            request_hook: GroupVersionHook {
                api_version: "hooks.runtime.cluster.x-k8s.io/v1alpha1".into(),
                hook: "BeforeClusterCreate".into(),
            },
            ..ExtensionHandler::default()
        }];
        c
    }

    fn registered(runtime: &RuntimeClient) -> Vec<String> {
        runtime
            .registry()
            .snapshot()
            .iter()
            .map(|r| r.name.clone())
            .collect()
    }

    fn listed(watched: &WatchedConfigs, runtime: &RuntimeClient, configs: &[ExtensionConfig]) {
        watched.apply(&Event::Init, runtime);
        for c in configs {
            watched.apply(&Event::InitApply(c.clone()), runtime);
        }
        watched.apply(&Event::InitDone, runtime);
    }

    #[test]
    fn ten_thousand_create_delete_cycles_leave_nothing() {
        let runtime = runtime();
        let watched = WatchedConfigs::new();
        listed(&watched, &runtime, &[]);
        let min = Duration::from_secs(1);
        let start = Instant::now();
        for i in 0..10_000u32 {
            // The same name again and again (a fresh UID each time), and new names.
            let name = if i % 2 == 0 {
                "again".to_string()
            } else {
                format!("ext{i}")
            };
            let c = config(&name, &format!("uid-{i}"));
            watched.apply(&Event::Apply(c.clone()), &runtime);
            let now = start + Duration::from_secs(u64::from(i));
            assert_eq!(watched.start(&name, now, min), None);
            assert!(watched.register(&runtime, &c).unwrap());
            assert_eq!(watched.record_failure(&name), 0);
            assert_eq!(watched.record_failure(&name), 1);
            watched.apply(&Event::Delete(c.clone()), &runtime);
            // A reconcile that ends after the deletion records nothing and registers nothing.
            assert_eq!(watched.record_failure(&name), 0);
            assert_eq!(watched.start(&name, now, min), None);
            assert!(!watched.register(&runtime, &c).unwrap());
            assert!(watched.is_empty(), "cycle {i}: {} entries", watched.len());
            assert!(registered(&runtime).is_empty(), "cycle {i}");
        }
    }

    #[test]
    fn a_relist_drops_what_it_no_longer_holds() {
        let runtime = runtime();
        let watched = WatchedConfigs::new();
        let (a, b) = (config("a", "ua"), config("b", "ub"));
        listed(&watched, &runtime, &[a.clone(), b.clone()]);
        for c in [&a, &b] {
            assert!(watched.register(&runtime, c).unwrap());
        }
        watched.record_failure("a");
        assert_eq!(registered(&runtime), ["first.a", "first.b"]);
        // `b` was deleted while the watch was down: the next list completes without it.
        for _ in 0..1000 {
            listed(&watched, &runtime, std::slice::from_ref(&a));
        }
        assert_eq!(registered(&runtime), ["first.a"]);
        assert_eq!(watched.len(), 1);
        assert!(!watched.contains("b"));
        // `a` kept its state across the re-lists (same UID).
        assert_eq!(watched.record_failure("a"), 1);
        // A re-list that holds a new object of the same name starts it afresh.
        listed(&watched, &runtime, &[config("a", "ua2")]);
        assert_eq!(watched.record_failure("a"), 0);
        // The old object's late reconcile does not register it.
        assert!(!watched.register(&runtime, &a).unwrap());
        // An empty list empties everything.
        listed(&watched, &runtime, &[]);
        assert!(watched.is_empty());
        assert!(registered(&runtime).is_empty());
    }

    #[test]
    fn an_object_being_deleted_leaves_at_once() {
        let runtime = runtime();
        let watched = WatchedConfigs::new();
        let c = config("a", "ua");
        listed(&watched, &runtime, std::slice::from_ref(&c));
        assert!(watched.register(&runtime, &c).unwrap());
        let mut deleting = c.clone();
        deleting.metadata.deletion_timestamp = Some(Time(Timestamp::from_second(1).unwrap()));
        watched.apply(&Event::Apply(deleting.clone()), &runtime);
        assert!(watched.is_empty());
        assert!(registered(&runtime).is_empty());
        assert!(!watched.register(&runtime, &deleting).unwrap());
        // Nor is one being deleted taken in by a re-list.
        listed(&watched, &runtime, &[deleting]);
        assert!(watched.is_empty());
    }

    #[test]
    fn warm_up_loaded_registrations_are_swept_once_both_are_ready() {
        let watched = WatchedConfigs::new();
        let cold = RuntimeClient::builder().build().unwrap();
        let (a, gone) = (config("a", "ua"), config("gone", "ug"));
        // The watch lists `a` only (`gone` was deleted after warm-up listed it) before the
        // registry is ready: nothing to remove yet.
        listed(&watched, &cold, std::slice::from_ref(&a));
        watched.sweep(&cold);
        cold.warm_up([&a, &gone]).unwrap();
        assert_eq!(registered(&cold), ["first.a", "first.gone"]);
        watched.sweep(&cold);
        assert_eq!(registered(&cold), ["first.a"]);

        // The other order: warm-up first, then the watch's first list.
        let watched = WatchedConfigs::new();
        let runtime = RuntimeClient::builder().build().unwrap();
        runtime.warm_up([&a, &gone]).unwrap();
        watched.sweep(&runtime);
        assert_eq!(
            registered(&runtime).len(),
            2,
            "the watch has not listed yet"
        );
        listed(&watched, &runtime, std::slice::from_ref(&a));
        assert_eq!(registered(&runtime), ["first.a"]);
    }

    /// The reconcile that follows the controller's own status patch discovers the same
    /// handlers again: registering them again would change nothing, and leaves the registry
    /// untouched (its generation is where the runtime client's HTTP-client pruning starts).
    /// Any change of the spec or the handlers, or a new object of the same name, registers.
    #[test]
    fn registering_the_same_again_leaves_the_registry_alone() {
        let runtime = runtime();
        let watched = WatchedConfigs::new();
        let a = config("a", "ua");
        listed(&watched, &runtime, std::slice::from_ref(&a));
        let generation = || runtime.registry().generation();

        assert!(watched.register(&runtime, &a).unwrap());
        let after_first = generation();
        for _ in 0..3 {
            assert!(watched.register(&runtime, &a).unwrap());
        }
        assert_eq!(generation(), after_first, "the same registration again");
        // Status conditions and metadata are not what registrations are made from.
        let mut relabelled = a.clone();
        relabelled.metadata.labels = Some([("x".to_string(), "y".to_string())].into());
        relabelled.metadata.generation = Some(7);
        assert!(watched.register(&runtime, &relabelled).unwrap());
        assert_eq!(generation(), after_first);

        // Settings, client configuration and handlers are.
        let mut with_settings = a.clone();
        with_settings.spec.settings.insert("k".into(), "v".into());
        assert!(watched.register(&runtime, &with_settings).unwrap());
        assert!(generation() > after_first);
        assert_eq!(
            runtime.registry().snapshot()[0]
                .settings
                .get("k")
                .map(String::as_str),
            Some("v")
        );
        let g = generation();
        let mut moved = with_settings.clone();
        moved.spec.client_config.url = "https://127.0.0.1:2".into();
        assert!(watched.register(&runtime, &moved).unwrap());
        assert!(generation() > g);
        let g = generation();
        let mut renamed = moved.clone();
        renamed.status.handlers[0].name = "second.a".into();
        assert!(watched.register(&runtime, &renamed).unwrap());
        assert!(generation() > g);
        assert_eq!(registered(&runtime), ["second.a"]);

        // Deleted and created again under the same name: registered again, even unchanged.
        watched.apply(&Event::Delete(renamed.clone()), &runtime);
        assert!(registered(&runtime).is_empty());
        let mut again = renamed.clone();
        again.metadata.uid = Some("ua2".into());
        watched.apply(&Event::Apply(again.clone()), &runtime);
        assert!(watched.register(&runtime, &again).unwrap());
        assert_eq!(registered(&runtime), ["second.a"]);
        // And a registration the registry refused is not taken as made.
        let cold = RuntimeClient::builder().build().unwrap();
        let fresh = WatchedConfigs::new();
        listed(&fresh, &cold, std::slice::from_ref(&a));
        assert!(fresh.register(&cold, &a).is_err());
        cold.warm_up([]).unwrap();
        assert!(fresh.register(&cold, &a).unwrap());
        assert_eq!(registered(&cold), ["first.a"]);
    }

    #[test]
    fn reconciles_of_one_object_are_spaced() {
        let runtime = runtime();
        let watched = WatchedConfigs::new();
        listed(&watched, &runtime, &[config("a", "ua")]);
        let t0 = Instant::now();
        let min = Duration::from_secs(1);
        assert_eq!(watched.start("a", t0, min), None);
        assert_eq!(
            watched.start("a", t0 + Duration::from_millis(300), min),
            Some(Duration::from_millis(700))
        );
        assert_eq!(watched.start("a", t0 + min, min), None);
        watched.record_failure("a");
        watched.reset_failures("a");
        assert_eq!(watched.record_failure("a"), 0);
    }
}
