//! TLS of the runtime client: the HTTP-client cache per (host, CA bundle) and client
//! certificates that are reloaded when their files change.

use crate::support::{extension, tls};

use std::path::Path;

use capi_runtime::client::{BuildError, CallError, Client};
use capi_runtime::go::errors::chain;
use capi_runtime::hooks::v1alpha1::BeforeClusterCreate;
use capi_runtime::registry::Registry;
use extension::{call_hook, config, handler, ready_client};
use serde_json::json;
use tls::{Leaf, TestCa, TestServer, answer, server_config};

const HOOK: &str = "BeforeClusterCreate";

async fn call(client: &Client, name: &str) -> Result<(), CallError> {
    call_hook::<BeforeClusterCreate>(client, name)
        .await
        .map(drop)
}

fn success() -> tls::Answer {
    answer(|_| async { tls::json(json!({"status": "Success"})) })
}

#[tokio::test]
async fn one_http_client_per_host_and_ca_bundle() {
    let ca = TestCa::new("ca");
    let server = TestServer::with_ca(&ca, success()).await;
    let localhost = format!("https://localhost:{}", server.addr.port());
    let client = ready_client(&[
        config("ext1", &server.url(), &ca.pem(), &[handler("h", HOOK)]),
        config("ext2", &server.url(), &ca.pem(), &[handler("h", HOOK)]),
        config("ext3", &localhost, &ca.pem(), &[handler("h", HOOK)]),
    ]);
    assert_eq!(client.cached_http_clients(), 0);
    call(&client, "h.ext1").await.unwrap();
    call(&client, "h.ext2").await.unwrap();
    assert_eq!(
        client.cached_http_clients(),
        1,
        "same host and CA share a client"
    );
    call(&client, "h.ext3").await.unwrap();
    assert_eq!(
        client.cached_http_clients(),
        2,
        "another host gets its own client"
    );

    // A new CA bundle for the same host is another client; the one no registration uses
    // any more is dropped when the registry changes.
    let rotated = TestCa::new("rotated");
    let server2 = TestServer::with_ca(&rotated, success()).await;
    client
        .register(&config(
            "ext1",
            &server2.url(),
            &rotated.pem(),
            &[handler("h", HOOK)],
        ))
        .unwrap();
    call(&client, "h.ext1").await.unwrap();
    assert_eq!(client.cached_http_clients(), 3);
    client.unregister(&config("ext3", "", "", &[])).unwrap();
    assert_eq!(client.cached_http_clients(), 2);
}

/// Writes a certificate pair the way Kubernetes updates mounted secrets: new files renamed
/// over the old ones.
fn write_identity(dir: &Path, leaf: &Leaf) {
    for (name, content) in [("tls.crt", &leaf.cert_pem), ("tls.key", &leaf.key_pem)] {
        let tmp = dir.join(format!("{name}.tmp"));
        std::fs::write(&tmp, content).unwrap();
        std::fs::rename(&tmp, dir.join(name)).unwrap();
    }
}

fn client_with_identity(
    dir: &Path,
    configs: &[capi_runtime::api::runtime::v1beta2::ExtensionConfig],
) -> Client {
    let registry = Registry::new();
    registry.warm_up(configs).unwrap();
    Client::builder()
        .registry(registry)
        .client_certificate(dir.join("tls.crt"), dir.join("tls.key"))
        // Look at the files before every call, so each rotation is seen by the next call.
        .client_certificate_check_interval(std::time::Duration::ZERO)
        .build()
        .unwrap()
}

#[tokio::test]
async fn client_certificates_are_reloaded_when_their_files_change() {
    let serving_ca = TestCa::new("serving");
    let (ca1, ca2) = (TestCa::new("clients-1"), TestCa::new("clients-2"));
    let serving = serving_ca.serving(&["127.0.0.1"]);
    let dir = tempfile::tempdir().unwrap();
    write_identity(dir.path(), &ca1.client());

    // The server trusts CA1 and the client presents a certificate of CA1.
    let server = TestServer::start(server_config(&serving, Some(&ca1)), success()).await;
    let client = client_with_identity(
        dir.path(),
        &[config(
            "ext",
            &server.url(),
            &serving_ca.pem(),
            &[handler("h", HOOK)],
        )],
    );
    call(&client, "h.ext").await.unwrap();

    // The client rotates to CA2 first: the server refuses it.
    write_identity(dir.path(), &ca2.client());
    let err = call(&client, "h.ext").await.unwrap_err();
    assert!(
        chain(&err).to_string().contains("?timeout=10s\": "),
        "{err}"
    );
    // Then the server trusts CA2 as well.
    server
        .tls
        .reload_from_config(server_config(&serving, Some(&ca2)));
    call(&client, "h.ext").await.unwrap();

    // The reverse order: a server that trusts CA1 again (a new listener, so the kept-alive
    // connection is not reused), then the client rotates back.
    let server = TestServer::start(server_config(&serving, Some(&ca1)), success()).await;
    client
        .register(&config(
            "ext",
            &server.url(),
            &serving_ca.pem(),
            &[handler("h", HOOK)],
        ))
        .unwrap();
    assert!(
        call(&client, "h.ext").await.is_err(),
        "the client still presents CA2's certificate"
    );
    write_identity(dir.path(), &ca1.client());
    call(&client, "h.ext").await.unwrap();
}

#[tokio::test]
async fn a_half_written_pair_keeps_the_previous_certificate() {
    let serving_ca = TestCa::new("serving");
    let clients = TestCa::new("clients");
    let dir = tempfile::tempdir().unwrap();
    write_identity(dir.path(), &clients.client());
    let server = TestServer::start(
        server_config(&serving_ca.serving(&["127.0.0.1"]), Some(&clients)),
        success(),
    )
    .await;
    let client = client_with_identity(
        dir.path(),
        &[config(
            "ext",
            &server.url(),
            &serving_ca.pem(),
            &[handler("h", HOOK)],
        )],
    );
    call(&client, "h.ext").await.unwrap();
    // Only the certificate changed so far: the key does not match it, so it is not used.
    let next = clients.client();
    std::fs::write(dir.path().join("tls.crt.tmp"), &next.cert_pem).unwrap();
    std::fs::rename(dir.path().join("tls.crt.tmp"), dir.path().join("tls.crt")).unwrap();
    call(&client, "h.ext").await.unwrap();
    write_identity(dir.path(), &next);
    call(&client, "h.ext").await.unwrap();
}

#[test]
fn an_unreadable_client_certificate_fails_the_build() {
    let err = Client::builder()
        .client_certificate("/nonexistent/tls.crt", "/nonexistent/tls.key")
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::Identity(_)));
    assert!(
        chain(&err)
            .to_string()
            .starts_with("failed to create RuntimeSDK client: failed to load client certificate"),
        "{err}"
    );
}
