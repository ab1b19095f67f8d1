//! `#[derive(Variable)]`: the `ClusterClassVariable` a Rust type declares, its schema written
//! as the CRD generator writes a structural schema, in Cluster API's subset.

use std::collections::BTreeMap;

use capi_runtime::Schema;
use capi_runtime::variable::{Variable, schema_of};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Where the Cluster's images come from.
#[derive(Debug, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[serde(rename_all = "camelCase")]
#[variable(
    name = "registry",
    required,
    label(key = "example.com/team", value = "platform"),
    annotation(key = "example.com/note", value = "read by tools")
)]
#[schema(x_validation(rule = "self.host != 'localhost'", message = "not the local host"))]
pub struct Registry {
    /// Host name of the registry.
    #[schema(min_length = 1, max_length = 253, pattern = "^[a-z0-9.-]+$")]
    pub host: String,
    /// Port of the registry.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 65535, default = 443)]
    pub port: Option<i32>,
    /// How to log in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth: Option<Auth>,
    /// Mirrors tried in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 3)]
    pub mirrors: Vec<Mirror>,
    /// Extra headers.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// The protocol.
    #[serde(default)]
    pub scheme: Scheme,
}

/// Credentials.
#[derive(Debug, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[serde(rename_all = "camelCase")]
pub struct Auth {
    /// Name of the Secret that holds them.
    pub secret_name: SecretName,
}

/// A Secret's name.
#[derive(Debug, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[schema(max_length = 63)]
pub struct SecretName(pub String);

/// A mirror.
#[derive(Debug, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
pub struct Mirror {
    /// Its URL.
    pub url: String,
}

/// A protocol.
#[derive(Debug, Default, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Plain HTTP.
    Http,
    /// HTTP over TLS.
    #[default]
    Https,
}

/// Limits of the Cluster's workers.
#[derive(Debug, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[serde(rename_all = "camelCase")]
#[variable(name = "limits")]
#[schema(x_validation(
    rule = "self.share < 1.0 || size(self.zones) > 1",
    message_expression = "'a whole share needs zones, not ' + string(size(self.zones))",
    reason = "FieldValueForbidden",
    field_path = ".zones"
))]
pub struct Limits {
    /// Share of the nodes, strictly between 0 and 1.
    #[schema(minimum = 0, exclusive_minimum, maximum = 1, example = 0.5)]
    pub share: f64,
    /// Zones, each once.
    #[serde(default)]
    #[schema(unique_items, example_json = r#"["a", "b"]"#)]
    pub zones: Vec<String>,
    /// The port, by number or name.
    pub port: IntOrString,
    /// Until when.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Time>,
    /// Settings passed on as they are.
    #[serde(default)]
    #[schema(preserve_unknown_fields)]
    pub settings: BTreeMap<String, String>,
    /// A serial, written in hex.
    #[schema(format = "hex", pattern = "^[0-9a-f]+$")]
    pub serial: String,
}

/// How many nodes a rollout may add, as a number or a percentage.
#[derive(Debug, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[variable(name = "surge")]
#[schema(max_length = 4, default = "1")]
pub struct Surge(pub String);

/// How a rollout proceeds.
#[derive(Debug, Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[serde(rename_all = "camelCase")]
#[variable(name = "rollout")]
pub struct Rollout {
    /// The workers' surge: the surge's own default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surge: Option<Surge>,
    /// The control plane's surge, with a default of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(default = "0")]
    pub control_plane_surge: Option<Surge>,
}

#[test]
fn a_type_declares_its_cluster_class_variable() {
    let variable = Registry::definition();
    assert_eq!(
        serde_json::to_value(&variable).unwrap(),
        json!({
            "name": "registry",
            "required": true,
            "schema": { "openAPIV3Schema": {
                "description": "Where the Cluster's images come from.",
                "type": "object",
                "required": ["host", "scheme"],
                "x-kubernetes-validations": [
                    { "rule": "self.host != 'localhost'", "message": "not the local host" }
                ],
                "x-metadata": {
                    "labels": { "example.com/team": "platform" },
                    "annotations": { "example.com/note": "read by tools" },
                },
                "properties": {
                    "host": {
                        "description": "Host name of the registry.",
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 253,
                        "pattern": "^[a-z0-9.-]+$",
                    },
                    "port": {
                        "description": "Port of the registry.",
                        "type": "integer",
                        "format": "int32",
                        "minimum": 1,
                        "maximum": 65535,
                        "default": 443,
                    },
                    "auth": {
                        "description": "How to log in.",
                        "type": "object",
                        "required": ["secretName"],
                        "properties": {
                            "secretName": {
                                "description": "Name of the Secret that holds them.",
                                "type": "string",
                                "maxLength": 63,
                            },
                        },
                    },
                    "mirrors": {
                        "description": "Mirrors tried in order.",
                        "type": "array",
                        "maxItems": 3,
                        "items": {
                            "description": "A mirror.",
                            "type": "object",
                            "required": ["url"],
                            "properties": {
                                "url": { "description": "Its URL.", "type": "string" },
                            },
                        },
                    },
                    "headers": {
                        "description": "Extra headers.",
                        "type": "object",
                        "additionalProperties": { "type": "string" },
                    },
                    "scheme": {
                        "description": "The protocol.",
                        "type": "string",
                        "enum": ["http", "https"],
                    },
                },
            } },
        })
    );
}

#[test]
fn a_part_of_a_variable_has_its_schema_and_no_name() {
    let schema = serde_json::to_value(schema_of::<Auth>()).unwrap();
    assert_eq!(schema["description"], "Credentials.");
    assert_eq!(schema["properties"]["secretName"]["maxLength"], 63);
    // A newtype's part carries its doc comment, for the sites that keep it (a list item, a
    // map value); a field replaces it with its own.
    let newtype = serde_json::to_value(schema_of::<SecretName>()).unwrap();
    assert_eq!(
        newtype,
        json!({ "description": "A Secret's name.", "type": "string", "maxLength": 63 })
    );
}

/// A second variable, to see that the server lists both in their order.
#[derive(Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[variable(name = "proxy")]
pub struct Proxy(pub String);

#[cfg(feature = "server")]
#[tokio::test]
async fn the_server_answers_discover_variables_from_the_declared_types() {
    use capi_runtime::hooks::v1alpha1::{DiscoverVariablesRequest, ResponseStatus};
    use capi_runtime::server::Server;

    // Declared before and after the handler: it answers with both.
    let server = Server::builder()
        .variable::<Registry>()
        .discover_variables("discover-variables")
        .variable::<Proxy>()
        .build();
    let response = server
        .unwrap()
        .in_process()
        .call("discover-variables", &DiscoverVariablesRequest::default())
        .await
        .unwrap();
    assert_eq!(response.status, ResponseStatus::Success);
    assert_eq!(
        response.variables,
        [Registry::definition(), Proxy::definition()]
    );
    assert_eq!(
        serde_json::to_value(&response.variables[1]).unwrap(),
        json!({
            "name": "proxy",
            "required": false,
            "schema": { "openAPIV3Schema": {
                "description": "A second variable, to see that the server lists both in their order.",
                "type": "string",
            } },
        })
    );
}

#[cfg(feature = "server")]
#[test]
fn a_variable_declared_twice_or_never_answered_is_refused_at_build() {
    use capi_runtime::go::errors::chain;
    use capi_runtime::server::Server;

    let twice = Server::builder()
        .variable::<Registry>()
        .variable::<Registry>()
        .discover_variables("discover-variables")
        .build()
        .unwrap_err();
    let message = chain(&twice).to_string();
    assert!(
        message.starts_with("the variable \"registry\" is declared twice"),
        "{message}"
    );

    let unanswered = Server::builder().variable::<Proxy>().build().unwrap_err();
    assert_eq!(
        chain(&unanswered).to_string(),
        "variables are declared (proxy) but no handler answers DiscoverVariables with them; \
         call `discover_variables` on the builder"
    );
}

#[cfg(feature = "topology-mutation")]
mod walker {
    use capi_runtime::go::errors::chain;
    use capi_runtime::hooks::v1alpha1::{
        GeneratePatchesRequest, GeneratePatchesRequestItem, HolderReference, ResponseStatus,
        Variable as RequestVariable,
    };
    use capi_runtime::raw::{Json, RawExtension};
    use capi_runtime::topology_mutation::{
        Template, TemplateContext, VariableError, Variables, Walker,
    };
    use serde::{Deserialize, Serialize};
    use serde_json::{Value, json};

    use super::Registry;

    #[derive(Serialize, Deserialize, Default)]
    struct MachineTemplate {
        #[serde(default)]
        spec: Spec,
    }

    #[derive(Serialize, Deserialize, Default)]
    struct Spec {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        image: String,
    }

    impl Template for MachineTemplate {
        const GROUP: &'static str = "infrastructure.cluster.x-k8s.io";
        const KIND: &'static str = "TestMachineTemplate";
    }

    fn set_image(t: &mut MachineTemplate, ctx: &TemplateContext<'_>) -> Result<(), VariableError> {
        let registry: Registry = ctx.variable()?;
        t.spec.image = format!("{}:{}/node", registry.host, registry.port.unwrap_or(443));
        Ok(())
    }

    fn request(registry: Value) -> GeneratePatchesRequest {
        GeneratePatchesRequest {
            variables: vec![RequestVariable {
                name: "registry".into(),
                value: Json::from(registry),
            }],
            items: vec![GeneratePatchesRequestItem {
                uid: "1".into(),
                holder_reference: HolderReference {
                    api_version: "cluster.x-k8s.io/v1beta2".into(),
                    kind: "MachineDeployment".into(),
                    namespace: "ns".into(),
                    name: "md".into(),
                    field_path: "spec.template.spec.infrastructureRef".into(),
                },
                object: RawExtension::from(json!({
                    "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1",
                    "kind": "TestMachineTemplate",
                    "spec": {},
                })),
                variables: Vec::new(),
            }],
            ..Default::default()
        }
    }

    #[test]
    fn a_template_function_reads_a_variable_into_its_type() {
        let walker = Walker::new().mutate(set_image);
        let response = walker.generate_patches(&request(json!({
            "host": "registry.example.com",
            "port": 5000,
            "scheme": "https",
        })));
        assert_eq!(
            response.status,
            ResponseStatus::Success,
            "{}",
            response.message
        );
        let patch: Value = serde_json::from_slice(&response.items[0].patch.0).unwrap();
        assert_eq!(
            patch,
            json!([{ "op": "add", "path": "/spec/image", "value": "registry.example.com:5000/node" }])
        );
    }

    #[test]
    fn a_bad_value_fails_naming_the_variable_and_the_field() {
        let walker = Walker::new().mutate(set_image);
        let response = walker.generate_patches(&request(json!({
            "host": "registry.example.com",
            "port": "5000",
            "scheme": "https",
        })));
        assert_eq!(response.status, ResponseStatus::Failure);
        assert_eq!(
            response.message,
            "invalid value of variable \"registry\" at registry.port: invalid type: string \
             \"5000\", expected i32"
        );

        let mut variables = Variables::default();
        variables.insert(
            "registry",
            json!({ "host": "h", "scheme": "ftp", "mirrors": [{}] }),
        );
        let error = variables.variable::<Registry>().unwrap_err();
        assert!(
            matches!(
                &error,
                VariableError::Invalid { name: "registry", path, .. } if path == "registry.mirrors[0]"
            ),
            "{error:?}"
        );
        assert_eq!(
            chain(&error).to_string(),
            "invalid value of variable \"registry\" at registry.mirrors[0]: missing field `url`"
        );
    }

    #[test]
    fn a_missing_variable_is_not_found() {
        let error = Variables::default().variable::<Registry>().unwrap_err();
        assert!(error.is_not_found());
        assert_eq!(error.to_string(), "variable \"registry\" does not exist");
    }

    /// The image of [`set_image`], or `unset` when the Cluster sets no registry.
    fn set_image_if_set(
        t: &mut MachineTemplate,
        ctx: &TemplateContext<'_>,
    ) -> Result<(), VariableError> {
        t.spec.image = match ctx.optional_variable::<Registry>()? {
            Some(registry) => registry.host,
            None => "unset".to_string(),
        };
        Ok(())
    }

    #[test]
    fn an_optional_variable_is_none_when_missing_and_an_error_when_bad() {
        assert!(
            Variables::default()
                .optional_variable::<Registry>()
                .unwrap()
                .is_none()
        );
        let mut variables = Variables::default();
        variables.insert("registry", json!({ "host": "h", "scheme": "https" }));
        let read = variables.optional_variable::<Registry>().unwrap();
        assert_eq!(read.map(|r| r.host).as_deref(), Some("h"));
        variables.insert("registry", json!({ "host": 1 }));
        let error = variables.optional_variable::<Registry>().unwrap_err();
        assert!(!error.is_not_found(), "{error:?}");

        let walker = Walker::new().mutate(set_image_if_set);
        let mut missing = request(json!({}));
        missing.variables.clear();
        let patch = |response: capi_runtime::hooks::v1alpha1::GeneratePatchesResponse| {
            assert_eq!(
                response.status,
                ResponseStatus::Success,
                "{}",
                response.message
            );
            serde_json::from_slice::<Value>(&response.items[0].patch.0).unwrap()
        };
        assert_eq!(
            patch(walker.generate_patches(&missing)),
            json!([{ "op": "add", "path": "/spec/image", "value": "unset" }])
        );
        let bad = walker.generate_patches(&request(json!({ "host": 1 })));
        assert_eq!(bad.status, ResponseStatus::Failure);
        assert!(bad.message.contains("registry.host"), "{}", bad.message);
    }
}

/// The schema a type declares is the CRD emitter's structural schema of that type, as the
/// generator computes it from the source of this file: one model, one schema writer.
#[test]
fn the_schema_is_the_crd_emitters_of_the_same_type() {
    let source = capi_runtime_codegen::SourceFile::in_crate(
        "tests/it/variable_types.rs",
        "lib.rs",
        include_str!("variable_types.rs"),
    );
    let model = capi_runtime_codegen::load(&[source]).unwrap_or_else(|f| panic!("{f}"));
    let crd = |ident: &str| {
        let index = model
            .types
            .iter()
            .position(|t| t.ident == ident)
            .unwrap_or_else(|| panic!("no type {ident} in the model"));
        let named = serde_json::from_value(json!({ "path": ident, "id": index })).unwrap();
        capi_runtime_codegen::emit::crd::type_schema(&model, &named)
    };
    let ours = |schema| serde_json::to_value(schema).unwrap();
    assert_eq!(ours(schema_of::<Registry>()), crd("Registry"));
    assert_eq!(ours(schema_of::<Auth>()), crd("Auth"));
    assert_eq!(ours(schema_of::<SecretName>()), crd("SecretName"));
    assert_eq!(ours(schema_of::<Mirror>()), crd("Mirror"));
    assert_eq!(ours(schema_of::<Scheme>()), crd("Scheme"));
    assert_eq!(ours(schema_of::<Proxy>()), crd("Proxy"));
    assert_eq!(ours(schema_of::<Limits>()), crd("Limits"));
    assert_eq!(ours(schema_of::<Surge>()), crd("Surge"));
    assert_eq!(ours(schema_of::<Rollout>()), crd("Rollout"));
    assert_eq!(ours(schema_of::<Commands>()), crd("Commands"));
    assert_eq!(ours(schema_of::<NodeAnnotations>()), crd("NodeAnnotations"));
}

#[test]
fn the_value_markers_and_known_external_types_are_written() {
    assert_eq!(
        serde_json::to_value(Limits::definition().schema.open_apiv3_schema).unwrap(),
        json!({
            "description": "Limits of the Cluster's workers.",
            "type": "object",
            "required": ["port", "serial", "settings", "share", "zones"],
            "x-kubernetes-validations": [{
                "rule": "self.share < 1.0 || size(self.zones) > 1",
                "messageExpression": "'a whole share needs zones, not ' + string(size(self.zones))",
                "reason": "FieldValueForbidden",
                "fieldPath": ".zones",
            }],
            "properties": {
                "share": {
                    "description": "Share of the nodes, strictly between 0 and 1.",
                    "type": "number",
                    "format": "double",
                    "minimum": 0,
                    "exclusiveMinimum": true,
                    "maximum": 1,
                    "example": 0.5,
                },
                "zones": {
                    "description": "Zones, each once.",
                    "type": "array",
                    "items": { "type": "string" },
                    "uniqueItems": true,
                    "example": ["a", "b"],
                },
                "port": {
                    "description": "The port, by number or name.",
                    "anyOf": [{ "type": "integer" }, { "type": "string" }],
                    "x-kubernetes-int-or-string": true,
                },
                "until": {
                    "description": "Until when.",
                    "type": "string",
                    "format": "date-time",
                },
                "settings": {
                    "description": "Settings passed on as they are.",
                    "type": "object",
                    "additionalProperties": { "type": "string" },
                    "x-kubernetes-preserve-unknown-fields": true,
                },
                "serial": {
                    "description": "A serial, written in hex.",
                    "type": "string",
                    "format": "hex",
                    "pattern": "^[0-9a-f]+$",
                },
            },
        })
    );
}

/// A newtype's type-level default is the default at the root of its variable, and of a field
/// that holds it; a field's own default is written over it.
#[test]
fn a_newtype_default_stands_unless_a_field_gives_its_own() {
    assert_eq!(
        serde_json::to_value(Surge::definition().schema.open_apiv3_schema).unwrap(),
        json!({
            "description": "How many nodes a rollout may add, as a number or a percentage.",
            "type": "string",
            "maxLength": 4,
            "default": "1",
        })
    );
    assert_eq!(
        serde_json::to_value(Rollout::definition().schema.open_apiv3_schema).unwrap(),
        json!({
            "description": "How a rollout proceeds.",
            "type": "object",
            "properties": {
                "surge": {
                    "description": "The workers' surge: the surge's own default.",
                    "type": "string",
                    "maxLength": 4,
                    "default": "1",
                },
                "controlPlaneSurge": {
                    "description": "The control plane's surge, with a default of its own.",
                    "type": "string",
                    "maxLength": 4,
                    "default": "0",
                },
            },
        })
    );
}

/// A shell command.
#[derive(Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[schema(min_length = 1)]
pub struct Command(pub String);

/// Commands every node runs.
#[derive(Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[variable(name = "commands")]
pub struct Commands(pub Vec<Command>);

/// An annotation value.
#[derive(Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
pub struct AnnotationValue(pub String);

/// Annotations put on every node.
#[derive(Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[variable(name = "nodeAnnotations")]
pub struct NodeAnnotations(pub BTreeMap<String, AnnotationValue>);

/// A field of a newtype's type: the field's own description.
#[derive(Serialize, Deserialize, Schema, Variable)]
#[schema(package = "example.com/variables")]
#[variable(name = "hooks")]
pub struct Hooks {
    /// Run first.
    pub first: Command,
    /// Run after, in order.
    #[serde(default)]
    pub then: Vec<Command>,
}

/// A newtype used as a list item or a map value describes the item with its doc comment, as
/// controller-gen describes the items of a list of a named Go type; used as a field, the
/// field's doc comment describes it.
#[test]
fn a_newtype_describes_the_items_and_values_it_is() {
    let schema = |d: capi_runtime::api::core::v1beta2::ClusterClassVariable| {
        serde_json::to_value(d.schema.open_apiv3_schema).unwrap()
    };
    assert_eq!(
        schema(Commands::definition()),
        json!({
            "description": "Commands every node runs.",
            "type": "array",
            "items": { "description": "A shell command.", "type": "string", "minLength": 1 },
        })
    );
    assert_eq!(
        schema(NodeAnnotations::definition()),
        json!({
            "description": "Annotations put on every node.",
            "type": "object",
            "additionalProperties": { "description": "An annotation value.", "type": "string" },
        })
    );
    assert_eq!(
        schema(Hooks::definition()),
        json!({
            "description": "A field of a newtype's type: the field's own description.",
            "type": "object",
            "required": ["first", "then"],
            "properties": {
                "first": { "description": "Run first.", "type": "string", "minLength": 1 },
                "then": {
                    "description": "Run after, in order.",
                    "type": "array",
                    "items": { "description": "A shell command.", "type": "string", "minLength": 1 },
                },
            },
        })
    );
}
