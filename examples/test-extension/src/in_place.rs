//! In-place updates and upgrade plans, in the simplest form that still does the job.
//!
//! * CanUpdateMachine / CanUpdateMachineSet: a change of the Machine's (or the MachineSet
//!   template's) Kubernetes version is done in place; the answer patches the current object
//!   to the desired version. Everything else is left to a rollout.
//! * UpdateMachine: the first call for a Machine starts the update and asks Cluster API to come
//!   back in 5 seconds; the next call reports it done.
//! * GenerateUpgradePlan: one control-plane step per minor version between the current and the
//!   target version, and the same steps for workers when they lag behind.

use std::collections::BTreeSet;
use std::sync::Mutex;

use capi_runtime::hooks::v1alpha1::{
    CanUpdateMachineRequest, CanUpdateMachineResponse, CanUpdateMachineSetRequest,
    CanUpdateMachineSetResponse, GenerateUpgradePlanRequest, GenerateUpgradePlanResponse, Patch,
    PatchType, UpdateMachineRequest, UpdateMachineResponse, UpgradeStep,
};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::topology_mutation::PatchOperation;

/// Seconds UpdateMachine asks Cluster API to wait while an update runs.
pub const UPDATE_RETRY_SECONDS: i32 = 5;

/// A JSON Patch setting the version at `pointer` when it changes. `add` also replaces an
/// existing member, and works when the current object has no version yet.
fn version_patch(pointer: &str, current: &str, desired: &str) -> Patch {
    let ops = if current == desired {
        Vec::new()
    } else {
        vec![PatchOperation::Add {
            path: pointer.to_string(),
            value: desired.into(),
        }]
    };
    Patch {
        patch_type: Some(PatchType::JsonPatch),
        patch: ByteString(serde_json::to_vec(&ops).expect("patch operations serialize")),
    }
}

/// Answers CanUpdateMachine.
pub fn can_update_machine(request: &CanUpdateMachineRequest) -> CanUpdateMachineResponse {
    let mut response = CanUpdateMachineResponse::success();
    response.machine_patch = version_patch(
        "/spec/version",
        &request.current.machine.spec.version,
        &request.desired.machine.spec.version,
    );
    response
}

/// Answers CanUpdateMachineSet.
pub fn can_update_machine_set(request: &CanUpdateMachineSetRequest) -> CanUpdateMachineSetResponse {
    let mut response = CanUpdateMachineSetResponse::success();
    response.machine_set_patch = version_patch(
        "/spec/template/spec/version",
        &request.current.machine_set.spec.template.spec.version,
        &request.desired.machine_set.spec.template.spec.version,
    );
    response
}

/// The Machines whose update is under way, by `namespace/name`.
#[derive(Debug, Default)]
pub struct Updates {
    running: Mutex<BTreeSet<String>>,
}

impl Updates {
    /// Answers UpdateMachine.
    pub fn update_machine(&self, request: &UpdateMachineRequest) -> UpdateMachineResponse {
        let metadata = &request.desired.machine.metadata;
        let key = format!(
            "{}/{}",
            metadata.namespace.as_deref().unwrap_or_default(),
            metadata.name.as_deref().unwrap_or_default()
        );
        let mut response = UpdateMachineResponse::success();
        let mut running = self.running.lock().unwrap();
        if running.remove(&key) {
            response.message = "Extension completed updating Machine".into();
        } else {
            running.insert(key);
            response.retry_after_seconds = UPDATE_RETRY_SECONDS;
            response.message = "Extension is updating Machine".into();
        }
        response
    }
}

/// `(major, minor, rest)` of `v<major>.<minor>.<rest>`.
fn parse_version(version: &str) -> Option<(u64, u64, &str)> {
    let mut parts = version.strip_prefix('v')?.splitn(3, '.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor, parts.next()?))
}

/// Why no upgrade plan can be made; the text is the Failure message of GenerateUpgradePlan.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// A version is not `v<major>.<minor>.<patch>`.
    #[error("invalid Kubernetes version \"{0}\"")]
    InvalidVersion(String),
    /// The target is another major version, or older than the current one.
    #[error("cannot plan an upgrade from {from} to {to}")]
    Unreachable {
        /// The current version.
        from: String,
        /// The target version.
        to: String,
    },
}

/// Steps from `from` to `to`: `v<major>.<m>.0` for every minor in between, then `to`.
fn steps(from: &str, to: &str) -> Result<Vec<UpgradeStep>, PlanError> {
    let invalid = |v: &str| PlanError::InvalidVersion(v.to_string());
    let (from_major, from_minor, _) = parse_version(from).ok_or_else(|| invalid(from))?;
    let (to_major, to_minor, _) = parse_version(to).ok_or_else(|| invalid(to))?;
    if from_major != to_major || to_minor < from_minor {
        return Err(PlanError::Unreachable {
            from: from.to_string(),
            to: to.to_string(),
        });
    }
    if from == to {
        return Ok(Vec::new());
    }
    let mut steps: Vec<UpgradeStep> = (from_minor + 1..to_minor)
        .map(|m| UpgradeStep {
            version: format!("v{to_major}.{m}.0"),
        })
        .collect();
    steps.push(UpgradeStep {
        version: to.to_string(),
    });
    Ok(steps)
}

/// Answers GenerateUpgradePlan.
pub fn generate_upgrade_plan(
    request: &GenerateUpgradePlanRequest,
) -> Result<GenerateUpgradePlanResponse, PlanError> {
    let mut response = GenerateUpgradePlanResponse::success();
    response.control_plane_upgrades = steps(
        &request.from_control_plane_kubernetes_version,
        &request.to_kubernetes_version,
    )?;
    if !request.from_workers_kubernetes_version.is_empty() {
        response.workers_upgrades = steps(
            &request.from_workers_kubernetes_version,
            &request.to_kubernetes_version,
        )?;
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::{PlanError, steps};

    #[test]
    fn steps_visit_every_minor() {
        let versions: Vec<_> = steps("v1.30.2", "v1.33.1+build")
            .unwrap()
            .into_iter()
            .map(|s| s.version)
            .collect();
        assert_eq!(versions, ["v1.31.0", "v1.32.0", "v1.33.1+build"]);
        assert!(steps("v1.30.0", "v1.30.0").unwrap().is_empty());
        assert_eq!(
            steps("v1.31.0", "v1.30.0").unwrap_err().to_string(),
            "cannot plan an upgrade from v1.31.0 to v1.30.0"
        );
        assert!(matches!(
            steps("1.31", "v1.30.0"),
            Err(PlanError::InvalidVersion(v)) if v == "1.31"
        ));
    }
}
