//! The extension against the real Cluster API: etcd, kube-apiserver and Cluster API's core
//! manager started by the test, the extension served by the test process.

// ANCHOR: test
use capi_runtime_testenv::topology::{
    ClusterClass, ExternalPatch, control_plane_template, handler_name,
    infrastructure_cluster_template,
};
use capi_runtime_testenv::{ClusterApi, Error};
use my_extension::{Owner, PATCHED_BY};
use serde_json::json;

/// The ExtensionConfig's name: Cluster API calls our handlers `generate-patches.my-extension`
/// and `discover-variables.my-extension`.
const EXTENSION: &str = "my-extension";

#[tokio::test(flavor = "multi_thread")]
async fn cluster_api_creates_the_control_plane_with_our_patch() -> Result<(), Error> {
    // etcd, kube-apiserver, Cluster API's CRDs and manager, and the test providers' CRDs.
    let capi = ClusterApi::builder("my-extension")
        .test_providers()
        .start()
        .await?;

    // The extension, served on a free loopback port with a certificate the environment's CA
    // signed, registered and discovered by Cluster API before any ClusterClass names it.
    let extension = capi
        .serve_extension(EXTENSION, my_extension::server_builder())
        .await?;

    // Two templates, a ClusterClass whose external patch calls our handlers, and a Cluster of
    // that class setting our variable.
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
    let class = ClusterClass::new(ns, "my-class", "infra", "control-plane").patch(
        ExternalPatch::new("my-patches")
            .generate_patches(handler_name("generate-patches", EXTENSION))
            .discover_variables(handler_name("discover-variables", EXTENSION)),
    );
    capi.create(&class).await?;
    // Cluster API asked DiscoverVariables and accepted the variable's schema.
    capi.wait_for_condition(&class, "VariablesReady", |c| c.status == "True")
        .await?;
    let owner = Owner {
        team: "platform".to_string(),
    };
    let cluster = class.cluster("c1", "v1.31.0").variable(&owner);
    capi.create(&cluster).await?;

    // What the topology controller made: the control plane carries our patch.
    let made = capi.topology_objects(ns, "c1").await?;
    assert_eq!(made.control_plane.data["spec"]["patchedBy"], PATCHED_BY);
    assert_eq!(made.control_plane.data["spec"]["owner"], "platform");
    assert!(
        made.infrastructure_cluster.data["spec"]
            .get("patchedBy")
            .is_none()
    );
    capi.wait_for_condition(&cluster, "TopologyReconciled", |c| c.status == "True")
        .await?;

    extension.shutdown().await?;
    Ok(())
}
// ANCHOR_END: test
