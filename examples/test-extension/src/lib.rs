//! An example Runtime Extension built with `capi_runtime::server`: the Rust counterpart of
//! Cluster API's test extension.
//!
//! It serves every hook under upstream's handler names (see [`HANDLERS`]):
//! lifecycle hooks answer from a scripted file ([`lifecycle`]), the topology-mutation hooks
//! patch and check the sample ClusterClass in `clusterclass.yaml` ([`topology`]), and the
//! in-place update and upgrade-plan hooks do the simplest useful thing ([`in_place`]).
//! [`server_builder`] wires it all over the handlers' shared state, [`Extension`]; the binary
//! adds flags, logging and signals.

pub mod in_place;
pub mod lifecycle;
pub mod topology;

use std::sync::Arc;

use capi_runtime::hook::{Hook, RequestOf};
use capi_runtime::hooks::v1alpha1::*;
use capi_runtime::server::{Context, Server, ServerBuilder};
use capi_runtime::topology_mutation::Walker;
use lifecycle::Script;

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

/// What the handlers share, given to the server once ([`ServerBuilder::state`]) and read by
/// each handler from its `Context`: nothing is captured or cloned per handler or per call.
pub struct Extension {
    /// The scripted lifecycle answers.
    pub script: Arc<Script>,
    /// The topology patches and checks of the sample ClusterClass.
    walker: Walker,
    /// The in-place updates under way.
    updates: in_place::Updates,
}

impl Extension {
    /// The extension's state, answering lifecycle hooks from `script`.
    pub fn new(script: Arc<Script>) -> Self {
        Extension {
            script,
            walker: topology::walker(),
            updates: in_place::Updates::default(),
        }
    }
}

/// Lifecycle hooks answered from the extension's script, registered in the builder's chain.
trait Scripted {
    /// Registers hook `H` under its handler name, answered from the script; `attributes`
    /// gives the versions that make up the hook's key stem.
    fn scripted<H>(self, hook: H, attributes: fn(&H::Request) -> Vec<String>) -> Self
    where
        H: Hook,
        H::Request: RequestOf<Hook = H>;
}

impl Scripted for ServerBuilder<Extension> {
    fn scripted<H>(self, _hook: H, attributes: fn(&H::Request) -> Vec<String>) -> Self
    where
        H: Hook,
        H::Request: RequestOf<Hook = H>,
    {
        self.handle(
            handler_name::<H>(),
            move |request: H::Request, context: Context<Extension>| async move {
                let attributes = attributes(&request);
                let attributes: Vec<&str> = attributes.iter().map(String::as_str).collect();
                context
                    .state()
                    .script
                    .answer::<H>(&request, &attributes)
                    .await
            },
        )
    }
}

fn none<R>(_: &R) -> Vec<String> {
    Vec::new()
}

/// The versions a hook's request upgrades from and to.
macro_rules! from_to {
    () => {
        |r| {
            vec![
                r.from_kubernetes_version.clone(),
                r.to_kubernetes_version.clone(),
            ]
        }
    };
}

/// A builder with every handler of the extension registered over the state of
/// [`Extension::new`]`(script)`; set the listener options on it and build (which reports any
/// registration mistake).
pub fn server_builder(script: &Arc<Script>) -> ServerBuilder<Extension> {
    Server::builder()
        .state(Extension::new(script.clone()))
        .scripted(BeforeClusterCreate, none)
        .scripted(AfterControlPlaneInitialized, none)
        .scripted(BeforeClusterUpgrade, from_to!())
        .scripted(BeforeControlPlaneUpgrade, from_to!())
        .scripted(AfterControlPlaneUpgrade, |r| vec![r.kubernetes_version.clone()])
        .scripted(BeforeWorkersUpgrade, from_to!())
        .scripted(AfterWorkersUpgrade, |r| vec![r.kubernetes_version.clone()])
        .scripted(AfterClusterUpgrade, |r| vec![r.kubernetes_version.clone()])
        .scripted(BeforeClusterDelete, none)
        // These cannot fail: they return the response itself.
        .handle(handler_name::<GeneratePatches>(),
            |request: GeneratePatchesRequest, context: Context<Extension>| async move {
                context.state().walker.generate_patches(&request)
            },
        )
        .handle(handler_name::<ValidateTopology>(),
            |request: ValidateTopologyRequest, context: Context<Extension>| async move {
                context.state().walker.validate_topology(&request)
            },
        )
        .handle(handler_name::<DiscoverVariables>(),
            |_: DiscoverVariablesRequest| async { topology::discover_variables() },
        )
        .handle(handler_name::<CanUpdateMachine>(),
            |request: CanUpdateMachineRequest| async move { in_place::can_update_machine(&request) },
        )
        .handle(handler_name::<CanUpdateMachineSet>(),
            |request: CanUpdateMachineSetRequest| async move {
                in_place::can_update_machine_set(&request)
            },
        )
        .handle(handler_name::<UpdateMachine>(),
            |request: UpdateMachineRequest, context: Context<Extension>| async move {
                context.state().updates.update_machine(&request)
            },
        )
        .handle(handler_name::<GenerateUpgradePlan>(),
            |request: GenerateUpgradePlanRequest| async move {
                in_place::generate_upgrade_plan(&request)
            },
        )
}
