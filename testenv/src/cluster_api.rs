//! Cluster API's core manager against a test control plane: [`ClusterApi`].
//!
//! The control plane ([`TestEnv`]) starts with every CRD of Cluster API's core installed
//! (from [`ClusterApiAssets`]); Cluster API's core manager (`sigs.k8s.io/cluster-api/core`)
//! runs against it with the `RuntimeSDK` and `ClusterTopology` feature gates, without leader
//! election, on loopback ports it picks, its webhook server on a certificate signed by the
//! environment's CA. Its admission webhooks run as in a real installation: Cluster API's own
//! webhook configurations (`core/config/webhook/manifests.yaml` of its module, see
//! [`ClusterApiAssets::webhooks`]) are installed pointed at the manager's webhook port, so the
//! API server has Cluster API default and validate Clusters, ClusterClasses, ExtensionConfigs,
//! Machines and the rest of its core kinds, and refuse what Cluster API refuses, at `create`
//! time ([`ClusterApiBuilder::webhooks`] turns them off).
//!
//! [`ClusterApiBuilder::existing_cluster`] runs the manager against a cluster the test did not
//! start instead (without the webhooks unless asked).
//!
//! Dropping a [`ClusterApi`] stops the manager, then the control plane; as for every
//! [`Process`] of this crate, a supervisor stops them when the test process dies any other
//! way (a panic, an abort, SIGKILL).

use std::future::Future;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::{ClientConfig, ExtensionConfig, ExtensionConfigSpec};
use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use kube::Client;
use kube::api::{Api, DynamicObject, GroupVersionKind, PostParams};
use serde::Serialize;

use crate::error::{BoxError, WaitError};
use crate::process::Patience;
use crate::webhooks::WebhookInstallOptions;
use crate::{
    Builder, ClusterApiAssets, Error, ExistingCluster, Process, ProcessReport, Result,
    StartupError, TestEnv, free_port, new_log_dir,
};

/// How long the manager may take to become ready, and a wait of the helpers to succeed,
/// unless told otherwise.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(120);

/// How often a wait checks again.
const POLL: Duration = Duration::from_millis(200);

/// The feature gates the manager runs with.
pub const FEATURE_GATES: &str = "RuntimeSDK=true,ClusterTopology=true";

/// How a [`ClusterApi`] is set up; [`ClusterApiBuilder::start`] starts it.
pub struct ClusterApiBuilder {
    name: String,
    assets: Option<ClusterApiAssets>,
    version: Option<String>,
    env: Box<dyn FnOnce(Builder) -> Builder + Send>,
    manager_args: Vec<String>,
    test_providers: bool,
    wait: Duration,
    existing: Option<ExistingCluster>,
    webhooks: Option<bool>,
}

impl std::fmt::Debug for ClusterApiBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterApiBuilder")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("manager_args", &self.manager_args)
            .field("test_providers", &self.test_providers)
            .field("webhooks", &self.webhooks)
            .finish_non_exhaustive()
    }
}

impl ClusterApiBuilder {
    /// Cluster API's manager from [`ClusterApiAssets::find`], against a control plane set up
    /// as [`Builder::new`]`(name)` sets it up; logs under `target/testenv/logs/<name>/`.
    pub fn new(name: &str) -> ClusterApiBuilder {
        ClusterApiBuilder {
            name: name.to_string(),
            assets: None,
            version: None,
            env: Box::new(|b| b),
            manager_args: Vec::new(),
            test_providers: false,
            wait: DEFAULT_WAIT,
            existing: None,
            webhooks: None,
        }
    }

    /// Runs against `cluster` instead of starting a control plane: the CRDs are applied
    /// there and the manager uses its kubeconfig ([`ClusterApiBuilder::control_plane`] is then
    /// ignored). See [`ExistingCluster::from_env`] for envtest's `USE_EXISTING_CLUSTER`.
    pub fn existing_cluster(mut self, cluster: ExistingCluster) -> ClusterApiBuilder {
        self.existing = Some(cluster);
        self
    }

    /// Changes the control plane's set-up (more CRDs, API server flags, other binaries).
    pub fn control_plane(
        mut self,
        configure: impl FnOnce(Builder) -> Builder + Send + 'static,
    ) -> ClusterApiBuilder {
        self.env = Box::new(configure);
        self
    }

    /// Cluster API's binary and CRDs to use instead of looking them up.
    pub fn assets(mut self, assets: ClusterApiAssets) -> ClusterApiBuilder {
        self.assets = Some(assets);
        self
    }

    /// Runs Cluster API `version` (one of [`capi_envtest::CLUSTER_API_VERSIONS`]), its manager
    /// and CRDs found by [`ClusterApiAssets::find_version`], instead of the default (newest)
    /// one. [`ClusterApiBuilder::assets`] takes precedence.
    pub fn cluster_api_version(mut self, version: impl Into<String>) -> ClusterApiBuilder {
        self.version = Some(version.into());
        self
    }

    /// One more flag of the manager (`--sync-period=10s`, `--v=4`), after the harness's own.
    pub fn manager_arg(mut self, arg: impl Into<String>) -> ClusterApiBuilder {
        self.manager_args.push(arg.into());
        self
    }

    /// Also installs the smallest infrastructure and control plane providers a ClusterClass
    /// can name (their CRDs only, see [`crate::topology`]).
    pub fn test_providers(mut self) -> ClusterApiBuilder {
        self.test_providers = true;
        self
    }

    /// Whether Cluster API's admission webhooks run: on by default on a control plane this
    /// starts, off on an [existing cluster](ClusterApiBuilder::existing_cluster) (whose API
    /// server must reach the manager on this machine's loopback, and which keeps the
    /// configurations after the test).
    ///
    /// On, [`ClusterApiBuilder::start`] installs Cluster API's Mutating- and
    /// ValidatingWebhookConfiguration pointed at the manager's webhook server, with the CA of
    /// its serving certificate, and returns once the API server calls them: from the first
    /// request on, a Cluster whose variables do not fit its ClusterClass is refused at `create`
    /// with Cluster API's field errors and an accepted one is stored with their defaults, as
    /// in a real installation. Off, nothing refuses at `create` what only a webhook checks;
    /// the topology controller still defaults and validates variables before each topology
    /// (with the same function), and fails the reconcile instead.
    pub fn webhooks(mut self, on: bool) -> ClusterApiBuilder {
        self.webhooks = Some(on);
        self
    }

    /// How long start-up and every wait of the helpers may take ([`DEFAULT_WAIT`]).
    pub fn wait(mut self, wait: Duration) -> ClusterApiBuilder {
        self.wait = wait;
        self
    }

    /// Starts the control plane with Cluster API's CRDs (and the test providers' if asked),
    /// then the manager, waits until the manager is ready (its `/readyz`, which includes its
    /// webhook server), and installs its webhooks unless [turned
    /// off](ClusterApiBuilder::webhooks), waiting until the API server calls them. Needs a
    /// tokio runtime; the control plane starts on a blocking thread.
    pub async fn start(self) -> Result<ClusterApi> {
        let started = Instant::now();
        let assets = match (self.assets, &self.version) {
            (Some(a), _) => a,
            (None, Some(version)) => ClusterApiAssets::find_version(version)?,
            (None, None) => ClusterApiAssets::find()?,
        };
        let webhooks = self.webhooks.unwrap_or(self.existing.is_none());
        let webhook_files = if webhooks {
            assets.webhook_files()?
        } else {
            Vec::new()
        };
        let mut crds = assets.crd_files()?;
        let providers = tempfile::tempdir().map_err(Error::io("making a temporary directory"))?;
        if self.test_providers {
            let file = providers.path().join("test-providers.yaml");
            std::fs::write(&file, crate::topology::TEST_PROVIDER_CRDS)
                .map_err(Error::io(format!("writing {}", file.display())))?;
            crds.push(file);
        }
        let target = match self.existing {
            Some(cluster) => {
                cluster.install_crds(&crds).await?;
                Target::Existing(Box::new(cluster))
            }
            None => {
                let name = self.name.clone();
                let configure = self.env;
                let env = tokio::task::spawn_blocking(move || {
                    let builder = crds.into_iter().fold(Builder::new(&name), |b, f| b.crd(f));
                    configure(builder).start()
                })
                .await
                .map_err(|e| Error::Io {
                    what: "starting the control plane".to_string(),
                    source: std::io::Error::other(e),
                })??;
                Target::Started(Box::new(env))
            }
        };
        let control_plane_ready = started.elapsed();
        let webhook_dir = tempfile::tempdir().map_err(Error::io("making a temporary directory"))?;
        target.write_serving_certificate(webhook_dir.path())?;
        let logs = new_log_dir(&self.name)?;
        let mut args = vec![
            format!("--feature-gates={FEATURE_GATES}"),
            "--v=2".to_string(),
        ];
        args.extend(self.manager_args);
        let (mut manager, webhook_port) = start_manager(
            &assets.manager,
            target.kubeconfig_path(),
            webhook_dir.path(),
            &args,
            &logs,
            self.wait,
        )
        .await?;
        let mut webhooks_installed = None;
        if webhooks {
            let installing = Instant::now();
            let client = target.client().await?;
            let options = webhook_files
                .into_iter()
                .fold(WebhookInstallOptions::new(), |o, f| o.file(f));
            let url = format!("https://127.0.0.1:{webhook_port}");
            crate::webhooks::install(&client, target.ca_pem(), &url, options).await?;
            wait_until_called(&client, &mut manager, self.wait).await?;
            webhooks_installed = Some(installing.elapsed());
        }
        Ok(ClusterApi {
            manager: Mutex::new(manager),
            _webhook_dir: webhook_dir,
            _providers: providers,
            target,
            assets,
            wait: self.wait,
            control_plane_ready,
            ready: started.elapsed(),
            webhooks_installed,
            logs,
        })
    }
}

/// A control plane with Cluster API's core manager running against it.
#[derive(Debug)]
pub struct ClusterApi {
    // Fields drop in this order: the manager first, then its files, then the control plane.
    manager: Mutex<Process>,
    _webhook_dir: tempfile::TempDir,
    _providers: tempfile::TempDir,
    target: Target,
    assets: ClusterApiAssets,
    wait: Duration,
    control_plane_ready: Duration,
    ready: Duration,
    webhooks_installed: Option<Duration>,
    logs: PathBuf,
}

impl ClusterApi {
    /// A builder; see [`ClusterApiBuilder::new`].
    pub fn builder(name: &str) -> ClusterApiBuilder {
        ClusterApiBuilder::new(name)
    }

    /// The control plane this started; `None` on an existing cluster.
    pub fn env(&self) -> Option<&TestEnv> {
        match &self.target {
            Target::Started(env) => Some(env),
            Target::Existing(_) => None,
        }
    }

    /// An admin client (see [`TestEnv::client`]), or the existing cluster's.
    pub async fn client(&self) -> Result<Client> {
        self.target.client().await
    }

    /// The CA (PEM) of the certificates [`ClusterApi::write_serving_certificate`] writes: the
    /// `caBundle` of an extension the test serves.
    pub fn ca_pem(&self) -> &str {
        self.target.ca_pem()
    }

    /// Writes `tls.crt` and `tls.key` into `dir`: a serving certificate for `127.0.0.1` and
    /// `localhost` signed by [`ClusterApi::ca_pem`], for an extension or webhook server the
    /// test runs.
    pub fn write_serving_certificate(&self, dir: &Path) -> Result<()> {
        self.target.write_serving_certificate(dir)
    }

    /// The binaries in use.
    pub fn assets(&self) -> &ClusterApiAssets {
        &self.assets
    }

    /// Where the manager's log is.
    pub fn manager_log_dir(&self) -> &Path {
        &self.logs
    }

    /// The manager's state and the tail of its log, for messages.
    pub fn manager_report(&self) -> ProcessReport {
        self.manager
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .report()
    }

    /// Stops the manager now (dropping the [`ClusterApi`] does it too).
    pub fn stop_manager(&self) {
        self.manager
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .stop();
    }

    /// Start-up times since [`ClusterApiBuilder::start`] was called: control plane ready with
    /// the CRDs served, and everything ready (the manager, and its webhooks if they run).
    pub fn startup_times(&self) -> (Duration, Duration) {
        (self.control_plane_ready, self.ready)
    }

    /// How long installing the webhook configurations took, until the API server called them
    /// (part of the second of [`ClusterApi::startup_times`]; it includes the API server's
    /// first write of a Cluster, slow with or without webhooks); `None` when they do not run.
    pub fn webhooks_startup_time(&self) -> Option<Duration> {
        self.webhooks_installed
    }

    /// Resident memory, in KiB, of etcd, kube-apiserver and the manager (each with its
    /// supervisor), read from `/proc` (0 for the processes of an existing cluster).
    pub fn rss_kib(&self) -> (u64, u64, u64) {
        let (etcd, apiserver) = self.env().map(TestEnv::rss_kib).unwrap_or_default();
        let pid = self.manager.lock().unwrap_or_else(|e| e.into_inner()).pid();
        (etcd, apiserver, crate::env::group_rss_kib(pid))
    }

    /// Polls `check` every 200 ms until it returns `Ok`, for at most the builder's wait; fails
    /// with `what`, the last reason `check` gave and the manager's log tail, or at once when
    /// the manager exits.
    pub async fn wait_for<T, F, Fut>(&self, what: &str, mut check: F) -> Result<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = std::result::Result<T, BoxError>>,
    {
        let started = Instant::now();
        loop {
            let last = match check().await {
                Ok(t) => return Ok(t),
                Err(e) => capi_runtime::go::errors::chain(&*e).to_string(),
            };
            let exited = {
                let mut m = self.manager.lock().unwrap_or_else(|e| e.into_inner());
                m.exited().is_some().then(|| m.report())
            };
            if let Some(report) = exited {
                return Err(WaitError::ManagerExited {
                    what: what.to_string(),
                    last,
                    report,
                }
                .into());
            }
            if started.elapsed() >= self.wait {
                return Err(WaitError::TimedOut {
                    what: what.to_string(),
                    after: self.wait,
                    last,
                    report: self.manager_report(),
                }
                .into());
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Creates an ExtensionConfig `name` for an extension served at `url` (HTTPS) whose
    /// serving certificate `ca_pem` verifies, with the empty `namespaceSelector` Cluster API's
    /// defaulting webhook adds (written out, so that it is there with the webhooks off too:
    /// without it Cluster API's registry matches no namespace), and waits until Cluster API
    /// reports it `Discovered=True` with at least one handler. Returns it as discovered. The extension may be served in the test process (see
    /// [`TestEnv::write_serving_certificate`] for a certificate) or anywhere the manager
    /// reaches.
    pub async fn register_extension(
        &self,
        name: &str,
        url: &str,
        ca_pem: &str,
    ) -> Result<ExtensionConfig> {
        let config = ExtensionConfig::new(
            name,
            ExtensionConfigSpec {
                client_config: ClientConfig {
                    url: url.to_string(),
                    ca_bundle: ByteString(ca_pem.as_bytes().to_vec()),
                    ..Default::default()
                },
                namespace_selector: Some(metav1::LabelSelector::default()),
                ..Default::default()
            },
        );
        let configs: Api<ExtensionConfig> = Api::all(self.client().await?);
        configs
            .create(&PostParams::default(), &config)
            .await
            .map_err(|source| Error::Request {
                what: format!("creating ExtensionConfig {name}"),
                source,
            })?;
        self.wait_for(&format!("ExtensionConfig {name} Discovered"), || {
            let configs = configs.clone();
            async move {
                let c = configs.get(name).await?;
                let discovered = c.status.conditions.iter().find(|c| c.type_ == "Discovered");
                match discovered {
                    Some(d) if d.status == "True" && !c.status.handlers.is_empty() => Ok(c),
                    Some(d) => Err(format!(
                        "Discovered={} reason {:?}: {}",
                        d.status, d.reason, d.message
                    )
                    .into()),
                    None => Err("no Discovered condition yet".into()),
                }
            }
        })
        .await
    }

    /// An `Api` for objects of `kind` in `api_version` (`group/version`), in `namespace`,
    /// with its resource found through the API server's discovery.
    pub async fn api(
        &self,
        namespace: &str,
        api_version: &str,
        kind: &str,
    ) -> Result<Api<DynamicObject>> {
        let client = self.client().await?;
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        let gvk = GroupVersionKind::gvk(group, version, kind);
        let (resource, _) =
            kube::discovery::pinned_kind(&client, &gvk)
                .await
                .map_err(|source| Error::Request {
                    what: format!("discovering {kind}.{api_version}"),
                    source,
                })?;
        Ok(Api::namespaced_with(client, namespace, &resource))
    }

    /// Creates `object`: anything that serializes to an object with `apiVersion`, `kind` and
    /// `metadata.namespace` (JSON, the SDK's typed Cluster, the builders of
    /// [`topology`](crate::topology)), of any kind the API server serves.
    pub async fn create(&self, object: &(impl Serialize + ?Sized)) -> Result<DynamicObject> {
        let object = &serde_json::to_value(object).map_err(|e| Error::Io {
            what: "writing an object to create as JSON".to_string(),
            source: std::io::Error::other(e),
        })?;
        let what = format!(
            "creating {} {}/{}",
            object["kind"].as_str().unwrap_or("?"),
            object["metadata"]["namespace"].as_str().unwrap_or(""),
            object["metadata"]["name"].as_str().unwrap_or("?"),
        );
        let dynamic: DynamicObject =
            serde_json::from_value(object.clone()).map_err(|e| Error::Io {
                what: what.clone(),
                source: std::io::Error::other(e),
            })?;
        let api = self
            .api(
                object["metadata"]["namespace"]
                    .as_str()
                    .unwrap_or("default"),
                object["apiVersion"].as_str().unwrap_or_default(),
                object["kind"].as_str().unwrap_or_default(),
            )
            .await?;
        api.create(&PostParams::default(), &dynamic)
            .await
            .map_err(|source| Error::Request { what, source })
    }

    /// Creates namespace `name`.
    pub async fn create_namespace(&self, name: &str) -> Result<()> {
        let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(self.client().await?);
        let ns = k8s_openapi::api::core::v1::Namespace {
            metadata: metav1::ObjectMeta {
                name: Some(name.to_string()),
                ..Default::default()
            },
            ..Default::default()
        };
        namespaces
            .create(&PostParams::default(), &ns)
            .await
            .map_err(|source| Error::Request {
                what: format!("creating namespace {name}"),
                source,
            })?;
        Ok(())
    }
}

/// Starts the manager on loopback ports (again, up to 5 times, when one was taken
/// meanwhile) and waits until its `/readyz` answers 200 (Cluster API's manager checks there
/// that its webhook server is serving); returns it and its webhook port.
async fn start_manager(
    binary: &Path,
    kubeconfig: &Path,
    cert_dir: &Path,
    extra: &[String],
    logs: &Path,
    wait: Duration,
) -> Result<(Process, u16)> {
    const TRIES: usize = 5;
    let mut last = None;
    let log = logs.join("manager.log");
    for attempt in 1..=TRIES {
        let (health, webhook, diagnostics) = (free_port()?, free_port()?, free_port()?);
        let mut args = vec![
            format!("--kubeconfig={}", kubeconfig.display()),
            "--leader-elect=false".to_string(),
            format!("--webhook-port={webhook}"),
            format!("--webhook-cert-dir={}", cert_dir.display()),
            format!("--health-addr=127.0.0.1:{health}"),
            format!("--diagnostics-address=127.0.0.1:{diagnostics}"),
            "--insecure-diagnostics".to_string(),
        ];
        args.extend_from_slice(extra);
        let log = logs.join(format!("manager-{attempt}.log"));
        let mut process = Process::spawn("Cluster API's manager", binary, &args, &log)?;
        let deadline = Instant::now() + wait;
        let mut patience = Patience::new(&format!(
            "Cluster API's manager to answer /readyz (its log: {})",
            log.display()
        ));
        loop {
            patience.tick(wait);
            if let Some(report) = process.exited_while_starting()? {
                last = Some(report);
                break;
            }
            if ready(health) {
                return Ok((process, webhook));
            }
            if Instant::now() >= deadline {
                let last = format!("http://127.0.0.1:{health}/readyz does not answer 200");
                return Err(not_ready(wait, last, &mut process));
            }
            tokio::time::sleep(POLL).await;
        }
    }
    Err(crate::process::port_taken(
        TRIES,
        last,
        "Cluster API's manager",
        &log,
    ))
}

/// The manager did not become ready within `after`; `last` is what the last check saw.
fn not_ready(after: Duration, last: String, manager: &mut Process) -> Error {
    StartupError::NotReady {
        after,
        last,
        report: manager.report(),
    }
    .into()
}

/// Where the manager runs: a control plane this started, or a cluster that was there.
#[derive(Debug)]
enum Target {
    Started(Box<TestEnv>),
    Existing(Box<ExistingCluster>),
}

impl Target {
    fn kubeconfig_path(&self) -> &Path {
        match self {
            Target::Started(env) => env.kubeconfig_path(),
            Target::Existing(cluster) => cluster.kubeconfig_path(),
        }
    }

    fn write_serving_certificate(&self, dir: &Path) -> Result<()> {
        match self {
            Target::Started(env) => env.write_serving_certificate(dir),
            Target::Existing(cluster) => cluster.write_serving_certificate(dir),
        }
    }

    fn ca_pem(&self) -> &str {
        match self {
            Target::Started(env) => env.ca_pem(),
            Target::Existing(cluster) => cluster.ca_pem(),
        }
    }

    async fn client(&self) -> Result<Client> {
        match self {
            Target::Started(env) => env.client().await,
            Target::Existing(cluster) => cluster.client().await,
        }
    }
}

/// Waits until the API server calls Cluster API's webhooks: a configuration takes effect once
/// the API server has read it, a moment after it is written. Two server-side dry runs show it,
/// each a Cluster that only one configuration's webhook refuses: the defaulting webhook refuses
/// a topology without a class name before the schema is checked, and the validating webhook a
/// name longer than a label value may be. Nothing is stored.
async fn wait_until_called(client: &Client, manager: &mut Process, wait: Duration) -> Result<()> {
    let clusters: Api<DynamicObject> = Api::namespaced_with(
        client.clone(),
        "default",
        &kube::api::ApiResource::from_gvk_with_plural(
            &GroupVersionKind::gvk("cluster.x-k8s.io", "v1beta2", "Cluster"),
            "clusters",
        ),
    );
    let probes = [
        (
            "default.cluster.cluster.x-k8s.io",
            serde_json::json!({
                "apiVersion": "cluster.x-k8s.io/v1beta2",
                "kind": "Cluster",
                "metadata": {"name": "webhook-probe"},
                "spec": {"topology": {"classRef": {"name": ""}, "version": "v1.31.0"}},
            }),
        ),
        (
            "validation.cluster.cluster.x-k8s.io",
            serde_json::json!({
                "apiVersion": "cluster.x-k8s.io/v1beta2",
                "kind": "Cluster",
                "metadata": {"name": "webhook-probe".repeat(5)},
                "spec": {"paused": false},
            }),
        ),
    ];
    let deadline = Instant::now() + wait;
    let dry_run = PostParams {
        dry_run: true,
        ..Default::default()
    };
    for (webhook, probe) in probes {
        let probe: DynamicObject = serde_json::from_value(probe).map_err(|e| Error::Io {
            what: "writing a webhook probe".to_string(),
            source: std::io::Error::other(e),
        })?;
        let denied = format!("admission webhook \"{webhook}\" denied the request");
        loop {
            let last = match clusters.create(&dry_run, &probe).await {
                Err(kube::Error::Api(status)) if status.message.contains(&denied) => break,
                Err(kube::Error::Api(status)) => status.message,
                Err(source) => {
                    return Err(Error::Request {
                        what: format!("a dry run for webhook {webhook}"),
                        source,
                    });
                }
                Ok(_) => "a dry run was accepted".to_string(),
            };
            if manager.exited().is_some() {
                return Err(StartupError::Exited(manager.report()).into());
            }
            if Instant::now() >= deadline {
                let last = format!("the API server does not call webhook {webhook}: {last}");
                return Err(not_ready(wait, last, manager));
            }
            tokio::time::sleep(POLL).await;
        }
    }
    Ok(())
}

/// Whether `GET /readyz` on the loopback port answers 200 (a plain HTTP/1.0 request; the
/// port is the manager's own health endpoint).
fn ready(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    if stream
        .write_all(b"GET /readyz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.") && &head[9..12] == b"200"
}
