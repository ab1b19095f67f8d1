//! `#[derive(Variable)]`: the `ClusterClassVariable` a Rust type declares, its schema written
//! as the CRD generator writes a structural schema, in Cluster API's subset.

use std::collections::BTreeMap;

use capi_runtime::variable::{Variable, schema_of};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Where the Cluster's images come from.
#[derive(Serialize, Deserialize, Variable)]
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
#[derive(Serialize, Deserialize, Variable)]
#[serde(rename_all = "camelCase")]
pub struct Auth {
    /// Name of the Secret that holds them.
    pub secret_name: SecretName,
}

/// A Secret's name.
#[derive(Serialize, Deserialize, Variable)]
#[schema(max_length = 63)]
pub struct SecretName(pub String);

/// A mirror.
#[derive(Serialize, Deserialize, Variable)]
pub struct Mirror {
    /// Its URL.
    pub url: String,
}

/// A protocol.
#[derive(Default, Serialize, Deserialize, Variable)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Plain HTTP.
    Http,
    /// HTTP over TLS.
    #[default]
    Https,
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
    let newtype = serde_json::to_value(schema_of::<SecretName>()).unwrap();
    assert_eq!(newtype, json!({ "type": "string", "maxLength": 63 }));
}
