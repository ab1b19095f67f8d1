//! Lifecycle hooks whose answers are scripted from a file the extension watches.
//!
//! This is the file-based counterpart of upstream's ConfigMap protocol. The responses file is a
//! YAML (or JSON) map whose keys are upstream's ConfigMap data keys:
//! `<stem>-preloadedResponse`, where the stem is the hook name joined by `-` with the hook's
//! versions (`BeforeClusterUpgrade-v1.30.0-v1.31.0`, `AfterWorkersUpgrade-v1.31.0`,
//! `BeforeClusterCreate`), every `+` written as `_`. A value is a response, as a mapping or as
//! a YAML/JSON string, with field names matched case-insensitively
//! (`{"Status": "Success", "RetryAfterSeconds": 5}`). Without a scripted response, blocking hooks
//! answer Success with `retryAfterSeconds` 5 when the request setting
//! `defaultAllHandlersToBlocking` is `"true"`, and 0 otherwise.
//!
//! Every answer is recorded in the record file under `<stem>-actualResponseStatus`, as
//! `Status: Success, RetryAfterSeconds: 5` for blocking hooks and `Success` otherwise. The
//! record is a YAML map of the latest value per key. Since keys come from request fields, it is
//! bounded by [`RecordLimits`]: an answer whose key is too long, or that would add a key past the
//! limit, is not given, and the hook answers Failure with the reason (as upstream's extension
//! answers Failure when it cannot record in its ConfigMap). The file is written only when the
//! record changed: a new key is appended, a changed value rewrites the (bounded) file, and
//! answers recorded while a write is under way share the next write.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use capi_runtime::hook::{Hook, HookRequest, HookResponse};
use serde_json::{Map, Value};

/// Seconds a blocking hook asks Cluster API to wait when `defaultAllHandlersToBlocking` is set.
pub const DEFAULT_BLOCKING_RETRY_SECONDS: i32 = 5;
/// The request setting that makes blocking hooks block by default.
pub const BLOCKING_SETTING: &str = "defaultAllHandlersToBlocking";

/// Bounds on the record of answers, so that request fields cannot grow it without limit. With
/// the defaults the record file stays under about 530 KB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLimits {
    /// Most keys the record holds. An answer that would add another is refused; answers under
    /// keys already recorded are still given. Default 1024.
    pub max_keys: usize,
    /// Longest key, in bytes. Default 253, the longest data key a ConfigMap accepts.
    pub max_key_len: usize,
    /// Longest value, in bytes. Default 256; the values this extension writes are far shorter.
    pub max_value_len: usize,
}

impl Default for RecordLimits {
    fn default() -> Self {
        RecordLimits {
            max_keys: 1024,
            max_key_len: 253,
            max_value_len: 256,
        }
    }
}

/// The answers given, latest per key, and what changed since the file was last written.
#[derive(Debug, Default)]
struct Record {
    entries: BTreeMap<String, String>,
    /// Incremented on every change of `entries`.
    version: u64,
    /// Keys added since the last write, with their values: appended to the file.
    added: BTreeMap<String, String>,
    /// Whether a value already in the file changed since the last write: the file is rewritten.
    changed: bool,
}

impl Record {
    /// The whole record as file text, and the version it covers; nothing is pending after it.
    fn snapshot(&mut self) -> Result<(bool, String, u64), serde_saphyr::SerializeError> {
        self.added.clear();
        self.changed = false;
        serde_saphyr::to_string(&self.entries).map(|text| (false, text, self.version))
    }
}

/// Why a scripted answer could not be given.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The scripted response does not decode into the hook's response.
    #[error("invalid scripted response {key}: {reason}")]
    Invalid {
        /// The data key.
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// The record file could not be written.
    #[error("failed to record the response in {path}: {reason}")]
    Record {
        /// The record file.
        path: PathBuf,
        /// The cause.
        reason: String,
    },
}

/// The scripted responses, reloaded from the responses file when it changes, and the record of
/// the answers given.
#[derive(Debug)]
pub struct Script {
    responses_file: PathBuf,
    record_file: PathBuf,
    responses: RwLock<BTreeMap<String, Value>>,
    last_read: RwLock<Option<Vec<u8>>>,
    limits: RecordLimits,
    record: Mutex<Record>,
    /// Held while the record file is written; holds the record version the file has (0: the
    /// file has not been written yet).
    written: tokio::sync::Mutex<u64>,
    writes: AtomicU64,
    rewrites: AtomicU64,
}

impl Script {
    /// A script read from `responses_file` (a missing file scripts nothing), recording answers
    /// into `record_file` within the default [`RecordLimits`].
    pub fn new(responses_file: impl Into<PathBuf>, record_file: impl Into<PathBuf>) -> Arc<Script> {
        Script::with_limits(responses_file, record_file, RecordLimits::default())
    }

    /// [`Script::new`] with other bounds on the record.
    pub fn with_limits(
        responses_file: impl Into<PathBuf>,
        record_file: impl Into<PathBuf>,
        limits: RecordLimits,
    ) -> Arc<Script> {
        let script = Arc::new(Script {
            responses_file: responses_file.into(),
            record_file: record_file.into(),
            responses: RwLock::default(),
            last_read: RwLock::default(),
            limits,
            record: Mutex::default(),
            written: tokio::sync::Mutex::new(0),
            writes: AtomicU64::new(0),
            rewrites: AtomicU64::new(0),
        });
        script.reload();
        script
    }

    /// The bounds on the record.
    pub fn limits(&self) -> RecordLimits {
        self.limits
    }

    /// How many times the record file has been written (appended to or rewritten).
    pub fn record_writes(&self) -> u64 {
        self.writes.load(Ordering::Relaxed)
    }

    /// How many of those writes rewrote the whole file.
    pub fn record_rewrites(&self) -> u64 {
        self.rewrites.load(Ordering::Relaxed)
    }

    /// The responses file.
    pub fn responses_file(&self) -> &Path {
        &self.responses_file
    }

    /// Re-reads the responses file if its contents changed. A file that does not parse is
    /// reported and the previous responses stay.
    pub fn reload(&self) {
        let bytes = std::fs::read(&self.responses_file).unwrap_or_default();
        if self.last_read.read().unwrap().as_deref() == Some(bytes.as_slice()) {
            return;
        }
        *self.last_read.write().unwrap() = Some(bytes.clone());
        let text = String::from_utf8_lossy(&bytes);
        let parsed: Result<BTreeMap<String, Value>, String> = if text.trim().is_empty() {
            Ok(BTreeMap::new())
        } else {
            serde_saphyr::from_str::<Option<BTreeMap<String, Value>>>(&text)
                .map(Option::unwrap_or_default)
                .map_err(|e| e.to_string())
        };
        match parsed {
            Ok(responses) => {
                tracing::info!(file = %self.responses_file.display(), keys = responses.len(), "loaded scripted responses");
                *self.responses.write().unwrap() = responses;
            }
            Err(e) => {
                tracing::warn!(file = %self.responses_file.display(), error = %e, "scripted responses do not parse; keeping the previous ones");
            }
        }
    }

    /// Polls the responses file every `interval` until the task is dropped.
    pub async fn watch(self: Arc<Self>, interval: Duration) {
        let mut ticker = tokio::time::interval(interval);
        loop {
            ticker.tick().await;
            self.reload();
        }
    }

    /// The answer of hook `H` to `request`, whose stem attributes are `attributes`.
    pub async fn answer<H: Hook>(
        &self,
        request: &H::Request,
        attributes: &[&str],
    ) -> Result<H::Response, ScriptError> {
        let stem = key_stem(H::NAME, attributes);
        let key = format!("{stem}-preloadedResponse");
        let scripted = self.responses.read().unwrap().get(&key).cloned();
        let response = match scripted {
            Some(value) => decode_response::<H>(&key, value)?,
            None => {
                let blocking = request
                    .settings()
                    .and_then(|s| s.get(BLOCKING_SETTING))
                    .is_some_and(|v| v == "true");
                let mut response = H::Response::success();
                if blocking {
                    response.set_retry_after_seconds(DEFAULT_BLOCKING_RETRY_SECONDS);
                }
                response
            }
        };
        self.record(&stem, &response).await?;
        Ok(response)
    }

    async fn record<R: HookResponse>(&self, stem: &str, response: &R) -> Result<(), ScriptError> {
        let value = match response.retry_after_seconds() {
            Some(seconds) => format!(
                "Status: {}, RetryAfterSeconds: {seconds}",
                response.status()
            ),
            None => response.status().to_string(),
        };
        let key = format!("{stem}-actualResponseStatus");
        let fail = |reason: String| ScriptError::Record {
            path: self.record_file.clone(),
            reason,
        };
        let limits = self.limits;
        if key.len() > limits.max_key_len {
            return Err(fail(format!(
                "the key is {} bytes long, more than the limit of {} (it is made of the hook \
                 name and the request's versions)",
                key.len(),
                limits.max_key_len
            )));
        }
        if value.len() > limits.max_value_len {
            return Err(fail(format!(
                "the value is {} bytes long, more than the limit of {}",
                value.len(),
                limits.max_value_len
            )));
        }
        let version = {
            let mut record = self.record.lock().unwrap();
            match record.entries.get(&key) {
                Some(old) if *old == value => {}
                Some(_) => {
                    if record.added.contains_key(&key) {
                        record.added.insert(key.clone(), value.clone());
                    } else {
                        record.changed = true;
                    }
                    record.entries.insert(key, value);
                    record.version += 1;
                }
                None if record.entries.len() >= limits.max_keys => {
                    return Err(fail(format!(
                        "the record already holds {} keys, the limit; {key:?} is not one of them",
                        limits.max_keys
                    )));
                }
                None => {
                    record.added.insert(key.clone(), value.clone());
                    record.entries.insert(key, value);
                    record.version += 1;
                }
            }
            record.version
        };
        // One write at a time; a write that started after this change already covers it.
        let mut written = self.written.lock().await;
        if *written >= version {
            return Ok(());
        }
        // New keys are appended: the file stays a YAML map, as a new key never repeats one. A
        // changed value, a first write or a failed append rewrites the whole file. Each write
        // takes what it writes and the version that covers in one step.
        let mut plan = {
            let mut record = self.record.lock().unwrap();
            if !record.changed && *written > 0 {
                let added = std::mem::take(&mut record.added);
                // Nothing new to append (an empty map would read `{}`, which is not a line).
                let text = if added.is_empty() {
                    Ok(String::new())
                } else {
                    serde_saphyr::to_string(&added)
                };
                text.map(|text| (true, text, record.version))
            } else {
                record.snapshot()
            }
        }
        .map_err(|e| fail(e.to_string()))?;
        if plan.0 && !plan.1.is_empty() && self.append(&plan.1).await.is_err() {
            plan = self
                .record
                .lock()
                .unwrap()
                .snapshot()
                .map_err(|e| fail(e.to_string()))?;
        }
        let (appended, text, current) = plan;
        if !appended {
            if let Err(error) = self.rewrite(text).await {
                // Whatever reached the file, the next write starts over.
                self.record.lock().unwrap().changed = true;
                return Err(fail(error.to_string()));
            }
            self.rewrites.fetch_add(1, Ordering::Relaxed);
        }
        *written = current;
        self.writes.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    async fn append(&self, text: &str) -> std::io::Result<()> {
        use tokio::io::AsyncWriteExt;
        let mut file = tokio::fs::OpenOptions::new()
            .append(true)
            .open(&self.record_file)
            .await?;
        file.write_all(text.as_bytes()).await?;
        file.flush().await
    }

    async fn rewrite(&self, text: String) -> std::io::Result<()> {
        let tmp = self.record_file.with_extension("tmp");
        tokio::fs::write(&tmp, text).await?;
        tokio::fs::rename(&tmp, &self.record_file).await
    }
}

/// The data-key stem of a hook call: the hook name and its attributes joined by `-`, with `+`
/// (not allowed in ConfigMap keys upstream) written as `_`.
pub fn key_stem(hook: &str, attributes: &[&str]) -> String {
    std::iter::once(hook)
        .chain(attributes.iter().copied())
        .collect::<Vec<_>>()
        .join("-")
        .replace('+', "_")
}

/// Decodes a scripted response, given as a mapping or as a YAML/JSON string, matching field
/// names case-insensitively against the hook's response fields.
fn decode_response<H: Hook>(key: &str, value: Value) -> Result<H::Response, ScriptError> {
    let invalid = |reason: String| ScriptError::Invalid {
        key: key.to_string(),
        reason,
    };
    let value = match value {
        Value::String(text) => {
            serde_saphyr::from_str::<Value>(&text).map_err(|e| invalid(e.to_string()))?
        }
        other => other,
    };
    let Value::Object(fields) = value else {
        return Err(invalid("not a mapping".into()));
    };
    let known = ["status", "message", "retryAfterSeconds"];
    let normalized: Map<String, Value> = fields
        .into_iter()
        .map(|(k, v)| {
            let name = known
                .iter()
                .find(|n| n.eq_ignore_ascii_case(&k))
                .map_or(k, |n| n.to_string());
            (name, v)
        })
        .collect();
    serde_json::from_value(Value::Object(normalized)).map_err(|e| invalid(e.to_string()))
}
