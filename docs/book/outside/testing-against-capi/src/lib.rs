//! An extension with one GeneratePatches handler: it writes `spec.patchedBy` into the control
//! plane template of every topology whose ClusterClass names it in an external patch.

// ANCHOR: lib
use capi_runtime::hook::ResponseStatus;
use capi_runtime::hooks::v1alpha1::{
    GeneratePatches, GeneratePatchesRequest, GeneratePatchesResponse, GeneratePatchesResponseItem,
    PatchType,
};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::server::{ServerBuilder, ServerError};
use serde_json::json;

/// What the patch writes into the control plane's `spec.patchedBy`.
pub const PATCHED_BY: &str = "my-extension";

/// One JSON patch for each control plane template (the item whose holder field is the
/// Cluster's `spec.controlPlaneRef`); other templates are left alone.
pub fn generate_patches(request: GeneratePatchesRequest) -> GeneratePatchesResponse {
    let items = request
        .items
        .iter()
        .filter(|item| item.holder_reference.field_path == "spec.controlPlaneRef")
        .map(|item| {
            let ops = json!([
                {"op": "add", "path": "/spec/template/spec/patchedBy", "value": PATCHED_BY},
            ]);
            GeneratePatchesResponseItem {
                uid: item.uid.clone(),
                patch_type: PatchType::JsonPatch,
                patch: ByteString(ops.to_string().into_bytes()),
            }
        })
        .collect();
    GeneratePatchesResponse {
        status: ResponseStatus::Success,
        items,
        ..Default::default()
    }
}

/// Every handler of the extension; `main` adds the listener options (address, port,
/// certificates) and serves it, and so does the test.
pub fn server_builder() -> Result<ServerBuilder, ServerError> {
    ServerBuilder::new().handle(
        GeneratePatches,
        "generate-patches",
        |request: GeneratePatchesRequest| async move { generate_patches(request) },
    )
}
// ANCHOR_END: lib
