//! Cluster API core types of `cluster.x-k8s.io/v1beta2` that hook messages embed: Cluster,
//! Machine, MachineSet and ClusterClass variables, with everything their schemas reach.
//!
//! These are wire types (serde data, no behaviour); Cluster, Machine and MachineSet also carry
//! their object identity (`object::KubeObject`, and kube's `Resource` with feature `kube`). Their shapes follow Cluster API's Go types:
//! optional scalars are `Option`, optional strings and collections are left out when empty,
//! and struct values are left out when zero.

// `pub(crate)` so that generated code (`crate::generated`) can name the types by module.
pub(crate) mod cluster;
pub(crate) mod cluster_class;
pub(crate) mod common;
pub(crate) mod machine;
pub(crate) mod machine_set;
mod objects;
pub(crate) mod topology;

pub use cluster::*;
pub use cluster_class::*;
pub use common::*;
pub use machine::*;
pub use machine_set::*;
pub use topology::*;

/// The API group of the core types.
pub const GROUP: &str = "cluster.x-k8s.io";
/// The API version of the types in this module.
pub const VERSION: &str = "v1beta2";
