//! What Cluster API accepts in the schema of a ClusterClass variable (its
//! `ClusterClassVariable` validation): the rules `#[derive(Variable)]` applies at compile time,
//! each reported at the span of what breaks it.
//!
//! A variable's `JSONSchemaProps` has no `$ref`, no `x-kubernetes-list-type`, `-list-map-keys`,
//! `-map-type` or patch strategies; its name is not `builtin` and has no `.`; each default,
//! like the whole schema, must be valid for the value it describes; a CEL rule's message is one
//! line of at most 2048 characters, and a rule of several lines needs one. A default whose type
//! is another named type is checked by that type's schema only once the variable is assembled.

use proc_macro2::Span;
use serde_json::Value;
use syn::spanned::Spanned;

use crate::diag::Diagnostics;
use crate::model::{DefaultRule, Rule, Shape, Ty, TypeDef, Validation};
use crate::parse::symbol::*;
use crate::parse::variable::VariableAttrs;
use crate::parse::{SchemaInput, key_span};

/// The name Cluster API reserves for its own variable.
const BUILTIN: &str = "builtin";
/// The longest message of a CEL rule that Cluster API accepts.
const MAX_MESSAGE: usize = 2048;

/// The keys of Cluster API's `JSONSchemaProps`: what an opaque schema may hold.
const SCHEMA_KEYS: &[&str] = &[
    "description",
    "example",
    "type",
    "properties",
    "additionalProperties",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "maxItems",
    "minItems",
    "uniqueItems",
    "format",
    "maxLength",
    "minLength",
    "pattern",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "x-kubernetes-preserve-unknown-fields",
    "enum",
    "default",
    "x-kubernetes-validations",
    "x-metadata",
    "x-kubernetes-int-or-string",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
];

/// The types a variable's schema may name.
const TYPES: &[&str] = &["object", "array", "string", "number", "integer", "boolean"];

/// Field attributes that write schema keys Cluster API's variables do not have.
const REFUSED_FIELD_ATTRS: &[&str] = &[
    LIST_TYPE,
    LIST_MAP_KEYS,
    MAP_TYPE,
    PATCH_STRATEGY,
    PATCH_MERGE_KEY,
];

/// Runs every rule over a parsed `#[derive(Variable)]` input.
pub fn check(
    cx: &Diagnostics,
    input: &syn::DeriveInput,
    parsed: &SchemaInput,
    var: &VariableAttrs,
) {
    check_root(cx, var);
    let def = &parsed.def;
    if let Some(span) = key_span(&input.attrs, SCHEMA, MAP_TYPE) {
        refuse(cx, span, "x-kubernetes-map-type");
    }
    if let Some(a) = input.attrs.iter().find(|a| a.path().is_ident(CRD)) {
        cx.error(
            None,
            a.span(),
            "`#[crd(...)]` describes a custom resource, not a ClusterClass variable",
        );
    }
    let rules_span = key_span(&input.attrs, SCHEMA, X_VALIDATION).unwrap_or(def.span);
    check_rules(cx, &def.validation.rules, rules_span);
    match &def.shape {
        Shape::Opaque { schema, .. } => {
            let span = key_span(&input.attrs, SCHEMA, OPAQUE).unwrap_or(def.span);
            check_opaque(cx, schema, span, "");
        }
        Shape::Object { fields } => {
            let syn::Data::Struct(data) = &input.data else {
                return;
            };
            for field in fields {
                let attrs = data
                    .fields
                    .iter()
                    .find(|f| f.ident.as_ref().is_some_and(|i| unraw(i) == field.ident))
                    .map(|f| f.attrs.as_slice())
                    .unwrap_or_default();
                for key in REFUSED_FIELD_ATTRS {
                    if let Some(span) = key_span(attrs, SCHEMA, key) {
                        refuse(cx, span, &extension_name(key));
                    }
                }
                let rules_span = key_span(attrs, SCHEMA, X_VALIDATION).unwrap_or(field.span);
                check_rules(cx, &field.validation.rules, rules_span);
                let default = match &field.default {
                    DefaultRule::Value(value) => Some(value),
                    _ => None,
                };
                let of = format!("of `{}`", field.name);
                check_values(
                    cx,
                    attrs,
                    field.span,
                    &of,
                    default,
                    &field.ty,
                    &field.validation,
                );
            }
        }
        // A newtype's type-level default and example are values of the newtype's own schema.
        Shape::Transparent { ty } => {
            let of = format!("of `{}`", def.ident);
            let v = &def.validation;
            check_values(cx, &input.attrs, def.span, &of, v.default.as_ref(), ty, v);
        }
        Shape::Enum { .. } => {}
    }
    check_no_self(cx, def);
}

/// A default and an example (`v.example`) must be valid values of the schema of type `ty` with
/// the markers `v`; each one that is not is reported at its attribute in `attrs` (else at
/// `span`). `of` names the owner in the message.
fn check_values(
    cx: &Diagnostics,
    attrs: &[syn::Attribute],
    span: Span,
    of: &str,
    default: Option<&Value>,
    ty: &Ty,
    v: &Validation,
) {
    for (what, value, keys) in [
        ("default", default, [DEFAULT, DEFAULT_JSON]),
        ("example", v.example.as_ref(), [EXAMPLE, EXAMPLE_JSON]),
    ] {
        let Some(value) = value else { continue };
        if let Err(why) = fits(value, ty, v) {
            let span = keys
                .iter()
                .find_map(|k| key_span(attrs, SCHEMA, k))
                .unwrap_or(span);
            cx.error(
                None,
                span,
                format!(
                    "the {what} {value} {of} is not a valid value of its schema: {why}; Cluster \
                     API refuses the variable"
                ),
            );
        }
    }
}

/// The name of the variable and what only the root of a variable may say.
fn check_root(cx: &Diagnostics, var: &VariableAttrs) {
    let Some(name) = &var.name else {
        if let Some(span) = var.span
            && (var.required || !var.labels.is_empty() || !var.annotations.is_empty())
        {
            cx.error(
                None,
                span,
                "`required`, `label` and `annotation` belong to the root of a variable, which \
                 `name = \"...\"` makes",
            );
        }
        return;
    };
    let value = name.value();
    let why = if value.is_empty() {
        Some("a variable name must not be empty".to_string())
    } else if value == BUILTIN {
        Some(format!(
            "\"{BUILTIN}\" is the name of Cluster API's own variable"
        ))
    } else if value.contains('.') {
        Some("a variable name cannot contain \".\" (Cluster API reads it as a path)".to_string())
    } else {
        None
    };
    if let Some(why) = why {
        cx.error(None, name.span(), why);
    }
}

// A rule Cluster API refuses:
//
//     #[schema(x_validation(rule = "self.a\n|| self.b"))]   // several lines, no message
fn check_rules(cx: &Diagnostics, rules: &[Rule], span: Span) {
    for rule in rules {
        let message = rule.message.as_deref().map(str::trim);
        let why = if rule.rule.trim().is_empty() {
            Some("a CEL rule must not be empty")
        } else if message == Some("") {
            Some("a rule's message must not be empty when it is given")
        } else if rule.message.as_ref().is_some_and(|m| m.len() > MAX_MESSAGE) {
            Some("a rule's message must not be longer than 2048 characters")
        } else if message.is_some_and(|m| m.contains(['\n', '\r'])) {
            Some("a rule's message must not contain line breaks")
        } else if rule.rule.trim().contains(['\n', '\r']) && message.is_none() {
            Some("a rule of several lines needs a `message`")
        } else if rule
            .message_expression
            .as_ref()
            .is_some_and(|m| m.trim().is_empty())
        {
            Some("a rule's message_expression must not be empty when it is given")
        } else if rule
            .field_path
            .as_ref()
            .is_some_and(|p| p.trim().is_empty() || p.contains(['\n', '\r']))
        {
            Some("a rule's field_path must be one line, not empty")
        } else {
            None
        };
        if let Some(why) = why {
            cx.error(
                None,
                span,
                format!("{why}; Cluster API refuses the variable"),
            );
        }
    }
}

/// Whether the known external type `def` (an opaque schema) can be part of a variable: its
/// structural schema holds only what Cluster API's `JSONSchemaProps` has, and says what its
/// values are (a type, int-or-string, or unknown fields kept). `Time`, `IntOrString` or
/// `RawExtension` can; `serde_json::Value`, whose schema is empty, cannot.
pub fn accepts_external(def: &TypeDef) -> bool {
    let Shape::Opaque { schema, .. } = &def.shape else {
        return false;
    };
    let schema = def.crd_schema.as_ref().unwrap_or(schema);
    let cx = Diagnostics::new();
    check_opaque(&cx, schema, def.span, "");
    let says_what = [
        "type",
        "x-kubernetes-int-or-string",
        "x-kubernetes-preserve-unknown-fields",
    ]
    .iter()
    .any(|k| schema.get(k).is_some());
    cx.check().is_ok() && says_what
}

/// An opaque schema may hold only what Cluster API's `JSONSchemaProps` has.
fn check_opaque(cx: &Diagnostics, schema: &Value, span: Span, at: &str) {
    let Value::Object(map) = schema else {
        cx.error(None, span, format!("the schema{at} is not a JSON object"));
        return;
    };
    for (key, value) in map {
        if !SCHEMA_KEYS.contains(&key.as_str()) {
            cx.error(
                None,
                span,
                format!(
                    "`{key}`{at} is not part of a ClusterClass variable's schema; Cluster API's \
                     `JSONSchemaProps` has no such field"
                ),
            );
            continue;
        }
        match (key.as_str(), value) {
            ("type", Value::String(t)) if !TYPES.contains(&t.as_str()) => cx.error(
                None,
                span,
                format!("type \"{t}\"{at} is not one of {}", TYPES.join(", ")),
            ),
            ("properties", Value::Object(props)) => {
                for (name, p) in props {
                    check_opaque(cx, p, span, &format!("{at} in property `{name}`"));
                }
            }
            ("items" | "additionalProperties" | "not", v) => {
                check_opaque(cx, v, span, &format!("{at} in `{key}`"));
            }
            ("allOf" | "oneOf" | "anyOf", Value::Array(list)) => {
                for (i, v) in list.iter().enumerate() {
                    check_opaque(cx, v, span, &format!("{at} in `{key}[{i}]`"));
                }
            }
            _ => {}
        }
    }
}

// A variable's schema is written in place, so a type cannot contain itself:
//
//     #[derive(Variable)] struct Node { children: Vec<Node> }
fn check_no_self(cx: &Diagnostics, def: &TypeDef) {
    def.for_each_named(&mut |n| {
        if n.path == def.ident || n.path == "Self" {
            cx.error(
                None,
                n.span,
                format!(
                    "`{}` contains itself; a ClusterClass variable's schema has no references, \
                     so it cannot describe a recursive type",
                    def.ident
                ),
            );
        }
    });
}

/// Whether `value` is a valid value of a property of type `ty` with the markers `v`: `Err` with
/// the reason. A named type is not known here and accepts anything.
fn fits(value: &Value, ty: &Ty, v: &Validation) -> Result<(), String> {
    let fail = |why: String| Err(why);
    match (ty, value) {
        (Ty::Option(inner), _) => return fits(value, inner, v),
        (Ty::Named(_), _) => return Ok(()),
        (_, Value::Null) => return fail("null is not allowed".into()),
        (Ty::String, Value::String(s)) => {
            let len = s.chars().count() as i64;
            if v.min_length.is_some_and(|m| len < m) {
                return fail(format!(
                    "it is shorter than min_length {}",
                    v.min_length.unwrap()
                ));
            }
            if v.max_length.is_some_and(|m| len > m) {
                return fail(format!(
                    "it is longer than max_length {}",
                    v.max_length.unwrap()
                ));
            }
        }
        (Ty::Bool, Value::Bool(_)) => {}
        (Ty::Int32 | Ty::Int64, Value::Number(n)) if n.is_i64() || n.is_u64() => {
            if matches!(ty, Ty::Int32) && n.as_i64().and_then(|i| i32::try_from(i).ok()).is_none() {
                return fail("it does not fit in 32 bits".into());
            }
        }
        (Ty::Float | Ty::Double, Value::Number(_)) => {}
        (Ty::List(inner), Value::Array(items)) => {
            let len = items.len() as i64;
            if v.min_items.is_some_and(|m| len < m) || v.max_items.is_some_and(|m| len > m) {
                return fail("its number of items is outside min_items..max_items".into());
            }
            for item in items {
                fits(item, inner, &Validation::default())?;
            }
        }
        (Ty::Map(inner), Value::Object(map)) => {
            let len = map.len() as i64;
            if v.min_properties.is_some_and(|m| len < m)
                || v.max_properties.is_some_and(|m| len > m)
            {
                return fail(
                    "its number of entries is outside min_properties..max_properties".into(),
                );
            }
            for item in map.values() {
                fits(item, inner, &Validation::default())?;
            }
        }
        (_, other) => return fail(format!("expected {}, found {}", noun(ty), kind(other))),
    }
    if let Some(n) = value.as_f64() {
        if let Some(m) = v.minimum
            && (n < m as f64 || (v.exclusive_minimum && n == m as f64))
        {
            let how = if v.exclusive_minimum {
                "not above"
            } else {
                "below"
            };
            return fail(format!("it is {how} minimum {m}"));
        }
        if let Some(m) = v.maximum
            && (n > m as f64 || (v.exclusive_maximum && n == m as f64))
        {
            let how = if v.exclusive_maximum {
                "not below"
            } else {
                "above"
            };
            return fail(format!("it is {how} maximum {m}"));
        }
    }
    if v.unique_items
        && let Value::Array(items) = value
        && items
            .iter()
            .enumerate()
            .any(|(i, a)| items[..i].contains(a))
    {
        return fail("its items are not unique".into());
    }
    if !v.enum_values.is_empty() && !v.enum_values.contains(value) {
        return fail("it is not one of enum_values".into());
    }
    Ok(())
}

fn noun(ty: &Ty) -> &'static str {
    match ty {
        Ty::String => "a string",
        Ty::Bool => "a boolean",
        Ty::Int32 | Ty::Int64 => "an integer",
        Ty::Float | Ty::Double => "a number",
        Ty::List(_) => "a list",
        Ty::Map(_) => "an object",
        Ty::Option(_) | Ty::Named(_) => "a value",
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// `x-kubernetes-list-type` for `list_type`, and so on.
fn extension_name(attr: &str) -> String {
    format!("x-kubernetes-{}", attr.replace('_', "-"))
}

fn refuse(cx: &Diagnostics, span: Span, what: &str) {
    cx.error(
        None,
        span,
        format!(
            "a ClusterClass variable's schema has no `{what}`: Cluster API's `JSONSchemaProps` \
             does not carry it"
        ),
    );
}

fn unraw(ident: &syn::Ident) -> String {
    crate::parse::unraw(ident)
}
