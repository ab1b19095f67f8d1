//! Hooks of `hooks.runtime.cluster.x-k8s.io/v1alpha1`: the 17 hooks Cluster API calls, and
//! their request and response types.
//!
//! Every hook is a unit type implementing [`Hook`](crate::Hook); [`add_to_catalog`] is the one
//! place that lists them all.

// `pub(crate)` so that generated code (`crate::generated`) can name the types by module.
pub(crate) mod builtins;
pub(crate) mod cluster_shape;
pub(crate) mod common;
pub(crate) mod discovery;
pub(crate) mod in_place_update;
pub(crate) mod lifecycle;
pub(crate) mod lifecycle_v1beta1;
pub(crate) mod topology_mutation;
pub(crate) mod upgrade_plan;

pub use builtins::*;
pub use cluster_shape::{Arrival, ClusterApiShape, decode_request, decode_request_with};
pub use common::*;
pub use discovery::*;
pub use in_place_update::*;
pub use lifecycle::*;
pub use topology_mutation::*;
pub use upgrade_plan::*;

use crate::catalog::{Catalog, CatalogError};

/// The API group of the hooks.
pub const GROUP: &str = "hooks.runtime.cluster.x-k8s.io";
/// The API version of the hooks in this module.
pub const VERSION: &str = "v1alpha1";
/// `<group>/<version>`: the `apiVersion` of every message in this module.
pub const API_VERSION: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";
/// Seconds Cluster API waits for a handler when its Discovery entry gives no timeout.
pub const DEFAULT_HANDLERS_TIMEOUT_SECONDS: i32 = 10;

/// Registers every hook of this version in `catalog`.
pub fn add_to_catalog(catalog: &mut Catalog) -> Result<(), CatalogError> {
    catalog
        .register_described::<Discovery>()?
        .register_described::<BeforeClusterCreate>()?
        .register_described::<AfterControlPlaneInitialized>()?
        .register_described::<BeforeClusterUpgrade>()?
        .register_described::<BeforeControlPlaneUpgrade>()?
        .register_described::<AfterControlPlaneUpgrade>()?
        .register_described::<BeforeWorkersUpgrade>()?
        .register_described::<AfterWorkersUpgrade>()?
        .register_described::<AfterClusterUpgrade>()?
        .register_described::<BeforeClusterDelete>()?
        .register_described::<GeneratePatches>()?
        .register_described::<ValidateTopology>()?
        .register_described::<DiscoverVariables>()?
        .register_described::<CanUpdateMachine>()?
        .register_described::<CanUpdateMachineSet>()?
        .register_described::<UpdateMachine>()?
        .register_described::<GenerateUpgradePlan>()?;
    Ok(())
}
