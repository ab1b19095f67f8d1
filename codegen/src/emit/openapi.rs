//! Model → OpenAPI 3.0 document, following the rules of Kubernetes' openapi-gen that Cluster
//! API's `runtime-openapi-gen` relies on (see the crate docs for the rule list).

use serde_json::{Map, Value, json};

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

/// The whole document: paths for every hook of the model and the components they reach.
pub fn document(model: &Model, opt: &OpenApiOpt) -> Value {
    let mut paths = Map::new();
    let mut components = Components::new(model);
    for hook in &model.hooks {
        let (path, item) = path_item(hook, &mut components);
        paths.insert(path, item);
    }
    let schemas = components.finish();
    // `json!` would copy `paths` and `schemas` (it serializes every value it interpolates into
    // a new tree): the whole document twice in memory. They are moved in instead.
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
    let top = doc.as_object_mut().expect("an object");
    top.insert("paths".into(), Value::Object(paths));
    top.insert(
        "components".into(),
        Value::Object(Map::from_iter([(
            "schemas".to_string(),
            Value::Object(schemas),
        )])),
    );
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

fn path_item(hook: &HookDef, components: &mut Components<'_>) -> (String, Value) {
    let name = if hook.singleton { "" } else { "{name}" };
    let path = hook_path(&hook.group, &hook.version, &hook.name, name);
    let request = components.reference(&hook.request);
    let response = components.reference(&hook.response);
    let mut op = Map::new();
    if !hook.tags.is_empty() {
        op.insert("tags".into(), json!(hook.tags));
    }
    if !hook.summary.is_empty() {
        op.insert("summary".into(), json!(hook.summary));
    }
    let description = doc::openapi(&hook.doc);
    if !description.is_empty() {
        op.insert("description".into(), Value::String(description));
    }
    op.insert(
        "operationId".into(),
        json!(operation_id(&hook.group, &hook.version, &hook.name)),
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
    // The references are moved in (`json!` would copy them).
    let mut request_body = json!({ "content": { "application/json": {} } });
    request_body["content"]["application/json"]["schema"] = request;
    op.insert("requestBody".into(), request_body);
    let mut responses = json!({ "200": {
        "description": OK_RESPONSE,
        "content": { "application/json": {} },
    }});
    responses["200"]["content"]["application/json"]["schema"] = response;
    op.insert("responses".into(), responses);
    if hook.deprecated {
        op.insert("deprecated".into(), json!(true));
    }
    (
        path,
        Value::Object(Map::from_iter([("post".to_string(), Value::Object(op))])),
    )
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
        while let Some(id) = self.queue.pop() {
            let def = &self.model.types[id];
            if let Some(schema) = self.component(def) {
                self.out.insert(def.component.clone(), schema);
            }
        }
        self.out
    }

    /// The component schema of a type, or `None` for types written in place.
    fn component(&mut self, def: &TypeDef) -> Option<Value> {
        let mut schema = match &def.shape {
            Shape::Object { .. } => self.object(def),
            Shape::Opaque {
                schema,
                inline: false,
            } => schema.as_object().cloned().unwrap_or_default(),
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
            schema.insert("description".into(), Value::String(description));
        }
        if let Some(map_type) = &def.map_type {
            schema.insert("x-kubernetes-map-type".into(), json!(map_type));
        }
        Some(Value::Object(schema))
    }

    fn object(&mut self, def: &TypeDef) -> Map<String, Value> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for field in def.fields() {
            properties.insert(field.name.clone(), self.property(field));
            if field.required {
                required.push(Value::String(field.name.clone()));
            }
        }
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        if !properties.is_empty() {
            schema.insert("properties".into(), Value::Object(properties));
        }
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        schema
    }

    fn property(&mut self, field: &Field) -> Value {
        let mut schema = self.ty(&field.ty);
        let mut description = doc::openapi(&field.doc);
        if let Some(values) = self.listed_enum(&field.ty) {
            description.push_str(&enum_doc(values));
        }
        doc::trim_in_place(&mut description);
        if !description.is_empty() {
            schema.insert("description".into(), Value::String(description));
        }
        let default = match &field.default {
            DefaultRule::Value(v) => Some(v.clone()),
            DefaultRule::None => {
                if let Some(Value::Object(items)) = schema.get_mut("items") {
                    items.remove("default");
                }
                if let Some(Value::Object(items)) = schema.get_mut("additionalProperties") {
                    items.remove("default");
                }
                None
            }
            DefaultRule::Implicit => self.implicit_default(&field.ty, field.omit_empty),
        };
        if let Some(d) = default {
            schema.insert("default".into(), d);
        }
        let ext = [
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
            (
                "x-kubernetes-patch-strategy",
                field.patch_strategy.as_ref().map(|v| json!(v)),
            ),
            (
                "x-kubernetes-patch-merge-key",
                field.patch_merge_key.as_ref().map(|v| json!(v)),
            ),
        ];
        for (key, value) in ext {
            if let Some(v) = value {
                schema.insert(key.into(), v);
            }
        }
        Value::Object(schema)
    }

    /// The schema of a type at a use site, without description or default.
    fn ty(&mut self, ty: &Ty) -> Map<String, Value> {
        let v = match ty {
            Ty::String => json!({ "type": "string" }),
            Ty::Bool => json!({ "type": "boolean" }),
            Ty::Int32 => json!({ "type": "integer", "format": "int32" }),
            Ty::Int64 => json!({ "type": "integer", "format": "int64" }),
            Ty::Float => json!({ "type": "number", "format": "float" }),
            Ty::Double => json!({ "type": "number", "format": "double" }),
            Ty::Option(inner) => return self.ty(inner),
            // Not `json!`, which would copy the element's schema: it is moved in.
            Ty::List(inner) => {
                let items = self.item(inner);
                return Map::from_iter([
                    ("type".to_string(), json!("array")),
                    ("items".to_string(), items),
                ]);
            }
            Ty::Map(inner) => {
                let values = self.item(inner);
                return Map::from_iter([
                    ("type".to_string(), json!("object")),
                    ("additionalProperties".to_string(), values),
                ]);
            }
            Ty::Named(n) => {
                let model = self.model;
                let def = &model.types[n.id.unwrap()];
                match &def.shape {
                    Shape::Object { .. } | Shape::Opaque { inline: false, .. } => self.reference(n),
                    Shape::Opaque {
                        schema,
                        inline: true,
                    } => schema.clone(),
                    Shape::Enum { variants, listed } => {
                        let mut s = json!({ "type": "string" });
                        if *listed {
                            let mut values: Vec<&str> =
                                variants.iter().map(|v| v.name.as_str()).collect();
                            values.sort();
                            s["enum"] = json!(values);
                        }
                        s
                    }
                    Shape::Transparent { ty } => return self.ty(ty),
                }
            }
        };
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
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
                    (!omit_empty && zero_allowed).then(|| json!(""))
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

/// Rebuilds every object with its keys in sorted order, whatever map type serde_json uses. A
/// value already in that order is returned as it is: without looking at it when serde_json's
/// maps keep their keys sorted (its default; another crate of the build can turn on its
/// `preserve_order` feature), else after one read-only walk.
pub fn canonical(v: Value) -> Value {
    if is_canonical(&v) {
        return v;
    }
    sorted(v)
}

/// True when serde_json's `Map` keeps its keys sorted, as it does unless its `preserve_order`
/// feature is on: then every [`Value`] is canonical, and no walk needs to prove it. Asked of
/// the map itself, since a dependency may turn the feature on without this crate's knowledge.
fn maps_are_sorted() -> bool {
    let mut probe = Map::new();
    probe.insert("b".into(), Value::Null);
    probe.insert("a".into(), Value::Null);
    probe.keys().next().is_some_and(|k| k == "a")
}

/// True when every object in `v` lists its keys in sorted order: at once when serde_json's maps
/// keep them sorted, else after one read-only walk.
pub fn is_canonical(v: &Value) -> bool {
    maps_are_sorted() || keys_sorted(v)
}

fn keys_sorted(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            m.keys().zip(m.keys().skip(1)).all(|(a, b)| a < b) && m.values().all(keys_sorted)
        }
        Value::Array(a) => a.iter().all(keys_sorted),
        _ => true,
    }
}

fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}
