//! Model → OpenAPI 3.0 document, following the rules of Kubernetes' openapi-gen that Cluster
//! API's `runtime-openapi-gen` relies on (see the crate docs for the rule list).

use serde_json::{Map, Value, json};

use super::canonical::canonical;
use super::doc;
use crate::model::{DefaultRule, Field, HookDef, Model, Named, Shape, Ty, TypeDef};

/// What goes into the document besides the model.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OpenApiOpt {
    /// `info.version`.
    pub version: String,
    /// `info.title`.
    pub title: String,
    /// `info.description`.
    pub description: String,
}

impl Default for OpenApiOpt {
    fn default() -> Self {
        OpenApiOpt {
            version: String::new(),
            title: "Cluster API - Runtime SDK".to_string(),
            description: "The HTTP endpoints that Cluster API calls while it manages the \
                lifecycle of a Cluster. Cluster API names these endpoints Runtime Hooks; a \
                service that implements some of them is a Runtime Extension.\n\nEvery hook is \
                a POST of a JSON request to the extension's base URL plus the path listed here, \
                answered by a JSON response. Extensions register through an ExtensionConfig and \
                list their handlers in the Discovery response.\n\nSee the \
                [Cluster API book](https://cluster-api.sigs.k8s.io/) for the full guide."
                .to_string(),
        }
    }
}

impl OpenApiOpt {
    /// Options with `info.version` set.
    pub fn with_version(version: impl Into<String>) -> Self {
        OpenApiOpt {
            version: version.into(),
            ..Self::default()
        }
    }
}

const REF_PREFIX: &str = "#/components/schemas/";
const NAME_PARAM: &str = "Name of the handler to call. An extension serves each of its handlers \
    under its own name, so names are unique within one extension server.";
const OK_RESPONSE: &str = "The extension processed the request. Whether the hook succeeded is \
    told by the response body (`status`, `message`), not by the HTTP status.";

/// The path of a hook, as Cluster API builds it: `/<group>/<version>/<hook>` plus
/// `/<handler name>` when a name is given; hook and name are lower-cased, group and version kept.
pub fn hook_path(group: &str, version: &str, hook: &str, name: &str) -> String {
    let mut path = format!("/{group}/{version}/{}", hook.to_lowercase());
    if !name.is_empty() {
        path.push('/');
        path.push_str(&name.to_lowercase());
    }
    path
}

/// The operationId of a hook: e.g. `hooksRuntimeClusterV1alpha1BeforeClusterCreate`.
pub fn operation_id(group: &str, version: &str, hook: &str) -> String {
    let group = group.strip_suffix(".x-k8s.io").unwrap_or(group);
    let mut out = String::new();
    for (i, part) in group.split('.').enumerate() {
        if i == 0 {
            out.push_str(part);
        } else {
            out.push_str(&upper_first(part));
        }
    }
    out.push_str(&upper_first(version));
    out.push_str(&upper_first(hook));
    out
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The whole document: paths for every hook of the model and the components they reach, in
/// canonical key order.
pub fn document(model: &Model, opt: &OpenApiOpt) -> Value {
    let mut paths = Map::new();
    let mut components = Components::new(model);
    for hook in &model.hooks {
        let (path, item) = path_item(hook, &mut components);
        paths.insert(path, item);
    }
    let mut doc = json!({
        "openapi": "3.0.0",
        "info": {
            "title": opt.title,
            "description": opt.description,
            "license": {
                "name": "Apache 2.0",
                "url": "http://www.apache.org/licenses/LICENSE-2.0.html",
            },
            "version": opt.version,
        },
    });
    // Moved in, not through `json!` (which would copy them).
    doc["paths"] = Value::Object(paths);
    doc["components"] = json!({});
    doc["components"]["schemas"] = Value::Object(components.finish());
    canonical(doc)
}

/// The component schemas of the given types and of everything they reference; what a golden
/// case shows for types that no hook uses.
pub fn components_of(model: &Model, roots: impl IntoIterator<Item = usize>) -> Value {
    let mut components = Components::new(model);
    for id in roots {
        components.want(id);
    }
    canonical(Value::Object(components.finish()))
}

/// A string value.
fn text(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

/// A list of string values.
fn texts<S: Into<String>>(items: impl IntoIterator<Item = S>) -> Value {
    Value::Array(items.into_iter().map(text).collect())
}

/// `{"content": {"application/json": {"schema": schema}}}`.
fn json_content(schema: Value) -> Map<String, Value> {
    let Value::Object(m) = json!({ "content": { "application/json": { "schema": schema } } })
    else {
        unreachable!("an object")
    };
    m
}

fn path_item(hook: &HookDef, components: &mut Components<'_>) -> (String, Value) {
    let name = if hook.singleton { "" } else { "{name}" };
    let path = hook_path(&hook.group, &hook.version, &hook.name, name);
    let request = components.reference(&hook.request);
    let response = components.reference(&hook.response);
    let mut op = Map::new();
    if !hook.tags.is_empty() {
        op.insert("tags".into(), texts(&hook.tags));
    }
    if !hook.summary.is_empty() {
        op.insert("summary".into(), text(&hook.summary));
    }
    let description = doc::openapi(&hook.doc);
    if !description.is_empty() {
        op.insert("description".into(), text(description));
    }
    op.insert(
        "operationId".into(),
        text(operation_id(&hook.group, &hook.version, &hook.name)),
    );
    if !hook.singleton {
        op.insert(
            "parameters".into(),
            json!([{
                "name": "name",
                "in": "path",
                "required": true,
                "description": NAME_PARAM,
                "schema": { "type": "string" },
            }]),
        );
    }
    op.insert("requestBody".into(), Value::Object(json_content(request)));
    let mut ok = json_content(response);
    ok.insert("description".into(), text(OK_RESPONSE));
    op.insert("responses".into(), json!({ "200": ok }));
    if hook.deprecated {
        op.insert("deprecated".into(), Value::Bool(true));
    }
    (path, json!({ "post": op }))
}

/// Collects component schemas, each written once, following references.
struct Components<'a> {
    model: &'a Model,
    /// Whether each type (by index) has been queued already.
    done: Vec<bool>,
    queue: Vec<usize>,
    out: Map<String, Value>,
}

impl<'a> Components<'a> {
    fn new(model: &'a Model) -> Self {
        Components {
            model,
            done: vec![false; model.types.len()],
            queue: Vec::new(),
            out: Map::new(),
        }
    }

    fn want(&mut self, id: usize) {
        if !std::mem::replace(&mut self.done[id], true) {
            self.queue.push(id);
        }
    }

    /// `{"$ref": ...}` to a type, queuing its component.
    fn reference(&mut self, named: &Named) -> Value {
        let id = named.id.expect("resolved");
        self.want(id);
        json!({ "$ref": format!("{REF_PREFIX}{}", self.model.types[id].component) })
    }

    fn finish(mut self) -> Map<String, Value> {
        let model = self.model;
        while let Some(id) = self.queue.pop() {
            let def = &model.types[id];
            if let Some(schema) = self.component(def) {
                self.out
                    .insert(def.component.clone(), Value::Object(schema));
            }
        }
        self.out
    }

    /// The component schema of a type, or `None` for types written in place.
    fn component(&mut self, def: &TypeDef) -> Option<Map<String, Value>> {
        let mut schema = match &def.shape {
            Shape::Object { .. } => self.object(def),
            Shape::Opaque {
                schema,
                inline: false,
            } => object_of(schema),
            Shape::Opaque { inline: true, .. } | Shape::Enum { .. } => return None,
            Shape::Transparent { ty } => {
                // Written in place; only its references need components.
                let mut refs = Vec::new();
                ty.for_each_named(&mut |n| refs.push(n.id.unwrap()));
                refs.into_iter().for_each(|id| self.want(id));
                return None;
            }
        };
        let description = doc::openapi(&def.doc);
        if !description.is_empty() {
            schema.insert("description".into(), text(description));
        }
        if let Some(map_type) = &def.map_type {
            schema.insert("x-kubernetes-map-type".into(), text(map_type));
        }
        Some(schema)
    }

    fn object(&mut self, def: &TypeDef) -> Map<String, Value> {
        let fields = def.fields();
        let mut properties = Map::new();
        let mut required = Vec::new();
        for field in fields {
            properties.insert(field.name.clone(), Value::Object(self.property(field)));
            if field.required {
                required.push(text(&field.name));
            }
        }
        let mut schema = Map::new();
        schema.insert("type".into(), text("object"));
        if !properties.is_empty() {
            schema.insert("properties".into(), Value::Object(properties));
        }
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        schema
    }

    fn property(&mut self, field: &Field) -> Map<String, Value> {
        let mut schema = self.ty(&field.ty);
        let mut description = doc::openapi(&field.doc);
        if let Some(values) = self.listed_enum(&field.ty) {
            description.push_str(&enum_doc(values));
        }
        doc::trim_in_place(&mut description);
        if !description.is_empty() {
            schema.insert("description".into(), text(description));
        }
        let default = match &field.default {
            DefaultRule::Value(v) => Some(v.clone()),
            DefaultRule::None => {
                for key in ["items", "additionalProperties"] {
                    if let Some(Value::Object(items)) = schema.get_mut(key) {
                        items.remove("default");
                    }
                }
                None
            }
            DefaultRule::Implicit => self.implicit_default(&field.ty, field.omit_empty),
        };
        if let Some(d) = default {
            schema.insert("default".into(), d);
        }
        if let Some(v) = &field.list_type {
            schema.insert("x-kubernetes-list-type".into(), text(v));
        }
        if !field.list_map_keys.is_empty() {
            schema.insert(
                "x-kubernetes-list-map-keys".into(),
                texts(&field.list_map_keys),
            );
        }
        if let Some(v) = &field.map_type {
            schema.insert("x-kubernetes-map-type".into(), text(v));
        }
        if let Some(v) = &field.patch_strategy {
            schema.insert("x-kubernetes-patch-strategy".into(), text(v));
        }
        if let Some(v) = &field.patch_merge_key {
            schema.insert("x-kubernetes-patch-merge-key".into(), text(v));
        }
        schema
    }

    /// The schema of a type at a use site, without description or default.
    fn ty(&mut self, ty: &Ty) -> Map<String, Value> {
        let scalar = |ty: &str, format: Option<&str>| {
            let mut m = Map::new();
            m.insert("type".into(), text(ty));
            if let Some(f) = format {
                m.insert("format".into(), text(f));
            }
            m
        };
        match ty {
            Ty::String => scalar("string", None),
            Ty::Bool => scalar("boolean", None),
            Ty::Int32 => scalar("integer", Some("int32")),
            Ty::Int64 => scalar("integer", Some("int64")),
            Ty::Float => scalar("number", Some("float")),
            Ty::Double => scalar("number", Some("double")),
            Ty::Option(inner) => self.ty(inner),
            Ty::List(inner) => {
                let mut m = scalar("array", None);
                m.insert("items".into(), self.item(inner));
                m
            }
            Ty::Map(inner) => {
                let mut m = scalar("object", None);
                m.insert("additionalProperties".into(), self.item(inner));
                m
            }
            Ty::Named(n) => {
                let model = self.model;
                let def = &model.types[n.id.unwrap()];
                match &def.shape {
                    Shape::Object { .. } | Shape::Opaque { inline: false, .. } => {
                        object_of(&self.reference(n))
                    }
                    Shape::Opaque {
                        schema,
                        inline: true,
                    } => object_of(schema),
                    Shape::Enum { variants, listed } => {
                        let mut s = scalar("string", None);
                        if *listed {
                            let mut values: Vec<&str> =
                                variants.iter().map(|v| v.name.as_str()).collect();
                            values.sort();
                            s.insert("enum".into(), texts(values));
                        }
                        s
                    }
                    Shape::Transparent { ty } => self.ty(ty),
                }
            }
        }
    }

    /// The schema of a list item or map value: the type plus the default of an element that is
    /// always written (optional elements get none).
    fn item(&mut self, ty: &Ty) -> Value {
        let mut schema = self.ty(ty);
        if let Some(d) = self.implicit_default(ty, false) {
            schema.insert("default".into(), d);
        }
        Value::Object(schema)
    }

    /// openapi-gen's implicit default for a property: `{}` for a struct value, the zero value
    /// for a scalar that is always serialized, nothing for optional values, lists, maps and
    /// types with custom JSON. A zero value outside a listed enum is left out, since it would
    /// make the document invalid (upstream writes `default: ""` there).
    fn implicit_default(&self, ty: &Ty, omit_empty: bool) -> Option<Value> {
        match ty {
            Ty::Option(_) | Ty::List(_) | Ty::Map(_) => None,
            Ty::Named(n) => match &self.model.types[n.id.unwrap()].shape {
                Shape::Object { .. } => Some(json!({})),
                Shape::Opaque { .. } => None,
                Shape::Transparent { ty } => self.implicit_default(ty, omit_empty),
                Shape::Enum { variants, listed } => {
                    let zero_allowed = !*listed || variants.iter().any(|v| v.name.is_empty());
                    (!omit_empty && zero_allowed).then(|| text(""))
                }
            },
            scalar => (!omit_empty).then(|| zero(scalar)),
        }
    }

    fn listed_enum(&self, ty: &Ty) -> Option<&'a [crate::model::Variant]> {
        let model = self.model;
        match ty {
            Ty::Option(inner) => self.listed_enum(inner),
            Ty::Named(n) => match &model.types[n.id.unwrap()].shape {
                Shape::Enum {
                    variants,
                    listed: true,
                } => Some(variants),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The entries of a literal schema (an empty mapping for a schema that is not an object).
fn object_of(schema: &Value) -> Map<String, Value> {
    schema.as_object().cloned().unwrap_or_default()
}

fn zero(ty: &Ty) -> Value {
    match ty {
        Ty::String => json!(""),
        Ty::Bool => json!(false),
        Ty::Int32 | Ty::Int64 => json!(0),
        Ty::Float | Ty::Double => json!(0.0),
        _ => Value::Null,
    }
}

/// The list of values appended to the description of a listed-enum property.
fn enum_doc(variants: &[crate::model::Variant]) -> String {
    let mut sorted: Vec<_> = variants.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = String::from("\n\nPossible enum values:");
    for v in sorted {
        out.push_str(&format!("\n - `{:?}`", v.name));
        let d = doc::openapi(&v.doc);
        if !d.is_empty() {
            out.push(' ');
            out.push_str(&d);
        }
    }
    out
}
