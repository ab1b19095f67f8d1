//! The reconcile decisions, as pure functions of the objects involved and the time: nothing
//! here reads or writes the cluster or calls an extension. [`crate::reconcile`] performs the
//! I/O these functions ask for.

use std::time::Duration;

use capi_runtime::api::runtime::INJECT_CA_FROM_SECRET_ANNOTATION;
use capi_runtime::api::runtime::v1beta2::{
    DISCOVERED_CONDITION, DISCOVERED_REASON, DISCOVERY_FAILED_V1BETA1_REASON, ExtensionConfig,
    NOT_DISCOVERED_REASON, PAUSED_CONDITION,
};
use capi_runtime::client::DiscoveryError;
use capi_runtime::go::errors::chain;
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::jiff::Timestamp;
use serde_json::{Map, Value, json};

use crate::conditions::{self, FALSE, SEVERITY_ERROR, TRUE};
use crate::error::{CaError, Error};

// What `validate_read_only` refuses, defined with the crate's other errors (`error.rs`).
pub use crate::error::ReadOnlyError;

/// The annotation that pauses reconciliation of an object.
pub const PAUSED_ANNOTATION: &str = "cluster.x-k8s.io/paused";
/// The reason of a true `Paused` condition.
pub const PAUSED_REASON: &str = "Paused";
/// The reason of a false `Paused` condition.
pub const NOT_PAUSED_REASON: &str = "NotPaused";
/// The key of the CA certificate in the Secret named by the CA-injection annotation.
pub const CA_SECRET_KEY: &str = "ca.crt";
/// How long a reconcile waits before it tries again while the registry is not warmed up.
pub const NOT_READY_REQUEUE: Duration = Duration::from_secs(10);

/// The name of an ExtensionConfig (empty when unset).
pub fn name_of(config: &ExtensionConfig) -> &str {
    config.metadata.name.as_deref().unwrap_or_default()
}

/// `<namespace>/<name>`, as Cluster API prints an object key (a cluster-scoped object has an
/// empty namespace, so this is `/<name>`).
pub fn key_of(config: &ExtensionConfig) -> String {
    format!(
        "{}/{}",
        config.metadata.namespace.as_deref().unwrap_or_default(),
        name_of(config)
    )
}

/// The name used in read-only validation messages: `<namespace>/<name>` when a namespace is
/// set, the bare name otherwise.
fn display_name(config: &ExtensionConfig) -> String {
    match config.metadata.namespace.as_deref() {
        Some(ns) if !ns.is_empty() => format!("{ns}/{}", name_of(config)),
        _ => name_of(config).to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Pausing

/// What [`ensure_paused_condition`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PausedWrite {
    /// The condition already says this: nothing to write.
    Unchanged,
    /// Only the observed generation moved and the object is not paused: the condition was
    /// updated in memory and is written with the status patch later.
    InMemory,
    /// The condition changed: patch it now and end this reconcile (the patch triggers the
    /// next one).
    PatchAndRequeue,
}

/// Whether `config` is paused, and the `Paused` condition it should carry (set on `config`).
pub fn ensure_paused_condition(
    config: &mut ExtensionConfig,
    now: Timestamp,
) -> (bool, PausedWrite) {
    let paused = config
        .metadata
        .annotations
        .as_ref()
        .is_some_and(|a| a.contains_key(PAUSED_ANNOTATION));
    let generation = config.metadata.generation;
    let desired = if paused {
        conditions::condition(
            PAUSED_CONDITION,
            TRUE,
            PAUSED_REASON,
            format!("ExtensionConfig has the {PAUSED_ANNOTATION} annotation"),
            generation,
        )
    } else {
        conditions::condition(PAUSED_CONDITION, FALSE, NOT_PAUSED_REASON, "", generation)
    };
    let old = conditions::get(config, PAUSED_CONDITION).cloned();
    if let Some(old) = &old {
        if conditions::same_state(old, &desired) {
            return (paused, PausedWrite::Unchanged);
        }
        let mut old_at_new_generation = old.clone();
        old_at_new_generation.observed_generation = desired.observed_generation;
        if !paused && conditions::same_state(&old_at_new_generation, &desired) {
            conditions::set(config, desired, now);
            return (paused, PausedWrite::InMemory);
        }
    }
    conditions::set(config, desired, now);
    (paused, PausedWrite::PatchAndRequeue)
}

// ---------------------------------------------------------------------------------------------
// CA injection

/// The Secret the CA-injection annotation names, as written.
pub fn ca_annotation(config: &ExtensionConfig) -> Option<&str> {
    config
        .metadata
        .annotations
        .as_ref()?
        .get(INJECT_CA_FROM_SECRET_ANNOTATION)
        .map(String::as_str)
}

/// The value the controller indexes an ExtensionConfig under: the annotation's raw value
/// (none without the annotation).
pub fn index_values(config: &ExtensionConfig) -> Vec<String> {
    ca_annotation(config)
        .map(str::to_string)
        .into_iter()
        .collect()
}

/// Splits the annotation's value at the first `/` into namespace and name.
pub fn parse_secret_reference(value: &str) -> Result<(&str, &str), CaError> {
    match value.split_once('/') {
        Some((ns, name)) if !ns.is_empty() && !name.is_empty() => Ok((ns, name)),
        _ => Err(CaError::BadReference(value.to_string())),
    }
}

/// The CA bundle in a Secret's data.
pub fn bundle_from_secret(
    reference: &str,
    data: Option<&std::collections::BTreeMap<String, ByteString>>,
) -> Result<ByteString, CaError> {
    data.and_then(|d| d.get(CA_SECRET_KEY))
        .cloned()
        .ok_or_else(|| CaError::NoCaEntry(reference.to_string()))
}

/// The merge patch that sets the CA bundle, or `None` when it is already the one in place.
pub fn ca_bundle_patch(config: &ExtensionConfig, bundle: &ByteString) -> Option<Value> {
    (config.spec.client_config.ca_bundle != *bundle)
        .then(|| json!({"spec": {"clientConfig": {"caBundle": bundle}}}))
}

// ---------------------------------------------------------------------------------------------
// Discovery

/// The result of discovery applied to an ExtensionConfig: on success the discovered copy
/// (new handlers) with `Discovered` true; on failure the input with its handlers kept and
/// `Discovered` false (its message `Error in discovery: <the whole error>`), plus the error
/// the reconcile returns ([`Error::Discover`]).
pub fn apply_discovery(
    config: &ExtensionConfig,
    result: Result<ExtensionConfig, DiscoveryError>,
    now: Timestamp,
) -> (ExtensionConfig, Option<Error>) {
    let generation = config.metadata.generation;
    match result {
        Ok(mut discovered) => {
            conditions::set(
                &mut discovered,
                conditions::condition(
                    DISCOVERED_CONDITION,
                    TRUE,
                    DISCOVERED_REASON,
                    "",
                    generation,
                ),
                now,
            );
            conditions::set_v1beta1(
                &mut discovered,
                conditions::v1beta1_true(DISCOVERED_CONDITION),
                now,
            );
            (discovered, None)
        }
        Err(e) => {
            let mut out = config.clone();
            let message = format!("Error in discovery: {}", chain(&e));
            conditions::set(
                &mut out,
                conditions::condition(
                    DISCOVERED_CONDITION,
                    FALSE,
                    NOT_DISCOVERED_REASON,
                    message.clone(),
                    generation,
                ),
                now,
            );
            conditions::set_v1beta1(
                &mut out,
                conditions::v1beta1_false(
                    DISCOVERED_CONDITION,
                    DISCOVERY_FAILED_V1BETA1_REASON,
                    SEVERITY_ERROR,
                    message,
                ),
                now,
            );
            let error = Error::Discover {
                name: name_of(config).to_string(),
                source: Box::new(e),
            };
            (out, Some(error))
        }
    }
}

/// The merge patch of the status subresource that takes `original`'s status to `updated`'s:
/// only the fields that differ (conditions, handlers, deprecated), an emptied field as `null`;
/// `None` when nothing differs, so a no-op sends nothing.
pub fn status_patch(original: &ExtensionConfig, updated: &ExtensionConfig) -> Option<Value> {
    let (a, b) = (&original.status, &updated.status);
    let mut status = Map::new();
    let field = |v: Value| match &v {
        Value::Array(items) if items.is_empty() => Value::Null,
        _ => v,
    };
    if a.conditions != b.conditions {
        status.insert("conditions".into(), field(json!(b.conditions)));
    }
    if a.handlers != b.handlers {
        status.insert("handlers".into(), field(json!(b.handlers)));
    }
    if a.deprecated != b.deprecated {
        status.insert("deprecated".into(), json!(b.deprecated));
    }
    (!status.is_empty()).then(|| json!({"status": status}))
}

// ---------------------------------------------------------------------------------------------
// Read-only mode

/// The four checks a read-only controller makes before it registers what the main controller
/// wrote.
pub fn validate_read_only(config: &ExtensionConfig) -> Result<(), ReadOnlyError> {
    let name = display_name(config);
    if config.spec.client_config.ca_bundle.0.is_empty() {
        return Err(ReadOnlyError::NoCaBundle(name));
    }
    let Some(c) = conditions::get(config, DISCOVERED_CONDITION) else {
        return Err(ReadOnlyError::NotDiscoveredYet(name));
    };
    if c.status != TRUE {
        return Err(ReadOnlyError::NotTrue {
            name,
            status: c.status.clone(),
        });
    }
    let generation = config.metadata.generation.unwrap_or_default();
    let observed = c.observed_generation.unwrap_or_default();
    if observed != generation {
        return Err(ReadOnlyError::Stale {
            name,
            generation,
            observed,
        });
    }
    Ok(())
}

/// True when a read-only controller skips the object: its `Paused` condition is true.
pub fn read_only_paused(config: &ExtensionConfig) -> bool {
    conditions::get(config, PAUSED_CONDITION).is_some_and(|c| c.status == TRUE)
}

// ---------------------------------------------------------------------------------------------
// Back-off

/// The wait before the next attempt after `failures` consecutive failures of one object:
/// `1 s + 5 ms · 2^failures`, at most 1000 s (Cluster API's controller defaults).
pub fn backoff(failures: u32) -> Duration {
    let exp = Duration::from_millis(5).saturating_mul(2u32.saturating_pow(failures.min(31)));
    (Duration::from_secs(1) + exp).min(Duration::from_secs(1000))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use capi_runtime::api::runtime::v1beta2::ExtensionHandler;

    use super::*;

    fn at(second: i64) -> Timestamp {
        Timestamp::from_second(second).unwrap()
    }

    fn config(name: &str, generation: i64) -> ExtensionConfig {
        let mut c = ExtensionConfig::default();
        c.metadata.name = Some(name.into());
        c.metadata.generation = Some(generation);
        c
    }

    fn annotate(c: &mut ExtensionConfig, key: &str, value: &str) {
        c.metadata
            .annotations
            .get_or_insert_with(BTreeMap::new)
            .insert(key.into(), value.into());
    }

    #[test]
    fn first_pass_patches_the_paused_condition_and_requeues() {
        let mut c = config("ext1", 1);
        assert_eq!(
            ensure_paused_condition(&mut c, at(10)),
            (false, PausedWrite::PatchAndRequeue)
        );
        let p = conditions::get(&c, PAUSED_CONDITION).unwrap();
        assert_eq!(
            (p.status.as_str(), p.reason.as_str()),
            ("False", "NotPaused")
        );
        assert_eq!(p.observed_generation, Some(1));
        assert_eq!(
            ensure_paused_condition(&mut c, at(11)),
            (false, PausedWrite::Unchanged)
        );
    }

    #[test]
    fn a_new_generation_alone_is_updated_in_memory_when_not_paused() {
        let mut c = config("ext1", 1);
        ensure_paused_condition(&mut c, at(10));
        c.metadata.generation = Some(2);
        assert_eq!(
            ensure_paused_condition(&mut c, at(11)),
            (false, PausedWrite::InMemory)
        );
        assert_eq!(
            conditions::get(&c, PAUSED_CONDITION)
                .unwrap()
                .observed_generation,
            Some(2)
        );
    }

    #[test]
    fn pausing_patches_with_the_annotation_message() {
        let mut c = config("ext1", 1);
        ensure_paused_condition(&mut c, at(10));
        annotate(&mut c, PAUSED_ANNOTATION, "");
        assert_eq!(
            ensure_paused_condition(&mut c, at(12)),
            (true, PausedWrite::PatchAndRequeue)
        );
        let p = conditions::get(&c, PAUSED_CONDITION).unwrap();
        assert_eq!(p.status, "True");
        assert_eq!(p.reason, "Paused");
        assert_eq!(
            p.message,
            "ExtensionConfig has the cluster.x-k8s.io/paused annotation"
        );
        assert_eq!(p.last_transition_time.0, at(12));
        // A paused object with only a new generation is patched (not in memory).
        c.metadata.generation = Some(2);
        assert_eq!(
            ensure_paused_condition(&mut c, at(13)),
            (true, PausedWrite::PatchAndRequeue)
        );
        assert_eq!(
            ensure_paused_condition(&mut c, at(14)),
            (true, PausedWrite::Unchanged)
        );
    }

    #[test]
    fn secret_references_must_have_both_parts() {
        assert_eq!(parse_secret_reference("ns/name").ok(), Some(("ns", "name")));
        assert_eq!(parse_secret_reference("ns/a/b").ok(), Some(("ns", "a/b")));
        for bad in ["noslash", "/name", "ns/", ""] {
            assert_eq!(
                parse_secret_reference(bad).unwrap_err().to_string(),
                format!(
                    "failed to reconcile caBundle: secret name \"{bad}\" must be in the form <namespace>/<name>"
                )
            );
        }
    }

    #[test]
    fn ca_errors_read_as_cluster_api_writes_them() {
        assert_eq!(
            bundle_from_secret("ns/s", Some(&BTreeMap::new()))
                .unwrap_err()
                .to_string(),
            "failed to reconcile caBundle: secret ns/s does not contain a \"ca.crt\" entry"
        );
        assert!(matches!(
            bundle_from_secret("ns/s", None),
            Err(CaError::NoCaEntry(reference)) if reference == "ns/s"
        ));
    }

    #[test]
    fn ca_patch_only_when_the_bundle_changes() {
        let mut c = config("ext1", 1);
        let mut data = BTreeMap::new();
        data.insert(CA_SECRET_KEY.to_string(), ByteString(b"PEM".to_vec()));
        let bundle = bundle_from_secret("ns/s", Some(&data)).unwrap();
        assert_eq!(
            ca_bundle_patch(&c, &bundle),
            Some(json!({"spec": {"clientConfig": {"caBundle": "UEVN"}}}))
        );
        c.spec.client_config.ca_bundle = bundle.clone();
        assert_eq!(ca_bundle_patch(&c, &bundle), None);
    }

    #[test]
    fn index_is_the_raw_annotation() {
        let mut c = config("ext1", 1);
        assert!(index_values(&c).is_empty());
        annotate(&mut c, INJECT_CA_FROM_SECRET_ANNOTATION, "foo/bar");
        assert_eq!(index_values(&c), vec!["foo/bar".to_string()]);
    }

    fn handler(name: &str) -> ExtensionHandler {
        ExtensionHandler {
            name: name.into(),
            ..ExtensionHandler::default()
        }
    }

    #[test]
    fn successful_discovery_sets_both_conditions_true() {
        let c = config("ext1", 3);
        let mut discovered = c.clone();
        discovered.status.handlers = vec![handler("first.ext1")];
        let (out, err) = apply_discovery(&c, Ok(discovered), at(50));
        assert!(err.is_none());
        assert_eq!(out.status.handlers, vec![handler("first.ext1")]);
        let d = conditions::get(&out, DISCOVERED_CONDITION).unwrap();
        assert_eq!(
            (d.status.as_str(), d.reason.as_str(), d.message.as_str()),
            ("True", "Discovered", "")
        );
        assert_eq!(d.observed_generation, Some(3));
        let legacy = conditions::get_v1beta1(&out, DISCOVERED_CONDITION).unwrap();
        assert_eq!(legacy.status, "True");
        assert!(legacy.reason.is_empty() && legacy.severity.is_empty());
    }

    #[test]
    fn failed_discovery_keeps_stale_handlers_and_reports() {
        let mut c = config("ext1", 2);
        c.status.handlers = vec![handler("old.ext1")];
        let cause = || DiscoveryError::InvalidName {
            config: "ext1".into(),
        };
        let (out, err) = apply_discovery(&c, Err(cause()), at(50));
        let err = err.unwrap();
        assert!(matches!(&err, Error::Discover { name, .. } if name == "ext1"));
        assert_eq!(err.to_string(), "failed to discover ExtensionConfig ext1");
        assert_eq!(
            chain(&err).to_string(),
            format!(
                "failed to discover ExtensionConfig ext1: {}",
                chain(&cause())
            )
        );
        assert_eq!(out.status.handlers, vec![handler("old.ext1")]);
        let d = conditions::get(&out, DISCOVERED_CONDITION).unwrap();
        assert_eq!(
            (d.status.as_str(), d.reason.as_str()),
            ("False", "NotDiscovered")
        );
        assert_eq!(
            d.message,
            format!("Error in discovery: {}", chain(&cause()))
        );
        assert!(
            d.message.contains("not a valid DNS-1123 label"),
            "{}",
            d.message
        );
        let legacy = conditions::get_v1beta1(&out, DISCOVERED_CONDITION).unwrap();
        assert_eq!(
            (
                legacy.status.as_str(),
                legacy.reason.as_str(),
                legacy.severity.as_str()
            ),
            ("False", "DiscoveryFailed", "Error")
        );
        assert_eq!(legacy.message, d.message);
    }

    #[test]
    fn status_patch_carries_only_what_changed() {
        let c = config("ext1", 1);
        assert_eq!(status_patch(&c, &c), None);
        let mut with = c.clone();
        with.status.handlers = vec![handler("a.ext1")];
        let p = status_patch(&c, &with).unwrap();
        assert_eq!(p["status"].as_object().unwrap().len(), 1);
        assert_eq!(p["status"]["handlers"][0]["name"], "a.ext1");
        assert_eq!(
            status_patch(&with, &c).unwrap(),
            json!({"status": {"handlers": null}})
        );
    }

    #[test]
    fn read_only_validation_messages() {
        let mut c = config("extensionconfig", 1);
        c.metadata.namespace = Some("default".into());
        assert_eq!(
            validate_read_only(&c).unwrap_err().to_string(),
            "caBundle is not set on ExtensionConfig default/extensionconfig"
        );
        c.spec.client_config.ca_bundle = ByteString(b"ca".to_vec());
        assert_eq!(
            validate_read_only(&c).unwrap_err().to_string(),
            "Discovered condition not yet set on ExtensionConfig default/extensionconfig"
        );
        conditions::set(
            &mut c,
            conditions::condition(
                DISCOVERED_CONDITION,
                FALSE,
                NOT_DISCOVERED_REASON,
                "",
                Some(1),
            ),
            at(1),
        );
        assert_eq!(
            validate_read_only(&c).unwrap_err().to_string(),
            "Discovered condition on ExtensionConfig default/extensionconfig must have status: True (instead it has: False)"
        );
        conditions::set(
            &mut c,
            conditions::condition(DISCOVERED_CONDITION, TRUE, DISCOVERED_REASON, "", Some(0)),
            at(2),
        );
        assert_eq!(
            validate_read_only(&c).unwrap_err().to_string(),
            "Discovered condition on ExtensionConfig default/extensionconfig must have observedGeneration: 1 (instead it has: 0)"
        );
        conditions::set(
            &mut c,
            conditions::condition(DISCOVERED_CONDITION, TRUE, DISCOVERED_REASON, "", Some(1)),
            at(3),
        );
        assert_eq!(validate_read_only(&c), Ok(()));
        c.metadata.namespace = None;
        c.spec.client_config.ca_bundle = ByteString(Vec::new());
        assert_eq!(
            validate_read_only(&c).unwrap_err().to_string(),
            "caBundle is not set on ExtensionConfig extensionconfig"
        );
    }

    #[test]
    fn read_only_skips_paused_objects_by_condition() {
        let mut c = config("ext1", 1);
        annotate(&mut c, PAUSED_ANNOTATION, "");
        assert!(!read_only_paused(&c), "the annotation alone does not count");
        ensure_paused_condition(&mut c, at(1));
        assert!(read_only_paused(&c));
    }

    #[test]
    fn keys_render_with_an_empty_namespace() {
        assert_eq!(key_of(&config("ext1", 1)), "/ext1");
    }

    #[test]
    fn backoff_grows_from_one_second_and_is_capped() {
        assert_eq!(backoff(0), Duration::from_millis(1005));
        assert_eq!(backoff(3), Duration::from_millis(1040));
        assert_eq!(backoff(40), Duration::from_secs(1000));
    }
}
