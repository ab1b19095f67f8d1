//! GenerateUpgradePlan: one control-plane step per minor version.

// ANCHOR: plan
use capi_runtime::hooks::v1alpha1::{
    GenerateUpgradePlanRequest, GenerateUpgradePlanResponse, UpgradeStep,
};

/// `v1.31.4` → `(1, 31)`.
fn minor(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.trim_start_matches('v').split('.');
    let major = parts.next().and_then(|p| p.parse().ok());
    let minor = parts.next().and_then(|p| p.parse().ok());
    major.zip(minor)
}

/// Plans `v1.N.0` for every minor version between the current one and the target, ending with
/// the target itself; workers are left to Cluster API (an empty `workersUpgrades`).
pub async fn generate_upgrade_plan(
    request: GenerateUpgradePlanRequest,
) -> Result<GenerateUpgradePlanResponse, String> {
    let parse = |version: &str| {
        minor(version).ok_or_else(|| format!("{version:?} is not a Kubernetes version"))
    };
    let (major, from) = parse(&request.from_control_plane_kubernetes_version)?;
    let (target_major, to) = parse(&request.to_kubernetes_version)?;
    if major != target_major || to < from {
        return Err(format!(
            "cannot plan from {} to {}",
            request.from_control_plane_kubernetes_version, request.to_kubernetes_version
        ));
    }
    let mut response = GenerateUpgradePlanResponse::success();
    for step in from + 1..to {
        response.control_plane_upgrades.push(UpgradeStep {
            version: format!("v{major}.{step}.0"),
        });
    }
    response.control_plane_upgrades.push(UpgradeStep {
        version: request.to_kubernetes_version.clone(),
    });
    Ok(response)
}
// ANCHOR_END: plan
