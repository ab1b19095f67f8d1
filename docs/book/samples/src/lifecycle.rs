//! Lifecycle hooks: a blocking hook that holds upgrades back, and a notification.

// ANCHOR: blocking
use capi_runtime::hooks::v1alpha1::{
    AfterControlPlaneInitializedRequest, AfterControlPlaneInitializedResponse,
    BeforeClusterUpgradeRequest, BeforeClusterUpgradeResponse, FailurePolicy,
};
use capi_runtime::server::{HandlerOptions, ServerBuilder};

/// The annotation that asks this extension to hold a Cluster's upgrades.
pub const HOLD_ANNOTATION: &str = "example.com/hold-upgrades";

/// The setting (from the ExtensionConfig, or a ClusterClass patch) with the seconds Cluster
/// API should wait before asking again.
pub const RETRY_SETTING: &str = "retrySeconds";

/// Holds the upgrade while the Cluster carries [`HOLD_ANNOTATION`].
pub async fn before_cluster_upgrade(
    request: BeforeClusterUpgradeRequest,
) -> Result<BeforeClusterUpgradeResponse, String> {
    let mut response = BeforeClusterUpgradeResponse::success();
    let annotations = request.cluster.metadata.annotations.unwrap_or_default();
    if let Some(reason) = annotations.get(HOLD_ANNOTATION) {
        let retry = match request.settings.get(RETRY_SETTING) {
            Some(text) => text
                .parse::<i32>()
                .map_err(|e| format!("setting {RETRY_SETTING}={text:?}: {e}"))?,
            None => 30,
        };
        // Success with retryAfterSeconds > 0 blocks: Cluster API asks again later.
        response.retry_after_seconds = retry;
        response.message = format!(
            "upgrade to {} held: {reason}",
            request.to_kubernetes_version
        );
    }
    Ok(response)
}
// ANCHOR_END: blocking

// ANCHOR: notification
/// A notification: the answer cannot hold anything back. This one cannot fail either, so it
/// returns the response itself rather than a `Result`.
pub async fn after_control_plane_initialized(
    request: AfterControlPlaneInitializedRequest,
) -> AfterControlPlaneInitializedResponse {
    let mut response = AfterControlPlaneInitializedResponse::success();
    response.message = format!(
        "noted: control plane of {} is up",
        request.cluster.metadata.name.unwrap_or_default()
    );
    response
}

/// Both handlers on one server; the notification is advertised with a short timeout and
/// `Ignore`, so an outage of the extension never stops Cluster API.
pub fn register(builder: ServerBuilder) -> ServerBuilder {
    builder
        .handle("hold-upgrades", before_cluster_upgrade)
        .handle(
            HandlerOptions::new("note-control-plane")
                .timeout_seconds(5)
                .failure_policy(FailurePolicy::Ignore),
            after_control_plane_initialized,
        )
}
// ANCHOR_END: notification
