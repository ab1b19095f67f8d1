//! The extension against the real Cluster API: etcd, kube-apiserver and Cluster API's core
//! manager started by the test, the extension served by the test process.

// ANCHOR: test
use std::net::{IpAddr, Ipv4Addr};

use capi_runtime_testenv::topology::{
    CLUSTER_API_VERSION, ClusterClass, control_plane_template, handler_name,
    infrastructure_cluster_template, topology_cluster,
};
use capi_runtime_testenv::{ClusterApi, Error};
use serde_json::json;

/// The ExtensionConfig's name: Cluster API calls our handler `generate-patches.my-extension`.
const EXTENSION: &str = "my-extension";

#[tokio::test(flavor = "multi_thread")]
async fn cluster_api_creates_the_control_plane_with_our_patch() -> Result<(), Error> {
    // etcd, kube-apiserver, Cluster API's CRDs and manager, and the test providers' CRDs.
    let capi = ClusterApi::builder("my-extension")
        .test_providers()
        .start()
        .await?;

    // The extension, on a free loopback port, with a certificate the environment's CA signed.
    let certs = tempfile::tempdir().expect("a temporary directory");
    capi.write_serving_certificate(certs.path())?;
    let extension = my_extension::server_builder()
        .expect("the handlers register")
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(certs.path())
        .build()
        .start()
        .await
        .expect("the extension starts");
    let url = format!("https://127.0.0.1:{}", extension.local_addr().port());

    // Registered, and discovered by Cluster API, before any ClusterClass names it.
    capi.register_extension(EXTENSION, &url, capi.ca_pem())
        .await?;

    // Two templates, a ClusterClass whose external patch is our handler, and a Cluster of
    // that class.
    let ns = "patches";
    capi.create_namespace(ns).await?;
    capi.create(&infrastructure_cluster_template(ns, "infra", json!({})))
        .await?;
    capi.create(&control_plane_template(
        ns,
        "control-plane",
        json!({"replicas": 1}),
    ))
    .await?;
    let patch = handler_name("generate-patches", EXTENSION);
    capi.create(
        &ClusterClass::new(ns, "my-class", "infra", "control-plane")
            .external_patch("my-patches", Some(&patch), None)
            .to_json(),
    )
    .await?;
    capi.wait_for_condition(
        ns,
        CLUSTER_API_VERSION,
        "ClusterClass",
        "my-class",
        "VariablesReady",
        |c| c.status == "True",
    )
    .await?;
    capi.create(&topology_cluster(ns, "c1", "my-class", "v1.31.0", 1))
        .await?;

    // What the topology controller made: the control plane carries our patch.
    let made = capi.topology_objects(ns, "c1").await?;
    assert_eq!(
        made.control_plane.data["spec"]["patchedBy"],
        my_extension::PATCHED_BY
    );
    assert!(
        made.infrastructure_cluster.data["spec"]
            .get("patchedBy")
            .is_none()
    );
    capi.wait_for_cluster_condition(ns, "c1", "TopologyReconciled", |c| c.status == "True")
        .await?;

    extension.shutdown().await.expect("the extension stops");
    Ok(())
}
// ANCHOR_END: test
