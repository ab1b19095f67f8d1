//! The extension server's HTTPS listener: certificates reloaded without a restart, client
//! certificates when a client CA is set, the plain-HTTP health listener, graceful shutdown.

use std::time::Duration;

use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterDelete, BeforeClusterDeleteRequest, BeforeClusterDeleteResponse,
};
use capi_runtime::server::{RunningServer, Server, ServerError};
use capi_runtime_test_pki::{
    TestCa, https_client, https_client_with_identity, plain_client, write_atomically,
};

const DISCOVERY: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery";

async fn start(dir: &std::path::Path, client_ca: bool) -> Result<RunningServer, ServerError> {
    let mut builder = Server::builder()
        .host("127.0.0.1".parse().unwrap())
        .port(0)
        .cert_dir(dir)
        .tls_reload_interval(Duration::from_millis(50))
        .health_addr("127.0.0.1:0".parse().unwrap())
        .handle(
            BeforeClusterDelete,
            "bcd",
            |_: BeforeClusterDeleteRequest| async {
                Ok::<_, String>(BeforeClusterDeleteResponse::success())
            },
        )?;
    if client_ca {
        builder = builder.client_ca_name("ca.crt");
    }
    builder.build().start().await
}

async fn discovery_ok(client: &reqwest::Client, running: &RunningServer) -> bool {
    let url = format!(
        "https://localhost:{}{DISCOVERY}",
        running.local_addr().port()
    );
    match client.post(url).body("{}").send().await {
        Ok(response) => response.status() == 200,
        Err(_) => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rotated_certificate_is_served_without_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = TestCa::new("first");
    first.write_serving(dir.path());
    let running = start(dir.path(), false).await.unwrap();
    let trusts_first = https_client(&first.pem());
    assert!(discovery_ok(&trusts_first, &running).await);

    let second = TestCa::new("second");
    second.write_serving(dir.path());
    let trusts_second = https_client(&second.pem());
    // The server polls the files; wait (bounded) until new connections get the new certificate.
    let mut rotated = false;
    for _ in 0..200 {
        if discovery_ok(&trusts_second, &running).await {
            rotated = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(rotated, "the rotated certificate was never served");
    assert!(!discovery_ok(&trusts_first, &running).await);

    // A broken write keeps the current certificate.
    write_atomically(&dir.path().join("tls.crt"), "not a certificate");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(discovery_ok(&trusts_second, &running).await);
    running.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_ca_requires_client_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("serving");
    ca.write_serving(dir.path());
    let clients = TestCa::new("clients");
    std::fs::write(dir.path().join("ca.crt"), clients.pem()).unwrap();
    let running = start(dir.path(), true).await.unwrap();
    assert!(!discovery_ok(&https_client(&ca.pem()), &running).await);
    let stranger = TestCa::new("stranger").client();
    assert!(!discovery_ok(&https_client_with_identity(&ca.pem(), &stranger), &running).await);
    let known = clients.client();
    assert!(discovery_ok(&https_client_with_identity(&ca.pem(), &known), &running).await);
    running.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_listener_and_graceful_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("serving");
    ca.write_serving(dir.path());
    let running = start(dir.path(), false).await.unwrap();
    let health = running.health_addr().unwrap();
    let plain = plain_client();
    let body = plain
        .get(format!("http://{health}/healthz"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(body, "ok");
    let client = https_client(&ca.pem());
    let hook = format!(
        "https://localhost:{}/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterdelete/bcd",
        running.local_addr().port()
    );
    let answer: serde_json::Value = client
        .post(&hook)
        .body("{}")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["status"], "Success");
    let metrics = plain
        .get(format!("http://{health}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains(
        r#"capi_runtime_sdk_extension_requests_total{hook="BeforeClusterDelete",handler="bcd",status="Success"} 1"#
    ), "{metrics}");

    running.shutdown().await.unwrap();
    assert!(client.post(&hook).body("{}").send().await.is_err());
    assert!(
        plain
            .get(format!("http://{health}/healthz"))
            .send()
            .await
            .is_err()
    );
}

#[tokio::test]
async fn unreadable_certificate_fails_start() {
    let dir = tempfile::tempdir().unwrap();
    let error = start(dir.path(), false).await.unwrap_err();
    assert!(
        chain(&error).to_string().starts_with("failed to read "),
        "{error}"
    );
    std::fs::write(dir.path().join("tls.crt"), "garbage").unwrap();
    std::fs::write(dir.path().join("tls.key"), "garbage").unwrap();
    let error = start(dir.path(), false).await.unwrap_err();
    assert!(
        chain(&error).to_string().starts_with("failed to parse "),
        "{error}"
    );
}
