//! What the manager's benchmarks share: HTTPS extensions on loopback signed by one CA made
//! here, the manager binary started against a control plane with its probes' address read from
//! its log, and the ExtensionConfigs pointing at the extensions.

// Each benchmark uses a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::{ExtensionConfig, ExtensionConfigSpec};
use capi_runtime::hooks::v1alpha1::{BeforeClusterCreateRequest, BeforeClusterCreateResponse};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use capi_runtime::server::{RunningServer, Server};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

pub type BoxError = Box<dyn std::error::Error>;

async fn allow(
    _: BeforeClusterCreateRequest,
) -> Result<BeforeClusterCreateResponse, std::convert::Infallible> {
    Ok(BeforeClusterCreateResponse::success())
}

/// Whether `c` is `Discovered=True`.
pub fn discovered(c: &ExtensionConfig) -> bool {
    c.status
        .conditions
        .iter()
        .any(|x| x.type_ == "Discovered" && x.status == "True")
}

/// `VmRSS` of process `pid`, in KiB (0 when it cannot be read).
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The benchmark's arguments: what `cargo bench` passes but its own `--bench` flag.
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect()
}

/// The ExtensionConfig CRD the generator writes.
pub fn crd() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml")
}

/// `count` kit extensions on loopback, each its own HTTPS server with one BeforeClusterCreate
/// handler `first`, and the CA (PEM) their certificate is signed by.
pub struct Extensions {
    pub urls: Vec<String>,
    pub ca_pem: String,
    servers: Vec<RunningServer>,
    certs: tempfile::TempDir,
}

impl Extensions {
    pub async fn start(count: usize) -> Result<Extensions, BoxError> {
        let mut params = CertificateParams::new(Vec::<String>::new())?;
        params
            .distinguished_name
            .push(DnType::CommonName, "bench-ca");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca = CertifiedIssuer::self_signed(params, KeyPair::generate()?)?;
        let certs = tempfile::tempdir()?;
        let mut leaf = CertificateParams::new(vec!["127.0.0.1".to_string()])?;
        leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let key = KeyPair::generate()?;
        let cert = leaf.signed_by(&key, &ca)?;
        std::fs::write(certs.path().join("tls.crt"), cert.pem())?;
        std::fs::write(certs.path().join("tls.key"), key.serialize_pem())?;
        let mut urls = Vec::with_capacity(count);
        let mut servers = Vec::with_capacity(count);
        for _ in 0..count {
            let server = Server::builder()
                .host("127.0.0.1".parse()?)
                .port(0)
                .cert_dir(certs.path())
                .handle("first", allow)
                .build()
                .unwrap()
                .start()
                .await?;
            urls.push(format!("https://127.0.0.1:{}", server.local_addr().port()));
            servers.push(server);
        }
        Ok(Extensions {
            urls,
            ca_pem: ca.pem(),
            servers,
            certs,
        })
    }

    /// The directory holding the extensions' `tls.crt`/`tls.key` (the manager's webhooks serve
    /// the same pair).
    pub fn cert_dir(&self) -> &Path {
        self.certs.path()
    }

    /// An ExtensionConfig named `name` for the extension at `url`.
    pub fn config(&self, name: String, url: &str) -> ExtensionConfig {
        let mut c = ExtensionConfig::new(name, ExtensionConfigSpec::default());
        c.spec.client_config.url = url.to_string();
        c.spec.client_config.ca_bundle = ByteString(self.ca_pem.as_bytes().to_vec());
        c.spec.namespace_selector = Some(LabelSelector::default());
        c
    }

    pub async fn stop(self) -> Result<(), BoxError> {
        for s in self.servers {
            s.shutdown().await?;
        }
        Ok(())
    }
}

/// The release manager binary `cargo bench` built (or `$CAPI_RUNTIME_MANAGER`, another build of
/// it, to compare two builds side by side), started on loopback ports with the gate on
/// and `args` added, its log read until a line holding each of `messages` has named its
/// address (`addr=...`); the rest of the log is discarded. Returns the running manager and those
/// addresses, in the order of `messages`.
pub fn start_manager(
    kubeconfig: &Path,
    cert_dir: &Path,
    args: &[&str],
    messages: &[&str],
) -> Result<(ManagerProcess, Vec<String>), BoxError> {
    let binary = std::env::var_os("CAPI_RUNTIME_MANAGER")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_capi-runtime-manager").into());
    let mut child = Command::new(binary)
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(["--feature-gates", "RuntimeSDK=true"])
        .args(["--webhook-host", "127.0.0.1", "--webhook-port", "0"])
        .arg("--webhook-cert-dir")
        .arg(cert_dir)
        .args(["--health-addr", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn,capi_runtime_manager=info")
        .stdout(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let child = ManagerProcess(child);
    let mut lines = BufReader::new(stdout).lines();
    let mut addrs: Vec<Option<String>> = vec![None; messages.len()];
    while addrs.iter().any(Option::is_none) {
        let line = lines.next().ok_or("manager exited")??;
        for (message, addr) in messages.iter().zip(&mut addrs) {
            if line.contains(message) {
                *addr = line
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("addr="))
                    .map(str::to_string);
            }
        }
    }
    std::thread::spawn(move || for _ in lines {});
    Ok((child, addrs.into_iter().flatten().collect()))
}

/// Our manager as the discovery benchmarks run it: against `env`'s API server, its webhooks
/// serving `extensions`' certificate, diagnostics off, `--extensionconfig-concurrency` set to
/// `concurrency`; returned once its `/readyz` answers 200.
pub async fn start_ours(
    env: &capi_runtime_testenv::TestEnv,
    extensions: &Extensions,
    concurrency: u16,
    http: &reqwest::Client,
) -> Result<ManagerProcess, BoxError> {
    let (child, addrs) = start_manager(
        env.kubeconfig_path(),
        extensions.cert_dir(),
        &[
            "--diagnostics-address",
            "0",
            "--extensionconfig-concurrency",
            &concurrency.to_string(),
        ],
        &["serving probes"],
    )?;
    wait_ready(http, &addrs[0]).await?;
    Ok(child)
}

/// Polls `http://{probes}/readyz` until it answers 200, for at most a minute.
pub async fn wait_ready(http: &reqwest::Client, probes: &str) -> Result<(), BoxError> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ok = http
            .get(format!("http://{probes}/readyz"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success());
        if ok {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("the manager did not become ready".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The manager process a benchmark started: killed and reaped when dropped, so that a
/// benchmark that fails half way leaves no manager running.
pub struct ManagerProcess(Child);

impl ManagerProcess {
    /// Takes charge of `child`.
    pub fn new(child: Child) -> Self {
        ManagerProcess(child)
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for ManagerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
