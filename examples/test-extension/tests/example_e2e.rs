//! End to end: the example extension over TLS on loopback, driven by a plain HTTPS client as
//! Cluster API would drive it: Discovery, then a blocking hook that holds the Cluster back as
//! the scripted file says, then Success once the file changes.

mod started;

use std::time::Duration;

use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, DiscoveryResponse, ResponseStatus,
};
use capi_runtime_test_pki::{https_client, write_atomically};
use capi_test_extension::HANDLERS;

const BASE: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_then_blocking_hook_then_success() {
    let started = started::Started::new("e2e-ca", "BeforeClusterCreate-preloadedResponse: '{\"Status\": \"Success\", \"RetryAfterSeconds\": 5, \"Message\": \"hold on\"}'\n").await;
    let port = started.port();
    // `_dir` keeps the certificate and script files until the end of the test.
    let started::Started {
        dir: _dir,
        ca,
        responses,
        record,
        watcher,
        running,
    } = started;
    let base = format!("https://localhost:{}", port);
    let client = https_client(&ca.pem());

    // Discovery lists every handler under upstream's names, with Cluster API's defaults.
    let discovery: DiscoveryResponse = client
        .post(format!("{base}/{BASE}/discovery"))
        .json(&serde_json::json!({"apiVersion": BASE, "kind": "DiscoveryRequest"}))
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(discovery.status, ResponseStatus::Success);
    let mut listed: Vec<(String, String)> = discovery
        .handlers
        .iter()
        .map(|h| (h.request_hook.hook.clone(), h.name.clone()))
        .collect();
    listed.sort();
    let mut expected: Vec<(String, String)> = HANDLERS
        .iter()
        .map(|(hook, name)| (hook.to_string(), name.to_string()))
        .collect();
    expected.sort();
    assert_eq!(listed, expected);
    assert!(
        discovery
            .handlers
            .iter()
            .all(|h| h.timeout_seconds.is_none()
                && h.failure_policy.is_none()
                && h.request_hook.api_version == BASE)
    );

    // The blocking hook holds the Cluster back as scripted.
    let mut request = BeforeClusterCreateRequest {
        api_version: BASE.into(),
        kind: "BeforeClusterCreateRequest".into(),
        ..Default::default()
    };
    request.cluster.metadata.name = Some("c1".into());
    request.cluster.metadata.namespace = Some("default".into());
    let url = format!("{base}/{BASE}/beforeclustercreate/before-cluster-create?timeout=10s");
    let call = || async {
        client
            .post(&url)
            .json(&request)
            .send()
            .await
            .unwrap()
            .error_for_status()
            .unwrap()
            .json::<BeforeClusterCreateResponse>()
            .await
            .unwrap()
    };
    let blocked = call().await;
    assert_eq!(blocked.status, ResponseStatus::Success);
    assert_eq!(blocked.retry_after_seconds, 5);
    assert_eq!(blocked.message, "hold on");
    assert_eq!(blocked.kind, "BeforeClusterCreateResponse");
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(
        recorded.contains(
            "BeforeClusterCreate-actualResponseStatus: 'Status: Success, RetryAfterSeconds: 5'"
        ) || recorded.contains(
            "BeforeClusterCreate-actualResponseStatus: \"Status: Success, RetryAfterSeconds: 5\""
        ),
        "{recorded}"
    );

    // Unblock through the file, as an e2e test patches the ConfigMap upstream; the extension
    // picks the change up on its next poll.
    write_atomically(
        &responses,
        "BeforeClusterCreate-preloadedResponse:\n  status: Success\n",
    );
    let mut answer = call().await;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        if answer.retry_after_seconds == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        answer = call().await;
    }
    assert_eq!(answer.status, ResponseStatus::Success);
    assert_eq!(answer.retry_after_seconds, 0);
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(recorded.contains("RetryAfterSeconds: 0"), "{recorded}");

    running.shutdown().await.unwrap();
    watcher.abort();
    // After shutdown, nothing listens any more.
    assert!(client.post(&url).json(&request).send().await.is_err());
}
