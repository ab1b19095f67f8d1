//! The webhook serving certificate rotated while the API server keeps calling the webhooks
//! (issue 21, item 1). The admission and conversion webhooks run on a `RunningHost` whose
//! certificate files are replaced under it, while several tasks keep creating, updating,
//! reading and listing ExtensionConfigs through a real kube-apiserver in both API versions:
//! every one of those requests must succeed.
//!
//! With the same CA, the files are replaced the two ways they change in a pod: one file after
//! the other, each written to a temporary file and renamed (cert-manager's or an operator's own
//! writer), and the kubelet's Secret-volume swap, where `tls.crt` and `tls.key` are symlinks
//! through `..data` and one rename of `..data` changes both at once. After each rotation a
//! fresh TLS connection must be served the new certificate (byte for byte, so its new serial
//! and key). With a new CA, the roll is done in the order an operator would: the caBundles
//! first get both CAs, then the serving certificate moves to the new CA, then the bundles keep
//! only the new CA.
//!
//! The API server keeps its connections to a webhook open, so a rotation alone may never reach
//! it. After each rotation the webhooks are therefore registered again with a caBundle of other
//! bytes (the same CA repeated, or the next step of the CA roll), which gives the API server a
//! new HTTP transport and so new TLS handshakes, and under another path prefix of the same
//! host, so the test sees the API server use the new registration (calls arrive on the new
//! path) instead of guessing how long it takes to pick it up. Calls on the last prefix of the CA
//! roll prove that the API server, trusting only the new CA, connected to the rotated
//! certificate.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::*;
use crate::webhooks::{DENIED, LABEL, aim, labelled, manifests, service_config};
use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use capi_runtime::api::runtime::v1alpha1;
use capi_runtime::go::errors::chain;
use capi_runtime::https::{HostOptions, RunningHost, TlsFiles};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use capi_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use capi_runtime_controller::webhook::{self, WebhookOptions};
use capi_runtime_test_pki::{Leaf, roots, write_atomically};
use capi_runtime_testenv::TestEnv;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::json;

/// The label value that routes objects to this test's webhook configurations.
const GATE: &str = "rotate";
const MUTATING: &str = "capi-test-rotation-mutating";
const VALIDATING: &str = "capi-test-rotation-validating";
const CRD: &str = "extensionconfigs.runtime.cluster.x-k8s.io";
/// Requests that must succeed before the first rotation, between two and after the last.
const PROGRESS: u64 = 60;
/// The bound on anything the test waits for: far above what it takes on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(90);
/// How many path prefixes the webhooks are served under besides the root (one per
/// re-registration).
const PREFIXES: usize = 6;

/// The `n`th path prefix: the root, then `/r1`, `/r2`, ...
fn prefix(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!("/r{n}")
    }
}
/// The paths the API server calls, without prefix.
const HOOK_PATHS: [&str; 3] = [
    webhook::MUTATE_PATH,
    webhook::VALIDATE_PATH,
    webhook::CONVERT_PATH,
];

/// How new certificate files are put in place.
#[derive(Clone, Copy, Debug)]
enum Style {
    /// `tls.key`, then `tls.crt`, each written to a temporary file and renamed over the old one.
    Rename,
    /// The kubelet's atomic writer: a new hidden directory, `..data` swapped to it by one
    /// rename, the files symlinks through `..data`, the old directory removed.
    Symlink,
}

/// The serving certificate's directory.
struct CertDir {
    dir: tempfile::TempDir,
    /// How many leaves were written (names the kubelet-style directories).
    written: usize,
}

impl CertDir {
    fn new(leaf: &Leaf) -> CertDir {
        let mut dir = CertDir {
            dir: tempfile::tempdir().unwrap(),
            written: 0,
        };
        dir.write(leaf, Style::Rename);
        dir
    }

    fn files(&self) -> TlsFiles {
        TlsFiles::new(self.path("tls.crt"), self.path("tls.key"))
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&mut self, leaf: &Leaf, style: Style) {
        self.written += 1;
        match style {
            Style::Rename => {
                write_atomically(&self.path("tls.key"), &leaf.key_pem);
                write_atomically(&self.path("tls.crt"), &leaf.cert_pem);
            }
            Style::Symlink => {
                let name = format!("..{}", self.written);
                let data = self.path(&name);
                std::fs::create_dir(&data).unwrap();
                std::fs::write(data.join("tls.key"), &leaf.key_pem).unwrap();
                std::fs::write(data.join("tls.crt"), &leaf.cert_pem).unwrap();
                let old = std::fs::read_link(self.path("..data")).ok();
                let tmp = self.path("..data_tmp");
                std::os::unix::fs::symlink(&name, &tmp).unwrap();
                std::fs::rename(&tmp, self.path("..data")).unwrap();
                for file in ["tls.key", "tls.crt"] {
                    let target = self.path(file);
                    if !target.is_symlink() {
                        let link = self.path(&format!("{file}.link"));
                        std::os::unix::fs::symlink(Path::new("..data").join(file), &link).unwrap();
                        std::fs::rename(&link, &target).unwrap();
                    }
                }
                if let Some(old) = old {
                    std::fs::remove_dir_all(self.dir.path().join(old)).unwrap();
                }
            }
        }
    }
}

/// A certificate's DER bytes.
fn der(leaf: &Leaf) -> Vec<u8> {
    CertificateDer::from_pem_slice(leaf.cert_pem.as_bytes())
        .unwrap()
        .to_vec()
}

/// The certificate `addr` presents on a new TLS connection, verified against `trusted` (PEM).
async fn presented(addr: SocketAddr, trusted: &str) -> Result<Vec<u8>, String> {
    let roots = roots(trusted);
    tokio::task::spawn_blocking(move || {
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(
            capi_runtime::tls::crypto_provider().as_ref().clone(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
        let mut conn = rustls::ClientConnection::new(Arc::new(config), ServerName::from(addr.ip()))
            .map_err(|e| e.to_string())?;
        let mut socket = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .map_err(|e| e.to_string())?;
        socket
            .set_write_timeout(Some(Duration::from_secs(10)))
            .map_err(|e| e.to_string())?;
        while conn.is_handshaking() {
            conn.complete_io(&mut socket)
                .map_err(|e| format!("TLS handshake: {e}"))?;
        }
        conn.peer_certificates()
            .and_then(|chain| chain.first())
            .map(|c| c.to_vec())
            .ok_or_else(|| "no certificate presented".to_string())
    })
    .await
    .unwrap()
}

/// Polls new TLS connections until `addr` presents `want`. Fails on a certificate that is
/// neither `want` nor `previous`, or after [`PATIENCE`].
async fn until_presented(
    addr: SocketAddr,
    trusted: &str,
    want: &[u8],
    previous: &[u8],
) -> Result<Duration, String> {
    let start = Instant::now();
    loop {
        let seen = presented(addr, trusted).await?;
        if seen == want {
            return Ok(start.elapsed());
        }
        if seen != previous {
            return Err("the host presents a certificate that was never written".into());
        }
        if start.elapsed() > PATIENCE {
            return Err(format!(
                "the host still presents the old certificate after {PATIENCE:?}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What the load tasks did.
#[derive(Default)]
struct Stream {
    stop: AtomicBool,
    ok: AtomicU64,
    failures: Mutex<Vec<String>>,
    /// What each request was, with its start and end.
    spans: Mutex<Vec<(String, Instant, Instant)>>,
}

impl Stream {
    fn running(&self) -> bool {
        !self.stop.load(Ordering::SeqCst)
    }

    fn record(&self, what: &str, start: Instant, outcome: Result<(), String>) {
        self.spans
            .lock()
            .unwrap()
            .push((what.to_string(), start, Instant::now()));
        match outcome {
            Ok(()) => {
                self.ok.fetch_add(1, Ordering::SeqCst);
            }
            Err(e) => self.failures.lock().unwrap().push(format!("{what}: {e}")),
        }
    }

    /// Waits until `more` further requests have succeeded.
    async fn progress(&self, more: u64) -> Result<(), String> {
        let target = self.ok.load(Ordering::SeqCst) + more;
        let start = Instant::now();
        while self.ok.load(Ordering::SeqCst) < target {
            if start.elapsed() > PATIENCE {
                return Err(format!(
                    "fewer than {more} requests succeeded within {PATIENCE:?}"
                ));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(())
    }
}

fn kube_error(e: &kube::Error) -> String {
    chain(e).to_string()
}

/// Creates (defaulted by the mutating webhook), updates (validated) and deletes its own
/// objects, and has an invalid one refused by the validating webhook, until stopped.
async fn admission_load(env: &'static TestEnv, kube: kube::Client, stream: Arc<Stream>) {
    let api = configs(&kube);
    while stream.running() {
        let name = env.unique_name("rot");
        let mut c = labelled(service_config(&name), GATE);
        c.spec.namespace_selector = None;
        let start = Instant::now();
        let created = api.create(&PostParams::default(), &c).await;
        let outcome = match &created {
            Ok(o)
                if o.spec.client_config.service.port == Some(443)
                    && o.spec.namespace_selector.is_some() =>
            {
                Ok(())
            }
            Ok(o) => Err(format!("{name} was not defaulted: {:?}", o.spec)),
            Err(e) => Err(kube_error(e)),
        };
        stream.record("create", start, outcome);
        if created.is_err() {
            continue;
        }

        let start = Instant::now();
        let patch = json!({"spec": {"clientConfig": {"service": {"path": "/hooks"}}}});
        let outcome = match api
            .patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
        {
            Ok(o) if o.spec.client_config.service.path == "/hooks" => Ok(()),
            Ok(o) => Err(format!("{name} not updated: {:?}", o.spec)),
            Err(e) => Err(kube_error(&e)),
        };
        stream.record("update", start, outcome);

        let bad = format!("{name}.bad");
        let start = Instant::now();
        let outcome = match api
            .create(
                &PostParams::default(),
                &labelled(service_config(&bad), GATE),
            )
            .await
        {
            Err(kube::Error::Api(s)) if s.code == 422 && s.message.starts_with(DENIED) => Ok(()),
            Err(e) => Err(kube_error(&e)),
            Ok(_) => Err(format!("{bad} was accepted")),
        };
        stream.record("refused create", start, outcome);

        // Not through the webhooks (they take CREATE and UPDATE); keeps the cluster small.
        let start = Instant::now();
        let outcome = api
            .delete(&name, &DeleteParams::default())
            .await
            .map(drop)
            .map_err(|e| kube_error(&e));
        stream.record("delete", start, outcome);
    }
}

/// Whether a v1alpha1 object carries the status only our conversion writes there.
fn converted(spoke: &v1alpha1::ExtensionConfig) -> bool {
    spoke.api_version == "runtime.cluster.x-k8s.io/v1alpha1"
        && spoke
            .status
            .v1beta2
            .as_ref()
            .is_some_and(|s| !s.conditions.is_empty())
}

/// Reads its own object as v1alpha1, writes it back changed through v1alpha1, reads it as
/// v1beta2 and lists the test's objects as v1alpha1 (a conversion of each), until stopped.
async fn conversion_load(kube: kube::Client, name: String, stream: Arc<Stream>) {
    let old: Api<v1alpha1::ExtensionConfig> = Api::all(kube.clone());
    let hub = configs(&kube);
    let mut n = 0u64;
    while stream.running() {
        n += 1;
        let start = Instant::now();
        let spoke = old.get(&name).await;
        let outcome = match &spoke {
            Ok(s) if converted(s) => Ok(()),
            Ok(s) => Err(format!("{name} read unconverted: {:?}", s.status)),
            Err(e) => Err(kube_error(e)),
        };
        stream.record("get v1alpha1", start, outcome);
        let Ok(mut spoke) = spoke else { continue };

        let value = n.to_string();
        spoke.spec.settings.insert("n".into(), value.clone());
        let start = Instant::now();
        let outcome = match old.replace(&name, &PostParams::default(), &spoke).await {
            Ok(s) if converted(&s) && s.spec.settings.get("n") == Some(&value) => Ok(()),
            Ok(s) => Err(format!("{name} replaced wrongly: {s:?}")),
            Err(e) => Err(kube_error(&e)),
        };
        stream.record("replace v1alpha1", start, outcome);

        let start = Instant::now();
        let outcome = match hub.get(&name).await {
            Ok(h)
                if h.spec.settings.get("n") == Some(&value) && !h.status.conditions.is_empty() =>
            {
                Ok(())
            }
            Ok(h) => Err(format!("{name} read back wrongly: {h:?}")),
            Err(e) => Err(kube_error(&e)),
        };
        stream.record("get v1beta2", start, outcome);

        let start = Instant::now();
        let outcome = match old
            .list(&ListParams::default().labels(&format!("{LABEL}={GATE}")))
            .await
        {
            Ok(list)
                if list
                    .items
                    .iter()
                    .any(|s| s.metadata.name.as_deref() == Some(&name)) =>
            {
                Ok(())
            }
            Ok(_) => Err(format!("{name} missing from the v1alpha1 list")),
            Err(e) => Err(kube_error(&e)),
        };
        stream.record("list v1alpha1", start, outcome);
    }
}

/// What the host saw of the API server's calls.
#[derive(Default)]
struct Calls {
    /// Every path called.
    paths: Mutex<BTreeSet<String>>,
    /// How many calls were answered.
    count: AtomicU64,
    /// The longest a call took to answer.
    slowest: Mutex<Duration>,
}

/// The webhook router at the root and under every [`prefix`], recording its calls in `calls`.
fn router(calls: Arc<Calls>) -> Router {
    let hooks = || {
        webhook::router(WebhookOptions {
            runtime_sdk_enabled: true,
        })
    };
    let mut app = hooks();
    for n in 1..=PREFIXES {
        app = app.nest(&prefix(n), hooks());
    }
    app.layer(middleware::from_fn(move |req: Request, next: Next| {
        let calls = calls.clone();
        async move {
            calls
                .paths
                .lock()
                .unwrap()
                .insert(req.uri().path().to_string());
            let start = Instant::now();
            let response = next.run(req).await;
            let took = start.elapsed();
            calls.count.fetch_add(1, Ordering::SeqCst);
            let mut slowest = calls.slowest.lock().unwrap();
            *slowest = (*slowest).max(took);
            response
        }
    }))
}

/// Points the test's admission webhooks and the CRD's conversion at `base` + `prefix`,
/// trusting `bundle` (PEM, one or more CAs).
async fn register(kube: &kube::Client, base: &str, prefix: &str, bundle: &str) {
    let docs = manifests();
    let at = format!("{base}{prefix}");
    let apply = PatchParams::apply("capi-test-rotation").force();
    let mutating = aim(docs[0].clone(), MUTATING, &at, bundle, GATE);
    Api::<MutatingWebhookConfiguration>::all(kube.clone())
        .patch(MUTATING, &apply, &Patch::Apply(&mutating))
        .await
        .unwrap();
    let validating = aim(docs[1].clone(), VALIDATING, &at, bundle, GATE);
    Api::<ValidatingWebhookConfiguration>::all(kube.clone())
        .patch(VALIDATING, &apply, &Patch::Apply(&validating))
        .await
        .unwrap();
    let patch = json!({"spec": {"conversion": {
        "strategy": "Webhook",
        "webhook": {
            "conversionReviewVersions": ["v1"],
            "clientConfig": {
                "url": format!("{at}/convert"),
                "caBundle": ByteString(bundle.as_bytes().to_vec()),
            },
        },
    }}});
    Api::<CustomResourceDefinition>::all(kube.clone())
        .patch(CRD, &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
}

/// Removes the webhook configurations and the CRD's conversion webhook, as the other tests of
/// this process expect the cluster.
async fn unregister(kube: &kube::Client) {
    let _ = Api::<MutatingWebhookConfiguration>::all(kube.clone())
        .delete(MUTATING, &Default::default())
        .await;
    let _ = Api::<ValidatingWebhookConfiguration>::all(kube.clone())
        .delete(VALIDATING, &Default::default())
        .await;
    Api::<CustomResourceDefinition>::all(kube.clone())
        .patch(
            CRD,
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"conversion": {"strategy": "None", "webhook": null}}})),
        )
        .await
        .unwrap();
}

/// Waits until the API server calls all three webhooks under `prefix`. Before any load runs,
/// `nudge` makes it call them.
async fn until_called(
    seen: &Mutex<BTreeSet<String>>,
    prefix: &str,
    mut nudge: impl AsyncFnMut(),
) -> Result<(), String> {
    let start = Instant::now();
    loop {
        let missing: Vec<String> = HOOK_PATHS
            .iter()
            .map(|p| format!("{prefix}{p}"))
            .filter(|p| !seen.lock().unwrap().contains(p))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        if start.elapsed() > PATIENCE {
            return Err(format!("not called within {PATIENCE:?}: {missing:?}"));
        }
        nudge().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The test's objects for the conversion load: one per task, with conditions in both forms.
async fn conversion_objects(env: &TestEnv, kube: &kube::Client, pem: &str) -> Vec<String> {
    let mut names = Vec::new();
    for _ in 0..2 {
        let name = env.unique_name("rotconv");
        // Created before the webhooks are registered: not defaulted, so complete already.
        let c = labelled(config(&name, "https://ext.example", Some(pem)), GATE);
        create(kube, &c).await;
        configs(kube)
            .patch_status(
                &name,
                &PatchParams::default(),
                &Patch::Merge(json!({"status": {
                    "conditions": [{"type": "Discovered", "status": "True", "reason": "Discovered", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z", "observedGeneration": 1}],
                    "deprecated": {"v1beta1": {"conditions": [{"type": "Discovered", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}
                }})),
            )
            .await
            .unwrap();
        names.push(name);
    }
    names
}

/// One run: the host, the load and what the test does to the certificate meanwhile.
struct Run {
    host: RunningHost,
    base: String,
    calls: Arc<Calls>,
    /// How many times the webhooks were registered anew (the prefix they are under).
    registrations: usize,
    stream: Arc<Stream>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// When each rotation was written and when a new connection first got the new certificate.
    windows: Vec<(Instant, Instant)>,
    /// When each re-registration was made and when the API server had called all three
    /// webhooks under it.
    changes: Vec<(Instant, Instant)>,
    started: Instant,
}

impl Run {
    /// Serves the webhooks with the certificate in `certs`, registers them trusting `bundle`,
    /// waits until the API server calls them and starts the load.
    async fn start(
        env: &'static TestEnv,
        kube: &kube::Client,
        certs: &CertDir,
        bundle: &str,
    ) -> Run {
        let mut options = HostOptions::new(SocketAddr::from(([127, 0, 0, 1], 0)), certs.files());
        options.tls_reload_interval = Duration::from_millis(200);
        let calls = Arc::new(Calls::default());
        let host = RunningHost::start(options, router(calls.clone()), Router::new())
            .await
            .unwrap();
        let base = format!("https://127.0.0.1:{}", host.local_addr().port());
        let objects = conversion_objects(env, kube, bundle).await;
        register(kube, &base, &prefix(0), bundle).await;
        // Each webhook is picked up on its own: nudge until all three have been called. A
        // failure unregisters them first, so the other tests of this process are not left
        // with webhooks nobody serves.
        let old: Api<v1alpha1::ExtensionConfig> = Api::all(kube.clone());
        let ready = async {
            until_called(&calls.paths, &prefix(0), async || {
                let probe = labelled(service_config(&env.unique_name("rotprobe")), GATE);
                if let Ok(created) = configs(kube).create(&PostParams::default(), &probe).await {
                    let _ = configs(kube)
                        .delete(
                            created.metadata.name.as_deref().unwrap(),
                            &Default::default(),
                        )
                        .await;
                }
                let _ = old.get(&objects[0]).await;
            })
            .await?;
            // The conversion must be ours before the load counts on it.
            let start = Instant::now();
            while !old.get(&objects[0]).await.is_ok_and(|s| converted(&s)) {
                if start.elapsed() > PATIENCE {
                    return Err(format!(
                        "reads are not converted by the webhook after {PATIENCE:?}"
                    ));
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Ok::<(), String>(())
        }
        .await;
        if let Err(e) = ready {
            unregister(kube).await;
            panic!("the webhooks did not come into use: {e}");
        }

        let stream = Arc::new(Stream::default());
        let mut tasks = Vec::new();
        for _ in 0..2 {
            tasks.push(tokio::spawn(admission_load(
                env,
                kube.clone(),
                stream.clone(),
            )));
        }
        for name in objects {
            tasks.push(tokio::spawn(conversion_load(
                kube.clone(),
                name,
                stream.clone(),
            )));
        }
        Run {
            host,
            base,
            calls,
            registrations: 0,
            stream,
            tasks,
            windows: Vec::new(),
            changes: Vec::new(),
            started: Instant::now(),
        }
    }

    /// Registers the webhooks anew, trusting `bundle`, under the next prefix, and waits until
    /// the API server has called all three there. client-go caches HTTP transports by their
    /// TLS settings, the CA bytes included, so a bundle of other bytes (even the same CA
    /// repeated) gives the API server a new transport: those calls come over new connections,
    /// new TLS handshakes with whatever certificate the host serves by then.
    async fn reregister(&mut self, kube: &kube::Client, bundle: &str) -> Result<(), String> {
        self.stream.progress(PROGRESS).await?;
        self.registrations += 1;
        let at = prefix(self.registrations);
        let start = Instant::now();
        register(kube, &self.base, &at, bundle).await;
        until_called(&self.calls.paths, &at, async || {}).await?;
        self.changes.push((start, Instant::now()));
        eprintln!(
            "registration {}: the API server called all three webhooks under {at} {:?} after the change",
            self.registrations,
            start.elapsed()
        );
        Ok(())
    }

    /// Writes `leaf` in `style` and waits until a new TLS connection (trusting `trusted`)
    /// gets it instead of `previous`.
    async fn rotate(
        &mut self,
        certs: &mut CertDir,
        leaf: &Leaf,
        style: Style,
        trusted: &str,
        previous: &[u8],
    ) -> Result<(), String> {
        self.stream.progress(PROGRESS).await?;
        let start = Instant::now();
        certs.write(leaf, style);
        let took = until_presented(self.host.local_addr(), trusted, &der(leaf), previous)
            .await
            .map_err(|e| format!("rotation {} ({style:?}): {e}", self.windows.len() + 1))?;
        self.windows.push((start, Instant::now()));
        eprintln!(
            "rotation {} ({style:?}): new certificate served {took:?} after the write",
            self.windows.len()
        );
        Ok(())
    }

    /// Stops the load, unregisters the webhooks, stops the host, then checks that nothing
    /// failed and reports the figures.
    async fn finish(self, kube: &kube::Client, outcome: Result<(), String>, what: &str) {
        let outcome = match outcome {
            Ok(()) => self.stream.progress(PROGRESS).await,
            Err(e) => Err(e),
        };
        self.stream.stop.store(true, Ordering::SeqCst);
        for task in self.tasks {
            task.await.unwrap();
        }
        let elapsed = self.started.elapsed();
        unregister(kube).await;
        self.host.shutdown().await.unwrap();
        outcome.unwrap();

        let failures = self.stream.failures.lock().unwrap().clone();
        let spans = self.stream.spans.lock().unwrap().clone();
        let overlaps = |windows: &[(Instant, Instant)], s: &Instant, e: &Instant| {
            windows.iter().any(|(w0, w1)| s <= w1 && e >= w0)
        };
        let mut all: Vec<Duration> = spans.iter().map(|(_, s, e)| *e - *s).collect();
        all.sort();
        let across: Vec<Duration> = spans
            .iter()
            .filter(|(_, s, e)| overlaps(&self.windows, s, e))
            .map(|(_, s, e)| *e - *s)
            .collect();
        eprintln!(
            "{what}: {} requests through the API server in {elapsed:?}, {} failed; {} rotations; \
             {} requests overlapped a rotation, the longest {:?}; median request {:?}, longest {:?}",
            spans.len(),
            failures.len(),
            self.windows.len(),
            across.len(),
            across.iter().max().copied().unwrap_or_default(),
            all.get(all.len() / 2).copied().unwrap_or_default(),
            all.last().copied().unwrap_or_default(),
        );
        let mut by_kind = std::collections::BTreeMap::<&str, Duration>::new();
        for (kind, s, e) in spans
            .iter()
            .filter(|(_, s, e)| overlaps(&self.windows, s, e))
        {
            let longest = by_kind.entry(kind).or_default();
            *longest = (*longest).max(*e - *s);
        }
        eprintln!("{what}: the longest request across a rotation, by kind: {by_kind:?}");
        eprintln!(
            "{what}: the host answered {} webhook calls, the longest in {:?}",
            self.calls.count.load(Ordering::SeqCst),
            *self.calls.slowest.lock().unwrap()
        );
        let offsets = |w: &[(Instant, Instant)]| -> Vec<Duration> {
            w.iter().map(|(s, _)| *s - self.started).collect()
        };
        eprintln!(
            "{what}: rotations written at {:?}, registrations changed at {:?}",
            offsets(&self.windows),
            offsets(&self.changes)
        );
        let mut slowest = spans.clone();
        slowest.sort_by_key(|(_, s, e)| std::cmp::Reverse(*e - *s));
        for (kind, s, e) in slowest.iter().take(8) {
            eprintln!(
                "{what}: slow request {kind} {:?} at {:?}, overlapping a rotation: {}, a re-registration: {}",
                *e - *s,
                *s - self.started,
                overlaps(&self.windows, s, e),
                overlaps(&self.changes, s, e),
            );
        }
        assert!(
            failures.is_empty(),
            "{} of {} requests failed, the first: {:#?}",
            failures.len(),
            spans.len(),
            &failures[..failures.len().min(10)]
        );
        assert!(!across.is_empty(), "no request overlapped a rotation");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serving_certificate_rotated_under_load() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    // It changes the CRD (its conversion) every test of this process uses.
    let _cluster = whole_cluster(&kube).await;
    let ca = TestCa::new("rotation-ca");
    let pem = ca.pem();
    let first = ca.serving_loopback();
    let mut certs = CertDir::new(&first);
    let mut run = Run::start(env, &kube, &certs, &pem).await;

    let outcome = async {
        let mut previous = der(&first);
        let styles = [Style::Rename, Style::Symlink, Style::Symlink, Style::Rename];
        for (n, style) in styles.into_iter().enumerate() {
            let leaf = ca.serving_loopback();
            run.rotate(&mut certs, &leaf, style, &pem, &previous)
                .await?;
            previous = der(&leaf);
            // The same CA, its PEM repeated: new connections from the API server, which must
            // take the rotated certificate.
            run.reregister(&kube, &pem.repeat(n + 2)).await?;
        }
        Ok(())
    }
    .await;
    run.finish(&kube, outcome, "same-CA rotation").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serving_certificate_moved_to_a_new_ca_under_load() {
    let env = env(ENV);
    let kube = env.client().await.unwrap();
    let _cluster = whole_cluster(&kube).await;
    let old_ca = TestCa::new("rotation-old-ca");
    let new_ca = TestCa::new("rotation-new-ca");
    let first = old_ca.serving_loopback();
    let mut certs = CertDir::new(&first);
    let mut run = Run::start(env, &kube, &certs, &old_ca.pem()).await;

    let both = format!("{}{}", old_ca.pem(), new_ca.pem());
    let outcome = async {
        // 1. Both CAs trusted, seen in use by the API server.
        run.reregister(&kube, &both).await?;
        // 2. The serving certificate moves to the new CA.
        let leaf = new_ca.serving_loopback();
        run.rotate(&mut certs, &leaf, Style::Symlink, &both, &der(&first))
            .await?;
        // 3. Only the new CA trusted: the API server's new connections get the new certificate
        // or fail.
        run.reregister(&kube, &new_ca.pem()).await
    }
    .await;
    run.finish(&kube, outcome, "CA roll").await;
}
