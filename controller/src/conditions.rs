//! Setting conditions the way Cluster API does, on both condition lists of an ExtensionConfig:
//! the standard `metav1.Condition`s of `status.conditions` and the older Cluster API
//! conditions kept under `status.deprecated.v1beta1.conditions`.
//!
//! A condition's `lastTransitionTime` moves only when its status flips, and is kept to whole
//! seconds (the API server stores RFC 3339 seconds). Lists are kept sorted: for the standard
//! list `Available` and `Ready` first, `Deleting` and `Paused` last and every other type in
//! alphabetical order between them; for the older list `Ready` first, then alphabetical.

use std::cmp::Ordering;

use capi_runtime::api::core::v1beta2::Condition as V1Beta1Condition;
use capi_runtime::api::runtime::v1beta2::{
    ExtensionConfig, ExtensionConfigDeprecatedStatus, ExtensionConfigV1Beta1DeprecatedStatus,
};
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use capi_runtime::k8s_openapi::jiff::Timestamp;

/// `True`.
pub const TRUE: &str = "True";
/// `False`.
pub const FALSE: &str = "False";

/// The severity of a false older-style condition that reports an error.
pub const SEVERITY_ERROR: &str = "Error";

/// `now`, cut to whole seconds.
pub fn truncate(now: Timestamp) -> Time {
    Time(Timestamp::from_second(now.as_second()).unwrap_or(now))
}

/// Where a standard condition type sorts: 0 for `Available`, 1 for `Ready`, 2 for the rest
/// (alphabetical among themselves), 3 for `Deleting`, 4 for `Paused`.
fn rank(condition_type: &str) -> u8 {
    match condition_type {
        "Available" => 0,
        "Ready" => 1,
        "Deleting" => 3,
        "Paused" => 4,
        _ => 2,
    }
}

fn order(a: &Condition, b: &Condition) -> Ordering {
    rank(&a.type_)
        .cmp(&rank(&b.type_))
        .then_with(|| a.type_.cmp(&b.type_))
}

/// The standard condition of `condition_type`, if present.
pub fn get<'a>(config: &'a ExtensionConfig, condition_type: &str) -> Option<&'a Condition> {
    config
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == condition_type)
}

/// Sets `condition` on the standard list: an existing condition of the same type keeps its
/// `lastTransitionTime` unless the status changes (then `now`); a new one gets `now`. The
/// list is sorted afterwards.
pub fn set(config: &mut ExtensionConfig, mut condition: Condition, now: Timestamp) {
    let list = &mut config.status.conditions;
    let stamp = truncate(now);
    match list.iter_mut().find(|c| c.type_ == condition.type_) {
        Some(existing) => {
            condition.last_transition_time = if existing.status == condition.status {
                existing.last_transition_time.clone()
            } else {
                stamp
            };
            *existing = condition;
        }
        None => {
            condition.last_transition_time = stamp;
            list.push(condition);
        }
    }
    list.sort_by(order);
}

/// True when two standard conditions say the same thing (type, status, reason, message and
/// observed generation), whatever their transition times.
pub fn same_state(a: &Condition, b: &Condition) -> bool {
    a.type_ == b.type_
        && a.status == b.status
        && a.reason == b.reason
        && a.message == b.message
        && a.observed_generation == b.observed_generation
}

/// The older-style condition list (created when missing).
fn v1beta1_list(config: &mut ExtensionConfig) -> &mut Vec<V1Beta1Condition> {
    let deprecated = config
        .status
        .deprecated
        .get_or_insert_with(ExtensionConfigDeprecatedStatus::default);
    &mut deprecated
        .v1beta1
        .get_or_insert_with(ExtensionConfigV1Beta1DeprecatedStatus::default)
        .conditions
}

/// The older-style condition of `condition_type`, if present.
pub fn get_v1beta1<'a>(
    config: &'a ExtensionConfig,
    condition_type: &str,
) -> Option<&'a V1Beta1Condition> {
    config
        .status
        .deprecated
        .as_ref()
        .and_then(|d| d.v1beta1.as_ref())
        .and_then(|v| v.conditions.iter().find(|c| c.r#type == condition_type))
}

/// Sets an older-style condition with the same transition-time rule as [`set`]; the list is
/// sorted with `Ready` first.
pub fn set_v1beta1(config: &mut ExtensionConfig, mut condition: V1Beta1Condition, now: Timestamp) {
    let stamp = truncate(now);
    let list = v1beta1_list(config);
    match list.iter_mut().find(|c| c.r#type == condition.r#type) {
        Some(existing) => {
            condition.last_transition_time = if existing.status == condition.status {
                existing.last_transition_time.clone()
            } else {
                Some(stamp)
            };
            *existing = condition;
        }
        None => {
            condition.last_transition_time = Some(stamp);
            list.push(condition);
        }
    }
    list.sort_by(|a, b| {
        (a.r#type != "Ready")
            .cmp(&(b.r#type != "Ready"))
            .then_with(|| a.r#type.cmp(&b.r#type))
    });
}

/// A standard condition (its transition time is filled in by [`set`]).
pub fn condition(
    condition_type: &str,
    status: &str,
    reason: &str,
    message: impl Into<String>,
    observed_generation: Option<i64>,
) -> Condition {
    Condition {
        type_: condition_type.to_string(),
        status: status.to_string(),
        reason: reason.to_string(),
        message: message.into(),
        observed_generation,
        last_transition_time: Time(Timestamp::UNIX_EPOCH),
    }
}

/// An older-style condition that is true (no reason, severity or message).
pub fn v1beta1_true(condition_type: &str) -> V1Beta1Condition {
    V1Beta1Condition {
        r#type: condition_type.to_string(),
        status: TRUE.to_string(),
        ..V1Beta1Condition::default()
    }
}

/// An older-style condition that is false, with a reason, severity and message.
pub fn v1beta1_false(
    condition_type: &str,
    reason: &str,
    severity: &str,
    message: impl Into<String>,
) -> V1Beta1Condition {
    V1Beta1Condition {
        r#type: condition_type.to_string(),
        status: FALSE.to_string(),
        reason: reason.to_string(),
        severity: severity.to_string(),
        message: message.into(),
        last_transition_time: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(second: i64) -> Timestamp {
        Timestamp::from_second(second).unwrap()
    }

    #[test]
    fn transition_time_moves_only_when_the_status_flips() {
        let mut cfg = ExtensionConfig::default();
        set(
            &mut cfg,
            condition("Discovered", TRUE, "Discovered", "", Some(1)),
            at(100),
        );
        set(
            &mut cfg,
            condition("Discovered", TRUE, "Discovered", "x", Some(2)),
            at(200),
        );
        let c = get(&cfg, "Discovered").unwrap();
        assert_eq!(c.last_transition_time.0, at(100));
        assert_eq!((c.message.as_str(), c.observed_generation), ("x", Some(2)));
        set(
            &mut cfg,
            condition("Discovered", FALSE, "NotDiscovered", "e", Some(2)),
            at(300),
        );
        assert_eq!(
            get(&cfg, "Discovered").unwrap().last_transition_time.0,
            at(300)
        );
    }

    #[test]
    fn transition_times_are_whole_seconds() {
        let mut cfg = ExtensionConfig::default();
        let now = Timestamp::from_millisecond(1_700_000_000_987).unwrap();
        set(
            &mut cfg,
            condition("Paused", FALSE, "NotPaused", "", Some(1)),
            now,
        );
        assert_eq!(
            get(&cfg, "Paused").unwrap().last_transition_time.0,
            at(1_700_000_000)
        );
    }

    #[test]
    fn standard_conditions_sort_as_cluster_api_sorts_them() {
        let mut cfg = ExtensionConfig::default();
        for t in [
            "Paused",
            "Zeta",
            "Deleting",
            "Discovered",
            "Ready",
            "Available",
        ] {
            set(&mut cfg, condition(t, TRUE, "R", "", None), at(1));
        }
        let types: Vec<_> = cfg
            .status
            .conditions
            .iter()
            .map(|c| c.type_.as_str())
            .collect();
        assert_eq!(
            types,
            [
                "Available",
                "Ready",
                "Discovered",
                "Zeta",
                "Deleting",
                "Paused"
            ]
        );
    }

    #[test]
    fn v1beta1_conditions_have_ready_first_and_keep_transition_times() {
        let mut cfg = ExtensionConfig::default();
        set_v1beta1(&mut cfg, v1beta1_true("Discovered"), at(5));
        set_v1beta1(&mut cfg, v1beta1_true("Ready"), at(5));
        set_v1beta1(&mut cfg, v1beta1_true("Discovered"), at(9));
        let list = &cfg
            .status
            .deprecated
            .as_ref()
            .unwrap()
            .v1beta1
            .as_ref()
            .unwrap()
            .conditions;
        assert_eq!(list[0].r#type, "Ready");
        assert_eq!(list[1].last_transition_time.as_ref().unwrap().0, at(5));
        set_v1beta1(
            &mut cfg,
            v1beta1_false("Discovered", "DiscoveryFailed", SEVERITY_ERROR, "m"),
            at(9),
        );
        let d = get_v1beta1(&cfg, "Discovered").unwrap();
        assert_eq!(d.last_transition_time.as_ref().unwrap().0, at(9));
        assert_eq!(
            (d.severity.as_str(), d.reason.as_str()),
            ("Error", "DiscoveryFailed")
        );
    }

    #[test]
    fn same_state_ignores_transition_times_only() {
        let a = condition("Paused", FALSE, "NotPaused", "", Some(1));
        let mut b = a.clone();
        b.last_transition_time = Time(at(77));
        assert!(same_state(&a, &b));
        b.observed_generation = Some(2);
        assert!(!same_state(&a, &b));
    }
}
