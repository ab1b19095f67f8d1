//! Topology mutation for the sample ClusterClass (`clusterclass.yaml`): the variables the
//! extension declares (each a type with `#[derive(Variable)]`, e.g. [`ImageRepository`]), the
//! patches it makes, and the checks it runs.
//!
//! * DockerClusterTemplate: the load balancer image comes from the `imageRepository` variable.
//! * DockerMachineTemplate: machines run `<imageRepository>/node:<version>`, the version being
//!   the control plane's or the MachineDeployment's, by holder.
//! * KubeadmControlPlaneTemplate (v1beta2): `files` and `preKubeadmCommands` are appended, a
//!   `kubeadmControlPlaneMaxSurge` sets `spec.template.spec.rollout.strategy` to a
//!   `RollingUpdate` with that `maxSurge`, and the kubelet gets `v=2`.
//! * KubeadmConfigTemplate: `files`, `preKubeadmCommands`, the
//!   `kubeadmConfigTemplateAnnotations` and a `kubernetesVersion` node label.
//!
//! ValidateTopology rejects machine templates whose image does not come from `imageRepository`.

use std::collections::BTreeMap;

use capi_runtime::go::errors::BoxError;
use capi_runtime::hooks::v1alpha1::DiscoverVariablesResponse;
use capi_runtime::topology_mutation::{Template, TemplateContext, VariableError, Walker, paths};
use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// The variables, each declared once as a type: `#[derive(Variable)]` writes its schema (from
// the doc comments and `#[schema(...)]` markers), `definition()` is what DiscoverVariables
// lists, and `ctx.variable::<T>()` reads a Cluster's value into it (`ctx.optional_variable`
// for a variable the class does not require: `None` when the Cluster does not set it). A
// newtype used as a list item or map value (`Command`, `AnnotationValue`) describes that item
// with its doc comment.

/// How many control-plane machines may be added during a rollout, as a number or a percentage.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
#[variable(name = "kubeadmControlPlaneMaxSurge")]
#[schema(
    default = "",
    example = "0",
    x_validation(
        rule = r#"self == "" || self.matches('^[0-9]+%?$')"#,
        message_expression = r#"'"' + self + '" is neither a number nor a percentage'"#
    )
)]
pub struct MaxSurge(pub String);

/// Extra files written onto every node.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
#[variable(name = "files")]
pub struct Files(pub Vec<File>);

/// Extra commands every node runs before kubeadm.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
#[variable(name = "preKubeadmCommands")]
pub struct PreKubeadmCommands(pub Vec<Command>);

/// A shell command.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
pub struct Command(pub String);

/// Annotations added to the KubeadmConfigTemplates.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
#[variable(name = "kubeadmConfigTemplateAnnotations")]
pub struct ConfigTemplateAnnotations(pub BTreeMap<String, AnnotationValue>);

/// An annotation value.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
pub struct AnnotationValue(pub String);

/// The registry of the node and load balancer images.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
#[variable(
    name = "imageRepository",
    required,
    label(key = "example.invalid/variable", value = "image"),
    annotation(key = "example.invalid/owner", value = "test-extension")
)]
#[schema(example = "kindest")]
pub struct ImageRepository(pub String);

/// The variable naming the image registry.
pub const IMAGE_REPOSITORY: &str = ImageRepository::NAME;
/// The variable with the control plane's rollout surge.
pub const MAX_SURGE: &str = MaxSurge::NAME;
/// The variable with extra files for every node.
pub const FILES: &str = Files::NAME;
/// The variable with extra commands run before kubeadm.
pub const PRE_KUBEADM_COMMANDS: &str = PreKubeadmCommands::NAME;
/// The variable with annotations for KubeadmConfigTemplates.
pub const CONFIG_TEMPLATE_ANNOTATIONS: &str = ConfigTemplateAnnotations::NAME;
/// The rollout strategy type the surge belongs to.
pub const ROLLING_UPDATE: &str = "RollingUpdate";
/// The holder kind of control-plane machine templates.
pub const KUBEADM_CONTROL_PLANE: &str = "KubeadmControlPlane";

const INFRASTRUCTURE_GROUP: &str = "infrastructure.cluster.x-k8s.io";

/// Object metadata, as far as the patches need it.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Metadata {
    /// Annotations of the template object.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// A DockerClusterTemplate, reduced to the load balancer image repository.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct DockerClusterTemplate {
    /// Its spec.
    #[serde(default)]
    pub spec: Value,
}

impl Template for DockerClusterTemplate {
    const GROUP: &'static str = INFRASTRUCTURE_GROUP;
    const KIND: &'static str = "DockerClusterTemplate";
}

/// A DockerMachineTemplate, reduced to the machine image.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct DockerMachineTemplate {
    /// Its spec.
    #[serde(default)]
    pub spec: DockerMachineTemplateSpec,
}

/// `spec` of a DockerMachineTemplate.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct DockerMachineTemplateSpec {
    /// `spec.template`.
    #[serde(default)]
    pub template: DockerMachineTemplateResource,
}

/// `spec.template` of a DockerMachineTemplate.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct DockerMachineTemplateResource {
    /// `spec.template.spec`.
    #[serde(default)]
    pub spec: DockerMachineSpec,
}

/// The machine spec of a DockerMachineTemplate.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DockerMachineSpec {
    /// The node image.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub custom_image: String,
}

impl Template for DockerMachineTemplate {
    const GROUP: &'static str = INFRASTRUCTURE_GROUP;
    const KIND: &'static str = "DockerMachineTemplate";
}

/// A KubeadmConfigTemplate, reduced to what the patches change.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct KubeadmConfigTemplate {
    /// Its metadata.
    #[serde(default)]
    pub metadata: Metadata,
    /// Its spec.
    #[serde(default)]
    pub spec: Value,
}

impl Template for KubeadmConfigTemplate {
    const GROUP: &'static str = "bootstrap.cluster.x-k8s.io";
    const KIND: &'static str = "KubeadmConfigTemplate";
}

/// A file written onto a node, as the `files` variable holds it.
#[derive(Clone, Debug, Serialize, Deserialize, Variable)]
#[serde(rename_all = "camelCase")]
pub struct File {
    /// Where the file goes.
    pub path: String,
    /// The content of the file.
    pub content: String,
    /// `base64` when the content is encoded.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content_format: String,
}

/// The image repository; required by the ClusterClass, so its absence is an error.
fn image_repository(ctx: &TemplateContext<'_>) -> Result<String, VariableError> {
    Ok(ctx.variable::<ImageRepository>()?.0)
}

/// The Kubernetes version of the machines a template is for.
fn machine_version(ctx: &TemplateContext<'_>) -> Result<String, VariableError> {
    let path = if ctx.holder.kind == KUBEADM_CONTROL_PLANE {
        paths::builtin::CONTROL_PLANE_VERSION
    } else if ctx.holder.kind == paths::holder_kind::MACHINE_POOL {
        paths::builtin::MACHINE_POOL_VERSION
    } else {
        paths::builtin::MACHINE_DEPLOYMENT_VERSION
    };
    ctx.variables.get_string(path)
}

/// The node image for a version; `+` is not allowed in image tags.
pub fn node_image(repository: &str, version: &str) -> String {
    format!("{repository}/node:{}", version.replace('+', "_"))
}

/// Appends the `files` and `preKubeadmCommands` variables to a kubeadm config spec.
fn add_files_and_commands(
    spec: &mut Value,
    ctx: &TemplateContext<'_>,
) -> Result<(), VariableError> {
    if let Some(Files(files)) = ctx.optional_variable()? {
        let list = &mut spec["files"];
        if !list.is_array() {
            *list = json!([]);
        }
        let list = list.as_array_mut().expect("made an array above");
        list.extend(
            files
                .iter()
                .map(|f| serde_json::to_value(f).expect("a File serializes")),
        );
    }
    if let Some(PreKubeadmCommands(commands)) = ctx.optional_variable()? {
        let list = &mut spec["preKubeadmCommands"];
        if !list.is_array() {
            *list = json!([]);
        }
        list.as_array_mut()
            .expect("made an array above")
            .extend(commands.into_iter().map(|Command(c)| Value::from(c)));
    }
    Ok(())
}

/// The walker answering GeneratePatches and ValidateTopology for the sample ClusterClass.
pub fn walker() -> Walker {
    Walker::new()
        .fail_for_unknown_types(true)
        .mutate(|t: &mut DockerClusterTemplate, ctx| {
            t.spec["template"]["spec"]["loadBalancer"]["imageRepository"] =
                image_repository(ctx)?.into();
            Ok::<_, VariableError>(())
        })
        .mutate(|t: &mut DockerMachineTemplate, ctx| {
            t.spec.template.spec.custom_image =
                node_image(&image_repository(ctx)?, &machine_version(ctx)?);
            Ok::<_, VariableError>(())
        })
        .mutate_json(
            "controlplane.cluster.x-k8s.io",
            "KubeadmControlPlaneTemplate",
            |object, ctx| {
                let spec = &mut object["spec"]["template"]["spec"];
                add_files_and_commands(&mut spec["kubeadmConfigSpec"], ctx)?;
                if let Some(MaxSurge(surge)) = ctx.optional_variable::<MaxSurge>()?.filter(|MaxSurge(s)| !s.is_empty()) {
                    // v1beta2 moved v1beta1's `rolloutStrategy` to `rollout.strategy`.
                    let strategy = &mut spec["rollout"]["strategy"];
                    strategy["type"] = ROLLING_UPDATE.into();
                    strategy["rollingUpdate"]["maxSurge"] = surge_value(&surge);
                }
                let args = &mut spec["kubeadmConfigSpec"]["initConfiguration"]["nodeRegistration"]
                    ["kubeletExtraArgs"];
                append_arg(args, "v", "2");
                Ok::<_, VariableError>(())
            },
        )
        .mutate(|t: &mut KubeadmConfigTemplate, ctx| {
            let spec = &mut t.spec["template"]["spec"];
            add_files_and_commands(spec, ctx)?;
            let version = machine_version(ctx)?;
            let args =
                &mut spec["joinConfiguration"]["nodeRegistration"]["kubeletExtraArgs"];
            append_arg(args, "node-labels", &format!("kubernetesVersion={}", version.replace('+', "_")));
            if let Some(ConfigTemplateAnnotations(annotations)) = ctx.optional_variable()? {
                t.metadata
                    .annotations
                    .extend(annotations.into_iter().map(|(k, AnnotationValue(v))| (k, v)));
            }
            Ok::<_, VariableError>(())
        })
        .validate(|t: &DockerMachineTemplate, ctx| -> Result<(), BoxError> {
            // A VariableError (with `?`) and a message are both errors of the function.
            let repository = image_repository(ctx)?;
            let image = &t.spec.template.spec.custom_image;
            if image.starts_with(&format!("{repository}/")) {
                Ok(())
            } else {
                Err(format!(
                    "{} uses image \"{image}\", which is not from the image repository \"{repository}\"",
                    ctx.holder_ref()
                )
                .into())
            }
        })
}

/// kubelet extra args in the v1beta2 list form: `[{name, value}]`.
fn append_arg(args: &mut Value, name: &str, value: &str) {
    if !args.is_array() {
        *args = json!([]);
    }
    args.as_array_mut()
        .expect("made an array above")
        .push(json!({"name": name, "value": value}));
}

/// A surge is an integer or a percentage string.
fn surge_value(surge: &str) -> Value {
    surge
        .parse::<i64>()
        .map_or_else(|_| Value::from(surge), Value::from)
}

/// The variables the patches read, with their schemas, in the order DiscoverVariables lists
/// them.
pub fn discover_variables() -> DiscoverVariablesResponse {
    let mut response = DiscoverVariablesResponse::success();
    response.variables = vec![
        MaxSurge::definition(),
        Files::definition(),
        PreKubeadmCommands::definition(),
        ConfigTemplateAnnotations::definition(),
        ImageRepository::definition(),
    ];
    response
}
