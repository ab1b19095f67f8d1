//! An author's own hook types whose structs share their names (and field names) with types Go
//! reads in a way of its own: a newtype `Time`, a struct `Condition` with the fields of
//! `metav1.Condition`, a struct `APIEndpoint` with a `port`. The wire decoder gives Go's
//! treatment (RFC 3339 times, the zero time of a missing `lastTransitionTime`, a `null` that
//! leaves a field Go holds by value) only where a type's recorded shape asks for it, so these
//! decode by serde's ordinary rules: as `serde_json` reads them, and with a `null` resetting an
//! `Option` as Go resets a pointer. The SDK's own `APIEndpoint` is decoded beside them for
//! contrast.

use std::collections::BTreeMap;

use capi_runtime::hooks::v1alpha1::{BeforeClusterCreate, ResponseStatus};
use capi_runtime::wire::{self, DecodeErrorKind};
use capi_runtime::{Hook, Schema};
use serde::{Deserialize, Serialize};

/// Records a moment.
#[derive(Hook)]
#[hook(group = "author.example.com", version = "v1alpha1", request = RecordRequest, response = RecordResponse)]
pub struct Record;

/// The author's own time: any text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/author/v1alpha1")]
pub struct Time(pub String);

/// The author's own condition, with the field names of `metav1.Condition`; all required.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/author/v1alpha1")]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// Kind of condition.
    pub r#type: String,
    /// True, False or Unknown.
    pub status: String,
    /// Why.
    pub reason: Option<String>,
    /// Details.
    pub message: Option<String>,
    /// The generation seen.
    pub observed_generation: Option<i64>,
    /// When it changed.
    pub last_transition_time: Time,
}

/// The author's own endpoint, named and shaped like Cluster API's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/author/v1alpha1")]
#[serde(default)]
pub struct APIEndpoint {
    /// Host.
    pub host: String,
    /// Port.
    pub port: Option<i32>,
}

/// The request of Record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/author/v1alpha1", request)]
#[serde(default, rename_all = "camelCase")]
pub struct RecordRequest {
    /// apiVersion.
    pub api_version: String,
    /// kind.
    pub kind: String,
    /// Settings.
    pub settings: BTreeMap<String, String>,
    /// When.
    pub since: Option<Time>,
    /// Conditions.
    pub conditions: Vec<Condition>,
    /// Where.
    pub endpoint: APIEndpoint,
}

/// The response of Record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/author/v1alpha1", response)]
#[serde(default, rename_all = "camelCase")]
pub struct RecordResponse {
    /// apiVersion.
    pub api_version: String,
    /// kind.
    pub kind: String,
    /// Outcome.
    pub status: ResponseStatus,
    /// Message.
    pub message: String,
}

fn ours(body: &str) -> Result<RecordRequest, wire::DecodeError> {
    wire::decode_request::<Record>(body.as_bytes())
}

fn condition(extra: &str) -> String {
    format!(
        r#"{{"conditions": [{{"type": "Ready", "status": "True", "lastTransitionTime": "t"{extra}}}]}}"#
    )
}

#[test]
fn an_authors_time_is_read_as_its_own_type_reads_it() {
    for since in [
        r#""2026-01-01T10:00:00+01:00""#,
        r#""not a time""#,
        r#""2026-01-01t10:00:00z""#,
    ] {
        let body = format!(r#"{{"since": {since}}}"#);
        let expected: RecordRequest = serde_json::from_str(&body).unwrap();
        assert_eq!(ours(&body).unwrap(), expected, "{body}");
        assert_eq!(
            expected.since.unwrap().0,
            serde_json::from_str::<String>(since).unwrap()
        );
    }
    // `null` is no time: the `Option` stays `None`, as Go leaves a nil pointer.
    assert_eq!(ours(r#"{"since": null}"#).unwrap().since, None);
}

#[test]
fn an_authors_condition_keeps_serdes_rules() {
    // Its `lastTransitionTime` is required by its `Deserialize`: no zero time is supplied.
    let missing = r#"{"conditions": [{"type": "Ready", "status": "True"}]}"#;
    assert!(serde_json::from_str::<RecordRequest>(missing).is_err());
    let e = ours(missing).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Type, "{e}");
    assert!(e.message().contains("lastTransitionTime"), "{e}");
    assert_eq!(e.path(), ".conditions[0]");
    // A repeated `reason` ending in `null` resets the `Option`, as Go resets a pointer; Go's
    // `metav1.Condition` holds its reason by value and would keep "Up".
    let decoded = ours(&condition(r#", "reason": "Up", "reason": null"#)).unwrap();
    assert_eq!(decoded.conditions[0].reason, None);
    assert_eq!(decoded.conditions[0].last_transition_time, Time("t".into()));
}

#[test]
fn an_authors_field_named_like_one_go_holds_by_value_is_reset_by_null() {
    let decoded = ours(r#"{"endpoint": {"host": "h", "port": 6443, "port": null}}"#).unwrap();
    assert_eq!(decoded.endpoint.port, None);
    // Cluster API's `APIEndpoint` holds its port by value (`#[schema(by_value)]`): there the
    // same `null` leaves 6443, as in Go.
    let body = r#"{"cluster": {"spec": {"controlPlaneEndpoint": {"host": "h", "port": 6443, "port": null}}}}"#;
    let request = wire::decode_request::<BeforeClusterCreate>(body.as_bytes()).unwrap();
    assert_eq!(request.cluster.spec.control_plane_endpoint.port, Some(6443));
}
