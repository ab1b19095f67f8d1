//! Starting, using and stopping one environment.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use capi_runtime::go::errors::chain;
use kube::Client;
use kube::config::{Config, KubeConfigOptions, Kubeconfig};

use crate::assets::{Assets, target_dir};
use crate::certs::Pki;
use crate::process::{Patience, Process, free_port, port_taken};
use crate::{Error, Result, StartupError, crds};

/// How many times a server is started again after it lost the race for a port.
const PORT_ATTEMPTS: usize = 5;
/// How long etcd may take to answer its health check.
const ETCD_READY: Duration = Duration::from_secs(60);
/// How long the API server may take to answer `/readyz` with 200.
const APISERVER_READY: Duration = Duration::from_secs(180);
/// How long installed CRDs may take to be Established and served.
pub(crate) const CRD_READY: Duration = Duration::from_secs(60);

/// How an environment is set up; [`Builder::start`] starts it.
#[derive(Debug)]
pub struct Builder {
    name: String,
    crds: Vec<PathBuf>,
    assets: Option<Assets>,
    extra_apiserver_args: Vec<String>,
}

impl Builder {
    /// An environment named `name`: its logs go to `target/testenv/logs/<name>/<pid>-<n>/`
    /// (`cargo xtask test` empties `target/testenv/logs` before it runs the tests). Use the
    /// test binary's name, or the test's.
    pub fn new(name: &str) -> Builder {
        Builder {
            name: name.to_string(),
            crds: Vec::new(),
            assets: None,
            extra_apiserver_args: Vec::new(),
        }
    }

    /// A YAML file of CustomResourceDefinitions (several documents allowed) to install.
    pub fn crd(mut self, path: impl Into<PathBuf>) -> Builder {
        self.crds.push(path.into());
        self
    }

    /// Binaries to use instead of looking them up with [`Assets::find`].
    pub fn assets(mut self, assets: Assets) -> Builder {
        self.assets = Some(assets);
        self
    }

    /// One more kube-apiserver flag (`--name=value`), after the harness's own.
    pub fn apiserver_arg(mut self, arg: impl Into<String>) -> Builder {
        self.extra_apiserver_args.push(arg.into());
        self
    }

    /// Starts etcd and kube-apiserver, waits until they are ready and the CRDs are served.
    /// Blocks; may be called inside or outside a tokio runtime.
    pub fn start(self) -> Result<TestEnv> {
        let started = Instant::now();
        let assets = match self.assets {
            Some(a) => a,
            None => Assets::find()?,
        };
        let logs = new_log_dir(&self.name)?;
        let run = RunDir::new()?;
        let pki = Pki::generate()?;
        let pki_dir = run.path.join("pki");
        mkdir(&pki_dir)?;
        for (file, text, secret) in [
            ("ca.crt", &pki.ca_pem, false),
            ("apiserver.crt", &pki.serving_cert_pem, false),
            ("apiserver.key", &pki.serving_key_pem, true),
            ("sa.key", &pki.sa_key_pem, true),
            ("sa.pub", &pki.sa_pub_pem, false),
        ] {
            write_file(&pki_dir.join(file), text.as_bytes(), secret)?;
        }

        let (etcd, etcd_port) = start_etcd(&assets.etcd, &run.path.join("etcd"), &logs, None)?;
        let etcd_url = format!("http://127.0.0.1:{etcd_port}");
        let etcd_ready = started.elapsed();
        let (apiserver, kubeconfig, server_url) = start_apiserver(
            &assets.kube_apiserver,
            &pki,
            &pki_dir,
            &etcd_url,
            &self.extra_apiserver_args,
            &logs,
            None,
        )?;
        let kubeconfig_path = run.path.join("kubeconfig");
        write_file(
            &kubeconfig_path,
            serde_json::to_string_pretty(&kubeconfig)
                .expect("a JSON value serializes")
                .as_bytes(),
            true,
        )?;
        let kubeconfig = Kubeconfig::from_yaml(&kubeconfig.to_string())?;
        let mut env = TestEnv {
            apiserver,
            etcd,
            run,
            name: self.name,
            kubeconfig,
            kubeconfig_path,
            server_url,
            etcd_url,
            log_dir: logs,
            etcd_ready,
            apiserver_ready: Duration::ZERO,
            started: Duration::ZERO,
            pki,
            assets,
            extra_apiserver_args: self.extra_apiserver_args,
            restarts: 0,
        };
        env.apiserver_ready = started.elapsed();
        if !self.crds.is_empty() {
            block_on(env.install_crds(&self.crds))?;
        }
        env.started = started.elapsed();
        Ok(env)
    }
}

/// A running control plane. Dropping it stops both processes and removes its files (the logs
/// stay).
pub struct TestEnv {
    // Fields drop in this order: the API server first, then etcd, then the files.
    apiserver: Process,
    etcd: Process,
    run: RunDir,
    name: String,
    kubeconfig: Kubeconfig,
    kubeconfig_path: PathBuf,
    server_url: String,
    etcd_url: String,
    log_dir: PathBuf,
    etcd_ready: Duration,
    apiserver_ready: Duration,
    started: Duration,
    pki: Pki,
    assets: Assets,
    extra_apiserver_args: Vec<String>,
    /// How many times a process was started again (names its next log file).
    restarts: u32,
}

impl std::fmt::Debug for TestEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestEnv")
            .field("name", &self.name)
            .field("server_url", &self.server_url)
            .field("etcd_url", &self.etcd_url)
            .field("run_dir", &self.run.path)
            .finish_non_exhaustive()
    }
}

impl TestEnv {
    /// A builder; see [`Builder::new`].
    pub fn builder(name: &str) -> Builder {
        Builder::new(name)
    }

    /// A client for the admin user, bound to the current tokio runtime (so build one per
    /// test when tests run on different runtimes).
    pub async fn client(&self) -> Result<Client> {
        let config =
            Config::from_custom_kubeconfig(self.kubeconfig.clone(), &KubeConfigOptions::default())
                .await?;
        Ok(Client::try_from(config)?)
    }

    /// The kubeconfig the admin client uses (certificates embedded).
    pub fn kubeconfig(&self) -> &Kubeconfig {
        &self.kubeconfig
    }

    /// The same kubeconfig as a file, for other processes; removed when the environment is.
    pub fn kubeconfig_path(&self) -> &Path {
        &self.kubeconfig_path
    }

    /// The environment's CA (PEM): it signed the API server's serving certificate and the
    /// client certificates the API server accepts.
    pub fn ca_pem(&self) -> &str {
        &self.pki.ca_pem
    }

    /// Writes `tls.crt` and `tls.key` into `dir` (created if needed): a serving certificate
    /// for `127.0.0.1` and `localhost`, signed by the environment's CA ([`TestEnv::ca_pem`] is
    /// its `caBundle`). For an extension or a webhook server the test runs.
    pub fn write_serving_certificate(&self, dir: &Path) -> Result<()> {
        write_serving_certificate(&self.pki, dir)
    }

    pub(crate) fn pki(&self) -> &Pki {
        &self.pki
    }

    /// The directory of the environment's files (removed with it).
    pub(crate) fn run_dir(&self) -> &Path {
        &self.run.path
    }

    /// `https://127.0.0.1:<port>` of the API server.
    pub fn server_url(&self) -> &str {
        &self.server_url
    }

    /// `http://127.0.0.1:<port>` of etcd's client endpoint.
    pub fn etcd_url(&self) -> &str {
        &self.etcd_url
    }

    /// Where the logs of etcd and kube-apiserver are.
    pub fn log_dir(&self) -> &Path {
        &self.log_dir
    }

    /// Start-up times since [`Builder::start`] was called: etcd healthy, API server ready,
    /// everything (CRDs included) ready.
    pub fn startup_times(&self) -> (Duration, Duration, Duration) {
        (self.etcd_ready, self.apiserver_ready, self.started)
    }

    /// Resident memory, in KiB, of the etcd and the kube-apiserver processes (with their
    /// supervisors), read from `/proc`.
    pub fn rss_kib(&self) -> (u64, u64) {
        (
            group_rss_kib(self.etcd.pid()),
            group_rss_kib(self.apiserver.pid()),
        )
    }

    /// Stops kube-apiserver as a rolling update stops it (SIGTERM, then its graceful
    /// shutdown), keeps it down for `downtime`, then starts it again on the same address with
    /// the same flags and blocks until it answers `/readyz`. Clients keep working across the
    /// restart, as with a real API server behind a fixed address: requests made while it is
    /// down fail to connect, watches end. Returns how long it was not answering: from the
    /// stop to ready again. Each run logs to its own file (`kube-apiserver-<n>.log`).
    pub fn restart_apiserver(&mut self, downtime: Duration) -> Result<Duration> {
        let stopped = Instant::now();
        self.apiserver.stop();
        std::thread::sleep(downtime);
        self.restarts += 1;
        let port = port_of(&self.server_url);
        let log = self
            .log_dir
            .join(format!("kube-apiserver-{}.log", self.restarts));
        let (apiserver, _, _) = start_apiserver(
            &self.assets.kube_apiserver,
            &self.pki,
            &self.run.path.join("pki"),
            &self.etcd_url,
            &self.extra_apiserver_args,
            &log,
            Some(port),
        )?;
        self.apiserver = apiserver;
        Ok(stopped.elapsed())
    }

    /// Stops etcd (SIGTERM), keeps it down for `downtime`, then starts it again on the same
    /// address and data directory, so that it holds what it held, and blocks until it is
    /// healthy. The API server stays up meanwhile and answers what it cannot serve from its
    /// watch cache with errors, as when a real cluster loses its etcd. Returns how long etcd
    /// was down (stop to healthy). Each run logs to its own file (`etcd-<n>.log`).
    pub fn restart_etcd(&mut self, downtime: Duration) -> Result<Duration> {
        let stopped = Instant::now();
        self.etcd.stop();
        std::thread::sleep(downtime);
        self.restarts += 1;
        let log = self.log_dir.join(format!("etcd-{}.log", self.restarts));
        let (etcd, _) = start_etcd(
            &self.assets.etcd,
            &self.run.path.join("etcd"),
            &log,
            Some(port_of(&self.etcd_url)),
        )?;
        self.etcd = etcd;
        Ok(stopped.elapsed())
    }

    /// Compacts etcd's history up to its current revision, as the API server's periodic
    /// compaction does (every 5 minutes by default), and returns that revision. Afterwards
    /// no watch can start from an older resource version: one that tries gets `410 Gone`
    /// (once the API server's watch cache no longer holds it either, as after a restart),
    /// and its client must list again.
    pub fn compact_etcd(&self) -> Result<i64> {
        let addr = self.etcd_url.trim_start_matches("http://");
        let what = "compacting etcd";
        let bad = |why: String| Error::Io {
            what: what.to_string(),
            source: std::io::Error::other(why),
        };
        let body = serde_json::json!({ "key": BASE64.encode("\0") }).to_string();
        let (status, text) = http(addr, "POST", "/v3/kv/range", &body).map_err(Error::io(what))?;
        let revision = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .filter(|_| status == 200)
            .and_then(|v| {
                v.pointer("/header/revision")
                    .and_then(|r| r.as_str().and_then(|r| r.parse::<i64>().ok()))
            })
            .ok_or_else(|| bad(format!("no revision in HTTP {status}: {text}")))?;
        let body = serde_json::json!({ "revision": revision.to_string(), "physical": true });
        let (status, text) =
            http(addr, "POST", "/v3/kv/compaction", &body.to_string()).map_err(Error::io(what))?;
        if status != 200 {
            return Err(bad(format!("HTTP {status}: {text}")));
        }
        Ok(revision)
    }

    /// A name no other call in this process returns: `<prefix>-<n>`. Tests sharing one
    /// environment use it for namespaces and cluster-scoped objects.
    pub fn unique_name(&self, prefix: &str) -> String {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// Installs the CRDs of the YAML files (server-side apply) and waits until each is
    /// Established, its names accepted and every served version is in discovery.
    pub async fn install_crds(&self, files: &[PathBuf]) -> Result<Vec<String>> {
        let client = self.client().await?;
        crds::install(&client, files, CRD_READY).await
    }

    /// The value etcd stores under `key` (the API server keeps objects under
    /// `/registry/<group>/<plural>/[<namespace>/]<name>`), read through etcd's JSON gateway.
    pub fn etcd_value(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let addr = self.etcd_url.trim_start_matches("http://");
        let body = serde_json::json!({ "key": BASE64.encode(key) }).to_string();
        let (status, text) = http(addr, "POST", "/v3/kv/range", &body)
            .map_err(Error::io(format!("reading {key} from etcd")))?;
        let bad = |why: &str| Error::Io {
            what: format!("reading {key} from etcd"),
            source: std::io::Error::other(format!("{why}: HTTP {status}: {text}")),
        };
        if status != 200 {
            return Err(bad("unexpected answer"));
        }
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|_| bad("not JSON"))?;
        match v.pointer("/kvs/0/value").and_then(|v| v.as_str()) {
            None => Ok(None),
            Some(b) => BASE64
                .decode(b)
                .map(Some)
                .map_err(|_| bad("value is not base64")),
        }
    }
}

/// A new directory for the logs of `name`: `target/testenv/logs/<name>/<pid>-<n>/`, one per
/// call, since several test processes may use the same name at once (`cargo xtask test` runs
/// tests alone too, two at a time).
pub fn new_log_dir(name: &str) -> Result<PathBuf> {
    static DIRS: AtomicU64 = AtomicU64::new(1);
    let dir = target_dir().join("testenv/logs").join(name).join(format!(
        "{}-{}",
        std::process::id(),
        DIRS.fetch_add(1, Ordering::Relaxed)
    ));
    mkdir(&dir)?;
    Ok(dir)
}

/// The environment shared by the tests of one test binary, started on first use with the
/// builder `configure` returns (later calls' arguments are ignored). It is never dropped: the
/// supervisors stop the processes and remove its files when the test process exits. Panics
/// with the start-up error and its causes (also in every later test).
pub fn shared(name: &str, configure: impl FnOnce(Builder) -> Builder) -> &'static TestEnv {
    static ENV: OnceLock<Result<TestEnv>> = OnceLock::new();
    match ENV.get_or_init(|| configure(Builder::new(name)).start()) {
        Ok(env) => env,
        Err(e) => panic!("the test environment did not start: {}", chain(e)),
    }
}

/// The port of a `scheme://127.0.0.1:<port>` URL this harness made.
fn port_of(url: &str) -> u16 {
    url.rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("the harness's URLs end in a port")
}

/// How long a restart waits between attempts to listen on a port it must have again (the
/// old process's sockets are still closing).
const SAME_PORT_RETRY: Duration = Duration::from_millis(200);

/// Starts etcd with its data in `data`. A first start (`port` is `None`) empties `data`, picks a
/// free port and logs to `<logs>/etcd.log`; a restart keeps the data, listens on `port` again
/// and logs to the file `logs`.
fn start_etcd(
    binary: &Path,
    data: &Path,
    logs: &Path,
    port: Option<u16>,
) -> Result<(Process, u16)> {
    let log = match port {
        None => logs.join("etcd.log"),
        Some(_) => logs.to_path_buf(),
    };
    let mut last = None;
    for attempt in 0..PORT_ATTEMPTS {
        if port.is_none() && data.exists() {
            std::fs::remove_dir_all(data)
                .map_err(Error::io(format!("emptying {}", data.display())))?;
        }
        if port.is_some() && attempt > 0 {
            std::thread::sleep(SAME_PORT_RETRY);
        }
        let port = match port {
            Some(p) => p,
            None => free_port()?,
        };
        let url = format!("http://127.0.0.1:{port}");
        let args = vec![
            format!("--data-dir={}", data.display()),
            format!("--listen-client-urls={url}"),
            format!("--advertise-client-urls={url}"),
            // Nobody joins this one-member cluster: let the kernel pick the peer port.
            "--listen-peer-urls=http://127.0.0.1:0".to_string(),
            "--unsafe-no-fsync=true".to_string(),
            "--log-level=warn".to_string(),
        ];
        let mut p = Process::spawn("etcd", binary, &args, &log)?;
        let deadline = Instant::now() + ETCD_READY;
        loop {
            if p.exited().is_some() {
                if p.port_was_taken() {
                    last = Some(p.report());
                    break;
                }
                return Err(StartupError::Exited(p.report()).into());
            }
            if etcd_healthy(port) && p.exited().is_none() {
                return Ok((p, port));
            }
            if Instant::now() >= deadline {
                return Err(StartupError::NotReady {
                    after: ETCD_READY,
                    last: "/health does not answer healthy".to_string(),
                    report: p.report(),
                }
                .into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Err(port_taken(PORT_ATTEMPTS, last, "etcd", &log))
}

fn etcd_healthy(port: u16) -> bool {
    http(&format!("127.0.0.1:{port}"), "GET", "/health", "")
        .is_ok_and(|(status, body)| status == 200 && body.contains(r#""health":"true""#))
}

/// Starts kube-apiserver. A first start (`port` is `None`) picks a free port and logs to
/// `<logs>/kube-apiserver.log`; a restart listens on `port` again and logs to the file `logs`.
fn start_apiserver(
    binary: &Path,
    pki: &Pki,
    pki_dir: &Path,
    etcd_url: &str,
    extra: &[String],
    logs: &Path,
    port: Option<u16>,
) -> Result<(Process, serde_json::Value, String)> {
    let log = match port {
        None => logs.join("kube-apiserver.log"),
        Some(_) => logs.to_path_buf(),
    };
    let file = |f: &str| pki_dir.join(f).display().to_string();
    let mut last = None;
    for attempt in 0..PORT_ATTEMPTS {
        if port.is_some() && attempt > 0 {
            std::thread::sleep(SAME_PORT_RETRY);
        }
        let port = match port {
            Some(p) => p,
            None => free_port()?,
        };
        let server = format!("https://127.0.0.1:{port}");
        let mut args = vec![
            format!("--etcd-servers={etcd_url}"),
            "--bind-address=127.0.0.1".to_string(),
            "--advertise-address=127.0.0.1".to_string(),
            format!("--secure-port={port}"),
            format!("--cert-dir={}", pki_dir.display()),
            format!("--tls-cert-file={}", file("apiserver.crt")),
            format!("--tls-private-key-file={}", file("apiserver.key")),
            format!("--client-ca-file={}", file("ca.crt")),
            format!("--service-account-key-file={}", file("sa.pub")),
            format!("--service-account-signing-key-file={}", file("sa.key")),
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local".to_string(),
            "--service-cluster-ip-range=10.0.0.0/24".to_string(),
            "--authorization-mode=RBAC".to_string(),
            "--allow-privileged=true".to_string(),
            // No controller-manager makes service-account tokens here.
            "--disable-admission-plugins=ServiceAccount".to_string(),
            "--profiling=false".to_string(),
        ];
        args.extend(extra.iter().cloned());
        let kubeconfig = kubeconfig_json(&server, pki);
        let mut p = Process::spawn("kube-apiserver", binary, &args, &log)?;
        match block_on(wait_ready(&mut p, &kubeconfig)) {
            Ok(()) => return Ok((p, kubeconfig, server)),
            Err(Ready::PortTaken) => last = Some(p.report()),
            Err(Ready::Failed(why)) => return Err(why.into()),
        }
    }
    Err(port_taken(PORT_ATTEMPTS, last, "kube-apiserver", &log))
}

enum Ready {
    PortTaken,
    Failed(StartupError),
}

async fn wait_ready(p: &mut Process, kubeconfig: &serde_json::Value) -> Result<(), Ready> {
    fn fail(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Ready {
        Ready::Failed(StartupError::Client {
            what: "kube-apiserver",
            source: e.into(),
        })
    }
    let kc = Kubeconfig::from_yaml(&kubeconfig.to_string()).map_err(fail)?;
    let config = Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default())
        .await
        .map_err(fail)?;
    let client = Client::try_from(config).map_err(fail)?;
    let deadline = Instant::now() + APISERVER_READY;
    let mut patience = Patience::new("kube-apiserver to answer /readyz");
    let mut last;
    loop {
        patience.tick(APISERVER_READY);
        if p.exited().is_some() {
            return Err(if p.port_was_taken() {
                Ready::PortTaken
            } else {
                Ready::Failed(StartupError::Exited(p.report()))
            });
        }
        let req = http::Request::get("/readyz")
            .body(Vec::new())
            .expect("a valid request");
        match tokio::time::timeout(Duration::from_secs(10), client.request_text(req)).await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(e)) => last = e.to_string(),
            Err(_) => last = "/readyz did not answer within 10s".to_string(),
        }
        if Instant::now() >= deadline {
            return Err(Ready::Failed(StartupError::NotReady {
                after: APISERVER_READY,
                last,
                report: p.report(),
            }));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn kubeconfig_json(server: &str, pki: &Pki) -> serde_json::Value {
    kubeconfig_for(
        server,
        &pki.ca_pem,
        crate::certs::ADMIN_USER,
        serde_json::json!({
            "client-certificate-data": BASE64.encode(&pki.admin_cert_pem),
            "client-key-data": BASE64.encode(&pki.admin_key_pem),
        }),
    )
}

/// A kubeconfig with one cluster (the API server at `server`, trusted through `ca_pem`), one
/// user `user` whose credentials are `auth` (a kubeconfig `user` entry), and a current context
/// naming both.
pub(crate) fn kubeconfig_for(
    server: &str,
    ca_pem: &str,
    user: &str,
    auth: serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{
            "name": "capi-testenv",
            "cluster": {
                "server": server,
                "certificate-authority-data": BASE64.encode(ca_pem),
            },
        }],
        "users": [{ "name": user, "user": auth }],
        "contexts": [{
            "name": "capi-testenv",
            "context": { "cluster": "capi-testenv", "user": user },
        }],
        "current-context": "capi-testenv",
    })
}

/// A minimal HTTP/1.1 exchange on loopback (for etcd, which speaks plain HTTP here): returns
/// the status code and the body.
fn http(addr: &str, method: &str, path: &str, body: &str) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    s.set_write_timeout(Some(Duration::from_secs(5)))?;
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no end of HTTP headers"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no HTTP status"))?;
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
    });
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Runs a future to completion on a runtime of its own, in a thread of its own, so it works
/// whether or not the caller is inside a tokio runtime.
fn block_on<F>(f: F) -> F::Output
where
    F: std::future::Future + Send,
    F::Output: Send,
{
    std::thread::scope(|s| {
        s.spawn(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime")
                .block_on(f)
        })
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Writes a serving certificate for `127.0.0.1` and `localhost` signed by `pki`'s CA into
/// `dir` (`tls.crt`, `tls.key`).
pub(crate) fn write_serving_certificate(pki: &Pki, dir: &Path) -> Result<()> {
    let (cert, key) = pki.serving_certificate("capi-testenv-server")?;
    mkdir(dir)?;
    write_file(&dir.join("tls.crt"), cert.as_bytes(), false)?;
    write_file(&dir.join("tls.key"), key.as_bytes(), true)?;
    Ok(())
}

pub(crate) fn mkdir(p: &Path) -> Result<()> {
    std::fs::create_dir_all(p).map_err(Error::io(format!("creating {}", p.display())))
}

pub(crate) fn write_file(path: &Path, contents: &[u8], secret: bool) -> Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(if secret { 0o600 } else { 0o644 })
        .open(path)
        .map_err(Error::io(format!("writing {}", path.display())))?;
    f.write_all(contents)
        .map_err(Error::io(format!("writing {}", path.display())))
}

/// The environment's files (certificates, kubeconfig, etcd data) in a temporary directory.
/// A janitor process removes it when the test process is gone without dropping it; a drop
/// removes it at once.
struct RunDir {
    path: PathBuf,
    janitor: Option<(Child, ChildStdin)>,
}

impl RunDir {
    fn new() -> Result<RunDir> {
        let path = tempfile::Builder::new()
            .prefix("capi-testenv-")
            .tempdir()
            .map_err(Error::io("creating a temporary directory"))?
            .keep();
        // Blocks until its stdin closes (only this process holds the other end), then
        // removes the directory.
        let janitor = Command::new("sh")
            .arg("-c")
            .arg(r#"read -r _; rm -rf "$1""#)
            .arg("capi-testenv-janitor")
            .arg(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(|mut c| {
                let stdin = c.stdin.take().expect("piped stdin");
                (c, stdin)
            });
        match janitor {
            Ok(j) => Ok(RunDir {
                path,
                janitor: Some(j),
            }),
            Err(e) => {
                let _ = std::fs::remove_dir_all(&path);
                Err(Error::Io {
                    what: "starting the janitor (sh)".to_string(),
                    source: e,
                })
            }
        }
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        if let Some((mut child, stdin)) = self.janitor.take() {
            drop(stdin);
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Sums VmRSS over the processes of the process group `pgid`.
pub(crate) fn group_rss_kib(pgid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut total = 0;
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command name (which may hold spaces): state ppid pgrp ...
        let Some((_, after)) = stat.rsplit_once(')') else {
            continue;
        };
        let pgrp = after
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse::<u32>().ok());
        if pgrp != Some(pgid) {
            continue;
        }
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            total += status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
                .unwrap_or(0);
        }
    }
    total
}
