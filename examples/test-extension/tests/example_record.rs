//! The record of answers is bounded (keys, key and value length) and written only when it
//! changes, however many calls come and whatever their request fields hold.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use capi_runtime::hooks::v1alpha1::{
    BeforeClusterUpgrade, BeforeClusterUpgradeRequest, BeforeClusterUpgradeResponse, ResponseStatus,
};
use capi_test_extension::lifecycle::{BLOCKING_SETTING, RecordLimits, Script, ScriptError};

struct Fixture {
    _dir: tempfile::TempDir,
    record: std::path::PathBuf,
    script: Arc<Script>,
}

fn fixture(limits: RecordLimits) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("hookresponses.actual.yaml");
    let script = Script::with_limits(dir.path().join("hookresponses.yaml"), &record, limits);
    Fixture {
        _dir: dir,
        record,
        script,
    }
}

async fn upgrade(
    script: &Script,
    from: &str,
    to: &str,
    blocking: bool,
) -> Result<BeforeClusterUpgradeResponse, ScriptError> {
    let mut request = BeforeClusterUpgradeRequest {
        from_kubernetes_version: from.into(),
        to_kubernetes_version: to.into(),
        ..Default::default()
    };
    if blocking {
        request
            .settings
            .insert(BLOCKING_SETTING.into(), "true".into());
    }
    script
        .answer::<BeforeClusterUpgrade>(&request, &[from, to])
        .await
}

fn recorded(path: &Path) -> BTreeMap<String, String> {
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn key(from: &str, to: &str) -> String {
    format!("BeforeClusterUpgrade-{from}-{to}-actualResponseStatus")
}

#[test]
fn the_default_limits_are_the_documented_ones() {
    assert_eq!(
        RecordLimits::default(),
        RecordLimits {
            max_keys: 1024,
            max_key_len: 253,
            max_value_len: 256,
        }
    );
}

#[tokio::test]
async fn a_key_past_the_length_limit_is_refused_and_not_recorded() {
    let f = fixture(RecordLimits::default());
    upgrade(&f.script, "v1.30.0", "v1.31.0", false)
        .await
        .unwrap();
    let before = std::fs::read(&f.record).unwrap();
    // A 1 MB version, as a request may carry: the key would be far past 253 bytes.
    let huge = format!("v1.31.0-{}", "x".repeat(1 << 20));
    let error = upgrade(&f.script, "v1.30.0", &huge, false)
        .await
        .unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, ScriptError::Record { .. }), "{message}");
    assert!(message.contains("more than the limit of 253"), "{message}");
    // The message does not repeat the request's megabyte.
    assert!(message.len() < 400, "{} bytes", message.len());
    assert_eq!(std::fs::read(&f.record).unwrap(), before);
    assert_eq!(f.script.record_writes(), 1);

    // Exactly at the limit is fine; one byte more is not.
    let stem_len = key("v1.30.0", "").len();
    let fits = "v".repeat(253 - stem_len);
    upgrade(&f.script, "v1.30.0", &fits, false).await.unwrap();
    assert_eq!(key("v1.30.0", &fits).len(), 253);
    assert!(recorded(&f.record).contains_key(&key("v1.30.0", &fits)));
    let too_long = format!("{fits}v");
    assert!(
        upgrade(&f.script, "v1.30.0", &too_long, false)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn keys_past_the_count_limit_are_refused_while_known_keys_still_update() {
    let f = fixture(RecordLimits {
        max_keys: 3,
        ..RecordLimits::default()
    });
    for minor in 0..3 {
        let to = format!("v1.3{minor}.0");
        upgrade(&f.script, "v1.29.0", &to, false).await.unwrap();
    }
    let error = upgrade(&f.script, "v1.29.0", "v1.33.0", false)
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("already holds 3 keys, the limit"),
        "{error}"
    );
    // A key already recorded takes a new answer.
    let response = upgrade(&f.script, "v1.29.0", "v1.31.0", true)
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(response.retry_after_seconds, 5);
    let record = recorded(&f.record);
    assert_eq!(record.len(), 3, "{record:?}");
    assert_eq!(
        record[&key("v1.29.0", "v1.31.0")],
        "Status: Success, RetryAfterSeconds: 5"
    );
    assert!(!record.contains_key(&key("v1.29.0", "v1.33.0")));
}

#[tokio::test]
async fn the_file_is_written_only_when_the_record_changes() {
    let f = fixture(RecordLimits::default());
    for _ in 0..50 {
        upgrade(&f.script, "v1.30.0", "v1.31.0", true)
            .await
            .unwrap();
    }
    assert_eq!(f.script.record_writes(), 1);
    upgrade(&f.script, "v1.30.0", "v1.31.0", false)
        .await
        .unwrap();
    assert_eq!(f.script.record_writes(), 2);
    assert_eq!(f.script.record_rewrites(), 2);
    assert_eq!(
        recorded(&f.record)[&key("v1.30.0", "v1.31.0")],
        "Status: Success, RetryAfterSeconds: 0"
    );
}

#[tokio::test]
async fn new_keys_are_appended_and_changed_values_rewrite_the_file() {
    let f = fixture(RecordLimits::default());
    // Versions YAML has to quote, to show appended lines are whole YAML entries.
    let versions = [
        "v1.31.0".to_string(),
        "v1.31.1: x".to_string(),
        "v1.31.2 #y".to_string(),
        "'v1.31.3\"".to_string(),
        format!("v1.31.4-{}", "z".repeat(150)),
    ];
    for to in &versions {
        upgrade(&f.script, "v1.30.0", to, false).await.unwrap();
    }
    // The first write creates the file; the others append one entry each.
    assert_eq!(f.script.record_writes(), versions.len() as u64);
    assert_eq!(f.script.record_rewrites(), 1);
    let record = recorded(&f.record);
    assert_eq!(record.len(), versions.len(), "{record:?}");
    for to in &versions {
        assert_eq!(
            record[&key("v1.30.0", to)],
            "Status: Success, RetryAfterSeconds: 0"
        );
    }
    // A changed value cannot be appended without repeating its key: the file is rewritten.
    upgrade(&f.script, "v1.30.0", &versions[1], true)
        .await
        .unwrap();
    assert_eq!(f.script.record_rewrites(), 2);
    upgrade(&f.script, "v1.30.0", "v1.32.0", false)
        .await
        .unwrap();
    assert_eq!(f.script.record_rewrites(), 2);
    let record = recorded(&f.record);
    assert_eq!(record.len(), versions.len() + 1);
    assert_eq!(
        record[&key("v1.30.0", &versions[1])],
        "Status: Success, RetryAfterSeconds: 5"
    );
    // The file is the record, line for line: no key appears twice.
    let text = std::fs::read_to_string(&f.record).unwrap();
    assert_eq!(text.lines().count(), versions.len() + 1, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_answers_all_reach_the_file() {
    let f = fixture(RecordLimits::default());
    // Two answers per key at once, one blocking and one not: new keys and changed values mix.
    let calls: Vec<_> = (0..80)
        .map(|i| {
            let script = f.script.clone();
            tokio::spawn(async move {
                let to = format!("v1.31.{}", i / 2);
                upgrade(&script, "v1.30.0", &to, i % 2 == 0).await.unwrap();
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap();
    }
    let text = std::fs::read_to_string(&f.record).unwrap();
    assert_eq!(text.lines().count(), 40, "{text}");
    let record = recorded(&f.record);
    assert_eq!(record.len(), 40);
    for value in record.values() {
        assert!(
            value.starts_with("Status: Success, RetryAfterSeconds: "),
            "{value}"
        );
    }
    // Then every key gets one more answer, and the file shows exactly those.
    for i in 0..40 {
        upgrade(&f.script, "v1.30.0", &format!("v1.31.{i}"), true)
            .await
            .unwrap();
    }
    let record = recorded(&f.record);
    assert_eq!(record.len(), 40);
    for i in 0..40 {
        assert_eq!(
            record[&key("v1.30.0", &format!("v1.31.{i}"))],
            "Status: Success, RetryAfterSeconds: 5"
        );
    }
}
