//! Requests per second of one hook served by the extension server kit, against a bare axum
//! handler that decodes and encodes the same JSON, on the same machine. Run with
//! `cargo bench --features server --bench server`.
//!
//! Both are served over plain HTTP/1.1 on loopback (TLS would cost both the same), and driven by
//! the same keep-alive client with a fixed number of requests in flight. Runs alternate between
//! the two so drift on a shared machine hits both; the ratio of medians is reported. A second
//! measurement calls both routers in-process, without sockets, which isolates the kit's own
//! per-request work.

use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::response::Response;
use axum::routing::post;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, GeneratePatchesRequest,
    GeneratePatchesRequestItem, GeneratePatchesResponse, GeneratePatchesResponseItem,
    HolderReference, PatchType,
};
use capi_runtime::raw::RawExtension;
use capi_runtime::server::Server;
use k8s_openapi::ByteString;
use serde_json::json;
use tower::ServiceExt;

const BCC_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/bench";
const GP_PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/bench";
const IN_FLIGHT: usize = 8;
const RUN: Duration = Duration::from_secs(3);
const ROUNDS: usize = 5;

fn before_cluster_create(_: &BeforeClusterCreateRequest) -> BeforeClusterCreateResponse {
    let mut response = BeforeClusterCreateResponse::success();
    response.retry_after_seconds = 0;
    response
}

/// One empty JSON Patch per item: the same work on both sides.
fn generate_patches(request: &GeneratePatchesRequest) -> GeneratePatchesResponse {
    let mut response = GeneratePatchesResponse::success();
    response.items = request
        .items
        .iter()
        .map(|item| GeneratePatchesResponseItem {
            uid: item.uid.clone(),
            patch_type: PatchType::JsonPatch,
            patch: ByteString(b"[]".to_vec()),
        })
        .collect();
    response
}

fn kit_router() -> Router {
    Server::builder()
        .handle("bench", |r: BeforeClusterCreateRequest| async move {
            Ok::<_, String>(before_cluster_create(&r))
        })
        .handle("bench", |r: GeneratePatchesRequest| async move {
            Ok::<_, String>(generate_patches(&r))
        })
        .build()
        .unwrap()
        .router()
}

fn json_response(body: Vec<u8>) -> Response {
    Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap()
}

fn bare_router() -> Router {
    Router::new()
        .route(
            BCC_PATH,
            post(|body: Bytes| async move {
                let request: BeforeClusterCreateRequest = serde_json::from_slice(&body).unwrap();
                json_response(serde_json::to_vec(&before_cluster_create(&request)).unwrap())
            }),
        )
        .route(
            GP_PATH,
            post(|body: Bytes| async move {
                let request: GeneratePatchesRequest = serde_json::from_slice(&body).unwrap();
                json_response(serde_json::to_vec(&generate_patches(&request)).unwrap())
            }),
        )
        .layer(axum::extract::DefaultBodyLimit::max(20 << 20))
}

fn small_payload() -> Vec<u8> {
    let mut request = BeforeClusterCreateRequest {
        api_version: "hooks.runtime.cluster.x-k8s.io/v1alpha1".into(),
        kind: "BeforeClusterCreateRequest".into(),
        ..Default::default()
    };
    request.cluster.metadata.name = Some("bench".into());
    request.cluster.metadata.namespace = Some("default".into());
    request.cluster.spec.topology.version = "v1.31.0".into();
    serde_json::to_vec(&request).unwrap()
}

fn large_payload() -> Vec<u8> {
    let items = (0..500)
        .map(|i| GeneratePatchesRequestItem {
            uid: format!("uid-{i}"),
            holder_reference: HolderReference {
                api_version: "cluster.x-k8s.io/v1beta2".into(),
                kind: "MachineDeployment".into(),
                namespace: "default".into(),
                name: format!("md-{i}"),
                field_path: "spec.template.spec.infrastructureRef".into(),
            },
            object: RawExtension::from(json!({
                "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1",
                "kind": "DockerMachineTemplate",
                "metadata": {"name": format!("worker-{i}"), "namespace": "default"},
                "spec": {"template": {"spec": {
                    "customImage": "kindest/node:v1.31.0",
                    "extraMounts": [{"containerPath": "/var/run/docker.sock", "hostPath": "/var/run/docker.sock"}]
                }}}
            })),
            variables: vec![],
        })
        .collect();
    let request = GeneratePatchesRequest {
        api_version: "hooks.runtime.cluster.x-k8s.io/v1alpha1".into(),
        kind: "GeneratePatchesRequest".into(),
        items,
        ..Default::default()
    };
    serde_json::to_vec(&request).unwrap()
}

async fn serve(router: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    addr
}

/// Requests per second over HTTP with `IN_FLIGHT` concurrent keep-alive requests.
async fn http_rps(client: &reqwest::Client, url: &str, body: &Bytes) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..IN_FLIGHT)
        .map(|_| {
            let (client, url, body) = (client.clone(), url.to_string(), body.clone());
            let (stop, done) = (stop.clone(), done.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let response = client.post(&url).body(body.clone()).send().await.unwrap();
                    assert_eq!(response.status(), 200);
                    black_box(response.bytes().await.unwrap());
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let start = Instant::now();
    tokio::time::sleep(RUN).await;
    let count = done.load(Ordering::Relaxed);
    let elapsed = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await.unwrap();
    }
    count as f64 / elapsed.as_secs_f64()
}

/// Requests per second calling the router in-process, one at a time.
async fn inprocess_rps(router: &Router, path: &str, body: &Bytes) -> f64 {
    let start = Instant::now();
    let mut count = 0u64;
    while start.elapsed() < RUN {
        let request = http::Request::post(path)
            .header("content-type", "application/json")
            .body(Body::from(body.clone()))
            .unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        black_box(
            axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap(),
        );
        count += 1;
    }
    count as f64 / start.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let kit = kit_router();
        let bare = bare_router();
        let kit_addr = serve(kit.clone()).await;
        let bare_addr = serve(bare.clone()).await;
        let client = reqwest::Client::builder()
            .no_proxy()
            .http1_only()
            .pool_max_idle_per_host(IN_FLIGHT)
            .build()
            .unwrap();
        println!(
            "extension server kit vs bare axum: {IN_FLIGHT} requests in flight, {ROUNDS} alternating rounds of {}s",
            RUN.as_secs()
        );
        for (label, path, body) in [
            ("BeforeClusterCreate (small)", BCC_PATH, Bytes::from(small_payload())),
            ("GeneratePatches, 500 items (large)", GP_PATH, Bytes::from(large_payload())),
        ] {
            println!("{label}: request body {} bytes", body.len());
            // Warm up connections and allocators on both sides.
            for addr in [kit_addr, bare_addr] {
                let _ = http_rps(&client, &format!("http://{addr}{path}"), &body).await;
            }
            let (mut k, mut b) = (Vec::new(), Vec::new());
            for _ in 0..ROUNDS {
                k.push(http_rps(&client, &format!("http://{kit_addr}{path}"), &body).await);
                b.push(http_rps(&client, &format!("http://{bare_addr}{path}"), &body).await);
            }
            let (k, b) = (median(k), median(b));
            println!("  over HTTP:  kit {k:>10.0} req/s, bare {b:>10.0} req/s, ratio {:.3}", k / b);
            let (mut k, mut b) = (Vec::new(), Vec::new());
            for _ in 0..ROUNDS {
                k.push(inprocess_rps(&kit, path, &body).await);
                b.push(inprocess_rps(&bare, path, &body).await);
            }
            let (k, b) = (median(k), median(b));
            println!("  in-process: kit {k:>10.0} req/s, bare {b:>10.0} req/s, ratio {:.3}", k / b);
        }
    });
}
