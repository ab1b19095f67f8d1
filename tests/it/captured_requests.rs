//! Lifecycle requests as each supported Cluster API's real manager sent them (recorded by
//! testenv's `lifecycle_flow_against_cluster_api_*` under `target/tmp/capi-versions/` and kept
//! in `testdata/captured/<version>/`) decode into the same v1beta2 view.
//!
//! A v1.12 manager sends its v1beta1 Cluster without `apiVersion` or `kind`, so its shape must
//! be told by the Cluster's fields: this is the test that would fail if it were told by
//! `apiVersion` alone.

use std::path::PathBuf;

use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::hook::Hook;
use capi_runtime::hooks::v1alpha1::{
    AfterControlPlaneInitialized, BeforeClusterCreate, BeforeClusterDelete, ClusterApiShape,
    decode_request,
};

fn captured(version: &str, file: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/captured")
        .join(version)
        .join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Decodes the captured request of hook `H` from `version`'s manager; returns the shape the
/// decoder told and the Cluster handlers see.
fn decode<H: Hook>(version: &str, file: &str) -> (Option<ClusterApiShape>, Cluster)
where
    H::Request: ClusterOf,
{
    let (request, arrival) = decode_request::<H>(&captured(version, file))
        .unwrap_or_else(|e| panic!("{version}/{file}: {e}"));
    // What a v1.12 manager always sends and v1beta2 has no place for: the references'
    // namespace and the version in their apiVersion, once the references are set. Nothing
    // else of the flow's Cluster.
    let unconverted: Vec<&str> = arrival.unconverted().iter().map(|u| u.path()).collect();
    let routine: &[&str] = if arrival.shape() == Some(ClusterApiShape::V1Beta1) {
        &[
            "cluster.spec.controlPlaneRef.namespace",
            "cluster.spec.controlPlaneRef.apiVersion",
            "cluster.spec.infrastructureRef.namespace",
            "cluster.spec.infrastructureRef.apiVersion",
        ]
    } else {
        &[]
    };
    assert!(
        unconverted.iter().all(|p| routine.contains(p)),
        "{version}/{file}: unconverted {unconverted:?}"
    );
    // The server logs those at debug level only: none is a sign of anything lost.
    assert!(
        arrival.unconverted().iter().all(|u| u.is_routine()),
        "{version}/{file}: {:?}",
        arrival.unconverted()
    );
    (arrival.shape(), request.cluster().clone())
}

trait ClusterOf {
    fn cluster(&self) -> &Cluster;
}

macro_rules! cluster_of {
    ($($request:ty),*) => {$(
        impl ClusterOf for $request {
            fn cluster(&self) -> &Cluster {
                &self.cluster
            }
        }
    )*};
}
cluster_of!(
    capi_runtime::hooks::v1alpha1::BeforeClusterCreateRequest,
    capi_runtime::hooks::v1alpha1::AfterControlPlaneInitializedRequest,
    capi_runtime::hooks::v1alpha1::BeforeClusterDeleteRequest
);

/// The fields the flow's Cluster carries in every version, as the handler sees them.
fn view(cluster: &Cluster) -> serde_json::Value {
    let spec = &cluster.spec;
    serde_json::json!({
        "name": cluster.metadata.name,
        "namespace": cluster.metadata.namespace,
        "label": cluster.metadata.labels.as_ref().and_then(|l| l.get("capi-runtime.test/flow")),
        "annotation": cluster.metadata.annotations.as_ref().and_then(|a| a.get("capi-runtime.test/owner")),
        "class": spec.topology.class_ref.name,
        "version": spec.topology.version,
        "replicas": spec.topology.control_plane.replicas,
    })
}

#[test]
fn every_version_s_lifecycle_requests_decode_into_one_view() {
    let versions = [
        ("v1.12.5", ClusterApiShape::V1Beta1),
        ("v1.13.6", ClusterApiShape::V1Beta2),
        ("v1.14.2", ClusterApiShape::V1Beta2),
    ];
    let mut views = Vec::new();
    for (version, shape) in versions {
        let decoded = [
            decode::<BeforeClusterCreate>(version, "before-cluster-create.json"),
            decode::<AfterControlPlaneInitialized>(version, "after-control-plane-initialized.json"),
            decode::<BeforeClusterDelete>(version, "before-cluster-delete.json"),
        ];
        for (told, cluster) in &decoded {
            assert_eq!(*told, Some(shape), "{version}: the shape told");
            views.push((version, view(cluster)));
        }
        // After the control plane is initialized, the references and the endpoint the test's
        // infrastructure reported are in every version's Cluster.
        let spec = &decoded[1].1.spec;
        assert_eq!(
            (
                spec.control_plane_ref.api_group.as_str(),
                spec.infrastructure_ref.api_group.as_str()
            ),
            (
                "controlplane.capi-runtime.test",
                "infrastructure.capi-runtime.test"
            ),
            "{version}"
        );
        let endpoint = &spec.control_plane_endpoint;
        assert_eq!(
            (endpoint.host.as_str(), endpoint.port),
            ("cp.example.com", Some(6443)),
            "{version}"
        );
    }
    let first = &views[0].1;
    assert_eq!(first["class"], "flow-class", "{first}");
    assert_eq!(first["label"], "lifecycle", "{first}");
    for (version, view) in &views {
        assert_eq!(view, first, "{version}'s Cluster differs from v1.12.5's");
    }
}
