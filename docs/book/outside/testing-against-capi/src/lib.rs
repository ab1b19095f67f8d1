//! An extension with one ClusterClass variable and one GeneratePatches handler: it writes
//! `spec.patchedBy` and the owning team (the `owner` variable a Cluster sets) into the control
//! plane template of every topology whose ClusterClass names it in an external patch.

// ANCHOR: lib
use std::sync::Arc;

use capi_runtime::hooks::v1alpha1::GeneratePatchesRequest;
use capi_runtime::server::{Server, ServerBuilder};
use capi_runtime::topology_mutation::{VariableError, Walker};
use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

/// What the patch writes into the control plane's `spec.patchedBy`.
pub const PATCHED_BY: &str = "my-extension";
/// The control plane template this extension patches: here the test control plane provider's
/// (`capi-runtime-testenv`); an extension for kubeadm would name `KubeadmControlPlaneTemplate`.
pub const CONTROL_PLANE_GROUP: &str = "controlplane.capi-runtime.test";
/// Its kind.
pub const CONTROL_PLANE_TEMPLATE: &str = "TestControlPlaneTemplate";

/// The team that owns a Cluster. The ClusterClass variable `owner`: DiscoverVariables declares
/// it with the schema the derive writes, and every Cluster of the class must set it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Variable)]
#[variable(name = "owner", required)]
pub struct Owner {
    /// The team's name.
    #[schema(min_length = 1)]
    pub team: String,
}

/// The patches: the control plane template gets `patchedBy` and the owning team, read from the
/// Cluster's `owner` variable into its type.
pub fn walker() -> Walker {
    Walker::new().mutate_json(
        CONTROL_PLANE_GROUP,
        CONTROL_PLANE_TEMPLATE,
        |template, ctx| {
            let owner = ctx.variable::<Owner>()?;
            let spec = &mut template["spec"]["template"]["spec"];
            spec["patchedBy"] = PATCHED_BY.into();
            spec["owner"] = owner.team.into();
            Ok::<_, VariableError>(())
        },
    )
}

/// Every handler of the extension; `main` adds the listener options (address, port,
/// certificates) and serves it, and so does the test; `build()` reports any registration
/// mistake.
pub fn server_builder() -> ServerBuilder {
    let walker = Arc::new(walker());
    Server::builder()
        .handle("generate-patches",
            move |request: GeneratePatchesRequest| {
                let walker = walker.clone();
                async move { walker.generate_patches(&request) }
            },
        )
        .variable::<Owner>()
        .discover_variables("discover-variables")
}
// ANCHOR_END: lib
