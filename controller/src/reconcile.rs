//! The reconcile of one ExtensionConfig and the warm-up of the registry: the I/O around the
//! decisions of [`crate::decide`] (reads and patches through the API server, discovery through
//! the runtime client, registration in its registry).

use std::time::Duration;

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::Client as RuntimeClient;
use capi_runtime::go::errors::chain;
use capi_runtime::k8s_openapi::api::core::v1::Secret;
use capi_runtime::k8s_openapi::jiff::Timestamp;
use kube::api::{Api, ListParams, Patch, PatchParams};
use kube::runtime::reflector::{ObjectRef, Store};

use crate::decide::{self, CaError, PausedWrite};

/// Why a reconcile failed; the message is what Cluster API's reconcile would return.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReconcileError(pub String);

/// What a successful reconcile asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing more: the next event brings the next reconcile.
    Done,
    /// Reconcile again after this long (the registry is not warmed up yet).
    RequeueAfter(Duration),
}

/// Reconciles ExtensionConfigs: one per process and mode, shared by the controller's workers
/// and the warm-up.
#[derive(Clone)]
pub struct Reconciler {
    kube: kube::Client,
    runtime: RuntimeClient,
    read_only: bool,
}

impl std::fmt::Debug for Reconciler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reconciler")
            .field("read_only", &self.read_only)
            .finish_non_exhaustive()
    }
}

impl Reconciler {
    /// A reconciler that writes (CA injection, discovery, status) — Cluster API's core manager.
    pub fn new(kube: kube::Client, runtime: RuntimeClient) -> Self {
        Reconciler {
            kube,
            runtime,
            read_only: false,
        }
    }

    /// A reconciler that never writes: it registers what the main controller discovered, once
    /// the object passes the read-only checks ([`decide::validate_read_only`]).
    pub fn read_only(kube: kube::Client, runtime: RuntimeClient) -> Self {
        Reconciler {
            kube,
            runtime,
            read_only: true,
        }
    }

    /// True for a read-only reconciler.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The runtime client whose registry this reconciler fills.
    pub fn runtime(&self) -> &RuntimeClient {
        &self.runtime
    }

    fn api(&self) -> Api<ExtensionConfig> {
        Api::all(self.kube.clone())
    }

    fn unregister(&self, name: &str) -> Result<(), ReconcileError> {
        tracing::info!(
            extension_config = name,
            "Unregistering ExtensionConfig information from registry"
        );
        let mut empty = ExtensionConfig::default();
        empty.metadata.name = Some(name.to_string());
        self.runtime.unregister(&empty).map_err(|e| {
            ReconcileError(format!(
                "failed to unregister ExtensionConfig {name}: {}",
                chain(&e)
            ))
        })
    }

    fn register(&self, config: &ExtensionConfig) -> Result<(), ReconcileError> {
        tracing::debug!(
            extension_config = decide::name_of(config),
            "Registering ExtensionConfig information into registry"
        );
        self.runtime.register(config).map_err(|e| {
            ReconcileError(format!(
                "failed to register ExtensionConfig {}: {}",
                decide::key_of(config),
                chain(&e)
            ))
        })
    }

    /// Reconciles the ExtensionConfig `name` (runtime.md §4.2), reading it from the API server
    /// (for callers without a cache; the controller uses [`Reconciler::reconcile_cached`]).
    pub async fn reconcile(&self, name: &str) -> Result<Outcome, ReconcileError> {
        if !self.runtime.is_ready() {
            return Ok(Outcome::RequeueAfter(decide::NOT_READY_REQUEUE));
        }
        let config = self
            .api()
            .get_opt(name)
            .await
            .map_err(|e| ReconcileError(e.to_string()))?;
        self.reconcile_read(name, config).await
    }

    /// Reconciles the ExtensionConfig `name` as [`Reconciler::reconcile`] does, reading it from
    /// `store` (a reflector cache of the ExtensionConfig watch, as controller-runtime's cached
    /// client reads) instead of the API server; absent from the store means deleted. The
    /// patches still go to the API server.
    pub async fn reconcile_cached(
        &self,
        name: &str,
        store: &Store<ExtensionConfig>,
    ) -> Result<Outcome, ReconcileError> {
        if !self.runtime.is_ready() {
            return Ok(Outcome::RequeueAfter(decide::NOT_READY_REQUEUE));
        }
        let config = store.get(&ObjectRef::new(name)).map(|c| (*c).clone());
        self.reconcile_read(name, config).await
    }

    /// The reconcile after the read: `config` is the object named `name`, `None` if gone.
    async fn reconcile_read(
        &self,
        name: &str,
        config: Option<ExtensionConfig>,
    ) -> Result<Outcome, ReconcileError> {
        let Some(config) = config else {
            self.unregister(name)?;
            return Ok(Outcome::Done);
        };
        if config.metadata.deletion_timestamp.is_some() {
            self.unregister(name)?;
            return Ok(Outcome::Done);
        }
        if self.read_only {
            if decide::read_only_paused(&config) {
                return Ok(Outcome::Done);
            }
            decide::validate_read_only(&config)
                .map_err(|e| ReconcileError(format!("failed to validate ExtensionConfig: {e}")))?;
            self.register(&config)?;
            return Ok(Outcome::Done);
        }
        let original = config.clone();
        let mut config = config;
        let (paused, write) = decide::ensure_paused_condition(&mut config, Timestamp::now());
        if write == PausedWrite::PatchAndRequeue {
            self.patch_status(&original, &config).await?;
            return Ok(Outcome::Done);
        }
        if paused {
            return Ok(Outcome::Done);
        }
        let updated = self
            .reconcile_extension_config(original, config)
            .await
            .map_err(|e| ReconcileError(format!("failed to reconcile ExtensionConfig: {e}")))?;
        self.register(&updated)?;
        Ok(Outcome::Done)
    }

    async fn patch_status(
        &self,
        original: &ExtensionConfig,
        updated: &ExtensionConfig,
    ) -> Result<(), ReconcileError> {
        let Some(patch) = decide::status_patch(original, updated) else {
            return Ok(());
        };
        self.api()
            .patch_status(
                decide::name_of(updated),
                &PatchParams::default(),
                &Patch::Merge(&patch),
            )
            .await
            .map(|_| ())
            .map_err(|e| {
                ReconcileError(format!(
                    "failed to patch ExtensionConfig {}: {e}",
                    decide::name_of(updated)
                ))
            })
    }

    /// Injects the CA bundle, discovers the extension and patches the status (runtime.md
    /// §4.3–§4.4). Returns the object to register; any error means: do not register.
    pub async fn reconcile_extension_config(
        &self,
        original: ExtensionConfig,
        mut config: ExtensionConfig,
    ) -> Result<ExtensionConfig, ReconcileError> {
        let mut original = original;
        if let Some(patched) = self
            .inject_ca(&mut config)
            .await
            .map_err(|e| ReconcileError(e.to_string()))?
        {
            original = patched.clone();
            config = patched;
        }
        let discovered = (self.runtime.discover(&config).await).map_err(|e| chain(&e).to_string());
        let (updated, discovery_error) =
            decide::apply_discovery(&config, discovered, Timestamp::now());
        let mut errors: Vec<String> = discovery_error.into_iter().collect();
        if let Err(e) = self.patch_status(&original, &updated).await {
            errors.push(e.0);
        }
        if errors.is_empty() {
            Ok(updated)
        } else {
            Err(ReconcileError(decide::aggregate(&errors)))
        }
    }

    /// Copies the CA bundle from the annotated Secret into `config`; when it changed, patches
    /// the ExtensionConfig at once and returns the patched object.
    async fn inject_ca(
        &self,
        config: &mut ExtensionConfig,
    ) -> Result<Option<ExtensionConfig>, CaError> {
        let Some(reference) = decide::ca_annotation(config).map(str::to_string) else {
            return Ok(None);
        };
        let (namespace, name) = decide::parse_secret_reference(&reference)?;
        let secret = Api::<Secret>::namespaced(self.kube.clone(), namespace)
            .get(name)
            .await
            .map_err(|e| CaError::Get {
                reference: reference.clone(),
                cause: kube_message(&e),
            })?;
        let bundle = decide::bundle_from_secret(&reference, secret.data.as_ref())?;
        let patch = decide::ca_bundle_patch(config, &bundle);
        config.spec.client_config.ca_bundle = bundle;
        let Some(patch) = patch else {
            return Ok(None);
        };
        let config_name = decide::name_of(config).to_string();
        let patched = self
            .api()
            .patch(&config_name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .map_err(|e| CaError::Patch {
                name: config_name.clone(),
                cause: kube_message(&e),
            })?;
        Ok(Some(patched))
    }

    /// One warm-up pass (runtime.md §4.8): list every ExtensionConfig, reconcile (or, read-only,
    /// validate) each, then load them all into the registry.
    pub async fn warm_up_once(&self) -> Result<(), ReconcileError> {
        let list = self
            .api()
            .list(&ListParams::default())
            .await
            .map_err(|e| ReconcileError(e.to_string()))?;
        let mut errors = Vec::new();
        let mut configs = Vec::with_capacity(list.items.len());
        for config in list.items {
            if self.read_only {
                match decide::validate_read_only(&config) {
                    Ok(()) => configs.push(config),
                    Err(e) => errors.push(format!("failed to validate ExtensionConfig: {e}")),
                }
            } else {
                match self
                    .reconcile_extension_config(config.clone(), config)
                    .await
                {
                    Ok(updated) => configs.push(updated),
                    Err(e) => errors.push(format!("failed to reconcile ExtensionConfig: {e}")),
                }
            }
        }
        if !errors.is_empty() {
            return Err(ReconcileError(decide::aggregate(&errors)));
        }
        self.runtime
            .warm_up(configs.iter())
            .map_err(|e| ReconcileError(chain(&e).to_string()))
    }

    /// Warms the registry up: a pass at once, then one every `interval`, until one succeeds or
    /// `timeout` has passed; then fails with Cluster API's message and the last pass's error.
    pub async fn warm_up(
        &self,
        interval: Duration,
        timeout: Duration,
    ) -> Result<(), ReconcileError> {
        let mut last: Option<String> = None;
        let attempts = async {
            loop {
                match self.warm_up_once().await {
                    Ok(()) => {
                        tracing::info!("The extension registry is warmed up");
                        return;
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "ExtensionConfig registry warmup failed");
                        last = Some(e.0);
                    }
                }
                tokio::time::sleep(interval).await;
            }
        };
        match tokio::time::timeout(timeout, attempts).await {
            Ok(()) => Ok(()),
            Err(_) => Err(ReconcileError(format!(
                "ExtensionConfig registry warmup timed out after {}: {}",
                decide::go_duration(timeout),
                last.unwrap_or_else(|| "context deadline exceeded".into())
            ))),
        }
    }
}

/// The message of an API error as Kubernetes' clients print it (the Status message for API
/// answers).
pub fn kube_message(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(status) => status.message.clone(),
        other => other.to_string(),
    }
}
