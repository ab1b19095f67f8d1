//! The extension server's listeners: certificates reloaded without a restart, client
//! certificates when a client CA is set, the plain-HTTP health and metrics listeners (and the
//! hook port serving neither), graceful shutdown.

use std::net::SocketAddr;
use std::time::Duration;

use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{BeforeClusterDeleteRequest, BeforeClusterDeleteResponse};
use capi_runtime::server::{RunningServer, Server, ServerError};
use capi_runtime_test_pki::{
    TestCa, https_client, https_client_with_identity, plain_client, write_atomically,
};

const DISCOVERY: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery";

/// Starts a server with TLS from `dir`, a health listener and a metrics listener.
async fn start(dir: &std::path::Path, client_ca: bool) -> Result<RunningServer, ServerError> {
    start_with(dir, client_ca, Some("127.0.0.1:0".parse().unwrap())).await
}

/// Like [`start`], with the metrics listener at `metrics` (none when `None`).
async fn start_with(
    dir: &std::path::Path,
    client_ca: bool,
    metrics: Option<SocketAddr>,
) -> Result<RunningServer, ServerError> {
    let mut builder = Server::builder()
        .host("127.0.0.1".parse().unwrap())
        .port(0)
        .cert_dir(dir)
        .tls_reload_interval(Duration::from_millis(50))
        .health_addr("127.0.0.1:0".parse().unwrap())
        .handle("bcd", |_: BeforeClusterDeleteRequest| async {
            Ok::<_, String>(BeforeClusterDeleteResponse::success())
        });
    if client_ca {
        builder = builder.client_ca_name("ca.crt");
    }
    if let Some(addr) = metrics {
        builder = builder.metrics_addr(addr);
    }
    builder.build().unwrap().start().await
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

/// The status and body of a GET of `url`.
async fn get(client: &reqwest::Client, url: &str) -> (u16, String) {
    let response = client.get(url).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_metrics_listeners_and_graceful_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("serving");
    ca.write_serving(dir.path());
    let running = start(dir.path(), false).await.unwrap();
    let health = running.health_addr().unwrap();
    let metrics = running.metrics_addr().unwrap();
    assert_ne!(metrics.port(), 0);
    assert_ne!(health, metrics);
    let plain = plain_client();
    for path in ["/healthz", "/readyz"] {
        assert_eq!(
            get(&plain, &format!("http://{health}{path}")).await,
            (200, "ok".to_string())
        );
        assert_eq!(get(&plain, &format!("http://{metrics}{path}")).await.0, 404);
    }
    assert_eq!(
        get(&plain, &format!("http://{health}/metrics")).await.0,
        404
    );

    let client = https_client(&ca.pem());
    let port = running.local_addr().port();
    let hook = format!(
        "https://localhost:{port}/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterdelete/bcd"
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
    // The hook port serves hooks and Discovery only.
    for path in ["/healthz", "/readyz", "/metrics"] {
        let (status, body) = get(&client, &format!("https://localhost:{port}{path}")).await;
        assert_eq!(status, 404, "{path}: {body}");
    }

    let (status, text) = get(&plain, &format!("http://{metrics}/metrics")).await;
    assert_eq!(status, 200);
    assert!(text.contains(
        r#"capi_runtime_sdk_extension_requests_total{hook="BeforeClusterDelete",handler="bcd",status="Success"} 1"#
    ), "{text}");
    assert!(text.ends_with("# EOF\n"), "{text}");

    running.shutdown().await.unwrap();
    assert!(client.post(&hook).body("{}").send().await.is_err());
    for url in [
        format!("http://{health}/healthz"),
        format!("http://{metrics}/metrics"),
    ] {
        assert!(plain.get(&url).send().await.is_err(), "{url} still answers");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_served_nowhere_without_a_metrics_address() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("serving");
    ca.write_serving(dir.path());
    let running = start_with(dir.path(), false, None).await.unwrap();
    assert_eq!(running.metrics_addr(), None);
    let health = running.health_addr().unwrap();
    let plain = plain_client();
    assert_eq!(
        get(&plain, &format!("http://{health}/metrics")).await.0,
        404
    );
    assert_eq!(get(&plain, &format!("http://{health}/readyz")).await.0, 200);
    let port = running.local_addr().port();
    let client = https_client(&ca.pem());
    assert_eq!(
        get(&client, &format!("https://localhost:{port}/metrics"))
            .await
            .0,
        404
    );
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_taken_metrics_port_fails_start() {
    let dir = tempfile::tempdir().unwrap();
    TestCa::new("serving").write_serving(dir.path());
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let error = start_with(dir.path(), false, Some(addr)).await.unwrap_err();
    assert!(
        matches!(&error, ServerError::Bind { addr: a, .. } if *a == addr),
        "{error:?}"
    );
    assert!(
        chain(&error)
            .to_string()
            .starts_with(&format!("failed to listen on {addr}")),
        "{error}"
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
