//! Extensions that misbehave while `call_all_extensions` calls them, one at a time among
//! healthy ones, under each failure policy and in both call modes.
//!
//! Every case registers three ExtensionConfigs for BeforeClusterCreate, each with one handler
//! `h` and a 1 s timeout: `a-ok` and `c-ok` are healthy loopback HTTPS servers, `b-bad` is the
//! fault. In handler-name order the fault is called second. What the book promises
//! (`docs/book/src/client.md`, "Failure policies"; Cluster API's behaviour in
//! `reference/runtime.md` §3.11 and §3.13):
//!
//! - a *calling* error (refused connection, timeout, a status other than 200, a body that does
//!   not decode or is cut off) under `Fail` fails the whole call with
//!   `failed to call extension handlers for hook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io": failed to call extension handler "h.b-bad": http call failed: ...`,
//!   and in sequence the handlers after it are not called;
//! - the same error under `Ignore` is a `Success` with no message for that handler, so the call
//!   succeeds with the healthy handlers' answers aggregated (their messages joined, the lowest
//!   non-zero `retryAfterSeconds`);
//! - an answer with no known status is an error under both policies.
//!
//! Each call must also return within the handler's timeout plus a generous margin: the bound
//! checks that nothing hangs, not how fast it is. The measured times are printed for
//! `RELIABILITY.md` (run with `--nocapture`).

use crate::support::{extension, tls};

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use axum::body::Body;
use capi_runtime::api::runtime::v1beta2::FailurePolicy;
use capi_runtime::client::{CallAllOptions, CallError, Client, ExchangeError, ForObject};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, ResponseStatus,
};
use capi_runtime::server::{RunningServer, Server};
use extension::{Handler, config, handler, ready_client};
use serde_json::json;
use tls::{TestCa, TestServer, answer, raw};

const HOOK: &str = "BeforeClusterCreate";
const GROUP_HOOK: &str = "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io";
/// The timeout of every handler, in seconds.
const TIMEOUT: i32 = 1;
/// How long any one `call_all_extensions` may take: the 1 s timeout and a wide margin for a
/// busy machine.
const BOUND: Duration = Duration::from_secs(10);
/// What the healthy handlers' answers aggregate to.
const HEALTHY_MESSAGE: &str = "a ok, c ok";
const HEALTHY_RETRY: i32 = 3;

fn object() -> ForObject {
    ForObject::new("default", "c")
}

/// The path the faulty handler is called at, after its base URL.
fn bad_path() -> String {
    format!("/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/h?timeout={TIMEOUT}s")
}

/// The two healthy extensions, `a-ok` (retry 7) and `c-ok` (retry 3).
struct Healthy {
    ca: TestCa,
    a: TestServer,
    c: TestServer,
}

impl Healthy {
    async fn start() -> Healthy {
        let ca = TestCa::new("faults");
        let a = TestServer::with_ca(&ca, answer(|_| async { ok("a ok", 7) })).await;
        let c = TestServer::with_ca(&ca, answer(|_| async { ok("c ok", 3) })).await;
        Healthy { ca, a, c }
    }

    /// A client whose registry holds the healthy extensions and `b-bad` at `bad_url`, its
    /// handler with `policy`.
    fn client(&self, bad_url: &str, policy: FailurePolicy) -> Client {
        self.client_with_timeout(bad_url, policy, TIMEOUT)
    }

    /// Like [`Healthy::client`], with `b-bad`'s handler registered with `bad_timeout`.
    fn client_with_timeout(
        &self,
        bad_url: &str,
        policy: FailurePolicy,
        bad_timeout: i32,
    ) -> Client {
        let mut bad = handler("h", HOOK).timeout(bad_timeout);
        if policy == FailurePolicy::Ignore {
            bad = bad.ignore();
        }
        let healthy: [Handler; 1] = [handler("h", HOOK).timeout(TIMEOUT)];
        ready_client(&[
            config("a-ok", &self.a.url(), &self.ca.pem(), &healthy),
            config("b-bad", bad_url, &self.ca.pem(), &[bad]),
            config("c-ok", &self.c.url(), &self.ca.pem(), &healthy),
        ])
    }
}

/// A Success answer with `message` and `retry`.
fn ok(message: &str, retry: i32) -> axum::http::Response<Body> {
    tls::json(json!({"status": "Success", "message": message, "retryAfterSeconds": retry}))
}

/// How the faulty handler's error must look.
enum Expect {
    /// A calling error: `Fail` reports it, `Ignore` swallows it. The variant check, and what
    /// the whole error chain must start with after `http call failed: ` (the exact text when
    /// `exact`).
    Calling {
        variant: fn(&ExchangeError) -> bool,
        after: String,
        exact: bool,
    },
    /// An answer no failure policy covers: the variant check and the exact chain after the
    /// handler's part.
    Answer {
        variant: fn(&CallError) -> bool,
        after: String,
    },
}

/// The longest call per policy, for the report.
#[derive(Debug, Default)]
struct Took {
    fail: Duration,
    ignore: Duration,
}

/// Calls the hook with `b-bad` at `bad_url` under each policy and each call mode, checks each
/// outcome against `expect` and returns the longest call per policy.
async fn check_fault(fault: &str, healthy: &Healthy, bad_url: &str, expect: &Expect) -> Took {
    check_fault_with_timeout(fault, healthy, bad_url, TIMEOUT, expect).await
}

/// [`check_fault`] with `b-bad` registered with `bad_timeout` seconds.
async fn check_fault_with_timeout(
    fault: &str,
    healthy: &Healthy,
    bad_url: &str,
    bad_timeout: i32,
    expect: &Expect,
) -> Took {
    let mut took = Took::default();
    let url = format!(
        "{bad_url}/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/h?timeout={bad_timeout}s"
    );
    for policy in [FailurePolicy::Fail, FailurePolicy::Ignore] {
        let client = healthy.client_with_timeout(bad_url, policy, bad_timeout);
        for (mode, options) in [
            ("sequential", CallAllOptions::sequential()),
            ("concurrent", CallAllOptions::concurrent(3)),
        ] {
            // Each call names its own Cluster, so the requests of one call are told apart from
            // a late request of the call before (a concurrent call may reach `c-ok` after it
            // was cancelled).
            let marker = format!("{fault}, {policy:?}, {mode}");
            let mut request = BeforeClusterCreateRequest::default();
            request.cluster.metadata.name = Some(marker.clone());
            let started = Instant::now();
            let result = client
                .call_all_extensions_with(&request, &object(), options)
                .await;
            let elapsed = started.elapsed();
            eprintln!("fault {fault}: {policy:?}, {mode}: returned in {elapsed:?}");
            assert!(
                elapsed < BOUND,
                "{fault}, {policy:?}, {mode}: took {elapsed:?}"
            );
            let slot = match policy {
                FailurePolicy::Fail => &mut took.fail,
                _ => &mut took.ignore,
            };
            *slot = (*slot).max(elapsed);
            let ignored =
                matches!(expect, Expect::Calling { .. }) && policy == FailurePolicy::Ignore;
            let what = marker.clone();
            if ignored {
                let response = result.unwrap_or_else(|e| panic!("{what}: {}", chain(&e)));
                assert_healthy_aggregate(&response, &what);
                assert_eq!(calls_of(&healthy.c, &marker), 1, "{what}: c called");
                continue;
            }
            let err = result.expect_err(&what);
            let text = chain(&err).to_string();
            if mode == "sequential" {
                eprintln!("fault {fault}: {policy:?}: {text}");
            }
            let head = format!(
                "failed to call extension handlers for hook \"{GROUP_HOOK}\": failed to call extension handler \"h.b-bad\": "
            );
            let CallError::Handler { hook, source } = &err else {
                panic!("{what}: not a Handler error: {text}");
            };
            assert_eq!(hook.to_string(), GROUP_HOOK, "{what}");
            assert_eq!(err.handler(), Some("h.b-bad"), "{what}");
            match expect {
                Expect::Calling {
                    variant,
                    after,
                    exact,
                } => {
                    let CallError::Exchange { source: ex, .. } = &**source else {
                        panic!("{what}: not an exchange error: {text}");
                    };
                    assert!(variant(ex), "{what}: wrong variant: {ex:?}");
                    assert_eq!(ex.url(), Some(url.as_str()), "{what}");
                    let expected = format!("{head}http call failed: {after}");
                    if *exact {
                        assert_eq!(text, expected, "{what}");
                    } else {
                        assert!(text.starts_with(&expected), "{what}: {text}");
                    }
                }
                Expect::Answer { variant, after } => {
                    assert!(variant(source), "{what}: wrong variant: {source:?}");
                    assert_eq!(text, format!("{head}{after}"), "{what}");
                }
            }
            if mode == "sequential" {
                assert_eq!(
                    calls_of(&healthy.c, &marker),
                    0,
                    "{what}: c is not called after b failed"
                );
            }
        }
    }
    eprintln!("fault {fault}: longest call {took:?}");
    took
}

/// How many requests `server` received for the Cluster named `marker`.
fn calls_of(server: &TestServer, marker: &str) -> usize {
    server
        .received()
        .iter()
        .filter(|r| r.json()["cluster"]["metadata"]["name"] == marker)
        .count()
}

fn assert_healthy_aggregate(response: &BeforeClusterCreateResponse, what: &str) {
    assert_eq!(response.status, ResponseStatus::Success, "{what}");
    assert_eq!(response.message, HEALTHY_MESSAGE, "{what}");
    assert_eq!(response.retry_after_seconds, HEALTHY_RETRY, "{what}");
}

fn transport(e: &ExchangeError) -> bool {
    matches!(e, ExchangeError::Transport { .. })
}

fn timeout(e: &ExchangeError) -> bool {
    matches!(e, ExchangeError::Timeout { timeout, .. } if timeout.as_secs() == TIMEOUT as u64)
}

/// The error text of a call that ran out of time at `url`.
fn timed_out(url: &str) -> String {
    format!("Post \"{url}\": no complete response within {TIMEOUT}s")
}

#[tokio::test]
async fn a_refused_connection_fails_or_is_ignored() {
    let healthy = Healthy::start().await;
    // Bound but not listening: every connection is refused at once, and the port stays ours.
    let refused = tls::RefusedPort::new();
    let base = format!("https://127.0.0.1:{}", refused.port);
    let url = format!("{base}{}", bad_path());
    let took = check_fault(
        "refused connection",
        &healthy,
        &base,
        &Expect::Calling {
            variant: |e| transport(e) && e.is_connect(),
            after: format!("Post \"{url}\": "),
            exact: false,
        },
    )
    .await;
    // Nothing waits for a refused connection.
    assert!(took.fail < BOUND && took.ignore < BOUND);
}

/// Accepts TCP connections and holds them without reading or writing a byte, so the TLS
/// handshake never completes.
async fn silent_tcp() -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (addr, task)
}

#[tokio::test]
async fn a_listener_that_never_answers_times_out() {
    let healthy = Healthy::start().await;
    let (addr, task) = silent_tcp().await;
    let base = format!("https://{addr}");
    let url = format!("{base}{}", bad_path());
    check_fault(
        "accepts TCP, never answers",
        &healthy,
        &base,
        &Expect::Calling {
            variant: timeout,
            after: timed_out(&url),
            exact: true,
        },
    )
    .await;
    task.abort();
}

#[tokio::test]
async fn a_server_that_reads_the_request_and_never_answers_times_out() {
    let healthy = Healthy::start().await;
    // TLS completes and the request is read; the answer never comes.
    let silent = TestServer::with_ca(
        &healthy.ca,
        answer(|_| async {
            std::future::pending::<()>().await;
            unreachable!()
        }),
    )
    .await;
    let url = format!("{}{}", silent.url(), bad_path());
    check_fault(
        "TLS done, no HTTP answer",
        &healthy,
        &silent.url(),
        &Expect::Calling {
            variant: timeout,
            after: timed_out(&url),
            exact: true,
        },
    )
    .await;
}

#[tokio::test]
async fn an_answer_slower_than_the_timeout_times_out() {
    let healthy = Healthy::start().await;
    // Answers correctly, 30 s late: the client's 1 s deadline ends the call.
    let slow = TestServer::with_ca(
        &healthy.ca,
        answer(|_| async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            ok("b late", 1)
        }),
    )
    .await;
    let url = format!("{}{}", slow.url(), bad_path());
    check_fault(
        "answer 30 s late",
        &healthy,
        &slow.url(),
        &Expect::Calling {
            variant: timeout,
            after: timed_out(&url),
            exact: true,
        },
    )
    .await;

    // The head comes at once, the body stalls half-way: the deadline covers the body too.
    let stalls = TestServer::with_ca(
        &healthy.ca,
        answer(|_| async {
            let head =
                futures::stream::once(async { Ok::<_, std::io::Error>(&b"{\"status\":"[..]) });
            let rest = futures::stream::once(async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                Ok(&b"\"Success\"}"[..])
            });
            raw(
                200,
                Body::from_stream(futures::StreamExt::chain(head, rest)),
            )
        }),
    )
    .await;
    let url = format!("{}{}", stalls.url(), bad_path());
    check_fault(
        "body stalls half-way",
        &healthy,
        &stalls.url(),
        &Expect::Calling {
            variant: timeout,
            after: timed_out(&url),
            exact: true,
        },
    )
    .await;
}

#[tokio::test]
async fn garbage_answers_fail_or_are_ignored_as_the_book_says() {
    let healthy = Healthy::start().await;
    let ca = &healthy.ca;

    // Bodies with status 200 that are not a BeforeClusterCreateResponse.
    for (fault, body) in [
        ("200, not JSON", "<html>oops</html>"),
        (
            "200, a field of the wrong type",
            r#"{"status": "Success", "retryAfterSeconds": "soon"}"#,
        ),
        ("200, a JSON array", "[1, 2]"),
        ("200, empty body", ""),
    ] {
        let server = TestServer::with_ca(ca, answer(move |_| async move { raw(200, body) })).await;
        let url = format!("{}{}", server.url(), bad_path());
        check_fault(
            fault,
            &healthy,
            &server.url(),
            &Expect::Calling {
                variant: |e| matches!(e, ExchangeError::Decode { .. }),
                after: format!("failed to decode response from \"{url}\": "),
                exact: false,
            },
        )
        .await;
    }

    // HTTP 500 with a body: a calling error whose text quotes the body.
    let server = TestServer::with_ca(ca, answer(|_| async { raw(500, "boom") })).await;
    check_fault(
        "HTTP 500",
        &healthy,
        &server.url(),
        &Expect::Calling {
            variant: |e| matches!(e, ExchangeError::HttpStatus { code: 500, .. }),
            after: "got response with status code 500 != 200: response : \"boom\"".to_string(),
            exact: true,
        },
    )
    .await;

    // A 200 whose body is cut off: the head promises 100 bytes, 16 come, and the connection
    // closes (over HTTP/1.1, so the head is read before the end of the stream is).
    let base = truncating_server(ca);
    let url = format!("{base}{}", bad_path());
    check_fault(
        "200, truncated body",
        &healthy,
        &base,
        &Expect::Calling {
            variant: |e| matches!(e, ExchangeError::Body { .. }),
            after: format!("failed to read response body from \"{url}\": "),
            exact: false,
        },
    )
    .await;

    // Valid JSON of the wrong shape: unknown fields are ignored (as Go's decoder does), so it
    // decodes to a response with no status, which is an answer no policy covers.
    let server = TestServer::with_ca(
        ca,
        answer(|_| async { tls::json(json!({"kind": "Pod", "message": "not a hook"})) }),
    )
    .await;
    check_fault(
        "200, JSON without a status",
        &healthy,
        &server.url(),
        &Expect::Answer {
            variant: |e| matches!(e, CallError::UnknownStatus { status, .. } if status.is_empty()),
            after: "got unknown response status \"\" with message: not a hook".to_string(),
        },
    )
    .await;
}

/// An HTTPS server, HTTP/1.1 only, that reads each request and answers a 200 whose head says
/// `Content-Length: 100` with only 16 bytes of body, then closes the connection. Runs on a
/// thread of its own for the rest of the process; returns its base URL.
fn truncating_server(ca: &TestCa) -> String {
    let mut config = (*tls::server_config(&ca.serving(&["127.0.0.1"]), None)).clone();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let config = std::sync::Arc::new(config);
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let base = format!("https://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for tcp in listener.incoming() {
            let Ok(tcp) = tcp else { continue };
            let connection = rustls::ServerConnection::new(config.clone()).unwrap();
            let mut stream = rustls::StreamOwned::new(connection, tcp);
            // Each connection serves one request; errors only end that connection.
            let _ = answer_truncated(&mut stream);
        }
    });
    base
}

/// Reads one request (head and `Content-Length` body) and writes the truncated answer.
fn answer_truncated<T: std::io::Read + std::io::Write>(
    stream: &mut rustls::StreamOwned<rustls::ServerConnection, T>,
) -> std::io::Result<()> {
    use std::io::{Read, Write};
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        seen.extend_from_slice(&buf[..n]);
        if let Some(i) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&seen[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map_or(0, |v| v.trim().parse().unwrap_or(0));
    while seen.len() < head_end + length {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        seen.extend_from_slice(&buf[..n]);
    }
    stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{\"status\": \"Succ")?;
    // A clean end of the TLS stream, so what the client sees is a body cut short.
    stream.conn.send_close_notify();
    stream.flush()
}

/// Starts the kit's server with one BeforeClusterCreate handler `h` answering "b ok" (retry
/// 5) on `port`, serving the certificate in `dir`.
async fn kit_extension(dir: &std::path::Path, port: u16) -> RunningServer {
    Server::builder()
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(port)
        .cert_dir(dir)
        .shutdown_grace(Duration::from_secs(1))
        .handle("h", |_: BeforeClusterCreateRequest| async {
            let mut response = BeforeClusterCreateResponse::success();
            response.message = "b ok".into();
            response.retry_after_seconds = 5;
            response
        })
        .build()
        .unwrap()
        .start()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kit_handler_past_its_own_timeout_answers_failure() {
    let healthy = Healthy::start().await;
    let dir = healthy.ca.cert_dir();
    // The kit stops a handler at its own `timeoutSeconds` (1 s) and answers Failure. The
    // ExtensionConfig gives the caller 10 s here, so the kit's answer always comes first.
    let running = Server::builder()
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(dir.path())
        .handle(
            capi_runtime::server::HandlerOptions::new("h").timeout_seconds(TIMEOUT),
            |_: BeforeClusterCreateRequest| async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                BeforeClusterCreateResponse::success()
            },
        )
        .build()
        .unwrap()
        .start()
        .await
        .unwrap();
    let base = format!("https://127.0.0.1:{}", running.local_addr().port());
    let took = check_fault_with_timeout(
        "kit handler past its own 1 s timeout",
        &healthy,
        &base,
        10,
        &Expect::Answer {
            variant: |e| matches!(e, CallError::Failure { .. }),
            after: "got failure response with message: handler \"h\" did not answer within 1s"
                .to_string(),
        },
    )
    .await;
    // The kit answered at its 1 s, long before the caller's 10 s.
    assert!(took.fail < BOUND && took.ignore < BOUND, "{took:?}");
    running.shutdown().await.unwrap();
}

/// A loopback port kept ours for the whole test: a socket bound with `SO_REUSEADDR` that never
/// listens. The kit's listener (bound with `SO_REUSEADDR` too, as the standard library does)
/// can share it, and while no server listens connections to it are refused.
struct ReservedPort {
    _socket: tokio::net::TcpSocket,
    port: u16,
}

impl ReservedPort {
    fn new() -> ReservedPort {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_reuseaddr(true).unwrap();
        socket.bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
        let port = socket.local_addr().unwrap().port();
        ReservedPort {
            _socket: socket,
            port,
        }
    }
}

async fn call_all(client: &Client) -> Result<BeforeClusterCreateResponse, CallError> {
    client
        .call_all_extensions(&BeforeClusterCreateRequest::default(), &object())
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_extension_restarted_on_the_same_port_answers_the_next_call() {
    let healthy = Healthy::start().await;
    let dir = healthy.ca.cert_dir();
    let reserved = ReservedPort::new();
    let port = reserved.port;
    let base = format!("https://127.0.0.1:{port}");
    let url = format!("{base}{}", bad_path());
    let all = "a ok, b ok, c ok";

    for policy in [FailurePolicy::Fail, FailurePolicy::Ignore] {
        let client = healthy.client(&base, policy);
        let running = kit_extension(dir.path(), port).await;
        let up = call_all(&client).await.unwrap();
        assert_eq!((up.message.as_str(), up.retry_after_seconds), (all, 3));

        // Stopped: the call made meanwhile is a calling error (refused, or the pooled
        // connection the server closed), reported or ignored.
        running.shutdown().await.unwrap();
        let started = Instant::now();
        let down = call_all(&client).await;
        let down_took = started.elapsed();
        assert!(
            down_took < BOUND,
            "{policy:?}: down call took {down_took:?}"
        );
        match policy {
            FailurePolicy::Fail => {
                let err = down.expect_err("Fail reports the stopped extension");
                eprintln!("fault restart: while stopped: {}", chain(&err));
                assert!(
                    matches!(
                        err.root(),
                        CallError::Exchange {
                            source: ExchangeError::Transport { .. },
                            ..
                        }
                    ),
                    "{err:?}"
                );
                assert!(
                    chain(&err).to_string().starts_with(&format!(
                        "failed to call extension handlers for hook \"{GROUP_HOOK}\": failed to call extension handler \"h.b-bad\": http call failed: Post \"{url}\": "
                    )),
                    "{}",
                    chain(&err)
                );
            }
            _ => assert_healthy_aggregate(&down.unwrap(), "Ignore, extension stopped"),
        }

        // Started again on the same port: the very next call reaches it.
        let restarted_at = Instant::now();
        let running = kit_extension(dir.path(), port).await;
        let started = Instant::now();
        let again = call_all(&client)
            .await
            .unwrap_or_else(|e| panic!("{policy:?}: first call after the restart: {}", chain(&e)));
        let call_took = started.elapsed();
        let recovery = restarted_at.elapsed();
        assert_eq!(
            (again.message.as_str(), again.retry_after_seconds),
            (all, 3)
        );
        assert!(call_took < BOUND, "{policy:?}: {call_took:?}");
        eprintln!(
            "fault restart: {policy:?}: call while stopped {down_took:?}; restart to first \
             answer {recovery:?} (the call itself {call_took:?})"
        );
        running.shutdown().await.unwrap();
    }
}
