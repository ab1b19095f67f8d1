//! Calling extensions from Rust: what a controller of Cluster API does with the client.

// ANCHOR: build
use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::client::{BuildError, CallAllOptions, Client};
use capi_runtime::registry::Registry;
use prometheus_client::registry::Registry as MetricsRegistry;

/// One client per process, shared (cloned) by every controller that calls hooks, over the
/// built-in hooks and the `registry` the ExtensionConfig controller fills. Its metrics go into
/// the process's registry; `call_all_extensions` calls up to four handlers at a time.
pub fn build_client(
    registry: Registry,
    metrics: &mut MetricsRegistry,
) -> Result<Client, BuildError> {
    let client_metrics = capi_runtime::client::Metrics::new();
    client_metrics.register(metrics);
    Client::builder()
        .registry(registry)
        .metrics(client_metrics)
        .call_all_options(CallAllOptions::concurrent(4))
        .build()
}
// ANCHOR_END: build

// ANCHOR: register
/// What the ExtensionConfig controller does for each ExtensionConfig: ask the extension for
/// its handlers, then register them (the returned object carries them in `status.handlers`).
pub async fn discover_and_register(
    client: &Client,
    config: &ExtensionConfig,
) -> Result<ExtensionConfig, Box<dyn std::error::Error + Send + Sync>> {
    let discovered = client.discover(config).await?;
    client.register(&discovered)?;
    Ok(discovered)
}
// ANCHOR_END: register

// ANCHOR: without_controller
/// A client that no ExtensionConfig controller feeds (a tool, a test): ready at once, it
/// registers the extension of `config` itself.
pub async fn client_for(
    config: &ExtensionConfig,
) -> Result<Client, Box<dyn std::error::Error + Send + Sync>> {
    let client = Client::builder().without_controller().build()?;
    client.register(&client.discover(config).await?)?;
    Ok(client)
}
// ANCHOR_END: without_controller

// ANCHOR: config
use capi_runtime::api::runtime::v1beta2::{ClientConfig, ExtensionConfigSpec};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// The ExtensionConfig `name` of the extension served at `url`, whose serving certificate is
/// checked against `ca_pem`: the PEM of the CA that signed it, or of a self-signed serving
/// certificate itself. The empty selector sends it the Clusters of every namespace.
pub fn extension_config(name: &str, url: &str, ca_pem: &[u8]) -> ExtensionConfig {
    let spec = ExtensionConfigSpec {
        client_config: ClientConfig {
            url: url.into(),
            ca_bundle: ByteString(ca_pem.to_vec()),
            ..Default::default()
        },
        namespace_selector: Some(LabelSelector::default()),
        ..Default::default()
    };
    ExtensionConfig::new(name, spec)
}

/// The quickstart extension of "Run it locally", on this machine's port 9443, trusted through
/// its own self-signed certificate (`out/certs/tls.crt`).
pub fn local_extension(certificate_pem: &[u8]) -> ExtensionConfig {
    extension_config("local", "https://localhost:9443", certificate_pem)
}
// ANCHOR_END: config

// ANCHOR: call
use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::client::{CallError, ForObject};
use capi_runtime::hooks::v1alpha1::{BeforeClusterUpgradeRequest, BeforeClusterUpgradeResponse};

/// Asks every extension whether `cluster` may be upgraded to `to`. The answer is aggregated:
/// `Success`, the shortest non-zero `retryAfterSeconds`, the messages joined.
pub async fn may_upgrade(
    client: &Client,
    cluster: &Cluster,
    from: &str,
    to: &str,
) -> Result<BeforeClusterUpgradeResponse, CallError> {
    let namespace = cluster.metadata.namespace.clone().unwrap_or_default();
    let name = cluster.metadata.name.clone().unwrap_or_default();
    let request = BeforeClusterUpgradeRequest {
        cluster: cluster.clone(),
        from_kubernetes_version: from.into(),
        to_kubernetes_version: to.into(),
        ..Default::default()
    };
    client
        .call_all_extensions(&request, &ForObject::new(namespace, name))
        .await
}
// ANCHOR_END: call

// ANCHOR: proxy
use capi_runtime::client::ProxyConfig;

/// A client whose calls go through the cluster's egress proxy, set in code rather than read
/// from the environment: in-cluster services and the pod network are reached directly
/// (loopback and `localhost` always are).
pub fn build_client_behind_proxy(registry: Registry) -> Result<Client, BuildError> {
    Client::builder()
        .registry(registry)
        .proxy(ProxyConfig {
            https_proxy: "http://proxy.internal:3128".into(),
            no_proxy: ".svc,.cluster.local,10.0.0.0/8".into(),
            ..ProxyConfig::default()
        })
        .build()
}
// ANCHOR_END: proxy
