//! Model → CustomResourceDefinition, following controller-gen's rules: structural schemas with
//! every object written in place, descriptions that keep their line breaks, `required` sorted,
//! validation markers mapped one to one, versions sorted by name, and no implicit defaults
//! (those are openapi-gen's, see `openapi.rs`). A type used inside itself (a recursive type,
//! which a structural schema cannot express) is written there as
//! `x-kubernetes-preserve-unknown-fields: true`.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::doc;
use crate::diag::{Diagnostics, Errors};
use crate::model::{Crd, DefaultRule, Field, Model, Named, Shape, Ty, TypeDef, Validation};

/// The annotation that says which tool wrote the manifest.
pub const GENERATED_BY: &str = "runtime.cluster.x-k8s.io/generated-by";

/// One CRD: its file name (`<group>_<plural>.yaml`) and its manifest.
#[derive(Debug, Clone)]
pub struct CrdFile {
    /// `<group>_<plural>.yaml`
    pub file_name: String,
    /// The manifest.
    pub manifest: Value,
}

/// Every CRD of the model: the root types with `#[crd(...)]`, grouped by group and kind.
pub fn crds(model: &Model, generator: &str) -> Result<Vec<CrdFile>, Errors> {
    let cx = Diagnostics::new();
    let mut kinds: BTreeMap<(String, String), Vec<&TypeDef>> = BTreeMap::new();
    for def in &model.types {
        if let Some(crd) = &def.crd {
            kinds
                .entry((crd.group.clone(), def.ident.clone()))
                .or_default()
                .push(def);
        }
    }
    let mut out = Vec::new();
    for ((group, kind), mut versions) in kinds {
        versions.sort_by(|a, b| crd_of(a).version.cmp(&crd_of(b).version));
        if !check_versions(&cx, &versions) {
            continue;
        }
        let first = crd_of(versions[0]);
        let single = versions.len() == 1;
        let entries: Vec<Value> = versions
            .iter()
            .map(|def| version_entry(model, def, single))
            .collect();
        let mut names = Map::new();
        names.insert("kind".into(), json!(kind));
        names.insert("listKind".into(), json!(format!("{kind}List")));
        names.insert("plural".into(), json!(first.plural));
        let singular = if first.singular.is_empty() {
            kind.to_lowercase()
        } else {
            first.singular.clone()
        };
        names.insert("singular".into(), json!(singular));
        if !first.short_names.is_empty() {
            names.insert("shortNames".into(), json!(first.short_names));
        }
        if !first.categories.is_empty() {
            names.insert("categories".into(), json!(first.categories));
        }
        let manifest = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {
                "name": format!("{}.{group}", first.plural),
                "annotations": { GENERATED_BY: generator },
            },
            "spec": {
                "group": group,
                "names": names,
                "scope": if first.namespaced { "Namespaced" } else { "Cluster" },
                "versions": entries,
            },
        });
        out.push(CrdFile {
            file_name: format!("{group}_{}.yaml", first.plural),
            manifest: super::canonical::canonical(manifest),
        });
    }
    cx.check()?;
    Ok(out)
}

fn crd_of(def: &TypeDef) -> &Crd {
    def.crd.as_ref().expect("only roots are grouped")
}

// The versions of one kind must agree on names and scope, and exactly one is stored:
//
//     #[crd(version = "v1", storage, ..)] struct X;   #[crd(version = "v2", storage, ..)] struct X;
fn check_versions(cx: &Diagnostics, versions: &[&TypeDef]) -> bool {
    let mut ok = true;
    let mut error = |def: &TypeDef, msg: String| {
        ok = false;
        cx.error(def.file, def.span, msg);
    };
    let first = crd_of(versions[0]);
    for def in versions {
        let c = crd_of(def);
        if c.plural != first.plural
            || c.namespaced != first.namespaced
            || c.singular != first.singular
        {
            error(
                def,
                format!(
                    "version {} of `{}` disagrees with version {} on plural, singular or scope",
                    c.version, def.ident, first.version
                ),
            );
        }
    }
    let mut seen = BTreeMap::new();
    for def in versions {
        if let Some(other) = seen.insert(&crd_of(def).version, def) {
            error(
                def,
                format!(
                    "`{}` version {} is defined twice (also by {})",
                    def.ident,
                    crd_of(def).version,
                    other.ident
                ),
            );
        }
    }
    if versions.len() > 1 {
        let stored: Vec<&&TypeDef> = versions.iter().filter(|d| crd_of(d).storage).collect();
        match stored.as_slice() {
            [_] => {}
            [] => error(
                versions[0],
                format!(
                    "no version of `{}` is marked `storage`; mark exactly one with `#[crd(storage)]`",
                    versions[0].ident
                ),
            ),
            [_, rest @ ..] => {
                for def in rest {
                    error(
                        def,
                        format!(
                            "two versions of `{}` are marked `storage`; only one can be",
                            def.ident
                        ),
                    );
                }
            }
        }
    }
    ok
}

fn version_entry(model: &Model, def: &TypeDef, single: bool) -> Value {
    let crd = crd_of(def);
    let mut v = Map::new();
    v.insert("name".into(), json!(crd.version));
    v.insert("served".into(), json!(true));
    v.insert("storage".into(), json!(crd.storage || single));
    if crd.deprecated {
        v.insert("deprecated".into(), json!(true));
    }
    if !crd.printer_columns.is_empty() {
        let cols: Vec<Value> = crd
            .printer_columns
            .iter()
            .map(|c| {
                let mut m = Map::new();
                m.insert("name".into(), json!(c.name));
                m.insert("type".into(), json!(c.ty));
                m.insert("jsonPath".into(), json!(c.json_path));
                if !c.description.is_empty() {
                    m.insert("description".into(), json!(c.description));
                }
                if let Some(p) = c.priority {
                    m.insert("priority".into(), json!(p));
                }
                Value::Object(m)
            })
            .collect();
        v.insert("additionalPrinterColumns".into(), json!(cols));
    }
    v.insert(
        "schema".into(),
        json!({ "openAPIV3Schema": root_schema(model, def) }),
    );
    if crd.status {
        v.insert("subresources".into(), json!({ "status": {} }));
    }
    Value::Object(v)
}

/// The root schema: like any object, except that `metadata` is only `{type: object}` (the API
/// server owns its schema).
fn root_schema(model: &Model, def: &TypeDef) -> Value {
    let mut schema = Schemas::new(model).object(def, 0);
    if let Some(Value::Object(props)) = schema.get_mut("properties")
        && props.contains_key("metadata")
    {
        props.insert("metadata".into(), json!({ "type": "object" }));
    }
    let description = doc::crd(&def.doc);
    if !description.is_empty() {
        schema.insert("description".into(), json!(description));
    }
    Value::Object(schema)
}

/// The schema a CRD writes for a value of the type `named` at a use site that adds nothing of
/// its own (no field description, no field markers): the type's schema written in place, with
/// the type's doc comment as description for objects and enums, as for a list item. This is
/// what `schemars::JsonSchema` returns for the type (`emit::schemars`).
pub fn type_schema(model: &Model, named: &Named) -> Value {
    Schemas::new(model).item(&Ty::Named(named.clone()), 0)
}

struct Schemas<'a> {
    model: &'a Model,
    /// The object types being written, outermost first: a use of one of them inside itself is
    /// a recursive type (such as `JSONSchemaProps`), which a structural schema cannot express.
    open: RefCell<Vec<usize>>,
}

/// A guard against nesting deeper than any real API (recursion itself is caught by `open`).
const MAX_DEPTH: usize = 32;

impl<'a> Schemas<'a> {
    fn new(model: &'a Model) -> Self {
        Schemas {
            model,
            open: RefCell::new(Vec::new()),
        }
    }

    fn is_open(&self, n: &Named) -> bool {
        self.open
            .borrow()
            .contains(&n.id.expect("reference resolved before emission"))
    }

    /// The object schema of `def` (which `n` names), marked open while its fields are written.
    fn nested(&self, n: &Named, def: &TypeDef, depth: usize) -> Map<String, Value> {
        self.open
            .borrow_mut()
            .push(n.id.expect("reference resolved before emission"));
        let schema = self.object(def, depth + 1);
        self.open.borrow_mut().pop();
        schema
    }

    fn object(&self, def: &TypeDef, depth: usize) -> Map<String, Value> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        self.fields(def, &mut properties, &mut required, depth);
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        if !properties.is_empty() {
            schema.insert("properties".into(), Value::Object(properties));
        }
        if !required.is_empty() {
            required.sort();
            schema.insert("required".into(), json!(required));
        }
        schema
    }

    fn fields(
        &self,
        def: &TypeDef,
        properties: &mut Map<String, Value>,
        required: &mut Vec<String>,
        depth: usize,
    ) {
        for field in def.fields() {
            properties.insert(
                field.name.clone(),
                Value::Object(self.property(field, depth)),
            );
            if field.required {
                required.push(field.name.clone());
            }
        }
    }

    fn property(&self, field: &Field, depth: usize) -> Map<String, Value> {
        let mut schema = self.ty(&field.ty, depth);
        let description = doc::crd(&field.doc);
        if !description.is_empty() {
            schema.insert("description".into(), json!(description));
        }
        if let DefaultRule::Value(v) = &field.default {
            schema.insert("default".into(), v.clone());
        }
        apply(&mut schema, &field.validation);
        for (key, value) in [
            (
                "x-kubernetes-list-type",
                field.list_type.as_ref().map(|v| json!(v)),
            ),
            (
                "x-kubernetes-list-map-keys",
                (!field.list_map_keys.is_empty()).then(|| json!(field.list_map_keys)),
            ),
            (
                "x-kubernetes-map-type",
                field.map_type.as_ref().map(|v| json!(v)),
            ),
        ] {
            if let Some(v) = value {
                schema.insert(key.into(), v);
            }
        }
        schema
    }

    /// The schema of a type at a use site (without the field's own description and markers).
    fn ty(&self, ty: &Ty, depth: usize) -> Map<String, Value> {
        let v = match ty {
            Ty::String => json!({ "type": "string" }),
            Ty::Bool => json!({ "type": "boolean" }),
            Ty::Int32 => json!({ "type": "integer", "format": "int32" }),
            Ty::Int64 => json!({ "type": "integer", "format": "int64" }),
            Ty::Float => json!({ "type": "number", "format": "float" }),
            Ty::Double => json!({ "type": "number", "format": "double" }),
            Ty::Option(inner) => return self.ty(inner, depth),
            Ty::List(inner) => json!({ "type": "array", "items": self.item(inner, depth) }),
            Ty::Map(inner) => {
                json!({ "type": "object", "additionalProperties": self.item(inner, depth) })
            }
            Ty::Named(n) => {
                let def = self.model.get(n);
                let mut schema = match &def.shape {
                    Shape::Object { .. } if depth < MAX_DEPTH && !self.is_open(n) => {
                        self.nested(n, def, depth)
                    }
                    Shape::Object { .. } => Map::from_iter([(
                        "x-kubernetes-preserve-unknown-fields".to_string(),
                        json!(true),
                    )]),
                    Shape::Enum { variants, .. } => {
                        let values: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                        Map::from_iter([
                            ("type".to_string(), json!("string")),
                            ("enum".to_string(), json!(values)),
                        ])
                    }
                    Shape::Transparent { ty } => self.ty(ty, depth),
                    Shape::Opaque { schema, .. } => def
                        .crd_schema
                        .as_ref()
                        .unwrap_or(schema)
                        .as_object()
                        .cloned()
                        .unwrap_or_default(),
                };
                apply(&mut schema, &def.validation);
                if let Some(m) = &def.map_type {
                    schema.insert("x-kubernetes-map-type".into(), json!(m));
                }
                return schema;
            }
        };
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    /// A list item or map value: the type, described by its own doc comment. A newtype is
    /// described too, as controller-gen describes the items of a list of a named Go type
    /// (`type Capability string`): its doc comment says what one item is.
    fn item(&self, ty: &Ty, depth: usize) -> Value {
        let mut schema = self.ty(ty, depth);
        if let Ty::Named(n) = ty {
            let def = self.model.get(n);
            let description = doc::crd(&def.doc);
            if !description.is_empty()
                && matches!(
                    def.shape,
                    Shape::Object { .. } | Shape::Enum { .. } | Shape::Transparent { .. }
                )
            {
                schema.insert("description".into(), json!(description));
            }
        }
        Value::Object(schema)
    }
}

/// Writes the validation markers into a schema (field markers win over type markers, since
/// they are applied last).
fn apply(schema: &mut Map<String, Value>, v: &Validation) {
    let ints = [
        ("minLength", v.min_length),
        ("maxLength", v.max_length),
        ("minimum", v.minimum),
        ("maximum", v.maximum),
        ("minItems", v.min_items),
        ("maxItems", v.max_items),
        ("minProperties", v.min_properties),
        ("maxProperties", v.max_properties),
    ];
    for (key, value) in ints {
        if let Some(n) = value {
            schema.insert(key.into(), json!(n));
        }
    }
    if let Some(p) = &v.pattern {
        schema.insert("pattern".into(), json!(p));
    }
    if !v.enum_values.is_empty() {
        schema.insert("enum".into(), json!(v.enum_values));
    }
    let flags = [
        ("exclusiveMinimum", v.exclusive_minimum),
        ("exclusiveMaximum", v.exclusive_maximum),
        ("uniqueItems", v.unique_items),
        (
            "x-kubernetes-preserve-unknown-fields",
            v.preserve_unknown_fields,
        ),
    ];
    for (key, set) in flags {
        if set {
            schema.insert(key.into(), json!(true));
        }
    }
    if v.int_or_string {
        // An integer or a string: no single type (a structural schema allows none beside it).
        schema.remove("type");
        schema.remove("format");
        schema.insert("x-kubernetes-int-or-string".into(), json!(true));
    }
    if let Some(f) = &v.format {
        schema.insert("format".into(), json!(f));
    }
    if let Some(e) = &v.example {
        schema.insert("example".into(), e.clone());
    }
    if let Some(d) = &v.default {
        schema.insert("default".into(), d.clone());
    }
    if !v.rules.is_empty() {
        let rules: Vec<Value> = v
            .rules
            .iter()
            .map(|r| {
                let mut m = Map::new();
                m.insert("rule".into(), json!(r.rule));
                for (key, value) in [
                    ("message", &r.message),
                    ("messageExpression", &r.message_expression),
                    ("reason", &r.reason),
                    ("fieldPath", &r.field_path),
                ] {
                    if let Some(value) = value {
                        m.insert(key.into(), json!(value));
                    }
                }
                Value::Object(m)
            })
            .collect();
        schema.insert("x-kubernetes-validations".into(), json!(rules));
    }
}
