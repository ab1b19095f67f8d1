//! An example Runtime Extension built with `capi_runtime::server`: the Rust counterpart of
//! Cluster API's test extension.
//!
//! It serves every hook under upstream's handler names (see [`HANDLERS`]):
//! lifecycle hooks answer from a scripted file ([`lifecycle`]), the topology-mutation hooks
//! patch and check the sample ClusterClass in `clusterclass.yaml` ([`topology`]), and the
//! in-place update and upgrade-plan hooks do the simplest useful thing ([`in_place`]).
//! [`server_builder`] wires it all; the binary adds flags, logging and signals.

pub mod in_place;
pub mod lifecycle;
pub mod topology;

use std::sync::Arc;

use capi_runtime::hook::Hook;
use capi_runtime::hooks::v1alpha1::*;
use capi_runtime::server::{ServerBuilder, ServerError};
use lifecycle::{Script, ScriptError};

/// Every handler: the hook and its name, as upstream's test extension names them.
pub const HANDLERS: [(&str, &str); 16] = [
    ("BeforeClusterCreate", "before-cluster-create"),
    (
        "AfterControlPlaneInitialized",
        "after-control-plane-initialized",
    ),
    ("BeforeClusterUpgrade", "before-cluster-upgrade"),
    ("BeforeControlPlaneUpgrade", "before-control-plane-upgrade"),
    ("AfterControlPlaneUpgrade", "after-control-plane-upgrade"),
    ("BeforeWorkersUpgrade", "before-workers-upgrade"),
    ("AfterWorkersUpgrade", "after-workers-upgrade"),
    ("AfterClusterUpgrade", "after-cluster-upgrade"),
    ("BeforeClusterDelete", "before-cluster-delete"),
    ("GeneratePatches", "generate-patches"),
    ("ValidateTopology", "validate-topology"),
    ("DiscoverVariables", "discover-variables"),
    ("CanUpdateMachine", "can-update-machine"),
    ("CanUpdateMachineSet", "can-update-machineset"),
    ("UpdateMachine", "update-machine"),
    ("GenerateUpgradePlan", "generate-upgrade-plan"),
];

/// The handler name of hook `H`.
pub fn handler_name<H: Hook>() -> &'static str {
    HANDLERS
        .iter()
        .find(|(hook, _)| *hook == H::NAME)
        .map(|(_, name)| *name)
        .expect("every hook of the extension is listed in HANDLERS")
}

/// Registers a lifecycle hook answered from `script`; `attributes` gives the versions that
/// make up the hook's key stem.
fn scripted<H: Hook>(
    builder: ServerBuilder,
    hook: H,
    script: &Arc<Script>,
    attributes: fn(&H::Request) -> Vec<String>,
) -> Result<ServerBuilder, ServerError> {
    let script = script.clone();
    builder.handle(hook, handler_name::<H>(), move |request: H::Request| {
        let script = script.clone();
        async move {
            let attributes = attributes(&request);
            let attributes: Vec<&str> = attributes.iter().map(String::as_str).collect();
            script.answer::<H>(&request, &attributes).await
        }
    })
}

fn none<R>(_: &R) -> Vec<String> {
    Vec::new()
}

/// A builder with every handler of the extension registered; set the listener options on it
/// and build.
pub fn server_builder(script: &Arc<Script>) -> Result<ServerBuilder, ServerError> {
    let builder = ServerBuilder::new();
    let builder = scripted(builder, BeforeClusterCreate, script, none)?;
    let builder = scripted(builder, AfterControlPlaneInitialized, script, none)?;
    let builder = scripted(builder, BeforeClusterUpgrade, script, |r| {
        vec![
            r.from_kubernetes_version.clone(),
            r.to_kubernetes_version.clone(),
        ]
    })?;
    let builder = scripted(builder, BeforeControlPlaneUpgrade, script, |r| {
        vec![
            r.from_kubernetes_version.clone(),
            r.to_kubernetes_version.clone(),
        ]
    })?;
    let builder = scripted(builder, AfterControlPlaneUpgrade, script, |r| {
        vec![r.kubernetes_version.clone()]
    })?;
    let builder = scripted(builder, BeforeWorkersUpgrade, script, |r| {
        vec![
            r.from_kubernetes_version.clone(),
            r.to_kubernetes_version.clone(),
        ]
    })?;
    let builder = scripted(builder, AfterWorkersUpgrade, script, |r| {
        vec![r.kubernetes_version.clone()]
    })?;
    let builder = scripted(builder, AfterClusterUpgrade, script, |r| {
        vec![r.kubernetes_version.clone()]
    })?;
    let builder = scripted(builder, BeforeClusterDelete, script, none)?;

    let walker = Arc::new(topology::walker());
    let patches = walker.clone();
    let builder = builder.handle(
        GeneratePatches,
        handler_name::<GeneratePatches>(),
        move |request: GeneratePatchesRequest| {
            let response = patches.generate_patches(&request);
            async move { Ok::<_, ScriptError>(response) }
        },
    )?;
    let builder = builder.handle(
        ValidateTopology,
        handler_name::<ValidateTopology>(),
        move |request: ValidateTopologyRequest| {
            let response = walker.validate_topology(&request);
            async move { Ok::<_, ScriptError>(response) }
        },
    )?;
    let builder = builder.handle(
        DiscoverVariables,
        handler_name::<DiscoverVariables>(),
        |_: DiscoverVariablesRequest| async {
            Ok::<_, ScriptError>(topology::discover_variables())
        },
    )?;

    let builder = builder.handle(
        CanUpdateMachine,
        handler_name::<CanUpdateMachine>(),
        |request: CanUpdateMachineRequest| async move {
            Ok::<_, ScriptError>(in_place::can_update_machine(&request))
        },
    )?;
    let builder = builder.handle(
        CanUpdateMachineSet,
        handler_name::<CanUpdateMachineSet>(),
        |request: CanUpdateMachineSetRequest| async move {
            Ok::<_, ScriptError>(in_place::can_update_machine_set(&request))
        },
    )?;
    let updates = Arc::new(in_place::Updates::default());
    let builder = builder.handle(
        UpdateMachine,
        handler_name::<UpdateMachine>(),
        move |request: UpdateMachineRequest| {
            let response = updates.update_machine(&request);
            async move { Ok::<_, ScriptError>(response) }
        },
    )?;
    builder.handle(
        GenerateUpgradePlan,
        handler_name::<GenerateUpgradePlan>(),
        |request: GenerateUpgradePlanRequest| async move {
            in_place::generate_upgrade_plan(&request)
        },
    )
}
