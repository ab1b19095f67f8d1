//! The controller's field index: Secret `<namespace>/<name>` → the ExtensionConfigs whose
//! `runtime.cluster.x-k8s.io/inject-ca-from-secret` annotation names it (Cluster API indexes
//! `metadata.annotations[runtime.cluster.x-k8s.io/inject-ca-from-secret]` the same way).
//!
//! The index follows the ExtensionConfig watch: feed it every [`Event`] of that watch
//! with [`SecretIndex::apply`] and a Secret event is mapped with [`SecretIndex::lookup`] in
//! time proportional to the answer, not to the number of ExtensionConfigs. A re-list (`Init`,
//! `InitApply`…, `InitDone`) is buffered and replaces the index at once when it completes, as
//! kube-runtime's reflector store does, so objects deleted while the watch was down leave the
//! index too.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, PoisonError, RwLock};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use kube::ResourceExt;
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher::Event;

use crate::decide;

/// The entries of one index generation.
#[derive(Debug, Default)]
struct Entries {
    /// Annotation value → names of the ExtensionConfigs carrying it.
    by_value: HashMap<String, BTreeSet<String>>,
    /// ExtensionConfig name → its indexed annotation value.
    by_config: HashMap<String, String>,
}

impl Entries {
    /// Indexes `config` under its current annotation value (or removes it without one).
    fn upsert(&mut self, config: &ExtensionConfig) {
        let name = config.name_any();
        let value = decide::index_values(config).into_iter().next();
        if let Some(old) = self.by_config.get(&name) {
            if Some(old) == value.as_ref() {
                return;
            }
            self.remove(&name);
        }
        if let Some(value) = value {
            self.by_value
                .entry(value.clone())
                .or_default()
                .insert(name.clone());
            self.by_config.insert(name, value);
        }
    }

    /// Forgets the ExtensionConfig `name`.
    fn remove(&mut self, name: &str) {
        let Some(value) = self.by_config.remove(name) else {
            return;
        };
        if let Some(names) = self.by_value.get_mut(&value) {
            names.remove(name);
            if names.is_empty() {
                self.by_value.remove(&value);
            }
        }
    }
}

#[derive(Debug, Default)]
struct State {
    live: Entries,
    /// The re-list in progress, if any (`Init` seen, `InitDone` not yet).
    relist: Option<Entries>,
}

/// Secret reference → ExtensionConfig names, kept in step with the ExtensionConfig watch.
/// Cheap to clone (the clones share the index).
#[derive(Clone, Debug, Default)]
pub struct SecretIndex {
    state: Arc<RwLock<State>>,
}

impl SecretIndex {
    /// An empty index.
    pub fn new() -> Self {
        SecretIndex::default()
    }

    /// Applies one event of the ExtensionConfig watch.
    pub fn apply(&self, event: &Event<ExtensionConfig>) {
        let mut state = self.state.write().unwrap_or_else(PoisonError::into_inner);
        match event {
            Event::Apply(config) => {
                state.live.upsert(config);
                // An object changed during a re-list is current in the next generation too.
                if let Some(relist) = state.relist.as_mut() {
                    relist.upsert(config);
                }
            }
            Event::Delete(config) => {
                let name = config.name_any();
                state.live.remove(&name);
                if let Some(relist) = state.relist.as_mut() {
                    relist.remove(&name);
                }
            }
            Event::Init => state.relist = Some(Entries::default()),
            Event::InitApply(config) => state
                .relist
                .get_or_insert_with(Entries::default)
                .upsert(config),
            Event::InitDone => {
                if let Some(relist) = state.relist.take() {
                    state.live = relist;
                }
            }
        }
    }

    /// The ExtensionConfigs whose annotation names the Secret `namespace/name`, by name.
    pub fn lookup(&self, namespace: &str, name: &str) -> Vec<ObjectRef<ExtensionConfig>> {
        let key = format!("{namespace}/{name}");
        let state = self.state.read().unwrap_or_else(PoisonError::into_inner);
        state
            .live
            .by_value
            .get(&key)
            .map(|names| names.iter().map(|n| ObjectRef::new(n)).collect())
            .unwrap_or_default()
    }

    /// How many ExtensionConfigs are indexed (those with the annotation).
    pub fn len(&self) -> usize {
        self.state
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .live
            .by_config
            .len()
    }

    /// True when no ExtensionConfig is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use capi_runtime::api::runtime::INJECT_CA_FROM_SECRET_ANNOTATION;

    use super::*;

    fn config(name: &str, annotation: Option<&str>) -> ExtensionConfig {
        let mut c = ExtensionConfig::default();
        c.metadata.name = Some(name.to_string());
        if let Some(value) = annotation {
            c.metadata.annotations = Some(BTreeMap::from([(
                INJECT_CA_FROM_SECRET_ANNOTATION.to_string(),
                value.to_string(),
            )]));
        }
        c
    }

    fn names(index: &SecretIndex, namespace: &str, name: &str) -> Vec<String> {
        index
            .lookup(namespace, name)
            .into_iter()
            .map(|r| r.name)
            .collect()
    }

    #[test]
    fn add_indexes_the_annotation_value_and_nothing_without_it() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        index.apply(&Event::Apply(config("b", Some("ns/ca"))));
        index.apply(&Event::Apply(config("c", Some("other/ca"))));
        index.apply(&Event::Apply(config("plain", None)));
        assert_eq!(names(&index, "ns", "ca"), ["a", "b"]);
        assert_eq!(names(&index, "other", "ca"), ["c"]);
        assert!(names(&index, "ns", "other").is_empty());
        assert_eq!(index.len(), 3);
        // The lookup is by the exact raw value, as Cluster API's index is.
        assert!(names(&index, "ns/ca", "").is_empty());
    }

    #[test]
    fn a_malformed_value_is_indexed_raw_but_no_secret_key_reaches_it() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("a", Some("no-slash"))));
        assert_eq!(index.len(), 1);
        assert!(names(&index, "no-slash", "").is_empty());
        assert!(names(&index, "", "no-slash").is_empty());
    }

    #[test]
    fn modify_without_annotation_change_keeps_the_entry() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        let mut changed = config("a", Some("ns/ca"));
        changed.spec.client_config.url = "https://elsewhere".into();
        index.apply(&Event::Apply(changed));
        assert_eq!(names(&index, "ns", "ca"), ["a"]);
        assert_eq!(index.len(), 1);
    }

    #[test]
    fn annotation_change_moves_the_entry_and_removal_drops_it() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        index.apply(&Event::Apply(config("a", Some("ns/rotated"))));
        assert!(names(&index, "ns", "ca").is_empty());
        assert_eq!(names(&index, "ns", "rotated"), ["a"]);
        index.apply(&Event::Apply(config("a", None)));
        assert!(names(&index, "ns", "rotated").is_empty());
        assert!(index.is_empty());
        // And back.
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        assert_eq!(names(&index, "ns", "ca"), ["a"]);
    }

    #[test]
    fn delete_drops_the_entry_and_keeps_the_others() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        index.apply(&Event::Apply(config("b", Some("ns/ca"))));
        index.apply(&Event::Delete(config("a", Some("ns/ca"))));
        assert_eq!(names(&index, "ns", "ca"), ["b"]);
        // Deleting what is not indexed is harmless.
        index.apply(&Event::Delete(config("never", None)));
        index.apply(&Event::Delete(config("b", Some("ns/ca"))));
        assert!(names(&index, "ns", "ca").is_empty());
        assert!(index.is_empty());
    }

    #[test]
    fn relist_replaces_the_index_when_done_and_not_before() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("gone", Some("ns/ca"))));
        index.apply(&Event::Apply(config("kept", Some("ns/ca"))));
        index.apply(&Event::Apply(config("moved", Some("ns/ca"))));

        index.apply(&Event::Init);
        index.apply(&Event::InitApply(config("kept", Some("ns/ca"))));
        index.apply(&Event::InitApply(config("moved", Some("ns/other"))));
        index.apply(&Event::InitApply(config("new", Some("ns/ca"))));
        // Until the list is complete, lookups answer from the previous generation.
        assert_eq!(names(&index, "ns", "ca"), ["gone", "kept", "moved"]);
        assert!(names(&index, "ns", "other").is_empty());

        index.apply(&Event::InitDone);
        assert_eq!(names(&index, "ns", "ca"), ["kept", "new"]);
        assert_eq!(names(&index, "ns", "other"), ["moved"]);
        assert_eq!(index.len(), 3);
    }

    #[test]
    fn events_during_a_relist_reach_both_generations() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        index.apply(&Event::Init);
        index.apply(&Event::InitApply(config("a", Some("ns/ca"))));
        index.apply(&Event::Apply(config("b", Some("ns/ca"))));
        index.apply(&Event::Delete(config("a", Some("ns/ca"))));
        assert_eq!(names(&index, "ns", "ca"), ["b"]);
        index.apply(&Event::InitDone);
        assert_eq!(names(&index, "ns", "ca"), ["b"]);
    }

    #[test]
    fn an_empty_relist_empties_the_index() {
        let index = SecretIndex::new();
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        index.apply(&Event::Init);
        index.apply(&Event::InitDone);
        assert!(index.is_empty());
        assert!(names(&index, "ns", "ca").is_empty());
    }

    #[test]
    fn clones_share_the_index() {
        let index = SecretIndex::new();
        let clone = index.clone();
        index.apply(&Event::Apply(config("a", Some("ns/ca"))));
        assert_eq!(names(&clone, "ns", "ca"), ["a"]);
    }
}
