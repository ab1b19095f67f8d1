//! ClusterClass variables declared as Rust types.
//!
//! `#[derive(Variable)]` on a type (struct, enum or newtype) describes its values with the same
//! `#[schema(...)]` attributes as any wire type, and writes the structural schema the CRD
//! generator would write for it, in the subset of OpenAPI that Cluster API accepts for
//! variables. Every type a variable's schema names derives it too; the root of the variable adds
//! `#[variable(name = "...")]` and so implements [`Variable`], whose
//! [`definition`](Variable::definition) is the `ClusterClassVariable` a DiscoverVariables
//! answer lists. What Cluster API would refuse in that schema is a compile error.
//!
//! [`check`] does to a Cluster's value of the variable what Cluster API's Cluster webhook does:
//! it fills in the schema's defaults, checks the value against the schema, refuses fields the
//! schema does not describe, and (feature `variable-cel`) evaluates the CEL rules; its
//! [`VariableErrors`] read as Cluster API's answer. [`check_variable`] does the same for any
//! `ClusterClassVariable`, one written by hand included.
//!
//! ```
//! use capi_runtime::variable::Variable;
//! use serde::{Deserialize, Serialize};
//!
//! /// Where the Cluster's images come from.
//! #[derive(Serialize, Deserialize, Variable)]
//! #[variable(name = "registry", required)]
//! pub struct Registry {
//!     /// Host name of the registry.
//!     #[schema(min_length = 1)]
//!     pub host: String,
//!     /// Port of the registry.
//!     #[serde(skip_serializing_if = "Option::is_none")]
//!     #[schema(minimum = 1, maximum = 65535, default = 443)]
//!     pub port: Option<i32>,
//! }
//!
//! let variable = Registry::definition();
//! assert_eq!(variable.name, "registry");
//! let schema = &variable.schema.open_apiv3_schema;
//! assert_eq!(schema.r#type, "object");
//! assert_eq!(schema.required, ["host"]);
//! assert_eq!(schema.properties["port"].maximum, Some(65535));
//! ```

mod check;
mod default;
mod format;
mod json;
mod structural;
mod unknown;
#[cfg(feature = "variable-cel")]
mod cel;

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::api::core::v1beta2::{ClusterClassVariable, JSONSchemaProps, VariableSchema as Schema};

pub use check::{
    VariableErrors, check, check_unset, check_update, check_variable, check_variable_unset,
};
pub use default::default_value;

/// The derive: `use capi_runtime::variable::Variable` brings it with the trait (feature
/// `derive`).
#[cfg(feature = "derive")]
pub use capi_runtime_derive::Variable;

/// A type that can be (part of) the value of a ClusterClass variable: implemented by
/// `#[derive(Variable)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be part of a ClusterClass variable",
    label = "this type has no variable schema",
    note = "add `#[derive(Variable)]` to `{Self}` (every type a variable holds derives it)"
)]
pub trait VariableSchema {
    /// The type's part of the schema (assembled by [`schema_of`]).
    fn schema_part() -> &'static SchemaPart;
}

/// The root type of a ClusterClass variable: `#[derive(Variable)]` with
/// `#[variable(name = "...")]`. Its values are read with serde.
pub trait Variable: VariableSchema + DeserializeOwned {
    /// The variable's name (`#[variable(name = "...")]`).
    const NAME: &'static str;
    /// Whether every Cluster of the class must set it (`#[variable(required)]`).
    const REQUIRED: bool;
    /// The labels of its schema's `x-metadata` (`#[variable(label(key = "...", value = "..."))]`).
    const LABELS: &'static [(&'static str, &'static str)];
    /// The annotations of its schema's `x-metadata`
    /// (`#[variable(annotation(key = "...", value = "..."))]`).
    const ANNOTATIONS: &'static [(&'static str, &'static str)];
    /// The description of its schema: the type's doc comment, which describes the variable
    /// whatever the type's shape.
    const DESCRIPTION: &'static str;

    /// The variable as a DiscoverVariables answer (or a ClusterClass) lists it: its name,
    /// `required`, and its schema with the `x-metadata` labels and annotations.
    fn definition() -> ClusterClassVariable {
        let mut schema = schema_of::<Self>();
        let pairs = |list: &[(&str, &str)]| -> BTreeMap<String, String> {
            list.iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect()
        };
        if !Self::DESCRIPTION.is_empty() {
            Self::DESCRIPTION.clone_into(&mut schema.description);
        }
        schema.x_metadata.labels = pairs(Self::LABELS);
        schema.x_metadata.annotations = pairs(Self::ANNOTATIONS);
        ClusterClassVariable {
            name: Self::NAME.to_string(),
            required: Some(Self::REQUIRED),
            schema: Schema {
                open_apiv3_schema: schema,
            },
            ..ClusterClassVariable::default()
        }
    }
}

/// One type's part of a variable's schema, as `#[derive(Variable)]` records it: the schema as
/// JSON, where each type it names stands as a marker filled from `parts`.
#[derive(Debug)]
pub struct SchemaPart {
    json: &'static str,
    parts: &'static [fn() -> &'static SchemaPart],
}

impl SchemaPart {
    /// A part: what the derive writes (not part of the public API).
    #[doc(hidden)]
    pub const fn new(json: &'static str, parts: &'static [fn() -> &'static SchemaPart]) -> Self {
        SchemaPart { json, parts }
    }
}

/// The key of the marker that stands for another type's part; its value indexes the parts.
const MARKER: &str = "$subschema";

/// The whole schema of `T`'s values: its part with every type it names written in place.
pub fn schema_of<T: VariableSchema + ?Sized>() -> JSONSchemaProps {
    let value = assemble(T::schema_part(), &mut Vec::new());
    // The parts are written by the derive from a checked model: always a valid schema.
    serde_json::from_str(&value.to_string()).expect("an assembled variable schema decodes")
}

/// `part` as JSON with its markers filled; `open` holds the parts being written, outermost
/// first.
fn assemble(part: &'static SchemaPart, open: &mut Vec<*const SchemaPart>) -> Value {
    let mut value: Value = serde_json::from_str(part.json).expect("the derive writes valid JSON");
    open.push(part);
    fill(&mut value, part.parts, Site::Property, open);
    open.pop();
    value
}

/// Where a part is used: as a property, where the use site's description replaces the type's,
/// or as a list item or map value, where the type's own description stays.
#[derive(Clone, Copy)]
enum Site {
    Property,
    Item,
}

fn fill(
    value: &mut Value,
    parts: &[fn() -> &'static SchemaPart],
    site: Site,
    open: &mut Vec<*const SchemaPart>,
) {
    let Value::Object(map) = value else { return };
    if let Some(index) = map.remove(MARKER).and_then(|i| i.as_u64()) {
        let part = parts[index as usize]();
        // Two types that contain each other: cut where the CRD generator cuts a type that
        // contains itself.
        let mut schema = if open.contains(&(part as *const SchemaPart)) {
            Map::from_iter([(
                "x-kubernetes-preserve-unknown-fields".to_string(),
                Value::Bool(true),
            )])
        } else {
            match assemble(part, open) {
                Value::Object(schema) => schema,
                _ => Map::new(),
            }
        };
        if matches!(site, Site::Property) {
            schema.remove("description");
        }
        schema.append(map);
        *map = schema;
        return;
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for p in props.values_mut() {
            fill(p, parts, Site::Property, open);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(v) = map.get_mut(key) {
            fill(v, parts, Site::Item, open);
        }
    }
}
