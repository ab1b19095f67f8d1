//! `capi-runtime-manager`: runs the ExtensionConfig controller, its registry warm-up and the
//! ExtensionConfig webhooks of `capi-runtime-controller` against a cluster, as Cluster API's
//! core manager does: leader election through a Lease, probes, one Prometheus endpoint for the
//! controller's and the runtime client's metrics, graceful shutdown. Its deployment manifests
//! are in this crate's `config/`.
//!
//! ```text
//! capi-runtime-manager --kubeconfig ~/.kube/config --feature-gates RuntimeSDK=true \
//!   --webhook-port 9443 --webhook-cert-dir /tmp/k8s-webhook-server/serving-certs \
//!   --diagnostics-address :8443 --health-addr 127.0.0.1:9440 \
//!   --leader-elect --leader-election-namespace capi-system
//! ```
//!
//! # Diagnostics
//!
//! `/metrics` is served on `--diagnostics-address` (default `:8443`, every interface; `0`
//! turns it off). By default it is HTTPS with the webhook server's certificate (the
//! `tls.crt`/`tls.key` of `--webhook-cert-dir`, reloaded when they change, so one certificate
//! that cert-manager renews covers both), and a request is served only when its bearer token
//! passes a `TokenReview` and its user may `get` the path by a `SubjectAccessReview`; the
//! manager's ServiceAccount needs `create` on both review kinds. To scrape, bind a
//! ServiceAccount to the `capi-runtime-metrics-reader` ClusterRole (`nonResourceURLs:
//! ["/metrics"]`, `get`) and send one of its tokens as `Authorization: Bearer <token>`; the
//! scraper verifies the certificate against the webhook CA, for the name of the webhook
//! Service. `--insecure-diagnostics` serves the same endpoint over plain HTTP with no
//! authentication, for local runs. The status codes and caches are described in the
//! `diagnostics` module. Beside the controller's and the client's metrics, `/metrics` carries
//! the process's own figures, read at each scrape: `process_resident_memory_bytes`,
//! `process_open_fds` (the names of Prometheus's process collector) and `tokio_alive_tasks`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use capi_runtime::client::{Client as RuntimeClient, Metrics};
use capi_runtime::go::errors::chain;
use capi_runtime::go::time::parse_duration;
use capi_runtime::https::{HostOptions, RunningHost, TlsFiles};
use capi_runtime::registry::Registry;
use capi_runtime::signal::shutdown_signal;
use capi_runtime_controller::webhook::{self, WebhookOptions};
use capi_runtime_controller::{ControllerMetrics, Options, Reconciler};
use clap::Parser;
use kube_lease_manager::{LeaseManagerBuilder, LeaseParams};
use prometheus_client::registry::Registry as MetricsRegistry;

mod diagnostics;
mod process_metrics;

/// Command-line flags.
#[derive(Debug, Parser)]
#[command(name = "capi-runtime-manager", version, about)]
struct Flags {
    /// Path to a kubeconfig; without it the in-cluster configuration or `$KUBECONFIG` is used.
    #[arg(long)]
    kubeconfig: Option<PathBuf>,
    /// Feature gates as `Name=true|false,...`; only `RuntimeSDK` is read (default off).
    #[arg(long, default_value = "")]
    feature_gates: String,
    /// How many ExtensionConfigs are reconciled at once.
    #[arg(long, default_value_t = 10)]
    extensionconfig_concurrency: u16,
    /// Reconcile only ExtensionConfigs labelled `cluster.x-k8s.io/watch-filter=<value>`.
    #[arg(long)]
    watch_filter: Option<String>,
    /// How often every ExtensionConfig is reconciled without events, a Go duration (`10m`,
    /// `90s`, `1.5h`).
    #[arg(long, default_value = "10m", value_parser = parse_duration)]
    sync_period: Duration,
    /// Watch the CA Secrets in this namespace only (default: all namespaces).
    #[arg(long)]
    namespace: Option<String>,
    /// The address the webhook server binds to.
    #[arg(long, default_value = "0.0.0.0")]
    webhook_host: std::net::IpAddr,
    /// The webhook server's port.
    #[arg(long, default_value_t = 9443)]
    webhook_port: u16,
    /// The directory with the webhook server's `tls.crt` and `tls.key` (reloaded on change).
    #[arg(long, default_value_os_t = capi_runtime::server::default_cert_dir())]
    webhook_cert_dir: PathBuf,
    /// The address of the diagnostics endpoint (`/metrics`): `:port` (every interface) or
    /// `ip:port`; `0` turns it off. HTTPS (with the certificate of `--webhook-cert-dir`), token
    /// authentication and authorization unless `--insecure-diagnostics` is given.
    #[arg(long, default_value = ":8443")]
    diagnostics_address: String,
    /// Serve the diagnostics endpoint over plain HTTP, without authentication or authorization.
    #[arg(long, default_value_t = false)]
    insecure_diagnostics: bool,
    /// The address of the probes (`/healthz`, `/readyz`).
    #[arg(long, default_value = "0.0.0.0:9440")]
    health_addr: SocketAddr,
    /// Elect a leader through a coordination.k8s.io Lease before running the controller.
    #[arg(long, default_value_t = false)]
    leader_elect: bool,
    /// The Lease's name.
    #[arg(long, default_value = "controller-leader-election-capi-runtime")]
    leader_election_id: String,
    /// The Lease's namespace.
    #[arg(long, default_value = "default")]
    leader_election_namespace: String,
    /// How long a leader's Lease is valid without renewal.
    #[arg(long, default_value = "15s", value_parser = parse_duration)]
    leader_elect_lease_duration: Duration,
    /// Renew the Lease this long before it expires.
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    leader_elect_renew_grace: Duration,
    /// Client certificate presented to Runtime Extensions (with the key file).
    #[arg(long, default_value = "")]
    runtime_extension_client_cert_file: String,
    /// Key of the client certificate presented to Runtime Extensions.
    #[arg(long, default_value = "")]
    runtime_extension_client_key_file: String,
}

/// Why a `--feature-gates` value is refused (component-base's messages).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum FeatureGateError {
    /// An item without `=`.
    #[error("missing bool value for {0}")]
    MissingValue(String),
    /// A value that is not a bool.
    #[error("invalid value of {name}={value}")]
    InvalidValue {
        name: String,
        value: String,
        #[source]
        source: std::str::ParseBoolError,
    },
}

/// Whether `RuntimeSDK` is on in a `--feature-gates` value.
fn runtime_sdk_enabled(gates: &str) -> Result<bool, FeatureGateError> {
    let mut enabled = false;
    for item in gates.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| FeatureGateError::MissingValue(item.to_string()))?;
        let value: bool =
            value
                .trim()
                .parse()
                .map_err(|source| FeatureGateError::InvalidValue {
                    name: name.to_string(),
                    value: value.to_string(),
                    source,
                })?;
        if name.trim() == "RuntimeSDK" {
            enabled = value;
        }
    }
    Ok(enabled)
}

#[derive(Clone)]
struct Ops {
    registry: Registry,
    gate: bool,
}

async fn healthz() -> &'static str {
    "ok"
}

async fn readyz(State(ops): State<Ops>) -> impl IntoResponse {
    if !ops.gate || ops.registry.is_ready() {
        (StatusCode::OK, "ok")
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "extension registry not warmed up",
        )
    }
}

async fn metrics(State(registry): State<Arc<MetricsRegistry>>) -> impl IntoResponse {
    let mut text = String::new();
    match prometheus_client::encoding::text::encode(&mut text, &registry) {
        Ok(()) => (
            StatusCode::OK,
            [(
                header::CONTENT_TYPE,
                "application/openmetrics-text; version=1.0.0; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// Stops the HTTPS diagnostics listener, if there is one, letting scrapes in flight finish.
async fn stop_diagnostics(running: Option<RunningHost>) {
    if let Some(running) = running
        && let Err(e) = running.shutdown().await
    {
        tracing::error!(error = %chain(&e), "diagnostics server failed");
    }
}

/// The User-Agent of the manager's requests: the API server names the writes that carry no
/// field manager of their own after it (in `managedFields`, as `capi-runtime-manager`).
const USER_AGENT: &str = concat!("capi-runtime-manager/", env!("CARGO_PKG_VERSION"));

async fn kube_client(flags: &Flags) -> anyhow::Result<kube::Client> {
    let mut config = match &flags.kubeconfig {
        Some(path) => {
            let kubeconfig = kube::config::Kubeconfig::read_from(path)
                .with_context(|| format!("reading the kubeconfig {}", path.display()))?;
            kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default())
                .await
                .context("loading the kubeconfig")?
        }
        None => kube::Config::infer()
            .await
            .context("finding the cluster configuration")?,
    };
    config
        .headers
        .push((header::USER_AGENT, HeaderValue::from_static(USER_AGENT)));
    kube::Client::try_from(config).context("building the Kubernetes client")
}

async fn run(flags: Flags) -> anyhow::Result<()> {
    // Listening for SIGTERM from here on: a signal that comes while the servers start, or just
    // after they say they serve, stops the manager gracefully rather than by default action.
    let signal = shutdown_signal();
    let gate = runtime_sdk_enabled(&flags.feature_gates).context("invalid --feature-gates")?;
    let kube = kube_client(&flags).await?;

    let mut metrics_registry = MetricsRegistry::default();
    let client_metrics = Metrics::new();
    client_metrics.register(&mut metrics_registry);
    let controller_metrics = ControllerMetrics::new();
    controller_metrics.register(&mut metrics_registry);
    metrics_registry.register_collector(Box::new(process_metrics::ProcessCollector::new(
        tokio::runtime::Handle::current(),
    )));
    let metrics_registry = Arc::new(metrics_registry);

    let registry = Registry::new();
    let mut builder = RuntimeClient::builder()
        .registry(registry.clone())
        .metrics(client_metrics);
    if !flags.runtime_extension_client_cert_file.is_empty() {
        builder = builder.client_certificate(
            &flags.runtime_extension_client_cert_file,
            &flags.runtime_extension_client_key_file,
        );
    }
    let runtime = builder.build()?;

    let tls_files = TlsFiles::new(
        flags.webhook_cert_dir.join("tls.crt"),
        flags.webhook_cert_dir.join("tls.key"),
    );
    let mut host = HostOptions::new(
        SocketAddr::new(flags.webhook_host, flags.webhook_port),
        tls_files.clone(),
    );
    host.health_addr = Some(flags.health_addr);
    let ops = Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .with_state(Ops {
            registry: registry.clone(),
            gate,
        });
    let webhooks = RunningHost::start(
        host,
        webhook::router(WebhookOptions {
            runtime_sdk_enabled: gate,
        }),
        ops,
    )
    .await
    .context("failed to start the webhook server")?;
    tracing::info!(addr = %webhooks.local_addr(), "serving webhooks");
    if let Some(addr) = webhooks.health_addr() {
        tracing::info!(addr = %addr, "serving probes");
    }

    let diagnostics_addr = diagnostics::parse_address(&flags.diagnostics_address)
        .context("invalid --diagnostics-address")?;
    let routes = Router::new().route("/metrics", get(metrics));
    let mut secure_diagnostics = None;
    match diagnostics_addr {
        None => {}
        Some(addr) if flags.insecure_diagnostics => {
            let listener = tokio::net::TcpListener::bind(addr)
                .await
                .with_context(|| format!("failed to listen on {addr}"))?;
            tracing::info!(addr = %listener.local_addr()?, "serving diagnostics over plain HTTP without authentication");
            let app = routes.with_state(metrics_registry.clone());
            tokio::spawn(async move {
                if let Err(e) = axum::serve(listener, app).await {
                    tracing::error!(error = %e, "diagnostics server failed");
                }
            });
        }
        Some(addr) => {
            let gate = Arc::new(diagnostics::Gate::new(diagnostics::KubeReviewer::new(
                kube.clone(),
            )));
            let app = routes
                .layer(axum::middleware::from_fn_with_state(
                    gate,
                    diagnostics::authorize::<diagnostics::KubeReviewer>,
                ))
                .with_state(metrics_registry.clone());
            let host = HostOptions::new(addr, tls_files.clone());
            let running = RunningHost::start(host, app, Router::new())
                .await
                .context("failed to start the diagnostics server")?;
            tracing::info!(addr = %running.local_addr(), "serving diagnostics over HTTPS");
            secure_diagnostics = Some(running);
        }
    }
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        signal.await;
        let _ = stop_tx.send(true);
    });
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };

    if !gate {
        tracing::info!("the RuntimeSDK feature gate is off: serving webhooks only");
        stopped(stop_rx).await;
        stop_diagnostics(secure_diagnostics).await;
        return Ok(webhooks.shutdown().await?);
    }

    let mut lost_leadership: Option<tokio::sync::watch::Receiver<bool>> = None;
    let mut lease_task = None;
    if flags.leader_elect {
        let identity = format!(
            "{}_{}",
            std::env::var("HOSTNAME").unwrap_or_else(|_| "capi-runtime-manager".into()),
            std::process::id()
        );
        let manager = LeaseManagerBuilder::new(kube.clone(), &flags.leader_election_id)
            .with_namespace(&flags.leader_election_namespace)
            .with_parameters(LeaseParams::new(
                identity,
                flags.leader_elect_lease_duration.as_secs().max(2),
                flags.leader_elect_renew_grace.as_secs().max(1),
            ))
            .build()
            .await
            .context("leader election")?;
        let (mut leader, task) = manager.watch().await;
        tracing::info!(lease = %flags.leader_election_id, "waiting to become the leader");
        let mut stop = stop_rx.clone();
        tokio::select! {
            r = leader.wait_for(|is| *is) => { r.context("leader election stopped")?; }
            _ = stop.wait_for(|s| *s) => {
                stop_diagnostics(secure_diagnostics).await;
                return Ok(webhooks.shutdown().await?);
            }
        }
        tracing::info!("became the leader");
        lost_leadership = Some(leader);
        lease_task = Some(task);
    }

    let options = Options::default()
        .concurrency(flags.extensionconfig_concurrency)
        .sync_period(Some(flags.sync_period));
    let options = match &flags.watch_filter {
        Some(v) => options.watch_filter(v.clone()),
        None => options,
    };
    let options = match &flags.namespace {
        Some(ns) => options.secret_namespace(ns.clone()),
        None => options,
    };
    let (lost_tx, mut lost_rx) = tokio::sync::oneshot::channel::<()>();
    let shutdown = {
        let stop_rx = stop_rx.clone();
        let leader = lost_leadership.clone();
        async move {
            let leadership_lost = async move {
                match leader {
                    Some(mut l) => {
                        let _ = l.wait_for(|is| !*is).await;
                        let _ = lost_tx.send(());
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = stopped(stop_rx) => {},
                () = leadership_lost => {},
            }
        }
    };
    let result = capi_runtime_controller::run(
        Reconciler::new(kube, runtime),
        options,
        controller_metrics,
        shutdown,
    )
    .await;
    drop(lost_leadership);
    if let Some(task) = lease_task {
        // Closing the channel makes the lease manager release the Lease.
        let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    }
    stop_diagnostics(secure_diagnostics).await;
    let _ = webhooks.shutdown().await;
    result?;
    if lost_rx.try_recv().is_ok() {
        anyhow::bail!("leader election lost");
    }
    Ok(())
}

fn main() -> ExitCode {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    tracing_subscriber::fmt()
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let flags = Flags::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("failed to start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(flags)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Cluster API's one-line text: the error and its causes.
            let text = chain(e.as_ref()).to_string();
            tracing::error!(error = %text, "manager stopped");
            eprintln!("error: {text}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[&str]) -> Result<Flags, clap::Error> {
        Flags::try_parse_from(std::iter::once("capi-runtime-manager").chain(args.iter().copied()))
    }

    #[test]
    fn durations_parse_like_go_flags() {
        for (text, expected) in [
            ("10m", Duration::from_secs(600)),
            ("1m30s", Duration::from_secs(90)),
            ("1.5m", Duration::from_secs(90)),
            ("500ms", Duration::from_millis(500)),
            ("1h0.5s", Duration::from_millis(3_600_500)),
        ] {
            let f = flags(&[&format!("--sync-period={text}")]).unwrap();
            assert_eq!(f.sync_period, expected, "{text}");
        }
        assert_eq!(flags(&[]).unwrap().sync_period, Duration::from_secs(600));
        let refused = flags(&["--sync-period=10"]).unwrap_err().to_string();
        assert!(
            refused.contains("time: missing unit in duration \"10\""),
            "{refused}"
        );
        assert!(flags(&["--leader-elect-lease-duration=x"]).is_err());
        assert!(flags(&["--sync-period=-1s"]).is_err());
    }

    #[test]
    fn the_shipped_deployment_passes_flags_the_manager_accepts() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/manager/30-deployment.yaml"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let deployment: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        let container = &deployment["spec"]["template"]["spec"]["containers"][0];
        let args: Vec<&str> = container["args"]
            .as_array()
            .expect("the manager container has args")
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let flags = Flags::try_parse_from(std::iter::once("capi-runtime-manager").chain(args))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(runtime_sdk_enabled(&flags.feature_gates), Ok(true));
        assert!(flags.leader_elect);
        assert_eq!(flags.webhook_port, 9443);
        // The probes and the Service point at ports the manager listens on.
        assert_eq!(flags.health_addr.port(), 9440);
        let ports: Vec<i64> = container["ports"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["containerPort"].as_i64().unwrap())
            .collect();
        assert_eq!(ports, [9443, 8443, 9440]);
        // The diagnostics endpoint is the secure one, on the port the container declares.
        assert!(!flags.insecure_diagnostics);
        assert_eq!(
            diagnostics::parse_address(&flags.diagnostics_address),
            Ok(Some("0.0.0.0:8443".parse().unwrap()))
        );
    }

    #[test]
    fn feature_gates_parse() {
        assert_eq!(runtime_sdk_enabled(""), Ok(false));
        assert_eq!(runtime_sdk_enabled("RuntimeSDK=true"), Ok(true));
        assert_eq!(
            runtime_sdk_enabled("ClusterTopology=true, RuntimeSDK=false"),
            Ok(false)
        );
        assert_eq!(
            runtime_sdk_enabled("RuntimeSDK"),
            Err(FeatureGateError::MissingValue("RuntimeSDK".into()))
        );
        let e = runtime_sdk_enabled("RuntimeSDK=maybe").unwrap_err();
        assert_eq!(
            chain(&e).to_string(),
            "invalid value of RuntimeSDK=maybe: provided string was not `true` or `false`"
        );
    }
}
