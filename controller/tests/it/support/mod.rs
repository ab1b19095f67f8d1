//! What the controller's tests share: the control plane (a real etcd + kube-apiserver from
//! `capi-runtime-testenv`, with the ExtensionConfig CRD) and the locks that share it between
//! tests, the workspace's test CA (`capi-runtime-test-pki`), real HTTPS extensions on loopback
//! built with the crate's server kit, and polling with deadlines.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::INJECT_CA_FROM_SECRET_ANNOTATION;
use capi_runtime::api::runtime::v1beta2::{ExtensionConfig, ExtensionConfigSpec};
use capi_runtime::client::Client as RuntimeClient;
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{BeforeClusterCreateRequest, BeforeClusterCreateResponse};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::api::core::v1::Secret;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use capi_runtime::server::{RunningServer, Server};
use capi_runtime_controller::Outcome;
use capi_runtime_testenv::TestEnv;
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use tokio::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

pub use capi_runtime_test_pki::TestCa;

/// The ExtensionConfig CRD as this workspace generates it.
pub fn crd_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml")
}

/// The name of the control plane of the controller's `it` binary.
pub const ENV: &str = "controller-it";

/// The control plane shared by the tests of one test binary. Panics with one line when the
/// binaries are missing (run `cargo xtask testenv` or `cargo xtask test`).
pub fn env(name: &str) -> &'static TestEnv {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    capi_runtime_testenv::shared(name, |b| b.crd(crd_file()))
}

/// Who uses the shared cluster: many tests touching only their own objects, or one test that
/// needs the whole of it.
static CLUSTER: RwLock<()> = RwLock::const_new(());

/// For a test that touches only the ExtensionConfigs it creates: held while it runs, so that
/// no [`whole_cluster`] test runs meanwhile.
pub async fn own_objects() -> RwLockReadGuard<'static, ()> {
    CLUSTER.read().await
}

/// For a test that needs the cluster's ExtensionConfigs to be its own (warm-up lists them all,
/// a watch sees them all) or changes what all tests share (the CRD): waits until no other test
/// of this process uses the cluster, then deletes every ExtensionConfig the others left, and
/// keeps the others out while held.
pub async fn whole_cluster(kube: &kube::Client) -> RwLockWriteGuard<'static, ()> {
    let guard = CLUSTER.write().await;
    let left = configs(kube).list(&ListParams::default()).await.unwrap();
    for c in left.items {
        delete(kube, c.metadata.name.as_deref().unwrap()).await;
    }
    guard
}

async fn allow(
    _: BeforeClusterCreateRequest,
) -> Result<BeforeClusterCreateResponse, std::convert::Infallible> {
    Ok(BeforeClusterCreateResponse::success())
}

/// A real extension on loopback (HTTPS, certificate from `ca`) serving Discovery with one
/// BeforeClusterCreate handler per name. Stop it with [`Extension::stop`].
pub struct Extension {
    server: Option<RunningServer>,
    _certs: tempfile::TempDir,
    pub url: String,
}

impl Extension {
    pub async fn start(ca: &TestCa, handlers: &[&str]) -> Extension {
        let certs = ca.cert_dir();
        let mut builder = Server::builder()
            .host("127.0.0.1".parse().unwrap())
            .port(0)
            .cert_dir(certs.path());
        for name in handlers {
            builder = builder.handle(*name, allow);
        }
        let server = builder.build().unwrap().start().await.unwrap();
        let url = format!("https://127.0.0.1:{}", server.local_addr().port());
        Extension {
            server: Some(server),
            _certs: certs,
            url,
        }
    }

    pub async fn stop(mut self) {
        if let Some(s) = self.server.take() {
            s.shutdown().await.unwrap();
        }
    }
}

/// An `https://` URL on loopback whose server closes every connection at once, so calls fail
/// fast. The port stays bound for the whole test process (no other server can take it).
pub fn unreachable_url() -> String {
    static PORT: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
    let port = *PORT.get_or_init(|| {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                drop(stream);
            }
        });
        port
    });
    format!("https://127.0.0.1:{port}")
}

/// A runtime client over a fresh registry.
pub fn runtime_client() -> RuntimeClient {
    RuntimeClient::builder().build().unwrap()
}

/// A runtime client ready at once, with nothing registered.
pub fn ready_runtime_client() -> RuntimeClient {
    RuntimeClient::builder()
        .without_controller()
        .build()
        .unwrap()
}

/// A v1beta2 ExtensionConfig reaching `url`, optionally trusting `ca`.
pub fn config(name: &str, url: &str, ca: Option<&str>) -> ExtensionConfig {
    let mut c = ExtensionConfig::new(name, ExtensionConfigSpec::default());
    c.spec.client_config.url = url.to_string();
    if let Some(ca) = ca {
        c.spec.client_config.ca_bundle = ByteString(ca.as_bytes().to_vec());
    }
    c.spec.namespace_selector = Some(LabelSelector::default());
    c
}

/// Adds the CA-injection annotation naming `namespace/name`.
pub fn inject_from(mut c: ExtensionConfig, namespace: &str, name: &str) -> ExtensionConfig {
    c.metadata
        .annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(
            INJECT_CA_FROM_SECRET_ANNOTATION.to_string(),
            format!("{namespace}/{name}"),
        );
    c
}

/// Creates a Secret `namespace/name` whose `ca.crt` is `pem` (or without that key).
pub async fn create_ca_secret(kube: &kube::Client, namespace: &str, name: &str, pem: Option<&str>) {
    let mut s = Secret::default();
    s.metadata.name = Some(name.to_string());
    let mut data = BTreeMap::new();
    match pem {
        Some(p) => data.insert("ca.crt".to_string(), ByteString(p.as_bytes().to_vec())),
        None => data.insert("other".to_string(), ByteString(b"x".to_vec())),
    };
    s.data = Some(data);
    Api::<Secret>::namespaced(kube.clone(), namespace)
        .create(&PostParams::default(), &s)
        .await
        .unwrap();
}

pub fn configs(kube: &kube::Client) -> Api<ExtensionConfig> {
    Api::all(kube.clone())
}

pub async fn create(kube: &kube::Client, c: &ExtensionConfig) -> ExtensionConfig {
    configs(kube)
        .create(&PostParams::default(), c)
        .await
        .unwrap()
}

pub async fn get(kube: &kube::Client, name: &str) -> ExtensionConfig {
    configs(kube).get(name).await.unwrap()
}

/// Deletes the ExtensionConfig and waits until it is gone.
pub async fn delete(kube: &kube::Client, name: &str) {
    let _ = configs(kube).delete(name, &DeleteParams::default()).await;
    eventually(Duration::from_secs(30), || async {
        configs(kube).get_opt(name).await.unwrap().is_none()
    })
    .await;
}

/// Polls `done` every 100 ms until it holds; panics after `limit`.
pub async fn eventually<F, Fut>(limit: Duration, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + limit;
    loop {
        if done().await {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "condition not met within {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Asserts that a reconcile ended with [`Outcome::Done`]; shows the error's chain otherwise.
#[track_caller]
pub fn assert_done(result: Result<Outcome, capi_runtime_controller::Error>) {
    match result {
        Ok(Outcome::Done) => {}
        Ok(other) => panic!("expected Done, got {other:?}"),
        Err(e) => panic!("expected Done, got the error {}", chain(&e)),
    }
}

/// Names of the handlers in a registry, sorted.
pub fn registered(client: &RuntimeClient) -> Vec<String> {
    client
        .registry()
        .snapshot()
        .iter()
        .map(|r| r.name.clone())
        .collect()
}

/// The handler names in an ExtensionConfig's status, in order.
pub fn status_handlers(c: &ExtensionConfig) -> Vec<String> {
    c.status.handlers.iter().map(|h| h.name.clone()).collect()
}

/// (type, status, reason) of each standard condition, in order.
pub fn conditions_of(c: &ExtensionConfig) -> Vec<(String, String, String)> {
    c.status
        .conditions
        .iter()
        .map(|c| (c.type_.clone(), c.status.clone(), c.reason.clone()))
        .collect()
}

/// (type, status) of each v1beta1 condition, in order.
pub fn v1beta1_conditions_of(c: &ExtensionConfig) -> Vec<(String, String)> {
    c.status
        .deprecated
        .as_ref()
        .and_then(|d| d.v1beta1.as_ref())
        .map(|v| {
            v.conditions
                .iter()
                .map(|c| (c.r#type.clone(), c.status.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// A namespace for a test's Secrets.
pub async fn namespace(kube: &kube::Client, name: &str) {
    use capi_runtime::k8s_openapi::api::core::v1::Namespace;
    let mut ns = Namespace::default();
    ns.metadata.name = Some(name.to_string());
    Api::<Namespace>::all(kube.clone())
        .create(&PostParams::default(), &ns)
        .await
        .unwrap();
}
