//! Model → OpenAPI 3.0 document, following the rules of Kubernetes' openapi-gen that Cluster
//! API's `runtime-openapi-gen` relies on (see the crate docs for the rule list).

use std::borrow::Cow;

use serde_json::{Map as JsonMap, Value, json};

use super::tree::{Map, Node};

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
    document_tree(model, opt).into_value()
}

/// [`document`] as YAML, written from the emitter's tree without building a `Value`.
#[cfg(feature = "yaml")]
pub fn document_yaml(model: &Model, opt: &OpenApiOpt) -> String {
    crate::yaml::tree_to_string(&document_tree(model, opt))
}

/// The whole document as the emitter's tree, in key order.
fn document_tree<'a>(model: &'a Model, opt: &'a OpenApiOpt) -> Node<'a> {
    let mut paths = Map::with_capacity(model.hooks.len());
    let mut components = Components::new(model);
    for hook in &model.hooks {
        let (path, item) = path_item(hook, &mut components);
        paths.insert(path, item);
    }
    let mut license = Map::with_capacity(2);
    license.insert("name", Node::str("Apache 2.0"));
    license.insert(
        "url",
        Node::str("http://www.apache.org/licenses/LICENSE-2.0.html"),
    );
    let mut info = Map::with_capacity(4);
    info.insert("title", Node::str(&opt.title));
    info.insert("description", Node::str(&opt.description));
    info.insert("license", license.into());
    info.insert("version", Node::str(&opt.version));
    let mut schemas = Map::with_capacity(1);
    schemas.insert("schemas", components.finish().into());
    let mut doc = Map::with_capacity(4);
    doc.insert("openapi", Node::str("3.0.0"));
    doc.insert("info", info.into());
    doc.insert("paths", paths.into());
    doc.insert("components", schemas.into());
    let mut doc = Node::Map(doc);
    doc.sort();
    doc
}

/// The component schemas of the given types and of everything they reference; what a golden
/// case shows for types that no hook uses.
pub fn components_of(model: &Model, roots: impl IntoIterator<Item = usize>) -> Value {
    let mut components = Components::new(model);
    for id in roots {
        components.want(id);
    }
    let mut tree = Node::Map(components.finish());
    tree.sort();
    tree.into_value()
}

/// A one-entry mapping.
fn single<'a>(key: &'a str, value: Node<'a>) -> Node<'a> {
    let mut m = Map::with_capacity(1);
    m.insert(key, value);
    Node::Map(m)
}

/// `{"content": {"application/json": {"schema": schema}}}`.
fn json_content(schema: Node<'_>) -> Node<'_> {
    single(
        "content",
        single("application/json", single("schema", schema)),
    )
}

fn path_item<'a>(hook: &'a HookDef, components: &mut Components<'a>) -> (String, Node<'a>) {
    let name = if hook.singleton { "" } else { "{name}" };
    let path = hook_path(&hook.group, &hook.version, &hook.name, name);
    let request = components.reference(&hook.request);
    let response = components.reference(&hook.response);
    let mut op = Map::with_capacity(8);
    if !hook.tags.is_empty() {
        op.insert("tags", Node::strs(&hook.tags));
    }
    if !hook.summary.is_empty() {
        op.insert("summary", Node::str(&hook.summary));
    }
    let description = doc::openapi(&hook.doc);
    if !description.is_empty() {
        op.insert("description", Node::str(description));
    }
    op.insert(
        "operationId",
        Node::str(operation_id(&hook.group, &hook.version, &hook.name)),
    );
    if !hook.singleton {
        let mut param = Map::with_capacity(5);
        param.insert("name", Node::str("name"));
        param.insert("in", Node::str("path"));
        param.insert("required", Node::json(Value::Bool(true)));
        param.insert("description", Node::str(NAME_PARAM));
        param.insert("schema", single("type", Node::str("string")));
        op.insert("parameters", Node::List(vec![param.into()]));
    }
    op.insert("requestBody", json_content(request));
    let Node::Map(mut ok) = json_content(response) else {
        unreachable!("a mapping")
    };
    ok.insert("description", Node::str(OK_RESPONSE));
    op.insert("responses", single("200", ok.into()));
    if hook.deprecated {
        op.insert("deprecated", Node::json(Value::Bool(true)));
    }
    (path, single("post", op.into()))
}

/// Collects component schemas, each written once, following references.
struct Components<'a> {
    model: &'a Model,
    /// Whether each type (by index) has been queued already.
    done: Vec<bool>,
    queue: Vec<usize>,
    out: Map<'a>,
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
    fn reference(&mut self, named: &Named) -> Node<'a> {
        let id = named.id.expect("resolved");
        self.want(id);
        let target = format!("{REF_PREFIX}{}", self.model.types[id].component);
        single("$ref", Node::str(target))
    }

    fn finish(mut self) -> Map<'a> {
        let model = self.model;
        while let Some(id) = self.queue.pop() {
            let def = &model.types[id];
            if let Some(schema) = self.component(def) {
                self.out.insert(def.component.as_str(), schema.into());
            }
        }
        self.out
    }

    /// The component schema of a type, or `None` for types written in place.
    fn component(&mut self, def: &'a TypeDef) -> Option<Map<'a>> {
        let mut schema = match &def.shape {
            Shape::Object { .. } => self.object(def),
            Shape::Opaque {
                schema,
                inline: false,
            } => borrowed_map(schema),
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
            schema.insert("description", Node::str(description));
        }
        if let Some(map_type) = &def.map_type {
            schema.insert("x-kubernetes-map-type", Node::str(map_type));
        }
        Some(schema)
    }

    fn object(&mut self, def: &'a TypeDef) -> Map<'a> {
        let fields = def.fields();
        let mut properties = Map::with_capacity(fields.len());
        let mut required = Vec::new();
        for field in fields {
            properties.insert(field.name.as_str(), self.property(field).into());
            if field.required {
                required.push(Node::str(&field.name));
            }
        }
        let mut schema = Map::with_capacity(5);
        schema.insert("type", Node::str("object"));
        if !properties.is_empty() {
            schema.insert("properties", properties.into());
        }
        if !required.is_empty() {
            schema.insert("required", Node::List(required));
        }
        schema
    }

    fn property(&mut self, field: &'a Field) -> Map<'a> {
        let mut schema = self.ty(&field.ty);
        let mut description = doc::openapi(&field.doc);
        if let Some(values) = self.listed_enum(&field.ty) {
            description.push_str(&enum_doc(values));
        }
        doc::trim_in_place(&mut description);
        if !description.is_empty() {
            schema.insert("description", Node::str(description));
        }
        let default = match &field.default {
            DefaultRule::Value(v) => Some(Node::Json(Cow::Borrowed(v))),
            DefaultRule::None => {
                for key in ["items", "additionalProperties"] {
                    match schema.get_mut(key) {
                        Some(Node::Map(items)) => items.remove("default"),
                        Some(Node::Json(Cow::Borrowed(v))) if v.get("default").is_some() => {
                            let mut owned: Value = (**v).clone();
                            owned.as_object_mut().expect("an object").remove("default");
                            schema.insert(key, Node::json(owned));
                        }
                        Some(Node::Json(Cow::Owned(v))) => {
                            if let Some(m) = v.as_object_mut() {
                                m.remove("default");
                            }
                        }
                        _ => {}
                    }
                }
                None
            }
            DefaultRule::Implicit => self.implicit_default(&field.ty, field.omit_empty),
        };
        if let Some(d) = default {
            schema.insert("default", d);
        }
        if let Some(v) = &field.list_type {
            schema.insert("x-kubernetes-list-type", Node::str(v));
        }
        if !field.list_map_keys.is_empty() {
            schema.insert(
                "x-kubernetes-list-map-keys",
                Node::strs(&field.list_map_keys),
            );
        }
        if let Some(v) = &field.map_type {
            schema.insert("x-kubernetes-map-type", Node::str(v));
        }
        if let Some(v) = &field.patch_strategy {
            schema.insert("x-kubernetes-patch-strategy", Node::str(v));
        }
        if let Some(v) = &field.patch_merge_key {
            schema.insert("x-kubernetes-patch-merge-key", Node::str(v));
        }
        schema
    }

    /// The schema of a type at a use site, without description or default.
    fn ty(&mut self, ty: &'a Ty) -> Map<'a> {
        let scalar = |ty: &'static str, format: Option<&'static str>| {
            let mut m = Map::with_capacity(4);
            m.insert("type", Node::str(ty));
            if let Some(f) = format {
                m.insert("format", Node::str(f));
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
                m.insert("items", self.item(inner));
                m
            }
            Ty::Map(inner) => {
                let mut m = scalar("object", None);
                m.insert("additionalProperties", self.item(inner));
                m
            }
            Ty::Named(n) => {
                let model = self.model;
                let def = &model.types[n.id.unwrap()];
                match &def.shape {
                    Shape::Object { .. } | Shape::Opaque { inline: false, .. } => {
                        let Node::Map(m) = self.reference(n) else {
                            unreachable!("a mapping")
                        };
                        m
                    }
                    Shape::Opaque {
                        schema,
                        inline: true,
                    } => borrowed_map(schema),
                    Shape::Enum { variants, listed } => {
                        let mut s = scalar("string", None);
                        if *listed {
                            let mut values: Vec<&str> =
                                variants.iter().map(|v| v.name.as_str()).collect();
                            values.sort();
                            s.insert("enum", Node::strs(values));
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
    fn item(&mut self, ty: &'a Ty) -> Node<'a> {
        let mut schema = self.ty(ty);
        if let Some(d) = self.implicit_default(ty, false) {
            schema.insert("default", d);
        }
        schema.into()
    }

    /// openapi-gen's implicit default for a property: `{}` for a struct value, the zero value
    /// for a scalar that is always serialized, nothing for optional values, lists, maps and
    /// types with custom JSON. A zero value outside a listed enum is left out, since it would
    /// make the document invalid (upstream writes `default: ""` there).
    fn implicit_default(&self, ty: &Ty, omit_empty: bool) -> Option<Node<'a>> {
        match ty {
            Ty::Option(_) | Ty::List(_) | Ty::Map(_) => None,
            Ty::Named(n) => match &self.model.types[n.id.unwrap()].shape {
                Shape::Object { .. } => Some(Node::Map(Map::new())),
                Shape::Opaque { .. } => None,
                Shape::Transparent { ty } => self.implicit_default(ty, omit_empty),
                Shape::Enum { variants, listed } => {
                    let zero_allowed = !*listed || variants.iter().any(|v| v.name.is_empty());
                    (!omit_empty && zero_allowed).then(|| Node::str(""))
                }
            },
            scalar => (!omit_empty).then(|| Node::json(zero(scalar))),
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

/// The entries of a literal schema from the model, borrowed (an empty mapping for a schema
/// that is not an object).
fn borrowed_map(schema: &Value) -> Map<'_> {
    let Some(m) = schema.as_object() else {
        return Map::new();
    };
    let mut out = Map::with_capacity(m.len() + 2);
    for (k, v) in m {
        out.insert(k.as_str(), Node::Json(Cow::Borrowed(v)));
    }
    out
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
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut probe = JsonMap::new();
        probe.insert("b".into(), Value::Null);
        probe.insert("a".into(), Value::Null);
        probe.keys().next().is_some_and(|k| k == "a")
    })
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
