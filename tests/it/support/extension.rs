//! ExtensionConfig fixtures and a ready client for the runtime-client tests (the client
//! benchmark includes this file by path).
#![allow(dead_code)]

use std::collections::BTreeMap;

use capi_runtime::Hook;
use capi_runtime::api::runtime::v1beta2::{
    ClientConfig, ExtensionConfig, ExtensionConfigSpec, ExtensionConfigStatus, ExtensionHandler,
    FailurePolicy, GroupVersionHook,
};
use capi_runtime::client::{CallError, Client, ClientBuilder, ForObject, Metrics};
use capi_runtime::hook::RequestOf;
use capi_runtime::registry::Registry;
use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;

/// The apiVersion of the built-in hooks.
pub const HOOKS: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";

/// One handler in an ExtensionConfig's status.
#[derive(Clone, Debug)]
pub struct Handler {
    pub name: String,
    pub hook: String,
    pub policy: FailurePolicy,
    pub timeout_seconds: i32,
}

/// A handler of `hook` named `name`, policy Fail, default timeout.
pub fn handler(name: &str, hook: &str) -> Handler {
    Handler {
        name: name.to_string(),
        hook: hook.to_string(),
        policy: FailurePolicy::Fail,
        timeout_seconds: 0,
    }
}

impl Handler {
    /// With failure policy Ignore.
    pub fn ignore(mut self) -> Self {
        self.policy = FailurePolicy::Ignore;
        self
    }

    /// With the given timeout.
    pub fn timeout(mut self, seconds: i32) -> Self {
        self.timeout_seconds = seconds;
        self
    }
}

/// An ExtensionConfig named `name` pointing at `url`, trusting `ca_pem`, whose status lists
/// `handlers` as discovery would have recorded them.
pub fn config(name: &str, url: &str, ca_pem: &str, handlers: &[Handler]) -> ExtensionConfig {
    let spec = ExtensionConfigSpec {
        client_config: ClientConfig {
            url: url.to_string(),
            ca_bundle: ByteString(ca_pem.as_bytes().to_vec()),
            ..Default::default()
        },
        namespace_selector: Some(metav1::LabelSelector::default()),
        settings: BTreeMap::new(),
    };
    let mut config = ExtensionConfig::new(name, spec);
    config.metadata.resource_version = Some("1".to_string());
    config.status = ExtensionConfigStatus {
        handlers: handlers
            .iter()
            .map(|h| ExtensionHandler {
                name: format!("{}.{name}", h.name),
                request_hook: GroupVersionHook {
                    api_version: HOOKS.to_string(),
                    hook: h.hook.clone(),
                },
                timeout_seconds: h.timeout_seconds,
                failure_policy: Some(h.policy),
            })
            .collect(),
        ..Default::default()
    };
    config
}

/// A selector `key In values`.
pub fn selector_in(key: &str, values: &[&str]) -> metav1::LabelSelector {
    metav1::LabelSelector {
        match_expressions: Some(vec![metav1::LabelSelectorRequirement {
            key: key.to_string(),
            operator: "In".to_string(),
            values: Some(values.iter().map(|v| v.to_string()).collect()),
        }]),
        match_labels: None,
    }
}

/// A client over the built-in catalog and a registry warmed up with `configs`.
pub fn ready_client(configs: &[ExtensionConfig]) -> Client {
    ready_client_with(configs, Metrics::new())
}

/// Like [`ready_client`], recording into `metrics`.
pub fn ready_client_with(configs: &[ExtensionConfig], metrics: Metrics) -> Client {
    ready_builder(configs)
        .metrics(metrics)
        .build()
        .expect("no client certificate to load")
}

/// Calls the handler `name` of hook `H` with a default request, for a cluster `c` in
/// `default`.
pub async fn call_hook<H: Hook>(client: &Client, name: &str) -> Result<H::Response, CallError>
where
    H::Request: RequestOf<Hook = H>,
{
    client
        .call_extension(
            name,
            &H::Request::default(),
            &ForObject::new("default", "c"),
        )
        .await
}

/// A client builder over the built-in catalog and a registry warmed up with `configs`, for a
/// test that sets more of the client.
pub fn ready_builder(configs: &[ExtensionConfig]) -> ClientBuilder {
    let registry = Registry::new();
    registry.warm_up(configs).expect("the fixtures are valid");
    Client::builder().registry(registry)
}
