//! Names of the builtin variable's fields and of the core fields patches usually touch, so
//! extensions do not spell them by hand.

/// Variable paths into the builtin variable, for [`Variables::get`](super::Variables::get).
pub mod builtin {
    /// The whole builtin variable.
    pub const BUILTIN: &str = "builtin";
    /// Name of the Cluster.
    pub const CLUSTER_NAME: &str = "builtin.cluster.name";
    /// Namespace of the Cluster.
    pub const CLUSTER_NAMESPACE: &str = "builtin.cluster.namespace";
    /// UID of the Cluster.
    pub const CLUSTER_UID: &str = "builtin.cluster.uid";
    /// Kubernetes version of the Cluster's topology.
    pub const CLUSTER_TOPOLOGY_VERSION: &str = "builtin.cluster.topology.version";
    /// Name of the Cluster's ClusterClass.
    pub const CLUSTER_TOPOLOGY_CLASS_NAME: &str = "builtin.cluster.topology.classRef.name";
    /// Namespace of the Cluster's ClusterClass.
    pub const CLUSTER_TOPOLOGY_CLASS_NAMESPACE: &str =
        "builtin.cluster.topology.classRef.namespace";
    /// DNS domain of the Cluster's Services.
    pub const CLUSTER_NETWORK_SERVICE_DOMAIN: &str = "builtin.cluster.network.serviceDomain";
    /// Service CIDR blocks of the Cluster.
    pub const CLUSTER_NETWORK_SERVICES: &str = "builtin.cluster.network.services";
    /// Pod CIDR blocks of the Cluster.
    pub const CLUSTER_NETWORK_PODS: &str = "builtin.cluster.network.pods";
    /// Kubernetes version of the control plane.
    pub const CONTROL_PLANE_VERSION: &str = "builtin.controlPlane.version";
    /// Name of the control plane object.
    pub const CONTROL_PLANE_NAME: &str = "builtin.controlPlane.name";
    /// Replicas of the control plane.
    pub const CONTROL_PLANE_REPLICAS: &str = "builtin.controlPlane.replicas";
    /// Name of the control plane's infrastructure machine template.
    pub const CONTROL_PLANE_MACHINE_TEMPLATE_INFRASTRUCTURE_REF_NAME: &str =
        "builtin.controlPlane.machineTemplate.infrastructureRef.name";
    /// Kubernetes version of the MachineDeployment of the template.
    pub const MACHINE_DEPLOYMENT_VERSION: &str = "builtin.machineDeployment.version";
    /// The MachineDeployment class of the template.
    pub const MACHINE_DEPLOYMENT_CLASS: &str = "builtin.machineDeployment.class";
    /// Name of the MachineDeployment object.
    pub const MACHINE_DEPLOYMENT_NAME: &str = "builtin.machineDeployment.name";
    /// Name of the MachineDeployment in the topology.
    pub const MACHINE_DEPLOYMENT_TOPOLOGY_NAME: &str = "builtin.machineDeployment.topologyName";
    /// Replicas of the MachineDeployment.
    pub const MACHINE_DEPLOYMENT_REPLICAS: &str = "builtin.machineDeployment.replicas";
    /// Kubernetes version of the MachinePool of the template.
    pub const MACHINE_POOL_VERSION: &str = "builtin.machinePool.version";
    /// The MachinePool class of the template.
    pub const MACHINE_POOL_CLASS: &str = "builtin.machinePool.class";
    /// Name of the MachinePool object.
    pub const MACHINE_POOL_NAME: &str = "builtin.machinePool.name";
    /// Name of the MachinePool in the topology.
    pub const MACHINE_POOL_TOPOLOGY_NAME: &str = "builtin.machinePool.topologyName";
    /// Replicas of the MachinePool.
    pub const MACHINE_POOL_REPLICAS: &str = "builtin.machinePool.replicas";
}

/// Kinds of the objects that hold templates (the `kind` of a `holderReference`).
pub mod holder_kind {
    /// The Cluster holds the infrastructure cluster and control plane templates.
    pub const CLUSTER: &str = "Cluster";
    /// A MachineDeployment holds its bootstrap and infrastructure machine templates.
    pub const MACHINE_DEPLOYMENT: &str = "MachineDeployment";
    /// A MachinePool holds its bootstrap and infrastructure machine pool templates.
    pub const MACHINE_POOL: &str = "MachinePool";
}

/// Field paths (in the holder) that reference a template: the `fieldPath` of a
/// `holderReference` tells which of these the template is used through.
pub mod holder_field {
    /// The Cluster's infrastructure cluster.
    pub const CLUSTER_INFRASTRUCTURE_REF: &str = "spec.infrastructureRef";
    /// The Cluster's control plane.
    pub const CLUSTER_CONTROL_PLANE_REF: &str = "spec.controlPlaneRef";
    /// The control plane's infrastructure machine template.
    pub const CONTROL_PLANE_MACHINE_INFRASTRUCTURE_REF: &str =
        "spec.machineTemplate.spec.infrastructureRef";
    /// A MachineDeployment's or MachinePool's infrastructure template.
    pub const MACHINE_INFRASTRUCTURE_REF: &str = "spec.template.spec.infrastructureRef";
    /// A MachineDeployment's or MachinePool's bootstrap config template.
    pub const MACHINE_BOOTSTRAP_CONFIG_REF: &str = "spec.template.spec.bootstrap.configRef";
}

/// JSON Pointers into template objects, for hand-written patches.
pub mod pointer {
    /// Labels of the template object.
    pub const METADATA_LABELS: &str = "/metadata/labels";
    /// Annotations of the template object.
    pub const METADATA_ANNOTATIONS: &str = "/metadata/annotations";
    /// The spec of what the template stamps out.
    pub const SPEC_TEMPLATE_SPEC: &str = "/spec/template/spec";
    /// Labels given to what the template stamps out.
    pub const SPEC_TEMPLATE_METADATA_LABELS: &str = "/spec/template/metadata/labels";
    /// Annotations given to what the template stamps out.
    pub const SPEC_TEMPLATE_METADATA_ANNOTATIONS: &str = "/spec/template/metadata/annotations";
}
