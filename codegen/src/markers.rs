//! Which CRD validation markers fit which types: `minimum` on a string or `enum_values` on a
//! number is an error. The derive checks what it can see (scalars, lists, maps); the CLI checks
//! named types too, once they are resolved.

use crate::model::{Model, Shape, Ty};

/// The kind of value a marker constrains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `min_length`, `max_length`, `pattern`, `enum_values`
    String,
    /// `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum`
    Number,
    /// `min_items`, `max_items`, `unique_items`
    List,
    /// `min_properties`, `max_properties`
    Object,
    /// `x_validation`, `format`, `example`, `preserve_unknown_fields`, `int_or_string`: any
    /// value.
    Any,
}

impl Kind {
    /// The kind a marker (by attribute name) applies to.
    pub fn of(marker: &str) -> Kind {
        match marker {
            "min_length" | "max_length" | "pattern" | "enum_values" => Kind::String,
            "minimum" | "maximum" | "exclusive_minimum" | "exclusive_maximum" => Kind::Number,
            "min_items" | "max_items" | "unique_items" => Kind::List,
            "min_properties" | "max_properties" => Kind::Object,
            _ => Kind::Any,
        }
    }

    /// How error messages name the kind.
    pub fn noun(self) -> &'static str {
        match self {
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::List => "a list",
            Kind::Object => "an object or map",
            Kind::Any => "any value",
        }
    }
}

/// Whether a value of type `ty` is of `kind`: `Some(answer)`, or `None` when `ty` is a named
/// type and no `model` is given to look it up.
pub fn fits(ty: &Ty, kind: Kind, model: Option<&Model>) -> Option<bool> {
    if kind == Kind::Any {
        return Some(true);
    }
    Some(match ty {
        Ty::Option(inner) => return fits(inner, kind, model),
        Ty::String => kind == Kind::String,
        Ty::Int32 | Ty::Int64 | Ty::Float | Ty::Double => kind == Kind::Number,
        Ty::Bool => false,
        Ty::List(_) => kind == Kind::List,
        Ty::Map(_) => kind == Kind::Object,
        Ty::Named(n) => {
            let def = model?.get(n);
            match &def.shape {
                Shape::Object { .. } => kind == Kind::Object,
                Shape::Enum { .. } => kind == Kind::String,
                Shape::Transparent { ty } => return fits(ty, kind, model),
                Shape::Opaque { schema, .. } => {
                    let schema = def.crd_schema.as_ref().unwrap_or(schema);
                    match schema.get("type").and_then(|t| t.as_str()) {
                        Some("string") => kind == Kind::String,
                        Some("integer" | "number") => kind == Kind::Number,
                        Some("array") => kind == Kind::List,
                        Some("object") => kind == Kind::Object,
                        _ => true,
                    }
                }
            }
        }
    })
}
