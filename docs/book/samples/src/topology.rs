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

// ANCHOR: variables
use capi_runtime::api::core::v1beta2::{ClusterClassVariable, JSONSchemaProps, VariableSchema};
use capi_runtime::hooks::v1alpha1::{DiscoverVariablesRequest, DiscoverVariablesResponse};
use capi_runtime::raw::Json;
use capi_runtime::server::ServerBuilder;

/// The registry `imageRepository` names when a Cluster gives no value.
pub const DEFAULT_IMAGE_REPOSITORY: &str = "registry.k8s.io";

/// The DiscoverVariables handler: the variables the walker reads, with their schemas. Cluster
/// API adds them to the ClusterClass's `status.variables`.
pub async fn discover_variables(
    _request: DiscoverVariablesRequest,
) -> Result<DiscoverVariablesResponse, String> {
    let schema = JSONSchemaProps {
        // `type` is a Rust keyword, so the field is spelled `r#type` (`enum` likewise).
        r#type: "string".into(),
        default: Some(Json::from_serialize(DEFAULT_IMAGE_REPOSITORY).map_err(|e| e.to_string())?),
        description: "The registry the node images are pulled from.".into(),
        ..Default::default()
    };
    let mut response = DiscoverVariablesResponse::success();
    response.variables.push(ClusterClassVariable {
        name: IMAGE_REPOSITORY.into(),
        required: Some(false),
        schema: VariableSchema {
            open_apiv3_schema: schema,
        },
        ..Default::default()
    });
    Ok(response)
}

/// The three topology handlers on one server. Each handler has a name of its own: a
/// ClusterClass names them one by one (`generatePatchesExtension`, `validateTopologyExtension`,
/// `discoverVariablesExtension`).
pub fn register(builder: ServerBuilder) -> ServerBuilder {
    builder
        .handle("generate-patches", generate_patches)
        .handle("validate-topology", validate_topology)
        .handle("discover-variables", discover_variables)
}
// ANCHOR_END: variables
