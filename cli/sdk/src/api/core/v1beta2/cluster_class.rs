//! ClusterClass variables and the schema language they are declared in.

use std::collections::BTreeMap;

use crate::raw::Json;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::*;
use crate::__private::{charged_box, is_default};
use crate::Schema;

/// Identifies the ClusterClass that a Cluster's managed topology follows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterClassRef {
    /// Name of the ClusterClass.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// Namespace of the ClusterClass. When empty, the Cluster's own namespace is assumed.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
}

/// A variable that a ClusterClass declares, or that an extension reports through the
/// DiscoverVariables hook: its name, whether Clusters must set it, and the schema its values must
/// satisfy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterClassVariable {
    /// Deprecated: labels and annotations of the variable as the v1beta1 API stored them. Use
    /// `x-metadata` in the schema instead; this goes away with v1beta1.
    #[serde(skip_serializing_if = "is_default")]
    pub deprecated_v1_beta1_metadata: ClusterClassVariableMetadata,
    /// Name of the variable. Must not be empty and must be unique among the variables of the class.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub name: String,
    /// When true, every Cluster that uses the class has to supply a value for the variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required)]
    pub required: Option<bool>,
    /// The schema that any value of the variable is validated against.
    #[serde(skip_serializing_if = "is_default")]
    #[schema(required)]
    pub schema: VariableSchema,
}

/// Labels and annotations attached to a variable for tools built on top of Cluster API; Cluster API
/// itself ignores them. Deprecated together with the field that holds it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterClassVariableMetadata {
    /// Annotations attached to the variable.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// Labels attached to the variable.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}

/// The part of OpenAPI v3 (JSON Schema) that Cluster API accepts for describing the values of
/// ClusterClass variables. Keywords outside this subset cannot be expressed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct JSONSchemaProps {
    // The three boxed fields decode through `charged_box`, so that the wire decoder charges
    // each box to its memory budget (serde's `Box<T>` would allocate unseen); same JSON.
    /// Schema every value of a map-like object must satisfy, whatever its key.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "charged_box"
    )]
    pub additional_properties: Option<Box<JSONSchemaProps>>,
    /// Schemas that the value has to satisfy, all of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub all_of: Vec<JSONSchemaProps>,
    /// Schemas of which the value has to satisfy at least one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<JSONSchemaProps>,
    /// Value filled in when none is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#default: Option<Json>,
    /// Explanation of the value for humans.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The complete list of permitted values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub r#enum: Vec<Json>,
    /// A sample value, for documentation only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<Json>,
    /// When true, the value has to be strictly below `maximum` instead of at most `maximum`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<bool>,
    /// When true, the value has to be strictly above `minimum` instead of at least `minimum`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<bool>,
    /// Format a string value must follow, using the names Kubernetes knows, such as `uri`,
    /// `date-time`, `ipv4` or `uuid`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// Schema that each element of an array must satisfy.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "charged_box"
    )]
    pub items: Option<Box<JSONSchemaProps>>,
    /// Upper limit on the number of elements of an array.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<i64>,
    /// Upper limit on the length of a string, in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<i64>,
    /// Upper limit on the number of properties of an object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_properties: Option<i64>,
    /// Largest allowed numeric value. Only whole numbers can be given as a bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<i64>,
    /// Lower limit on the number of elements of an array.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<i64>,
    /// Lower limit on the length of a string, in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i64>,
    /// Lower limit on the number of properties of an object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_properties: Option<i64>,
    /// Smallest allowed numeric value. Only whole numbers can be given as a bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<i64>,
    /// A schema the value must fail to satisfy.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "charged_box"
    )]
    pub r#not: Option<Box<JSONSchemaProps>>,
    /// Schemas of which the value has to satisfy exactly one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub one_of: Vec<JSONSchemaProps>,
    /// Regular expression (ECMA-262 dialect) that a string value has to match.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub pattern: String,
    /// Schemas of the known properties of an object, by property name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, JSONSchemaProps>,
    /// Names of the properties an object has to contain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(list_type = "atomic")]
    pub required: Vec<String>,
    /// JSON type of the value: `object`, `array`, `string`, `integer`, `number` or `boolean`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub r#type: String,
    /// When true, no two elements of an array may be equal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique_items: Option<bool>,
    /// When true, the value may be an integer or a string, like a Kubernetes `IntOrString`.
    #[serde(
        rename = "x-kubernetes-int-or-string",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_kubernetes_int_or_string: Option<bool>,
    /// When true, fields of an object that `properties` does not mention are accepted and kept
    /// instead of being dropped.
    #[serde(
        rename = "x-kubernetes-preserve-unknown-fields",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_kubernetes_preserve_unknown_fields: Option<bool>,
    /// CEL rules the value must pass in addition to the rest of the schema, one per `rule`.
    #[serde(
        rename = "x-kubernetes-validations",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schema(list_type = "map", list_map_keys("rule"))]
    pub x_kubernetes_validations: Vec<ValidationRule>,
    /// Labels and annotations attached to this node of the schema for tools built on top of Cluster
    /// API. They have no effect on validation.
    #[serde(rename = "x-metadata", skip_serializing_if = "is_default")]
    pub x_metadata: VariableSchemaMetadata,
}

/// A CEL expression that a variable value has to pass, together with how a failure is reported.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct ValidationRule {
    /// The field a failure is reported against: a JSON path relative to the schema node that holds
    /// the rule, for example `.port`. It has to name a field that exists.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field_path: String,
    /// Fixed text returned when the rule fails. When empty, a generic message that names the rule
    /// is produced.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// A CEL expression, evaluating to a string, that builds the failure text. Wins over `message`
    /// when both are set.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message_expression: String,
    /// Machine-readable cause returned on failure: `FieldValueInvalid` (the default),
    /// `FieldValueForbidden`, `FieldValueRequired` or `FieldValueDuplicate`.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(default = "FieldValueInvalid")]
    pub reason: String,
    /// The CEL expression itself. `self` is the value at this node of the schema; a rule that also
    /// uses `oldSelf` compares with the previous value and is only checked on updates.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[schema(required)]
    pub rule: String,
}

/// Holds the OpenAPI schema that describes a ClusterClass variable.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct VariableSchema {
    /// The OpenAPI v3 schema that values of the variable must satisfy.
    #[serde(rename = "openAPIV3Schema", skip_serializing_if = "is_default")]
    #[schema(required)]
    pub open_apiv3_schema: JSONSchemaProps,
}

/// Labels and annotations attached to one node of a variable schema through `x-metadata`, for use
/// by higher-level tools.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(crate = "crate", package = "sigs.k8s.io/cluster-api/api/core/v1beta2")]
#[serde(default, rename_all = "camelCase")]
pub struct VariableSchemaMetadata {
    /// Annotations attached to this node of the schema.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// Labels attached to this node of the schema.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}
