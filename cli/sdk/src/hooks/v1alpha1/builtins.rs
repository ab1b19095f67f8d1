//! The shape of the builtin variable.
//!
//! Cluster API passes a variable named [`BUILTINS_NAME`] to GeneratePatches and
//! ValidateTopology with facts about the Cluster and the object a template belongs to. These
//! types give that value a Rust shape (`Builtins::from_variables`); no hook message uses them
//! directly, so they are not part of the OpenAPI document.

use serde::{Deserialize, Serialize};

use super::ObjectMeta;
use crate::Schema;

/// The name of the builtin variable.
pub const BUILTINS_NAME: &str = "builtin";

/// The value of the builtin variable. Each part is present only where it applies: `cluster`
/// always, `controlPlane` for control-plane templates, `machineDeployment` or `machinePool`
/// for the templates of one of those.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct Builtins {
    /// Facts about the Cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterBuiltins>,
    /// Facts about the control plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<ControlPlaneBuiltins>,
    /// Facts about the MachineDeployment the template belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_deployment: Option<MachineDeploymentBuiltins>,
    /// Facts about the MachinePool the template belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_pool: Option<MachinePoolBuiltins>,
}

/// Facts about the Cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterBuiltins {
    /// Name of the Cluster.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Namespace of the Cluster.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// UID of the Cluster.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// Labels and annotations of the Cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    /// The Cluster's topology.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<ClusterTopologyBuiltins>,
    /// The Cluster's network settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<ClusterNetworkBuiltins>,
}

/// Facts about the Cluster's topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterTopologyBuiltins {
    /// The Kubernetes version of the Cluster.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// The ClusterClass the Cluster uses.
    pub class_ref: ClusterTopologyClusterClassRefBuiltins,
    /// Name of the ClusterClass; deprecated in favor of `classRef.name`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// Namespace of the ClusterClass; deprecated in favor of `classRef.namespace`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub class_namespace: String,
}

/// The ClusterClass a Cluster uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterTopologyClusterClassRefBuiltins {
    /// Name of the ClusterClass.
    pub name: String,
    /// Namespace of the ClusterClass.
    pub namespace: String,
}

/// The Cluster's network settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterNetworkBuiltins {
    /// The DNS domain of Services.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_domain: Option<String>,
    /// CIDR blocks of Services.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<String>,
    /// CIDR blocks of Pods.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pods: Vec<String>,
}

/// Facts about the control plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneBuiltins {
    /// The Kubernetes version the control plane runs or moves to.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Labels and annotations of the control plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    /// Name of the control plane object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Number of control-plane replicas, when the control plane has machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The control plane's machine template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_template: Option<ControlPlaneMachineTemplateBuiltins>,
}

/// The control plane's machine template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneMachineTemplateBuiltins {
    /// The infrastructure template of the control-plane machines.
    #[serde(skip_serializing_if = "crate::__private::is_default")]
    pub infrastructure_ref: ControlPlaneMachineTemplateInfrastructureRefBuiltins,
}

/// The infrastructure template of the control-plane machines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneMachineTemplateInfrastructureRefBuiltins {
    /// Name of the template.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// Facts about one MachineDeployment of the topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentBuiltins {
    /// The Kubernetes version the MachineDeployment runs or moves to.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Labels and annotations of the MachineDeployment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    /// The MachineDeployment class of the ClusterClass it comes from.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// Name of the MachineDeployment object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Name of the MachineDeployment in the Cluster's topology.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub topology_name: String,
    /// Number of replicas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    /// The bootstrap template of its machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bootstrap: Option<MachineBootstrapBuiltins>,
    /// The infrastructure template of its machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_ref: Option<MachineInfrastructureRefBuiltins>,
}

/// Facts about one MachinePool of the topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolBuiltins {
    /// The Kubernetes version the MachinePool runs or moves to.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Labels and annotations of the MachinePool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    /// The MachinePool class of the ClusterClass it comes from.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// Name of the MachinePool object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Name of the MachinePool in the Cluster's topology.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub topology_name: String,
    /// Number of replicas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    /// The bootstrap template of its machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bootstrap: Option<MachineBootstrapBuiltins>,
    /// The infrastructure template of its machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_ref: Option<MachineInfrastructureRefBuiltins>,
}

/// The bootstrap template of a group of machines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineBootstrapBuiltins {
    /// The bootstrap config template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_ref: Option<MachineBootstrapConfigRefBuiltins>,
}

/// A bootstrap config template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineBootstrapConfigRefBuiltins {
    /// Name of the template.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// An infrastructure machine template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(
    crate = "crate",
    package = "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineInfrastructureRefBuiltins {
    /// Name of the template.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
}
