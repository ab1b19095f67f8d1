//! ClusterClass variables and the schema language they are declared in.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::_private::is_default;
use crate::Schema;

/// TODO doc ClusterClassRef
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterClassRef {
    /// TODO doc ClusterClassRef.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// TODO doc ClusterClassRef.namespace
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
}

/// TODO doc ClusterClassVariable
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterClassVariable {
    /// TODO doc ClusterClassVariable.deprecatedV1Beta1Metadata
    #[serde(skip_serializing_if = "is_default")]
    pub deprecated_v1_beta1_metadata: ClusterClassVariableMetadata,
    /// TODO doc ClusterClassVariable.name
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// TODO doc ClusterClassVariable.required
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required)]
    pub required: Option<bool>,
    /// TODO doc ClusterClassVariable.schema
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub schema: VariableSchema,
}

/// TODO doc ClusterClassVariableMetadata
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterClassVariableMetadata {
    /// TODO doc ClusterClassVariableMetadata.annotations
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// TODO doc ClusterClassVariableMetadata.labels
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}

/// TODO doc JSONSchemaProps
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct JSONSchemaProps {
    /// TODO doc JSONSchemaProps.additionalProperties
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<Box<JSONSchemaProps>>,
    /// TODO doc JSONSchemaProps.allOf
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub all_of: Vec<JSONSchemaProps>,
    /// TODO doc JSONSchemaProps.anyOf
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<JSONSchemaProps>,
    /// TODO doc JSONSchemaProps.default
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#default: Option<JSON>,
    /// TODO doc JSONSchemaProps.description
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// TODO doc JSONSchemaProps.enum
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub r#enum: Vec<JSON>,
    /// TODO doc JSONSchemaProps.example
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<JSON>,
    /// TODO doc JSONSchemaProps.exclusiveMaximum
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<bool>,
    /// TODO doc JSONSchemaProps.exclusiveMinimum
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<bool>,
    /// TODO doc JSONSchemaProps.format
    #[serde(skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// TODO doc JSONSchemaProps.items
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<JSONSchemaProps>>,
    /// TODO doc JSONSchemaProps.maxItems
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<i64>,
    /// TODO doc JSONSchemaProps.maxLength
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<i64>,
    /// TODO doc JSONSchemaProps.maxProperties
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_properties: Option<i64>,
    /// TODO doc JSONSchemaProps.maximum
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<i64>,
    /// TODO doc JSONSchemaProps.minItems
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<i64>,
    /// TODO doc JSONSchemaProps.minLength
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i64>,
    /// TODO doc JSONSchemaProps.minProperties
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_properties: Option<i64>,
    /// TODO doc JSONSchemaProps.minimum
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<i64>,
    /// TODO doc JSONSchemaProps.not
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#not: Option<Box<JSONSchemaProps>>,
    /// TODO doc JSONSchemaProps.oneOf
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub one_of: Vec<JSONSchemaProps>,
    /// TODO doc JSONSchemaProps.pattern
    #[serde(skip_serializing_if = "String::is_empty")]
    pub pattern: String,
    /// TODO doc JSONSchemaProps.properties
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, JSONSchemaProps>,
    /// TODO doc JSONSchemaProps.required
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub required: Vec<String>,
    /// TODO doc JSONSchemaProps.type
    #[serde(skip_serializing_if = "String::is_empty")]
    pub r#type: String,
    /// TODO doc JSONSchemaProps.uniqueItems
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique_items: Option<bool>,
    /// TODO doc JSONSchemaProps.x-kubernetes-int-or-string
    #[serde(
        rename = "x-kubernetes-int-or-string",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_kubernetes_int_or_string: Option<bool>,
    /// TODO doc JSONSchemaProps.x-kubernetes-preserve-unknown-fields
    #[serde(
        rename = "x-kubernetes-preserve-unknown-fields",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_kubernetes_preserve_unknown_fields: Option<bool>,
    /// TODO doc JSONSchemaProps.x-kubernetes-validations
    #[serde(
        rename = "x-kubernetes-validations",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schema(list_type = "map", list_map_keys("rule"))]
    pub x_kubernetes_validations: Vec<ValidationRule>,
    /// TODO doc JSONSchemaProps.x-metadata
    #[serde(rename = "x-metadata", skip_serializing_if = "is_default")]
    pub x_metadata: VariableSchemaMetadata,
}

/// TODO doc ValidationRule
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ValidationRule {
    /// TODO doc ValidationRule.fieldPath
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field_path: String,
    /// TODO doc ValidationRule.message
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// TODO doc ValidationRule.messageExpression
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message_expression: String,
    /// TODO doc ValidationRule.reason
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(default = "FieldValueInvalid")]
    pub reason: String,
    /// TODO doc ValidationRule.rule
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub rule: String,
}

/// TODO doc VariableSchema
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct VariableSchema {
    /// TODO doc VariableSchema.openAPIV3Schema
    #[serde(rename = "openAPIV3Schema", skip_serializing_if = "is_default")]
    #[schema(required)]
    pub open_apiv3_schema: JSONSchemaProps,
}

/// TODO doc VariableSchemaMetadata
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct VariableSchemaMetadata {
    /// TODO doc VariableSchemaMetadata.annotations
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// TODO doc VariableSchemaMetadata.labels
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}
