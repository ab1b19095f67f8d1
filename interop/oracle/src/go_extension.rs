//! The Go extension written with Cluster API's own kit (`interop/go-extension`, built by `cargo
//! xtask testenv` once per supported Cluster API version into
//! `target/testenv/bin/go-extension-<version>`), started on a loopback port as a supervised
//! [`Process`]. The interop tests call each version's with the Rust client; the Go-vs-Rust
//! benchmark measures the default version's against the kit.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use capi_runtime_testenv::{
    Process, ProcessReport, Result, StartupError, free_port, new_log_dir, tail,
};

use crate::program;

/// How long the Go extension may take to print "serving".
const START_DEADLINE: Duration = Duration::from_secs(60);

/// How many times a start is retried when another process took the port in the meantime.
const PORT_TRIES: usize = 5;

/// The Go extension, serving HTTPS on `127.0.0.1` with the certificate in a directory; stopped
/// on drop.
#[derive(Debug)]
pub struct GoExtension {
    process: Process,
    url: String,
    server_pid: Option<u32>,
}

impl GoExtension {
    /// Starts the Go extension built with the default (newest) Cluster API; see
    /// [`GoExtension::start_version`].
    pub fn start(cert_dir: &Path) -> Result<GoExtension> {
        GoExtension::start_version(capi_envtest::DEFAULT_CLUSTER_API_VERSION, cert_dir)
    }

    /// Starts the Go extension built with Cluster API `version` (one of
    /// `capi_envtest::CLUSTER_API_VERSIONS`) with the `tls.crt` and `tls.key` of `cert_dir` on a
    /// free loopback port, and waits (blocking the thread, polling its log) until it says it
    /// is serving. Its log goes to a new directory under
    /// `target/testenv/logs/go-extension-<version>/`.
    pub fn start_version(version: &str, cert_dir: &Path) -> Result<GoExtension> {
        let name = format!("go-extension-{version}");
        let binary = program(&name)?;
        let logs = new_log_dir(&name)?;
        let log = logs.join("go-extension.log");
        let mut last = None;
        for _ in 0..PORT_TRIES {
            let port = free_port()?;
            let args = vec![
                "--host=127.0.0.1".to_string(),
                format!("--port={port}"),
                format!("--cert-dir={}", cert_dir.display()),
            ];
            let mut process = Process::spawn(&name, &binary, &args, &log)?;
            let deadline = Instant::now() + START_DEADLINE;
            loop {
                if let Some(report) = process.exited_while_starting()? {
                    last = Some(report);
                    break;
                }
                if std::fs::read_to_string(&log).is_ok_and(|l| l.lines().any(|l| l == "serving")) {
                    let server_pid = child_running(process.pid(), &binary);
                    return Ok(GoExtension {
                        process,
                        url: format!("https://127.0.0.1:{port}"),
                        server_pid,
                    });
                }
                if Instant::now() >= deadline {
                    return Err(StartupError::NotReady {
                        after: START_DEADLINE,
                        last: "no \"serving\" line in its log".to_string(),
                        report: process.report(),
                    }
                    .into());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let report = last.unwrap_or_else(|| ProcessReport {
            name,
            state: "not started".to_string(),
            tail: tail(&log, 40),
            log,
        });
        Err(StartupError::PortTaken {
            attempts: PORT_TRIES,
            report,
        }
        .into())
    }

    /// `https://127.0.0.1:<port>`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The pid of the Go program itself (not of its supervisor), for reading its CPU time and
    /// memory from `/proc`; `None` if it could not be found.
    pub fn server_pid(&self) -> Option<u32> {
        self.server_pid
    }

    /// The supervised process.
    pub fn process(&mut self) -> &mut Process {
        &mut self.process
    }
}

/// The child of `parent` whose command line starts with `program`.
fn child_running(parent: u32, program: &Path) -> Option<u32> {
    let entries = std::fs::read_dir("/proc").ok()?;
    entries.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        // Field 4 of stat(5), after the parenthesised command name.
        let ppid: u32 = stat
            .get(stat.rfind(')')? + 2..)?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
        let first = cmdline.split(|b| *b == 0).next()?;
        (ppid == parent && first == program.as_os_str().as_encoded_bytes()).then_some(pid)
    })
}

/// Cluster `name` in `namespace` with a managed topology, as Cluster API sends it in hook
/// requests: the one both the interop tests and the Go-vs-Rust benchmark send the Go extension.
pub fn topology_cluster(namespace: &str, name: &str) -> Value {
    json!({
        "apiVersion": "cluster.x-k8s.io/v1beta2",
        "kind": "Cluster",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "uid": "0d5b3a9e-5f4c-4b43-9a63-0f2f6d1f0a11",
            "generation": 3,
            "labels": { "cluster.x-k8s.io/cluster-name": name },
        },
        "spec": {
            "clusterNetwork": {
                "pods": { "cidrBlocks": ["192.168.0.0/16"] },
                "services": { "cidrBlocks": ["10.128.0.0/12"] },
                "serviceDomain": "cluster.local",
            },
            "controlPlaneRef": {
                "apiGroup": "controlplane.cluster.x-k8s.io",
                "kind": "KubeadmControlPlane",
                "name": format!("{name}-cp"),
            },
            "topology": {
                "classRef": { "name": "quick-start" },
                "version": "v1.36.0",
                "controlPlane": { "replicas": 3 },
                "workers": {
                    "machineDeployments": [{ "class": "default-worker", "name": "md-0", "replicas": 2 }],
                },
                "variables": [{ "name": "imageRepository", "value": "registry.example.com" }],
            },
        },
    })
}
