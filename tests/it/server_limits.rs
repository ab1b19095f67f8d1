//! The extension server under slow, silent, oversized, concurrent and blocking peers: every
//! connection and request is bounded in time, every refusal reaches the caller as 200 +
//! Failure, and a handler that blocks its thread stalls nobody else. Outcomes are asserted,
//! not durations: each test is ordered by signals, and a server that failed to bound something
//! would make it hang until its outer timeout.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use capi_runtime::hooks::v1alpha1::{
    AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, GeneratePatchesRequest,
    GeneratePatchesResponse,
};
use capi_runtime::server::{
    Context, DEFAULT_OFFLOAD_DECODE_BYTES, HandlerOptions, Limits, MAX_REQUEST_BODY_BYTES, Metrics,
    RunningServer, Server, Timeouts,
};
use http::{Method, Request, StatusCode, header};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

use capi_runtime_test_pki::{TestCa, https_client, https_client_http1, plain_client};

const BCC_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/bcc";
const ACPI_PATH: &str =
    "/hooks.runtime.cluster.x-k8s.io/v1alpha1/aftercontrolplaneinitialized/acpi";

/// How long any single step may take before the test calls the server stuck.
const STUCK: Duration = Duration::from_secs(30);

fn ok_acpi(
    _: AfterControlPlaneInitializedRequest,
) -> std::future::Ready<AfterControlPlaneInitializedResponse> {
    std::future::ready(AfterControlPlaneInitializedResponse::success())
}

async fn send(router: &Router, path: &str, body: Body) -> Value {
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header("x-test", "yes")
        .body(body)
        .unwrap();
    let response = tokio::time::timeout(STUCK, router.clone().oneshot(request))
        .await
        .expect("the server answers")
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    serde_json::from_slice(&body).unwrap()
}

fn message(answer: &Value) -> &str {
    answer["message"].as_str().unwrap_or_default()
}

/// A body that sends `first` and then nothing more, ever; `sent` turns true once the first
/// chunk has been taken (and so charged to the byte budget).
fn stalled_body(first: Vec<u8>, sent: Arc<AtomicBool>) -> Body {
    let first = futures::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from(first))]);
    let then = futures::stream::poll_fn(move |_| {
        sent.store(true, Ordering::SeqCst);
        std::task::Poll::Pending
    });
    Body::from_stream(futures::StreamExt::chain(first, then))
}

async fn wait_for(flag: &AtomicBool) {
    tokio::time::timeout(STUCK, async {
        while !flag.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the signal came");
}

#[tokio::test]
async fn the_builder_chains_by_value() {
    // What a new user writes first.
    let server = Server::builder().port(0).build().unwrap();
    assert_eq!(server.addr().port(), 0);
}

#[tokio::test]
async fn a_stalled_body_is_answered_failure_when_its_deadline_passes() {
    let router = Server::builder()
        .limits(Limits::default().body_timeout(Duration::from_millis(200)))
        .handle("acpi", ok_acpi)
        .build()
        .unwrap()
        .router();
    let answer = send(
        &router,
        ACPI_PATH,
        stalled_body(b"{\"cluster\":".to_vec(), Arc::default()),
    )
    .await;
    assert_eq!(answer["status"], "Failure");
    assert!(
        message(&answer).contains("the body did not arrive within"),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_past_the_in_flight_limit_are_answered_busy() {
    let started = Arc::new(AtomicBool::new(false));
    let release = Arc::new(tokio::sync::Notify::new());
    let (s, r) = (started.clone(), release.clone());
    let router = Server::builder()
        .limits(
            Limits::default()
                .max_in_flight(1)
                .queue_timeout(Duration::from_millis(100)),
        )
        .handle("bcc", move |_: BeforeClusterCreateRequest| {
            let (s, r) = (s.clone(), r.clone());
            async move {
                s.store(true, Ordering::SeqCst);
                r.notified().await;
                Ok::<_, String>(BeforeClusterCreateResponse::success())
            }
        })
        .handle("acpi", ok_acpi)
        .build()
        .unwrap()
        .router();
    let first = {
        let router = router.clone();
        tokio::spawn(async move { send(&router, BCC_PATH, Body::from("{}")).await })
    };
    wait_for(&started).await;
    let second = send(&router, ACPI_PATH, Body::from("{}")).await;
    assert_eq!(second["status"], "Failure", "{second}");
    assert!(message(&second).starts_with("server busy"), "{second}");
    assert_eq!(second["kind"], "AfterControlPlaneInitializedResponse");
    release.notify_one();
    assert_eq!(first.await.unwrap()["status"], "Success");
    // The slot is free again.
    assert_eq!(
        send(&router, ACPI_PATH, Body::from("{}")).await["status"],
        "Success"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_past_the_byte_budget_are_answered_busy() {
    let sent = Arc::new(AtomicBool::new(false));
    let router = Server::builder()
        .limits(
            Limits::default()
                .max_body_bytes(1000)
                .max_buffered_bytes(1000)
                .queue_timeout(Duration::from_millis(100))
                .body_timeout(STUCK),
        )
        .handle("acpi", ok_acpi)
        .build()
        .unwrap()
        .router();
    let staller = {
        let (router, sent) = (router.clone(), sent.clone());
        tokio::spawn(
            async move { send(&router, ACPI_PATH, stalled_body(vec![b' '; 900], sent)).await },
        )
    };
    wait_for(&sent).await;
    let answer = send(
        &router,
        ACPI_PATH,
        Body::from(format!("{{}}{}", " ".repeat(200))),
    )
    .await;
    assert_eq!(answer["status"], "Failure", "{answer}");
    assert!(message(&answer).starts_with("server busy"), "{answer}");
    // A small request still fits beside the staller.
    assert_eq!(
        send(&router, ACPI_PATH, Body::from("{}")).await["status"],
        "Success"
    );
    staller.abort();
}

#[tokio::test]
async fn handlers_see_their_context_and_the_callers_timeout() {
    let router = Server::builder()
        .handle(
            HandlerOptions::new("bcc").timeout_seconds(10),
            |request: BeforeClusterCreateRequest, context: Context| async move {
                if request.cluster.metadata.name.as_deref() == Some("hang") {
                    std::future::pending::<()>().await;
                }
                let header = context.headers()["x-test"].to_str().unwrap().to_string();
                let mut response = BeforeClusterCreateResponse::success();
                response.message = format!(
                    "{} {header} {:?} {}",
                    context.handler_name(),
                    context.requested_timeout(),
                    context.remaining() <= Duration::from_secs(3)
                );
                Ok::<_, String>(response)
            },
        )
        .build()
        .unwrap()
        .router();
    let answer = send(&router, &format!("{BCC_PATH}?timeout=3s"), Body::from("{}")).await;
    assert_eq!(answer["status"], "Success", "{answer}");
    assert_eq!(message(&answer), "bcc yes Some(3s) true");
    // The caller's shorter timeout is the deadline.
    let hang = r#"{"cluster": {"metadata": {"name": "hang"}}}"#;
    let answer = send(
        &router,
        &format!("{BCC_PATH}?timeout=200ms"),
        Body::from(hang),
    )
    .await;
    assert_eq!(answer["status"], "Failure");
    assert_eq!(
        message(&answer),
        "handler \"bcc\" did not answer within 0.2s"
    );
}

async fn start_tls(
    builder: capi_runtime::server::ServerBuilder,
    dir: &std::path::Path,
) -> RunningServer {
    builder
        .host("127.0.0.1".parse().unwrap())
        .port(0)
        .cert_dir(dir)
        .health_addr("127.0.0.1:0".parse().unwrap())
        .build()
        .unwrap()
        .start()
        .await
        .unwrap()
}

/// Reads from `stream` until the server closes it (end of stream or an error); fails the
/// test if that takes longer than [`STUCK`].
async fn closed_by_server(stream: &mut TcpStream) {
    let mut buf = [0u8; 4096];
    tokio::time::timeout(STUCK, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .expect("the server closed the connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_silent_and_idle_connections_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("limits");
    ca.write_serving(dir.path());
    let timeouts = Timeouts::default()
        .tls_handshake(Duration::from_millis(300))
        .header_read(Duration::from_millis(300))
        .idle(Duration::from_millis(300));
    let running = start_tls(Server::builder().timeouts(timeouts), dir.path()).await;
    let health = running.health_addr().unwrap();

    // A peer that connects to the TLS port and says nothing.
    let mut silent = TcpStream::connect(running.local_addr()).await.unwrap();
    closed_by_server(&mut silent).await;

    // A peer that trickles its request head, one header line at a time, for longer than the
    // head deadline: the server hangs up before the head is complete.
    let mut slow = TcpStream::connect(health).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let trickle = async {
        for i in 0..300 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if slow
                .write_all(format!("X-{i}: y\r\n").as_bytes())
                .await
                .is_err()
            {
                return true;
            }
        }
        false
    };
    let hung_up = tokio::time::timeout(STUCK, trickle).await.unwrap();
    assert!(hung_up, "the server read a head trickled over 15 s");

    // A keep-alive connection that goes quiet after one answer. The head deadline runs from
    // the accept, so a test task stalled for longer than it between connecting and writing (a
    // loaded machine) finds the connection closed unanswered, rightly; that attempt shows
    // nothing and the test connects again (bounded by STUCK).
    let mut idle = tokio::time::timeout(STUCK, async {
        loop {
            let mut idle = TcpStream::connect(health).await.unwrap();
            if idle
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                .await
                .is_err()
            {
                continue;
            }
            let mut buf = [0u8; 256];
            match idle.read(&mut buf).await {
                Ok(n) if n > 0 => {
                    let head = String::from_utf8_lossy(&buf[..n]).into_owned();
                    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
                    return idle;
                }
                _ => continue,
            }
        }
    })
    .await
    .expect("a request written at once was answered");
    closed_by_server(&mut idle).await;

    // Normal requests are unaffected (again retried only for a connection the head deadline
    // closed before the client, stalled, had written its request).
    let client = plain_client();
    let status = tokio::time::timeout(STUCK, async {
        loop {
            match client.get(format!("http://{health}/healthz")).send().await {
                Ok(response) => return response.status(),
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    })
    .await
    .expect("a normal request was answered");
    assert_eq!(status, 200);
    running.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_cap_upload_receives_its_failure_over_http1_and_http2() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("cap");
    ca.write_serving(dir.path());
    let running = start_tls(Server::builder().handle("acpi", ok_acpi), dir.path()).await;
    let url = format!(
        "https://localhost:{}{ACPI_PATH}",
        running.local_addr().port()
    );
    let body = format!("{{\"x\":\"{}\"}}", "a".repeat(MAX_REQUEST_BODY_BYTES));
    for (version, client) in [
        ("HTTP/1.1", https_client_http1(&ca.pem())),
        ("HTTP/2", https_client(&ca.pem())),
    ] {
        let response = client.post(&url).body(body.clone()).send().await;
        let response = response.unwrap_or_else(|e| panic!("{version}: transport error {e:?}"));
        assert_eq!(response.status(), 200, "{version}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["status"], "Failure", "{version}");
        assert!(
            message(&answer).contains("larger than"),
            "{version}: {answer}"
        );
        // The same client goes on working.
        let answer: Value = client
            .post(&url)
            .body("{}")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(answer["status"], "Success", "{version}");
    }
    running.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocking_handlers_stall_nobody_and_time_out_on_time() {
    const BLOCKERS: usize = 4;
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("blocking");
    ca.write_serving(dir.path());
    let release = Arc::new(AtomicBool::new(false));
    let blocked = Arc::new(AtomicUsize::new(0));
    let (r, b) = (release.clone(), blocked.clone());
    let builder = Server::builder()
        .handle(
            // Declared blocking, as a handler that blocks its thread must be. 5 s, not 1: a
            // handler whose blocking-pool thread starts after the deadline is cancelled before
            // it runs, and this test needs every one of them to start.
            HandlerOptions::new("bcc").timeout_seconds(5).blocking(),
            move |_: BeforeClusterCreateRequest| {
                let (r, b) = (r.clone(), b.clone());
                async move {
                    b.fetch_add(1, Ordering::SeqCst);
                    // Blocks its thread, as a synchronous client would, until the test is done.
                    let until = std::time::Instant::now() + STUCK;
                    while !r.load(Ordering::SeqCst) && std::time::Instant::now() < until {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Ok::<_, String>(BeforeClusterCreateResponse::success())
                }
            },
        )
        .handle("acpi", ok_acpi);
    let running = start_tls(builder, dir.path()).await;
    let base = format!("https://localhost:{}", running.local_addr().port());
    let client = https_client(&ca.pem());
    let blockers: Vec<_> = (0..BLOCKERS)
        .map(|_| {
            let (client, url) = (client.clone(), format!("{base}{BCC_PATH}"));
            tokio::spawn(async move {
                let answer: Value = client
                    .post(url)
                    .body("{}")
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                answer
            })
        })
        .collect();
    tokio::time::timeout(STUCK, async {
        while blocked.load(Ordering::SeqCst) < BLOCKERS {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("every blocking handler started");
    // More handlers block threads than the runtime has workers, and still:
    let answer: Value = client
        .post(format!("{base}{ACPI_PATH}"))
        .body("{}")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["status"], "Success");
    for blocker in blockers {
        let answer = tokio::time::timeout(STUCK, blocker).await.unwrap().unwrap();
        assert_eq!(answer["status"], "Failure", "{answer}");
        assert_eq!(message(&answer), "handler \"bcc\" did not answer within 5s");
    }
    // Every answer above came while the handlers were still blocked.
    assert!(!release.load(Ordering::SeqCst));
    release.store(true, Ordering::SeqCst);
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn one_registry_serves_the_servers_metrics_and_the_callers() {
    let mut registry = prometheus_client::registry::Registry::default();
    let mine = prometheus_client::metrics::counter::Counter::<u64>::default();
    registry.register("my_own", "A metric of the embedding process", mine.clone());
    let metrics = Metrics::new();
    metrics.register(&mut registry);
    mine.inc();
    let server = Server::builder()
        .metrics(metrics)
        .metrics_registry(Arc::new(registry))
        .handle("acpi", ok_acpi)
        .build()
        .unwrap();
    let router = server.router();
    send(&router, ACPI_PATH, Body::from("{}")).await;
    let request = Request::builder()
        .uri("/metrics")
        .body(Body::empty())
        .unwrap();
    let response = server.metrics_router().oneshot(request).await.unwrap();
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/openmetrics-text; version=1.0.0; charset=utf-8"
    );
    let text = String::from_utf8(
        axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    assert!(text.contains("my_own_total 1"), "{text}");
    assert!(
        text.contains(
            "capi_runtime_sdk_extension_requests_total{hook=\"AfterControlPlaneInitialized\",handler=\"acpi\",status=\"Success\"} 1"
        ),
        "{text}"
    );
    assert_eq!(server.metrics_text(), text);
}

const GP_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/gp";

/// A GeneratePatches request of at least `bytes` bytes.
fn large_generate_patches(bytes: usize) -> Vec<u8> {
    let item = r#"{"uid":"u","holderReference":{"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachineDeployment","namespace":"default","name":"md","fieldPath":"spec.template.spec.infrastructureRef"},"object":{"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta2","kind":"DockerMachineTemplate","metadata":{"name":"t","labels":{"a":"b"}},"spec":{"template":{"spec":{"extraMounts":[]}}}},"variables":[{"name":"v","value":{"x":[1,2,3]}}]}"#;
    let count = bytes / item.len() + 1;
    format!("{{\"items\":[{}]}}", vec![item; count].join(",")).into_bytes()
}

#[test]
fn a_large_body_is_decoded_on_the_servers_own_threads_while_the_blocking_pool_is_full() {
    // One worker and one blocking-pool thread, which a handler declared blocking holds. A
    // large body is decoded on one of the server's decoding threads, not on that pool, so it
    // is answered while the handler still holds the pool; and the worker answers a small
    // request meanwhile. (That a body waiting for a decoding thread is answered at its
    // deadline is a unit test of the handler module: the threads are the server's own.)
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .max_blocking_threads(1)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let release = Arc::new(AtomicBool::new(false));
        let (entered_tx, mut entered) = tokio::sync::mpsc::unbounded_channel::<()>();
        let r = release.clone();
        let router = Server::builder()
            .handle(
                HandlerOptions::new("acpi").timeout_seconds(30).blocking(),
                move |_: AfterControlPlaneInitializedRequest| {
                    let (r, entered) = (r.clone(), entered_tx.clone());
                    async move {
                        entered.send(()).unwrap();
                        let until = std::time::Instant::now() + STUCK;
                        while !r.load(Ordering::SeqCst) && std::time::Instant::now() < until {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        AfterControlPlaneInitializedResponse::success()
                    }
                },
            )
            .handle("gp", |_: GeneratePatchesRequest| async {
                GeneratePatchesResponse::success()
            })
            .handle("bcc", |_: BeforeClusterCreateRequest| async {
                BeforeClusterCreateResponse::success()
            })
            .build()
            .unwrap()
            .router();
        let blocker = {
            let router = router.clone();
            tokio::spawn(async move { send(&router, ACPI_PATH, Body::from("{}")).await })
        };
        tokio::time::timeout(STUCK, entered.recv())
            .await
            .expect("the blocking handler started");
        let body = large_generate_patches(2 * DEFAULT_OFFLOAD_DECODE_BYTES);
        let large = {
            let router = router.clone();
            tokio::spawn(async move { send(&router, GP_PATH, Body::from(body)).await })
        };
        let small = send(&router, BCC_PATH, Body::from("{}")).await;
        assert_eq!(small["status"], "Success", "{small}");
        let answer = tokio::time::timeout(STUCK, large).await.unwrap().unwrap();
        assert_eq!(answer["status"], "Success", "{answer}");
        assert!(
            !blocker.is_finished(),
            "the blocking handler was let go before the large body was answered"
        );
        release.store(true, Ordering::SeqCst);
        let answer = tokio::time::timeout(STUCK, blocker).await.unwrap().unwrap();
        assert_eq!(answer["status"], "Success", "{answer}");
    });
}

#[tokio::test]
async fn a_body_still_decoding_at_its_deadline_is_answered_with_the_timeout() {
    // Decoded in place (no offloading), a body whose decoding cannot finish in 1 µs: the
    // decoder looks at the deadline as it goes and stops.
    let router = Server::builder()
        .limits(Limits::default().offload_decode_bytes(usize::MAX))
        .handle("gp", |_: GeneratePatchesRequest| async {
            GeneratePatchesResponse::success()
        })
        .build()
        .unwrap()
        .router();
    let body = large_generate_patches(4 << 20);
    let answer = send(
        &router,
        &format!("{GP_PATH}?timeout=1%C2%B5s"),
        Body::from(body),
    )
    .await;
    assert_eq!(answer["status"], "Failure", "{answer}");
    assert!(
        message(&answer)
            .starts_with("the request was not decoded within its timeout of 0.000001s: "),
        "{answer}"
    );
}
