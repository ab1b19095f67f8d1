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

use crate::decide::{self, PausedWrite};
use crate::error::{CaError, Error, KubeError};
use crate::watched::WatchedConfigs;

/// The field manager of the controller's writes (the status patches and the CA-injection
/// patch), so that `managedFields` name it; see [`Reconciler::field_manager`].
pub const FIELD_MANAGER: &str = "capi-runtime-controller";

/// What a successful reconcile asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing more: the next event brings the next reconcile.
    Done,
    /// Reconcile again after this long (the registry is not warmed up yet).
    RequeueAfter(Duration),
}

/// Reconciles ExtensionConfigs: one per process and mode, shared by the controller's workers
/// and the warm-up. It holds the `kube::Client` the controller reads, watches and writes with,
/// and the runtime client whose registry it fills.
#[derive(Clone)]
pub struct Reconciler {
    kube: kube::Client,
    runtime: RuntimeClient,
    read_only: bool,
    field_manager: String,
}

impl std::fmt::Debug for Reconciler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reconciler")
            .field("read_only", &self.read_only)
            .field("field_manager", &self.field_manager)
            .finish_non_exhaustive()
    }
}

/// How a reconcile registers what it found: straight into the registry, or only while the
/// watch still holds the object.
enum Registrar<'a> {
    Direct,
    Watched(&'a WatchedConfigs),
}

impl Reconciler {
    /// A reconciler that writes (CA injection, discovery, status) — Cluster API's core manager.
    pub fn new(kube: kube::Client, runtime: RuntimeClient) -> Self {
        Reconciler {
            kube,
            runtime,
            read_only: false,
            field_manager: FIELD_MANAGER.to_string(),
        }
    }

    /// A reconciler that never writes: it registers what the main controller discovered, once
    /// the object passes the read-only checks ([`decide::validate_read_only`]).
    pub fn read_only(kube: kube::Client, runtime: RuntimeClient) -> Self {
        Reconciler {
            read_only: true,
            ..Reconciler::new(kube, runtime)
        }
    }

    /// Names the field manager of the writes ([`FIELD_MANAGER`] by default).
    pub fn field_manager(mut self, name: impl Into<String>) -> Self {
        self.field_manager = name.into();
        self
    }

    /// True for a read-only reconciler.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The runtime client whose registry this reconciler fills.
    pub fn runtime(&self) -> &RuntimeClient {
        &self.runtime
    }

    /// The Kubernetes client it reads and writes with (the controller watches with it too).
    pub fn kube(&self) -> &kube::Client {
        &self.kube
    }

    fn api(&self) -> Api<ExtensionConfig> {
        Api::all(self.kube.clone())
    }

    fn patch_params(&self) -> PatchParams {
        PatchParams {
            field_manager: Some(self.field_manager.clone()),
            ..PatchParams::default()
        }
    }

    fn unregister(&self, name: &str) -> Result<(), Error> {
        tracing::info!(
            ExtensionConfig = name,
            "Unregistering ExtensionConfig information from registry"
        );
        self.runtime
            .unregister_by_name(name)
            .map_err(|source| Error::Unregister {
                name: name.to_string(),
                source,
            })
    }

    fn register(&self, config: &ExtensionConfig, registrar: &Registrar<'_>) -> Result<(), Error> {
        let name = decide::name_of(config);
        tracing::debug!(
            ExtensionConfig = name,
            "Registering ExtensionConfig information into registry"
        );
        let registered = match registrar {
            Registrar::Direct => self.runtime.register(config).map(|()| true),
            Registrar::Watched(watched) => watched.register(&self.runtime, config),
        };
        match registered {
            Ok(true) => Ok(()),
            Ok(false) => {
                tracing::debug!(
                    ExtensionConfig = name,
                    "not registered: the ExtensionConfig is gone or being deleted"
                );
                Ok(())
            }
            Err(source) => Err(Error::Register {
                key: decide::key_of(config),
                source,
            }),
        }
    }

    /// Reconciles the ExtensionConfig `name` (runtime.md §4.2), reading it from the API server:
    /// Cluster API's reconcile, for a caller without a watch. Gone or being deleted, its
    /// registrations are removed here. (The controller reconciles with
    /// [`Reconciler::reconcile_watched`] instead, where removals follow the watch.)
    pub async fn reconcile(&self, name: &str) -> Result<Outcome, Error> {
        if !self.runtime.is_ready() {
            return Ok(Outcome::RequeueAfter(decide::NOT_READY_REQUEUE));
        }
        let config = self
            .api()
            .get_opt(name)
            .await
            .map_err(|e| Error::Get(KubeError(e)))?;
        match config {
            Some(config) if config.metadata.deletion_timestamp.is_none() => {
                self.reconcile_present(config, &Registrar::Direct).await
            }
            _ => {
                self.unregister(name)?;
                Ok(Outcome::Done)
            }
        }
    }

    /// Reconciles `config`, an object of the controller's watch (the latest its cache holds),
    /// as [`Reconciler::reconcile`] does, except for deletions: those are `watched`'s to apply
    /// (an object being deleted is left alone here), and what the reconcile found is
    /// registered only if `watched` still holds the object when it is done.
    pub async fn reconcile_watched(
        &self,
        config: &ExtensionConfig,
        watched: &WatchedConfigs,
    ) -> Result<Outcome, Error> {
        if !self.runtime.is_ready() {
            return Ok(Outcome::RequeueAfter(decide::NOT_READY_REQUEUE));
        }
        if config.metadata.deletion_timestamp.is_some() {
            return Ok(Outcome::Done);
        }
        self.reconcile_present(config.clone(), &Registrar::Watched(watched))
            .await
    }

    /// The reconcile of an object that is there and not being deleted.
    async fn reconcile_present(
        &self,
        config: ExtensionConfig,
        registrar: &Registrar<'_>,
    ) -> Result<Outcome, Error> {
        if self.read_only {
            if decide::read_only_paused(&config) {
                return Ok(Outcome::Done);
            }
            decide::validate_read_only(&config).map_err(Error::Validate)?;
            self.register(&config, registrar)?;
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
            .map_err(Error::reconcile)?;
        self.register(&updated, registrar)?;
        Ok(Outcome::Done)
    }

    async fn patch_status(
        &self,
        original: &ExtensionConfig,
        updated: &ExtensionConfig,
    ) -> Result<(), Error> {
        let Some(patch) = decide::status_patch(original, updated) else {
            return Ok(());
        };
        let name = decide::name_of(updated);
        self.api()
            .patch_status(name, &self.patch_params(), &Patch::Merge(&patch))
            .await
            .map(|_| ())
            .map_err(|e| Error::Patch {
                name: name.to_string(),
                source: KubeError(e),
            })
    }

    /// Injects the CA bundle, discovers the extension and patches the status (runtime.md
    /// §4.3–§4.4). Returns the object to register; any error means: do not register (the
    /// errors of discovery and of the status patch come together, as Cluster API aggregates
    /// them).
    pub async fn reconcile_extension_config(
        &self,
        original: ExtensionConfig,
        mut config: ExtensionConfig,
    ) -> Result<ExtensionConfig, Error> {
        let mut original = original;
        if let Some(patched) = self.inject_ca(&mut config).await? {
            original = patched.clone();
            config = patched;
        }
        let discovered = self.runtime.discover(&config).await;
        let (updated, discovery_error) =
            decide::apply_discovery(&config, discovered, Timestamp::now());
        let mut errors: Vec<Error> = discovery_error.into_iter().collect();
        if let Err(e) = self.patch_status(&original, &updated).await {
            errors.push(e);
        }
        match Error::aggregate(errors) {
            None => Ok(updated),
            Some(e) => Err(e),
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
                source: KubeError(e),
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
            .patch(&config_name, &self.patch_params(), &Patch::Merge(&patch))
            .await
            .map_err(|e| CaError::Patch {
                name: config_name.clone(),
                source: KubeError(e),
            })?;
        Ok(Some(patched))
    }

    /// One warm-up pass (runtime.md §4.8): list every ExtensionConfig, reconcile (or, read-only,
    /// validate) each, then load them all into the registry.
    pub async fn warm_up_once(&self) -> Result<(), Error> {
        let list = self
            .api()
            .list(&ListParams::default())
            .await
            .map_err(|e| Error::List(KubeError(e)))?;
        let mut errors = Vec::new();
        let mut configs = Vec::with_capacity(list.items.len());
        for config in list.items {
            if self.read_only {
                match decide::validate_read_only(&config) {
                    Ok(()) => configs.push(config),
                    Err(e) => errors.push(Error::Validate(e)),
                }
            } else {
                match self
                    .reconcile_extension_config(config.clone(), config)
                    .await
                {
                    Ok(updated) => configs.push(updated),
                    Err(e) => errors.push(Error::reconcile(e)),
                }
            }
        }
        if let Some(e) = Error::aggregate(errors) {
            return Err(e);
        }
        self.runtime
            .warm_up(configs.iter())
            .map_err(Error::WarmUpRegistry)
    }

    /// Warms the registry up: a pass at once, then one every `interval`, until one succeeds or
    /// `timeout` has passed; then fails with [`Error::WarmUpTimeout`] over the last pass's
    /// error (Cluster API's `ExtensionConfig registry warmup timed out after 1m0s: <cause>`).
    pub async fn warm_up(&self, interval: Duration, timeout: Duration) -> Result<(), Error> {
        let mut last: Option<Error> = None;
        let attempts = async {
            loop {
                match self.warm_up_once().await {
                    Ok(()) => {
                        tracing::info!("The extension registry is warmed up");
                        return;
                    }
                    Err(e) => {
                        tracing::error!(error = %chain(&e), "ExtensionConfig registry warmup failed");
                        last = Some(e);
                    }
                }
                tokio::time::sleep(interval).await;
            }
        };
        match tokio::time::timeout(timeout, attempts).await {
            Ok(()) => Ok(()),
            Err(_) => Err(Error::WarmUpTimeout {
                timeout,
                last: Box::new(last.unwrap_or(Error::DeadlineExceeded)),
            }),
        }
    }
}
