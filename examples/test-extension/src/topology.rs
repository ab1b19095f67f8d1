//! Topology mutation for the sample ClusterClass (`clusterclass.yaml`): the variables the
//! extension declares, the patches it makes, and the checks it runs.
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

use capi_runtime::api::core::v1beta2::{
    ClusterClassVariable, ClusterClassVariableMetadata, JSONSchemaProps, ValidationRule,
    VariableSchema, VariableSchemaMetadata,
};
use capi_runtime::go::errors::BoxError;
use capi_runtime::hooks::v1alpha1::DiscoverVariablesResponse;
use capi_runtime::raw::Json;
use capi_runtime::topology_mutation::{Template, TemplateContext, VariableError, Walker, paths};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The variable naming the image registry.
pub const IMAGE_REPOSITORY: &str = "imageRepository";
/// The variable with the control plane's rollout surge.
pub const MAX_SURGE: &str = "kubeadmControlPlaneMaxSurge";
/// The variable with extra files for every node.
pub const FILES: &str = "files";
/// The variable with extra commands run before kubeadm.
pub const PRE_KUBEADM_COMMANDS: &str = "preKubeadmCommands";
/// The variable with annotations for KubeadmConfigTemplates.
pub const CONFIG_TEMPLATE_ANNOTATIONS: &str = "kubeadmConfigTemplateAnnotations";
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
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct File {
    /// Where the file goes.
    pub path: String,
    /// Its content.
    pub content: String,
    /// `base64` when the content is encoded.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content_format: String,
}

/// The image repository; required by the ClusterClass, so its absence is an error.
fn image_repository(ctx: &TemplateContext<'_>) -> Result<String, VariableError> {
    ctx.variables.get_string(IMAGE_REPOSITORY)
}

/// A variable that may be absent: absent reads as `None`, anything else malformed is an error.
fn optional<T: serde::de::DeserializeOwned>(
    ctx: &TemplateContext<'_>,
    name: &str,
) -> Result<Option<T>, VariableError> {
    match ctx.variables.get_into(name) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(e),
    }
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
    if let Some(files) = optional::<Vec<File>>(ctx, FILES)? {
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
    if let Some(commands) = optional::<Vec<String>>(ctx, PRE_KUBEADM_COMMANDS)? {
        let list = &mut spec["preKubeadmCommands"];
        if !list.is_array() {
            *list = json!([]);
        }
        list.as_array_mut()
            .expect("made an array above")
            .extend(commands.into_iter().map(Value::from));
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
                if let Some(surge) = optional::<String>(ctx, MAX_SURGE)?.filter(|s| !s.is_empty()) {
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
            if let Some(annotations) =
                optional::<BTreeMap<String, String>>(ctx, CONFIG_TEMPLATE_ANNOTATIONS)?
            {
                t.metadata.annotations.extend(annotations);
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

/// The variables the patches read, with their schemas.
pub fn discover_variables() -> DiscoverVariablesResponse {
    let string = |description: &str| JSONSchemaProps {
        r#type: "string".into(),
        description: description.into(),
        ..Default::default()
    };
    let mut max_surge = string(
        "How many control-plane machines may be added during a rollout, as a number or a percentage.",
    );
    max_surge.r#default = Some(Json::from(json!("")));
    max_surge.example = Some(Json::from(json!("0")));
    max_surge.x_kubernetes_validations = vec![ValidationRule {
        rule: "self == \"\" || self.matches('^[0-9]+%?$')".into(),
        message_expression: "'\"' + self + '\" is neither a number nor a percentage'".into(),
        ..Default::default()
    }];
    let mut file = JSONSchemaProps {
        r#type: "object".into(),
        required: vec!["path".into(), "content".into()],
        ..Default::default()
    };
    file.properties = [
        ("path".to_string(), string("Where the file goes.")),
        ("content".to_string(), string("The content of the file.")),
        (
            "contentFormat".to_string(),
            string("`base64` when the content is encoded."),
        ),
    ]
    .into();
    let mut image_repository = string("The registry of the node and load balancer images.");
    image_repository.example = Some(Json::from(json!("kindest")));
    image_repository.x_metadata = VariableSchemaMetadata {
        labels: [("example.invalid/variable".to_string(), "image".to_string())].into(),
        annotations: [(
            "example.invalid/owner".to_string(),
            "test-extension".to_string(),
        )]
        .into(),
    };
    let variable = |name: &str, required: bool, schema: JSONSchemaProps| ClusterClassVariable {
        name: name.into(),
        required: Some(required),
        schema: VariableSchema {
            open_apiv3_schema: schema,
        },
        deprecated_v1_beta1_metadata: ClusterClassVariableMetadata::default(),
    };
    let mut response = DiscoverVariablesResponse::success();
    response.variables = vec![
        variable(MAX_SURGE, false, max_surge),
        variable(
            FILES,
            false,
            JSONSchemaProps {
                r#type: "array".into(),
                items: Some(Box::new(file)),
                ..Default::default()
            },
        ),
        variable(
            PRE_KUBEADM_COMMANDS,
            false,
            JSONSchemaProps {
                r#type: "array".into(),
                items: Some(Box::new(string("A shell command."))),
                ..Default::default()
            },
        ),
        variable(
            CONFIG_TEMPLATE_ANNOTATIONS,
            false,
            JSONSchemaProps {
                r#type: "object".into(),
                additional_properties: Some(Box::new(string("An annotation value."))),
                ..Default::default()
            },
        ),
        variable(IMAGE_REPOSITORY, true, image_repository),
    ];
    response
}
