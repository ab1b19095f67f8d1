//! In-place updates: accept version changes in place, and report progress.

// ANCHOR: can_update
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use capi_runtime::hooks::v1alpha1::{
    CanUpdateMachineRequest, CanUpdateMachineResponse, Patch, PatchType, UpdateMachineRequest,
    UpdateMachineResponse,
};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::topology_mutation::PatchOperation;

/// Says a change of the Machine's Kubernetes version can be done in place: the patch makes the
/// current Machine look like the desired one in that field, so Cluster API sees no other
/// difference and does not fall back to a rollout for it.
pub async fn can_update_machine(
    request: CanUpdateMachineRequest,
) -> Result<CanUpdateMachineResponse, String> {
    let current = &request.current.machine.spec.version;
    let desired = &request.desired.machine.spec.version;
    let mut ops = Vec::new();
    if current != desired {
        ops.push(PatchOperation::Add {
            path: "/spec/version".into(),
            value: desired.clone().into(),
        });
    }
    let mut response = CanUpdateMachineResponse::success();
    response.machine_patch = Patch {
        patch_type: Some(PatchType::JsonPatch),
        patch: ByteString(serde_json::to_vec(&ops).map_err(|e| e.to_string())?),
    };
    Ok(response)
}
// ANCHOR_END: can_update

// ANCHOR: update
/// Remembers which Machines are being updated. The first call starts the work and asks to be
/// called again; a later call reports it done.
#[derive(Clone, Default)]
pub struct Updater {
    started: Arc<Mutex<HashSet<String>>>,
}

impl Updater {
    /// Answers UpdateMachine: `Success` with `retryAfterSeconds` > 0 means "in progress",
    /// `Success` with 0 means "done", `Failure` means the update failed.
    pub async fn update_machine(
        &self,
        request: UpdateMachineRequest,
    ) -> Result<UpdateMachineResponse, String> {
        let machine = request.desired.machine.metadata.name.unwrap_or_default();
        let first_call = self.started.lock().unwrap().insert(machine.clone());
        let mut response = UpdateMachineResponse::success();
        if first_call {
            // Start the real work here (an agent on the host, a cloud API, ...).
            response.retry_after_seconds = 5;
            response.message = format!("updating {machine}");
        } else {
            response.message = format!("{machine} is up to date");
        }
        Ok(response)
    }
}
// ANCHOR_END: update
