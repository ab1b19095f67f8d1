//! A lifecycle request reaches its handler as the v1beta2 view whichever Cluster it embeds,
//! and the handler's context says which arrived and what did not convert (the facts of the
//! conversion are held to Cluster API's own by `interop/oracle/tests/cluster_shapes.rs`).

use axum::Router;
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreateRequest, BeforeClusterCreateResponse, ClusterApiShape,
};
use capi_runtime::server::{Context, Server};
use http::{Method, Request, header};
use serde_json::{Value, json};
use tower::ServiceExt;

const PATH: &str = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/bcc";

/// A server whose handler answers with what it saw: the shape, the class, the control plane's
/// group, the health check's startup timeout and the unconverted paths.
fn router() -> Router {
    Server::builder()
        .handle(
            "bcc",
            |request: BeforeClusterCreateRequest, context: Context| async move {
                let topology = &request.cluster.spec.topology;
                let seen = json!({
                    "apiVersion": request.cluster.api_version,
                    "shape": format!("{:?}", context.cluster_api_shape()),
                    "class": topology.class_ref.name,
                    "classNamespace": topology.class_ref.namespace,
                    "apiGroup": request.cluster.spec.control_plane_ref.api_group,
                    "startup": topology.control_plane.health_check.checks.node_startup_timeout_seconds,
                    "unconverted": context.unconverted().iter().map(|u| u.path().to_string()).collect::<Vec<_>>(),
                    "routine": context.unconverted().iter().filter(|u| u.is_routine()).map(|u| u.path().to_string()).collect::<Vec<_>>(),
                });
                let mut response = BeforeClusterCreateResponse::success();
                response.message = seen.to_string();
                response
            },
        )
        .build()
        .unwrap()
        .router()
}

async fn post(router: &Router, body: Value) -> Value {
    let request = Request::builder()
        .method(Method::POST)
        .uri(PATH)
        .header(header::CONTENT_TYPE, "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

fn cluster(version: &str, spec: Value) -> Value {
    json!({"cluster": {"apiVersion": format!("cluster.x-k8s.io/{version}"), "kind": "Cluster",
        "metadata": {"name": "c"}, "spec": spec}})
}

#[tokio::test]
async fn a_v1beta1_cluster_reaches_the_handler_converted_and_said_so() {
    let body = cluster(
        "v1beta1",
        json!({
            "controlPlaneRef": {"apiVersion": "controlplane.cluster.x-k8s.io/v1beta1",
                "kind": "KubeadmControlPlane", "name": "cp", "namespace": "elsewhere"},
            "topology": {"class": "quick-start", "classNamespace": "classes", "version": "v1.31.0",
                "rolloutAfter": "2026-01-01T00:00:00Z",
                "controlPlane": {"machineHealthCheck": {"nodeStartupTimeout": "10m0s"}}}
        }),
    );
    let answer = post(&router(), body).await;
    assert_eq!(answer["status"], "Success", "{answer}");
    let seen: Value = serde_json::from_str(answer["message"].as_str().unwrap()).unwrap();
    assert_eq!(
        seen,
        json!({
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "shape": format!("{:?}", Some(ClusterApiShape::V1Beta1)),
            "class": "quick-start",
            "classNamespace": "classes",
            "apiGroup": "controlplane.cluster.x-k8s.io",
            "startup": 600,
            "unconverted": [
                "cluster.spec.controlPlaneRef.namespace",
                "cluster.spec.controlPlaneRef.apiVersion",
                "cluster.spec.topology.rolloutAfter"
            ],
            // The namespace is another than the Cluster's: that is news to the handler.
            "routine": ["cluster.spec.controlPlaneRef.apiVersion"]
        })
    );
}

#[tokio::test]
async fn a_v1beta2_cluster_reaches_the_handler_as_it_is() {
    let body = cluster(
        "v1beta2",
        json!({
            "controlPlaneRef": {"apiGroup": "controlplane.cluster.x-k8s.io",
                "kind": "KubeadmControlPlane", "name": "cp"},
            "topology": {"classRef": {"name": "quick-start", "namespace": "classes"},
                "version": "v1.31.0",
                "controlPlane": {"healthCheck": {"checks": {"nodeStartupTimeoutSeconds": 600}}}}
        }),
    );
    let answer = post(&router(), body).await;
    let seen: Value = serde_json::from_str(answer["message"].as_str().unwrap()).unwrap();
    assert_eq!(
        seen["shape"],
        format!("{:?}", Some(ClusterApiShape::V1Beta2))
    );
    assert_eq!(seen["class"], "quick-start");
    assert_eq!(seen["apiGroup"], "controlplane.cluster.x-k8s.io");
    assert_eq!(seen["startup"], 600);
    assert_eq!(seen["unconverted"], json!([]));
    assert_eq!(seen["routine"], json!([]));
}

#[tokio::test]
async fn a_v1beta1_cluster_that_does_not_convert_is_a_decode_failure() {
    // Cluster API's own decoder refuses a duration it cannot read.
    let body = cluster(
        "v1beta1",
        json!({"topology": {"class": "c", "version": "v1.31.0",
            "controlPlane": {"nodeDrainTimeout": "soon"}}}),
    );
    let answer = post(&router(), body).await;
    assert_eq!(answer["status"], "Failure", "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.starts_with("error unmarshalling request: ")
            && message.contains("cluster.spec.topology.controlPlane.nodeDrainTimeout"),
        "{message}"
    );
}
