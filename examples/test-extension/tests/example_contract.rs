//! Contract fuzzing: schemathesis drives the running example extension with requests generated
//! from the workspace's OpenAPI document and checks the answers against it.
//!
//! Every check runs except `negative_data_rejection`, which expects a 4xx for a schema-invalid
//! body; the extension answers those 200 with a Failure response instead (Cluster API reads any
//! other status as "unreachable"), which this file asserts directly.
//!
//! schemathesis comes from `target/tools/venv`, where `cargo xtask test` installs it.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use capi_runtime::catalog::{HookId, gvh_to_path};
use capi_runtime_test_pki::{TestCa, https_client};
use capi_test_extension::HANDLERS;
use capi_test_extension::lifecycle::Script;
use serde_json::Value;

const GROUP: &str = "hooks.runtime.cluster.x-k8s.io";
const VERSION: &str = "v1alpha1";

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schemathesis() -> PathBuf {
    // Where `cargo xtask test` installed the validators (it sets CAPI_TOOLS_DIR), else the
    // default place.
    let tools = std::env::var_os("CAPI_TOOLS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/tools"));
    let path = tools.join("venv/bin/schemathesis");
    assert!(
        path.exists(),
        "schemathesis is not installed at {}; run `cargo xtask test`, which installs it",
        path.display()
    );
    path
}

/// Pins the `name` path parameter of every hook to the example's handler name, so every
/// request reaches a handler instead of a 404.
fn config() -> String {
    let mut toml = String::new();
    for (hook, name) in HANDLERS {
        toml.push_str(&format!(
            "[[operations]]\ninclude-operation-id = \"hooksRuntimeClusterV1alpha1{hook}\"\n\
             parameters = {{ \"path.name\" = \"{name}\" }}\n\n"
        ));
    }
    toml
}

#[cfg_attr(
    not(feature = "external-tests"),
    ignore = "needs the validators `cargo xtask test` installs (feature external-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_no_contract_violation() {
    let schemathesis = schemathesis();
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("contract-ca");
    ca.write_serving(dir.path());
    let script = Script::new(
        dir.path().join("responses.yaml"),
        dir.path().join("record.yaml"),
    );
    let running = capi_test_extension::server_builder(&script)
        .host("127.0.0.1".parse().unwrap())
        .port(0)
        .cert_dir(dir.path())
        .metrics_addr("127.0.0.1:0".parse().unwrap())
        .build()
        .unwrap()
        .start()
        .await
        .unwrap();
    let port = running.local_addr().port();
    let metrics_addr = running.metrics_addr().unwrap();
    let client = https_client(&ca.pem());
    let base = format!("https://localhost:{port}");

    // Schema-invalid bodies get 200 and a Failure of the hook's response type.
    for (hook, name) in HANDLERS {
        let path = gvh_to_path(&HookId::new(GROUP, VERSION, hook), name);
        let response = client
            .post(format!("{base}{path}"))
            .body(r#"{"settings": "not a map"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["status"], "Failure", "{path}: {body}");
        assert_eq!(body["kind"], format!("{hook}Response"), "{path}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with("error unmarshalling request"),
            "{path}: {body}"
        );
    }

    let config_file = dir.path().join("schemathesis.toml");
    std::fs::write(&config_file, config()).unwrap();
    let spec = workspace_root().join("golden/sdk/runtime-sdk-openapi.yaml");
    let work_dir = dir.path().to_path_buf();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(schemathesis)
            .current_dir(&work_dir)
            .arg("--config-file")
            .arg(&config_file)
            .arg("--no-color")
            .arg("run")
            .arg(&spec)
            .args(["--url", &format!("https://127.0.0.1:{port}")])
            .args(["--tls-verify", "false"])
            .args(["--checks", "all"])
            .args(["--exclude-checks", "negative_data_rejection"])
            .args(["--max-examples", "10"])
            .args(["--workers", "1"])
            .args(["--seed", "20260101"])
            .args(["--generation-database", "none"])
            .args(["--request-timeout", "30"])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "schemathesis failed ({}):\n{stdout}\n{stderr}",
        output.status
    );

    // Every hook path was exercised under the example's handler names.
    let metrics = capi_runtime_test_pki::plain_client()
        .get(format!("http://{metrics_addr}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for (hook, name) in HANDLERS {
        let prefix = format!(
            "capi_runtime_sdk_extension_request_duration_seconds_count{{hook=\"{hook}\",handler=\"{name}\"}} "
        );
        let count: u64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no requests counted for {hook}/{name}:\n{metrics}"))
            .parse()
            .unwrap();
        assert!(count > 1, "{hook}/{name} got {count} requests\n{stdout}");
    }
    let discovery = "capi_runtime_sdk_extension_requests_total{hook=\"Discovery\",handler=\"\",status=\"Success\"} ";
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with(discovery) && !l.ends_with(" 0")),
        "{metrics}"
    );
    tokio::time::timeout(Duration::from_secs(30), running.shutdown())
        .await
        .unwrap()
        .unwrap();
}
