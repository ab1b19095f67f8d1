//! Topology mutation: a typed template, a variable, and the walker that turns changes into
//! patches.

// ANCHOR: template
use capi_runtime::go::errors::BoxError;
use capi_runtime::hooks::v1alpha1::{
    GeneratePatchesRequest, GeneratePatchesResponse, ValidateTopologyRequest,
    ValidateTopologyResponse,
};
use capi_runtime::topology_mutation::{Template, TemplateContext, VariableError, Walker};
use serde::{Deserialize, Serialize};

/// The part of a DockerMachineTemplate this extension changes. Fields the type leaves out are
/// kept as they are: the walker only patches what the function changed.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct DockerMachineTemplate {
    /// `spec`.
    #[serde(default)]
    pub spec: Spec,
}

/// `spec` of the template.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Spec {
    /// `spec.template`.
    #[serde(default)]
    pub template: Resource,
}

/// `spec.template`.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Resource {
    /// `spec.template.spec`.
    #[serde(default)]
    pub spec: MachineSpec,
}

/// `spec.template.spec`.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MachineSpec {
    /// The node image.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub custom_image: String,
}

impl Template for DockerMachineTemplate {
    const GROUP: &'static str = "infrastructure.cluster.x-k8s.io";
    const KIND: &'static str = "DockerMachineTemplate";
}
// ANCHOR_END: template

// ANCHOR: walker
/// The ClusterClass variable naming the image registry.
pub const IMAGE_REPOSITORY: &str = "imageRepository";

/// `<imageRepository>/node:<version>`, the version being the one of the template's holder
/// (the control plane or a MachineDeployment), read from the builtin variable.
fn node_image(ctx: &TemplateContext<'_>) -> Result<String, VariableError> {
    let repository = ctx.variables.get_string(IMAGE_REPOSITORY)?;
    let version = match ctx
        .variables
        .get_string("builtin.machineDeployment.version")
    {
        Ok(version) => version,
        Err(e) if e.is_not_found() => ctx.variables.get_string("builtin.controlPlane.version")?,
        Err(e) => return Err(e),
    };
    Ok(format!("{repository}/node:{version}"))
}

/// One walker answers both hooks: its mutators make GeneratePatches answers, its validators
/// ValidateTopology answers.
pub fn walker() -> Walker {
    Walker::new()
        .mutate(|t: &mut DockerMachineTemplate, ctx| {
            t.spec.template.spec.custom_image = node_image(ctx)?;
            Ok::<(), VariableError>(())
        })
        .validate(|t: &DockerMachineTemplate, ctx| -> Result<(), BoxError> {
            let repository = ctx.variables.get_string(IMAGE_REPOSITORY)?;
            let image = &t.spec.template.spec.custom_image;
            if image.is_empty() || image.starts_with(&format!("{repository}/")) {
                Ok(())
            } else {
                Err(format!("image {image:?} does not come from {repository:?}").into())
            }
        })
}

/// The GeneratePatches handler.
pub async fn generate_patches(
    request: GeneratePatchesRequest,
) -> Result<GeneratePatchesResponse, String> {
    Ok(walker().generate_patches(&request))
}

/// The ValidateTopology handler.
pub async fn validate_topology(
    request: ValidateTopologyRequest,
) -> Result<ValidateTopologyResponse, String> {
    Ok(walker().validate_topology(&request))
}
// ANCHOR_END: walker
