//! The Cluster object and what its spec and status hold.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::_private::is_default;
use crate::Schema;

/// TODO doc APIEndpoint
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct APIEndpoint {
    /// TODO doc APIEndpoint.host
    #[serde(skip_serializing_if = "String::is_empty")]
    pub host: String,
    /// TODO doc APIEndpoint.port
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

/// TODO doc Cluster
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Cluster {
    /// TODO doc Cluster.apiVersion
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// TODO doc Cluster.kind
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// TODO doc Cluster.metadata
    #[serde(skip_serializing_if = "is_default")]
    pub metadata: metav1::ObjectMeta,
    /// TODO doc Cluster.spec
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub spec: ClusterSpec,
    /// TODO doc Cluster.status
    #[serde(skip_serializing_if = "is_default")]
    pub status: ClusterStatus,
}

/// TODO doc ClusterAvailabilityGate
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterAvailabilityGate {
    /// TODO doc ClusterAvailabilityGate.conditionType
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub condition_type: String,
    /// TODO doc ClusterAvailabilityGate.polarity
    #[serde(skip_serializing_if = "String::is_empty")]
    pub polarity: String,
}

/// TODO doc ClusterControlPlaneStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterControlPlaneStatus {
    /// TODO doc ClusterControlPlaneStatus.availableReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// TODO doc ClusterControlPlaneStatus.desiredReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// TODO doc ClusterControlPlaneStatus.readyReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// TODO doc ClusterControlPlaneStatus.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc ClusterControlPlaneStatus.upToDateReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// TODO doc ClusterControlPlaneStatus.upgradePlan
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub upgrade_plan: Vec<StatusUpgradePlanVersion>,
    /// TODO doc ClusterControlPlaneStatus.versions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub versions: Vec<StatusVersion>,
}

/// TODO doc ClusterDeprecatedStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterDeprecatedStatus {
    /// TODO doc ClusterDeprecatedStatus.v1beta1
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta1: Option<ClusterV1Beta1DeprecatedStatus>,
}

/// TODO doc ClusterInitializationStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterInitializationStatus {
    /// TODO doc ClusterInitializationStatus.controlPlaneInitialized
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane_initialized: Option<bool>,
    /// TODO doc ClusterInitializationStatus.infrastructureProvisioned
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_provisioned: Option<bool>,
}

/// TODO doc ClusterNetwork
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterNetwork {
    /// TODO doc ClusterNetwork.apiServerPort
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_server_port: Option<i32>,
    /// TODO doc ClusterNetwork.pods
    #[serde(skip_serializing_if = "is_default")]
    pub pods: NetworkRanges,
    /// TODO doc ClusterNetwork.serviceDomain
    #[serde(skip_serializing_if = "String::is_empty")]
    pub service_domain: String,
    /// TODO doc ClusterNetwork.services
    #[serde(skip_serializing_if = "is_default")]
    pub services: NetworkRanges,
}

/// TODO doc ClusterSpec
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterSpec {
    /// TODO doc ClusterSpec.availabilityGates
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("conditionType"))]
    pub availability_gates: Vec<ClusterAvailabilityGate>,
    /// TODO doc ClusterSpec.clusterNetwork
    #[serde(skip_serializing_if = "is_default")]
    pub cluster_network: ClusterNetwork,
    /// TODO doc ClusterSpec.controlPlaneEndpoint
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane_endpoint: APIEndpoint,
    /// TODO doc ClusterSpec.controlPlaneRef
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane_ref: ContractVersionedObjectReference,
    /// TODO doc ClusterSpec.infrastructureRef
    #[serde(skip_serializing_if = "is_default")]
    pub infrastructure_ref: ContractVersionedObjectReference,
    /// TODO doc ClusterSpec.paused
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// TODO doc ClusterSpec.topology
    #[serde(skip_serializing_if = "is_default")]
    pub topology: Topology,
}

/// TODO doc ClusterStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterStatus {
    /// TODO doc ClusterStatus.conditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<metav1::Condition>,
    /// TODO doc ClusterStatus.controlPlane
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<ClusterControlPlaneStatus>,
    /// TODO doc ClusterStatus.deprecated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<ClusterDeprecatedStatus>,
    /// TODO doc ClusterStatus.failureDomains
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub failure_domains: Vec<FailureDomain>,
    /// TODO doc ClusterStatus.initialization
    #[serde(skip_serializing_if = "is_default")]
    pub initialization: ClusterInitializationStatus,
    /// TODO doc ClusterStatus.observedGeneration
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// TODO doc ClusterStatus.phase
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// TODO doc ClusterStatus.workers
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<WorkersStatus>,
}

/// TODO doc ClusterV1Beta1DeprecatedStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterV1Beta1DeprecatedStatus {
    /// TODO doc ClusterV1Beta1DeprecatedStatus.conditions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// TODO doc ClusterV1Beta1DeprecatedStatus.failureMessage
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_message: String,
    /// TODO doc ClusterV1Beta1DeprecatedStatus.failureReason
    #[serde(skip_serializing_if = "String::is_empty")]
    pub failure_reason: String,
}

/// TODO doc ClusterVariable
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterVariable {
    /// TODO doc ClusterVariable.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// TODO doc ClusterVariable.value
    pub value: JSON,
}

/// TODO doc FailureDomain
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct FailureDomain {
    /// TODO doc FailureDomain.attributes
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// TODO doc FailureDomain.controlPlane
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<bool>,
    /// TODO doc FailureDomain.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
}

/// TODO doc NetworkRanges
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct NetworkRanges {
    /// TODO doc NetworkRanges.cidrBlocks
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(required, list_type = "atomic")]
    pub cidr_blocks: Vec<String>,
}

/// TODO doc StatusUpgradePlanVersion
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct StatusUpgradePlanVersion {
    /// TODO doc StatusUpgradePlanVersion.version
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
}

/// TODO doc StatusVersion
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct StatusVersion {
    /// TODO doc StatusVersion.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc StatusVersion.version
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
}

/// TODO doc Topology
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct Topology {
    /// TODO doc Topology.classRef
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub class_ref: ClusterClassRef,
    /// TODO doc Topology.controlPlane
    #[serde(skip_serializing_if = "is_default")]
    pub control_plane: ControlPlaneTopology,
    /// TODO doc Topology.variables
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub variables: Vec<ClusterVariable>,
    /// TODO doc Topology.version
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub version: String,
    /// TODO doc Topology.workers
    #[serde(skip_serializing_if = "is_default")]
    pub workers: WorkersTopology,
}

/// TODO doc WorkersStatus
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersStatus {
    /// TODO doc WorkersStatus.availableReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// TODO doc WorkersStatus.desiredReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// TODO doc WorkersStatus.readyReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// TODO doc WorkersStatus.replicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// TODO doc WorkersStatus.upToDateReplicas
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// TODO doc WorkersStatus.upgradePlan
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub upgrade_plan: Vec<StatusUpgradePlanVersion>,
    /// TODO doc WorkersStatus.versions
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub versions: Vec<StatusVersion>,
}

/// TODO doc WorkersTopology
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersTopology {
    /// TODO doc WorkersTopology.machineDeployments
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub machine_deployments: Vec<MachineDeploymentTopology>,
    /// TODO doc WorkersTopology.machinePools
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "map", list_map_keys("name"))]
    pub machine_pools: Vec<MachinePoolTopology>,
}
