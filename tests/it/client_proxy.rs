//! The runtime client's proxy choice, over real connections: a proxy set with
//! `ClientBuilder::proxy` is never used for a loopback extension or `localhost` (as Go's
//! `ProxyFromEnvironment`), and is asked to `CONNECT` to any other host, through which the
//! call then goes. The settings are given to the builder, never put in the environment.

use crate::support::{extension, tls};

use std::sync::{Arc, Mutex};

use capi_runtime::client::{Client, ForObject, ProxyConfig};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreate;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest;
use extension::{call_hook, config, handler, ready_builder};
use serde_json::json;
use tls::{TestCa, TestServer, answer, server_config};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const HOOK: &str = "BeforeClusterCreate";

/// A proxy on loopback that records the head of every request it gets and tunnels a
/// `CONNECT` to `upstream` (whatever host the request names).
struct FakeProxy {
    url: String,
    heads: Arc<Mutex<Vec<String>>>,
}

impl FakeProxy {
    async fn start(upstream: std::net::SocketAddr) -> FakeProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let heads = Arc::new(Mutex::new(Vec::new()));
        let seen = heads.clone();
        tokio::spawn(async move {
            while let Ok((conn, _)) = listener.accept().await {
                tokio::spawn(tunnel(conn, upstream, seen.clone()));
            }
        });
        FakeProxy { url, heads }
    }

    fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }
}

async fn tunnel(
    mut conn: TcpStream,
    upstream: std::net::SocketAddr,
    heads: Arc<Mutex<Vec<String>>>,
) {
    let mut head = Vec::new();
    let mut byte = [0; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match conn.read(&mut byte).await {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let connect = head.starts_with("CONNECT ");
    heads.lock().unwrap().push(head);
    if !connect {
        return;
    }
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    if conn
        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
        .await
        .is_ok()
    {
        let _ = tokio::io::copy_bidirectional(&mut conn, &mut server).await;
    }
}

fn client(url: &str, ca_pem: &str, proxy: ProxyConfig) -> Client {
    ready_builder(&[config("ext", url, ca_pem, &[handler("h", HOOK)])])
        .proxy(proxy)
        .build()
        .unwrap()
}

async fn call(client: &Client) {
    call_hook::<BeforeClusterCreate>(client, "h.ext")
        .await
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
}

async fn server(ca: &TestCa) -> TestServer {
    TestServer::start(
        server_config(
            &ca.serving(&["127.0.0.1", "localhost", "extension.test"]),
            None,
        ),
        answer(|_| async { tls::json(json!({"status": "Success"})) }),
    )
    .await
}

#[tokio::test]
async fn loopback_and_localhost_extensions_are_called_directly() {
    let ca = TestCa::new("ca");
    let server = server(&ca).await;
    let proxy = FakeProxy::start(server.addr).await;
    let config = ProxyConfig {
        https_proxy: proxy.url.clone(),
        http_proxy: proxy.url.clone(),
        ..ProxyConfig::default()
    };
    let port = server.addr.port();
    for url in [server.url(), format!("https://localhost:{port}")] {
        call(&client(&url, &ca.pem(), config.clone())).await;
    }
    assert_eq!(
        server.received().len(),
        2,
        "every call reached the extension"
    );
    assert_eq!(proxy.heads(), Vec::<String>::new(), "the proxy saw nothing");
}

#[tokio::test]
async fn another_host_is_reached_through_the_proxy_unless_no_proxy_covers_it() {
    let ca = TestCa::new("ca");
    let server = server(&ca).await;
    let proxy = FakeProxy::start(server.addr).await;
    let port = server.addr.port();
    let url = format!("https://extension.test:{port}");
    let config = ProxyConfig {
        https_proxy: proxy.url.trim_start_matches("http://").to_string(),
        no_proxy: "example.com,10.0.0.0/8".into(),
        ..ProxyConfig::default()
    };
    call(&client(&url, &ca.pem(), config)).await;
    let heads = proxy.heads();
    assert_eq!(heads.len(), 1, "{heads:?}");
    assert!(
        heads[0].starts_with(&format!("CONNECT extension.test:{port} HTTP/1.1\r\n")),
        "{heads:?}"
    );
    assert_eq!(
        server.received().len(),
        1,
        "the call went through the tunnel"
    );

    // Covered by NO_PROXY, the same host is not sent to the proxy (and, as it does not
    // resolve, the call fails without the proxy seeing it).
    let covered = ProxyConfig {
        https_proxy: proxy.url.clone(),
        no_proxy: " .TEST ".into(),
        ..ProxyConfig::default()
    };
    let registry_client = client(&url, &ca.pem(), covered);
    let failed = registry_client
        .call_extension(
            "h.ext",
            &BeforeClusterCreateRequest::default(),
            &ForObject::new("default", "c"),
        )
        .await;
    assert!(failed.is_err());
    assert_eq!(proxy.heads().len(), 1, "the proxy saw no second request");
}
