//! `ClusterApiBuilder::existing_cluster`: Cluster API's manager against a cluster the test
//! did not start through this builder (here a control plane started beforehand, reached only
//! through its kubeconfig file): the CRDs are applied there, the manager runs with that
//! kubeconfig, and an extension served by this test with a certificate of the test's own CA
//! is discovered.

use std::net::{IpAddr, Ipv4Addr};

use capi_runtime::go::errors::chain;
use capi_runtime::hook::ResponseStatus;
use capi_runtime::hooks::v1alpha1::{BeforeClusterCreateRequest, BeforeClusterCreateResponse};
use capi_runtime_testenv::{ClusterApi, ExistingCluster, TestEnv};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_manager_runs_against_an_existing_cluster() {
    let started = tokio::task::spawn_blocking(|| TestEnv::builder("existing-cluster").start())
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    let cluster = ExistingCluster::from_kubeconfig(started.kubeconfig_path())
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    let capi = ClusterApi::builder("existing-cluster-manager")
        .existing_cluster(cluster)
        .start()
        .await
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    assert!(capi.env().is_none());
    assert!(
        capi.webhooks_startup_time().is_none(),
        "Cluster API's webhooks are off on an existing cluster unless asked for"
    );
    assert_ne!(
        capi.ca_pem(),
        started.ca_pem(),
        "the test's own CA signs its servers"
    );

    let cert_dir = tempfile::tempdir().unwrap();
    capi.write_serving_certificate(cert_dir.path()).unwrap();
    let extension = capi_runtime::server::ServerBuilder::new()
        .handle(
            "before-cluster-create",
            |_: BeforeClusterCreateRequest| async {
                Ok::<_, String>(BeforeClusterCreateResponse {
                    status: ResponseStatus::Success,
                    ..Default::default()
                })
            },
        )
        .host(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .port(0)
        .cert_dir(cert_dir.path())
        .build()
        .unwrap()
        .start()
        .await
        .unwrap();
    let url = format!("https://127.0.0.1:{}", extension.local_addr().port());
    let config = capi
        .register_extension("existing", &url, capi.ca_pem())
        .await
        .unwrap_or_else(|e| panic!("{}", chain(&e)));
    let names: Vec<&str> = config
        .status
        .handlers
        .iter()
        .map(|h| h.name.as_str())
        .collect();
    assert_eq!(names, ["before-cluster-create.existing"]);

    // The CRDs went into the cluster that was there.
    let crds: kube::Api<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    > = kube::Api::all(started.client().await.unwrap());
    crds.get("clusters.cluster.x-k8s.io").await.unwrap();

    capi.stop_manager();
    extension.shutdown().await.unwrap();
}
