// The value markers beyond lengths and bounds: exclusive bounds, unique items, format, example,
// the preserve-unknown-fields and int-or-string flags, and every key of a CEL rule; on fields
// and, for a newtype, on the type, where a default is written too (a field's own default is
// written over it).
use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

/// A gadget.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/gadgets/v1")]
#[crd(group = "gadgets.example.com", version = "v1", plural = "gadgets", scope = "Namespaced")]
#[serde(default, rename_all = "camelCase")]
pub struct Gadget {
    /// Metadata.
    pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    /// The desired state.
    pub spec: GadgetSpec,
}

/// What a gadget should be.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/gadgets/v1")]
#[serde(default, rename_all = "camelCase")]
pub struct GadgetSpec {
    /// A ratio strictly between 0 and 10.
    #[schema(minimum = 0, exclusive_minimum, maximum = 10, exclusive_maximum, example = 5)]
    pub ratio: f64,
    /// Tags, each once.
    #[schema(unique_items, example_json = r#"["a", "b"]"#)]
    pub tags: Vec<String>,
    /// When it was made.
    #[schema(format = "date-time")]
    pub made: String,
    /// Anything.
    #[schema(
        preserve_unknown_fields,
        x_validation(
            rule = "has(self.kind)",
            message_expression = "'kind is missing in ' + self.name",
            reason = "FieldValueRequired",
            field_path = ".kind"
        )
    )]
    pub extra: std::collections::BTreeMap<String, String>,
    /// A port by number or name.
    pub port: Port,
    /// How heavy it is: the weight's own default.
    pub weight: Weight,
    /// How heavy its case is: a default of its own.
    #[schema(default = 1)]
    pub case_weight: Weight,
}

/// A port number or name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/gadgets/v1", int_or_string, pattern = "^[0-9a-z-]+$")]
pub struct Port(pub String);

/// A weight, at least 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/gadgets/v1", minimum = 1, default = 3)]
pub struct Weight(pub i32);
