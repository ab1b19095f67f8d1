//! The smallest useful extension: one handler, served over TLS with Discovery.

// ANCHOR: quickstart
use std::path::Path;

use capi_runtime::hooks::v1alpha1::{BeforeClusterCreateRequest, BeforeClusterCreateResponse};
use capi_runtime::server::{Context, Server, ServerError};

/// Refuses Clusters whose name is longer than a limit the team agreed on.
async fn before_cluster_create(
    request: BeforeClusterCreateRequest,
    context: Context,
) -> Result<BeforeClusterCreateResponse, String> {
    let name = request.cluster.metadata.name.clone().unwrap_or_default();
    if name.len() > 40 {
        // The text of an error becomes the message of a Failure response.
        return Err(format!(
            "cluster name {name:?} is longer than 40 characters"
        ));
    }
    let mut response = BeforeClusterCreateResponse::success();
    response.message = format!("checked by {}", context.handler_name());
    Ok(response)
}

/// The extension: certificates from `cert_dir` (`tls.crt`, `tls.key`), port 0 picks a free
/// port (use 9443, the default, in a Deployment).
pub fn server(cert_dir: &Path, port: u16) -> Result<Server, ServerError> {
    Server::builder()
        .cert_dir(cert_dir)
        .port(port)
        .handle("check-name", before_cluster_create)
        .build()
}
// ANCHOR_END: quickstart
