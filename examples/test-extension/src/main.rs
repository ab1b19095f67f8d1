//! Runs the example Runtime Extension over HTTPS until SIGTERM or Ctrl-C.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use capi_runtime::go::errors::chain;
use capi_runtime::server::{DEFAULT_CERT_NAME, DEFAULT_KEY_NAME, DEFAULT_PORT, shutdown_signal};
use capi_test_extension::lifecycle::{RecordLimits, Script};
use clap::Parser;

/// Flags follow upstream's test extension where they overlap.
#[derive(Debug, Parser)]
#[command(
    name = "capi-test-extension",
    about = "An example Cluster API Runtime Extension"
)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    webhook_host: IpAddr,
    /// Port to listen on (0 picks a free one and logs it).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    webhook_port: u16,
    /// Directory with the serving certificate and key; they are reloaded when they change.
    #[arg(long, default_value = "/tmp/k8s-webhook-server/serving-certs/")]
    webhook_cert_dir: PathBuf,
    /// File name of the serving certificate.
    #[arg(long, default_value = DEFAULT_CERT_NAME)]
    webhook_cert_name: String,
    /// File name of the serving key.
    #[arg(long, default_value = DEFAULT_KEY_NAME)]
    webhook_key_name: String,
    /// Plain-HTTP address serving /healthz and /readyz (for the kubelet's probes).
    #[arg(long, default_value = "0.0.0.0:9440")]
    health_addr: SocketAddr,
    /// Plain-HTTP address serving /metrics, unauthenticated; off unless given. Prefer a
    /// loopback address such as 127.0.0.1:8080.
    #[arg(long)]
    metrics_bind_addr: Option<SocketAddr>,
    /// File with scripted lifecycle responses, watched for changes.
    #[arg(long, default_value = "hookresponses.yaml")]
    responses_file: PathBuf,
    /// File the answers given are recorded in (default: the responses file with
    /// `.actual.yaml` appended).
    #[arg(long)]
    record_file: Option<PathBuf>,
    /// Most keys the record file holds; an answer that would add another answers Failure.
    #[arg(long, default_value_t = RecordLimits::default().max_keys)]
    record_max_keys: usize,
    /// How often the responses file is checked for changes, in milliseconds.
    #[arg(long, default_value_t = 500)]
    poll_interval_ms: u64,
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let args = Args::parse();
    let record_file = args.record_file.clone().unwrap_or_else(|| {
        let mut name = args.responses_file.clone().into_os_string();
        name.push(".actual.yaml");
        name.into()
    });
    let limits = RecordLimits {
        max_keys: args.record_max_keys,
        ..RecordLimits::default()
    };
    let script = Script::with_limits(&args.responses_file, record_file, limits);
    let watcher = tokio::spawn(
        script
            .clone()
            .watch(Duration::from_millis(args.poll_interval_ms)),
    );
    let mut builder = capi_test_extension::server_builder(&script)
        .host(args.webhook_host)
        .port(args.webhook_port)
        .cert_dir(&args.webhook_cert_dir)
        .cert_name(&args.webhook_cert_name)
        .key_name(&args.webhook_key_name)
        .health_addr(args.health_addr);
    if let Some(addr) = args.metrics_bind_addr {
        builder = builder.metrics_addr(addr);
    }
    let server = match builder.build() {
        Ok(server) => server,
        Err(e) => {
            tracing::error!(error = %chain(&e), "cannot register the handlers");
            return ExitCode::FAILURE;
        }
    };
    let result = server.run(shutdown_signal()).await;
    watcher.abort();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %chain(&e), "extension server failed");
            ExitCode::FAILURE
        }
    }
}
