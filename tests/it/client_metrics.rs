//! The client's Prometheus metrics, read through the text exposition.

use crate::support::{extension, tls};
use capi_runtime::client::{ForObject, Metrics};
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;

use extension::{config, handler, ready_client_with};
use prometheus_client::encoding::text::encode;
use prometheus_client::registry::Registry as PromRegistry;
use serde_json::json;
use tls::{TestCa, TestServer, answer, raw};

const HOOK: &str = "BeforeClusterCreate";

#[tokio::test]
async fn calls_are_counted_and_timed_with_upstream_names_and_labels() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(
        &ca,
        answer(|r| async move {
            if r.path.ends_with("/ok") {
                tls::json(json!({"status": "Success"}))
            } else if r.path.ends_with("/failure") {
                tls::json(json!({"status": "Failure"}))
            } else if r.path.ends_with("/odd") {
                tls::json(json!({"status": "Odd"}))
            } else {
                raw(500, "boom")
            }
        }),
    )
    .await;
    // A port that stays bound (so no other test can take it) and refuses connections.
    let refused = tls::RefusedPort::new();
    let port = refused.port;
    let metrics = Metrics::new();
    let mut prom = PromRegistry::default();
    metrics.register(&mut prom);
    let client = ready_client_with(
        &[
            config(
                "ext",
                &server.url(),
                &ca.pem(),
                &[
                    handler("ok", HOOK),
                    handler("failure", HOOK),
                    handler("odd", HOOK),
                    handler("broken", HOOK).ignore(),
                ],
            ),
            config(
                "gone",
                &format!("https://127.0.0.1:{port}"),
                &ca.pem(),
                &[handler("h", HOOK).ignore()],
            ),
        ],
        metrics,
    );
    let object = ForObject::new("default", "c");
    for name in [
        "ok.ext",
        "ok.ext",
        "failure.ext",
        "odd.ext",
        "broken.ext",
        "h.gone",
    ] {
        let _ = client
            .call_extension(name, &BeforeClusterCreateRequest::default(), &object)
            .await;
    }

    let mut text = String::new();
    encode(&mut text, &prom).unwrap();
    let host = server.addr.to_string();
    let labels = |code: &str, host: &str, status: &str| {
        format!(
            "capi_runtime_sdk_requests_total{{code=\"{code}\",host=\"{host}\",group=\"hooks.runtime.cluster.x-k8s.io\",version=\"v1alpha1\",hook=\"BeforeClusterCreate\",status=\"{status}\"}}"
        )
    };
    for (line, count) in [
        (labels("200", &host, "Success"), 2),
        (labels("200", &host, "Failure"), 1),
        (labels("200", &host, "Unknown"), 1),
        (labels("500", &host, "Unknown"), 1),
        (
            labels("<error>", &format!("127.0.0.1:{port}"), "Unknown"),
            1,
        ),
    ] {
        let line = format!("{line} {count}");
        assert!(
            text.lines().any(|l| l == line),
            "missing `{line}` in\n{text}"
        );
    }
    assert!(text.contains("# HELP capi_runtime_sdk_requests Number of HTTP requests, partitioned by status code, host, hook and response status."), "{text}");
    assert!(
        text.contains("# TYPE capi_runtime_sdk_request_duration_seconds histogram"),
        "{text}"
    );
    let bucket = format!(
        "capi_runtime_sdk_request_duration_seconds_bucket{{le=\"60.0\",host=\"{host}\",group=\"hooks.runtime.cluster.x-k8s.io\",version=\"v1alpha1\",hook=\"BeforeClusterCreate\"}} 5"
    );
    assert!(
        text.lines().any(|l| l == bucket),
        "missing `{bucket}` in\n{text}"
    );
    let les: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.starts_with("capi_runtime_sdk_request_duration_seconds_bucket") && l.contains(&host)
        })
        .map(|l| l.split("le=\"").nth(1).unwrap().split('"').next().unwrap())
        .collect();
    assert_eq!(
        les,
        [
            "0.005", "0.025", "0.05", "0.1", "0.2", "0.4", "0.6", "0.8", "1.0", "1.25", "1.5",
            "2.0", "3.0", "4.0", "5.0", "6.0", "8.0", "10.0", "15.0", "20.0", "30.0", "45.0",
            "60.0", "+Inf"
        ]
    );
}
