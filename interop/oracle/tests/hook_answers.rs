//! The SDK's DiscoverVariables answers, read by each supported Cluster API as its manager
//! reads them.
//!
//! A v1.12 manager reads an answer's variables as v1beta1 `ClusterClassVariable`s, v1.13 and
//! later as v1beta2 ones (`interop/hook-shapes/<version>/drift.txt`). A kit server answers
//! over HTTPS, and `hook-shapes-<version> read-response DiscoverVariables` decodes the body
//! with that version's Go types, as its manager's runtime client does, and writes back what
//! it understood. Every version must understand the same variables, and they must be the ones
//! the handler answered: name, required, labels and annotations (the variable's own, and the
//! schema's `x-metadata`) and schema.

use std::net::{IpAddr, Ipv4Addr};
use std::process::{Command, Stdio};

use capi_runtime::api::core::v1beta2::{ClusterClassVariable, ClusterClassVariableMetadata};
use capi_runtime::catalog::{HookId, gvh_to_path};
use capi_runtime::hook::Message;
use capi_runtime::hooks::v1alpha1::{
    DiscoverVariables, DiscoverVariablesRequest, DiscoverVariablesResponse,
};
use capi_runtime::server::{HandlerOptions, ServerBuilder};
use capi_runtime::variable::Variable;
use capi_runtime_oracle::program;
use capi_runtime_test_pki as pki;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The versions whose managers read the answers, oldest first: the supported ones, as
/// `capi-envtest` lists them.
const VERSIONS: &[&str] = capi_envtest::CLUSTER_API_VERSIONS;

/// Where the Cluster's images come from.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(
    name = "registry",
    required,
    label(key = "example.com/tier", value = "platform"),
    annotation(key = "example.com/owner", value = "images")
)]
#[schema(x_validation(rule = "self.host != 'localhost'", message = "not the local host"))]
pub struct Registry {
    /// Host name of the registry.
    #[schema(min_length = 1, max_length = 253, pattern = "^[a-z0-9.-]+$")]
    pub host: String,
    /// Port of the registry.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 65535, default = 443)]
    pub port: Option<i32>,
    /// Mirrors tried in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 3, unique_items)]
    pub mirrors: Vec<String>,
}

/// Replicas of the ingress controller.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "ingressReplicas")]
#[schema(minimum = 0, maximum = 5, default = 2)]
pub struct IngressReplicas(pub i32);

/// A variable written by hand, with the deprecated per-variable metadata a v1.12 manager reads
/// from `metadata` and later ones from `deprecatedV1Beta1Metadata`.
fn hand_written() -> ClusterClassVariable {
    let mut variable = IngressReplicas::definition();
    variable.name = "legacy".to_string();
    variable.deprecated_v1_beta1_metadata = ClusterClassVariableMetadata {
        labels: [("legacy.example.com/kind".to_string(), "old".to_string())].into(),
        annotations: [("legacy.example.com/note".to_string(), "kept".to_string())].into(),
    };
    variable
}

async fn hand_written_answer(_: DiscoverVariablesRequest) -> DiscoverVariablesResponse {
    DiscoverVariablesResponse {
        variables: vec![hand_written()],
        ..DiscoverVariablesResponse::success()
    }
}

fn server() -> ServerBuilder {
    ServerBuilder::new()
        .variable::<Registry>()
        .variable::<IngressReplicas>()
        .discover_variables("typed")
        .handle(HandlerOptions::new("by-hand"), hand_written_answer)
}

/// A value as a version-independent reading of it: what Go's `omitempty` writes or leaves out
/// when a value is empty (`false`, `""`, `0`-free containers) is dropped, so that two writers
/// that agree on meaning agree on this.
fn meaning(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), meaning(v)))
                .filter(|(_, v)| !is_empty(v))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(meaning).collect()),
        other => other.clone(),
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Number(_) | Value::Bool(true) => false,
    }
}

/// The variables of an answer as `version`'s Go types read them: the per-variable metadata
/// from where that version keeps it (`metadata` in v1beta1, `deprecatedV1Beta1Metadata` in
/// v1beta2), under one name.
fn variables_read(version: &str, answer: &Value) -> Value {
    let old = version == "v1.12.5";
    let list = answer["variables"].as_array().cloned().unwrap_or_default();
    Value::Array(
        list.iter()
            .map(|v| {
                let metadata = if old {
                    &v["metadata"]
                } else {
                    &v["deprecatedV1Beta1Metadata"]
                };
                meaning(&json!({
                    "name": v["name"],
                    "required": v["required"],
                    "metadata": metadata,
                    "schema": v["schema"],
                }))
            })
            .collect(),
    )
}

/// What `version`'s manager understands of `body`.
fn read_by(version: &str, body: &[u8]) -> Value {
    let path = program(&format!("hook-shapes-{version}")).unwrap_or_else(|e| panic!("{e}"));
    let mut child = Command::new(&path)
        .args(["read-response", "DiscoverVariables"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), body).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_supported_manager_reads_the_variables_the_handler_answered() {
    let ca = pki::TestCa::new("hook-answers-ca");
    let dir = ca.cert_dir();
    let server = server()
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(dir.path())
        .build()
        .unwrap()
        .start()
        .await
        .unwrap_or_else(|e| panic!("serving on loopback: {e}"));
    let raw = pki::https_client(&ca.pem());
    let mut request = DiscoverVariablesRequest::default();
    request.set_type_meta(
        "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "DiscoverVariablesRequest",
    );

    let declared = |variables: Vec<ClusterClassVariable>| {
        let v: Vec<Value> = variables
            .iter()
            .map(|v| {
                meaning(&json!({
                    "name": v.name,
                    "required": v.required,
                    "metadata": v.deprecated_v1_beta1_metadata,
                    "schema": v.schema,
                }))
            })
            .collect();
        Value::Array(v)
    };
    let handlers = [
        (
            "typed",
            declared(vec![Registry::definition(), IngressReplicas::definition()]),
        ),
        ("by-hand", declared(vec![hand_written()])),
    ];
    for (name, expected) in handlers {
        let path = gvh_to_path(&HookId::of::<DiscoverVariables>(), name);
        let url = format!("https://{}{path}", server.local_addr());
        let body = raw
            .post(&url)
            .json(&request)
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        for version in VERSIONS {
            let read = read_by(version, &body);
            assert_eq!(read["status"], "Success", "{version} read {read}");
            assert_eq!(
                variables_read(version, &read),
                expected,
                "what Cluster API {version} reads of handler {name}'s answer (left) is not \
                 what the handler answered (right)"
            );
        }
    }
}
