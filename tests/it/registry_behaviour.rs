//! The registry: ready semantics, add/replace/remove, list and get, and consistency under
//! concurrent readers and writers.

use crate::support::extension;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use capi_runtime::catalog::GroupHook;
use capi_runtime::go::errors::chain;
use capi_runtime::registry::{Registry, RegistryError};
use extension::{config, handler, selector_in};

const GROUP: &str = "hooks.runtime.cluster.x-k8s.io";

fn gh(hook: &str) -> GroupHook {
    GroupHook {
        group: GROUP.to_string(),
        hook: hook.to_string(),
    }
}

fn names(registry: &Registry, hook: &str) -> Vec<String> {
    registry
        .list(&gh(hook))
        .unwrap()
        .iter()
        .map(|r| r.name.clone())
        .collect()
}

const URL: &str = "https://extension.example";

#[test]
fn a_cold_registry_refuses_every_operation() {
    let registry = Registry::new();
    let cfg = config(
        "test-extension",
        URL,
        "",
        &[handler("handler", "BeforeClusterUpgrade")],
    );
    assert!(!registry.is_ready());
    assert!(registry.add(&cfg).unwrap_err().is_not_ready());
    assert!(registry.remove(&cfg).unwrap_err().is_not_ready());
    assert!(
        registry
            .list(&gh("BeforeClusterUpgrade"))
            .unwrap_err()
            .is_not_ready()
    );
    let err = registry.get("handler.test-extension").unwrap_err();
    assert_eq!(
        chain(&err).to_string(),
        "failed to get extension handler \"handler.test-extension\" from registry: invalid operation: Get cannot be called on a registry not yet ready"
    );
}

#[test]
fn warm_up_once_then_add_list_get_remove() {
    let registry = Registry::new();
    let cfg = config(
        "test-extension",
        URL,
        "",
        &[handler("handler", "BeforeClusterUpgrade")],
    );
    registry.warm_up(std::slice::from_ref(&cfg)).unwrap();
    assert!(registry.is_ready());
    assert!(matches!(
        registry.warm_up(&[]),
        Err(RegistryError::AlreadyWarmedUp)
    ));
    assert!(
        registry.is_ready(),
        "a second warm-up leaves the registry ready"
    );

    assert_eq!(
        names(&registry, "BeforeClusterUpgrade"),
        ["handler.test-extension"]
    );
    assert_eq!(
        registry
            .get("handler.test-extension")
            .unwrap()
            .extension_config_name,
        "test-extension"
    );
    assert_eq!(
        registry.get("nope").unwrap_err().to_string(),
        "failed to get extension handler \"nope\" from registry: handler with name \"nope\" has not been registered"
    );
    assert!(matches!(
        registry.list(&GroupHook::default()),
        Err(RegistryError::EmptyGroupHook { field: "Group" })
    ));
    assert!(matches!(
        registry.list(&gh("")),
        Err(RegistryError::EmptyGroupHook { field: "Hook" })
    ));

    // An ExtensionConfig without handlers adds nothing; removing an unknown one is fine.
    registry.add(&config("empty", URL, "", &[])).unwrap();
    registry.remove(&config("unknown", URL, "", &[])).unwrap();
    registry.remove(&cfg).unwrap();
    assert!(names(&registry, "BeforeClusterUpgrade").is_empty());
}

#[test]
fn several_configs_add_replace_and_remove() {
    let registry = Registry::new();
    registry
        .warm_up(&[config(
            "ext1",
            URL,
            "",
            &[
                handler("first", "BeforeClusterUpgrade"),
                handler("second", "BeforeClusterUpgrade"),
                handler("third", "AfterClusterUpgrade"),
            ],
        )])
        .unwrap();
    assert_eq!(
        names(&registry, "BeforeClusterUpgrade"),
        ["first.ext1", "second.ext1"]
    );
    assert_eq!(names(&registry, "AfterClusterUpgrade"), ["third.ext1"]);

    registry
        .add(&config(
            "ext2",
            URL,
            "",
            &[handler("fourth", "AfterClusterUpgrade")],
        ))
        .unwrap();
    assert_eq!(
        names(&registry, "AfterClusterUpgrade"),
        ["fourth.ext2", "third.ext1"]
    );

    // Adding again replaces the config's handlers.
    registry
        .add(&config(
            "ext1",
            URL,
            "",
            &[handler("first", "BeforeClusterUpgrade")],
        ))
        .unwrap();
    assert_eq!(names(&registry, "BeforeClusterUpgrade"), ["first.ext1"]);
    assert_eq!(names(&registry, "AfterClusterUpgrade"), ["fourth.ext2"]);

    registry.remove(&config("ext1", URL, "", &[])).unwrap();
    assert!(names(&registry, "BeforeClusterUpgrade").is_empty());
    assert_eq!(names(&registry, "AfterClusterUpgrade"), ["fourth.ext2"]);
}

#[test]
fn a_failed_add_keeps_the_previous_handlers() {
    let registry = Registry::new();
    registry
        .warm_up(&[config(
            "ext",
            URL,
            "",
            &[handler("old", "BeforeClusterUpgrade")],
        )])
        .unwrap();

    let mut bad_version = config("ext", URL, "", &[handler("new", "BeforeClusterUpgrade")]);
    bad_version.status.handlers[0].request_hook.api_version = "too/many/slashes".into();
    let err = registry.add(&bad_version).unwrap_err();
    assert_eq!(
        chain(&err).to_string(),
        "failed to add ExtensionConfig \"ext\" to registry: failed to add extension handler \"new.ext\" to registry: failed to parse GroupVersion \"too/many/slashes\" of handler \"new.ext\": unexpected GroupVersion string: too/many/slashes"
    );
    let mut bad_selector = config("ext", URL, "", &[handler("new", "BeforeClusterUpgrade")]);
    let mut selector = selector_in("env", &["prod"]);
    selector.match_expressions.as_mut().unwrap()[0].operator = "bad-operator".into();
    bad_selector.spec.namespace_selector = Some(selector);
    let err = registry.add(&bad_selector).unwrap_err();
    assert!(
        chain(&err)
            .to_string()
            .contains("failed to create namespaceSelector"),
        "{err}"
    );

    assert_eq!(names(&registry, "BeforeClusterUpgrade"), ["old.ext"]);
}

#[test]
fn a_failed_warm_up_loads_nothing_and_can_be_retried() {
    let registry = Registry::new();
    let good = config("good", URL, "", &[handler("h", "BeforeClusterUpgrade")]);
    let mut bad = config("bad", URL, "", &[handler("h", "BeforeClusterUpgrade")]);
    bad.status.handlers[0].request_hook.api_version = "a/b/c".into();
    let err = registry.warm_up(&[good.clone(), bad]).unwrap_err();
    assert!(
        matches!(err, RegistryError::WarmUp { ref errors } if errors.len() == 1),
        "{err}"
    );
    assert!(!registry.is_ready());
    registry.warm_up(&[good]).unwrap();
    assert_eq!(names(&registry, "BeforeClusterUpgrade"), ["h.good"]);
}

#[test]
fn concurrent_readers_always_see_whole_configs() {
    // Writers flip each config between two handler sets; readers must only ever see all of
    // one set or all of the other, never a mix or a partial set.
    let registry = Registry::new();
    let set = |name: &str, generation: usize| {
        let hs: Vec<_> = (0..4)
            .map(|i| handler(&format!("g{generation}-h{i}"), "BeforeClusterUpgrade"))
            .collect();
        config(name, URL, "", &hs)
    };
    let configs = ["c0", "c1", "c2"];
    registry
        .warm_up(&configs.iter().map(|c| set(c, 0)).collect::<Vec<_>>())
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let mut writers = Vec::new();
        for (w, name) in configs.iter().enumerate() {
            let registry = registry.clone();
            writers.push(scope.spawn(move || {
                for round in 0..400 {
                    if (round + w) % 7 == 0 {
                        registry.remove_by_name(name).unwrap();
                    } else {
                        registry.add(&set(name, round % 2)).unwrap();
                    }
                }
            }));
        }
        let mut readers = Vec::new();
        for _ in 0..3 {
            let registry = registry.clone();
            let stop = stop.clone();
            readers.push(scope.spawn(move || {
                let mut reads = 0usize;
                while !stop.load(Ordering::Relaxed) || reads < 100 {
                    let listed = registry.list(&gh("BeforeClusterUpgrade")).unwrap();
                    for name in configs {
                        let mine: Vec<_> = listed
                            .iter()
                            .filter(|r| r.extension_config_name == name)
                            .collect();
                        assert!(
                            mine.is_empty() || mine.len() == 4,
                            "partial set of {name}: {}",
                            mine.len()
                        );
                        let generations: std::collections::BTreeSet<_> = mine
                            .iter()
                            .map(|r| r.name.split('-').next().unwrap().to_string())
                            .collect();
                        assert!(
                            generations.len() <= 1,
                            "mixed sets of {name}: {generations:?}"
                        );
                        for r in &mine {
                            // A listed handler may be removed by the time we ask, but a found
                            // one is the same registration.
                            if let Ok(found) = registry.get(&r.name) {
                                assert_eq!(found.extension_config_name, name);
                            }
                        }
                    }
                    let mut sorted: Vec<_> = listed.iter().map(|r| r.name.clone()).collect();
                    sorted.sort();
                    assert_eq!(
                        sorted,
                        listed.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
                        "list is sorted"
                    );
                    reads += 1;
                }
                reads
            }));
        }
        for w in writers {
            w.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
        for r in readers {
            assert!(r.join().unwrap() >= 100);
        }
    });
}
