//! The generator's intermediate representation: what a Rust type or hook means on the wire.
//!
//! Both frontends build these values: the derive from one `DeriveInput` (and serializes them
//! into the expansion, see `emit::rust`), the CLI from whole source files. After resolution
//! every [`Named`] reference points into [`Model::types`], and the emitters only read a
//! [`Model`]. Spans are kept for diagnostics and never serialized.

use proc_macro2::Span;
use serde::{Deserialize, Serialize};

use crate::diag::FileId;

/// The version of the JSON form in which the derive records a [`TypeDef`] or [`HookDef`] in its
/// expansion (`capi_runtime::schema::TypeInfo::format`). Raised whenever that form changes;
/// [`link_derived`](crate::resolve::link_derived) refuses models of any other version, so a
/// derive and a generator from releases that disagree fail with a message rather than a wrong
/// document.
pub const MODEL_FORMAT: u32 = 3;

fn call_site() -> Span {
    Span::call_site()
}

/// A type that derives `Schema` (or an entry of the table of known external types).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TypeDef {
    /// The Rust type name; for hook messages it is also the wire `kind`.
    pub ident: String,
    /// The OpenAPI component name, e.g. `sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster`.
    pub component: String,
    /// Doc comment lines, with `///` and one following space removed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    /// What the type looks like on the wire.
    pub shape: Shape,
    /// The part the type plays in a hook call, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// `x-kubernetes-map-type` for every use of the type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_type: Option<String>,
    /// CRD validation markers that apply at every use of the type (boxed, as the large parts
    /// below: most types have none, and a small definition is cheaper to read and move).
    #[serde(default, skip_serializing_if = "Validation::is_empty")]
    pub validation: Box<Validation>,
    /// For an opaque type: its structural CRD schema, when it differs from the OpenAPI one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crd_schema: Option<serde_json::Value>,
    /// For the root type of a custom resource version: its CRD markers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crd: Option<Box<Crd>>,
    /// For a type of an older API version: how it converts to the hub version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversion: Option<Box<Conversion>>,
    /// Where the type was defined.
    #[serde(skip, default = "call_site")]
    pub span: Span,
    /// The input file (CLI only).
    #[serde(skip)]
    pub file: Option<FileId>,
    /// The module path, starting with the crate name (CLI only).
    #[serde(skip)]
    pub module: Vec<String>,
}

/// CRD validation markers (controller-gen's `+kubebuilder:validation:*`). The OpenAPI
/// document of the hooks ignores them, as openapi-gen does.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Validation {
    /// `minLength`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i64>,
    /// `maxLength`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<i64>,
    /// `minimum`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<i64>,
    /// `maximum`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<i64>,
    /// `pattern`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// `enum`, in marker order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enum_values: Vec<serde_json::Value>,
    /// `minItems`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<i64>,
    /// `maxItems`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<i64>,
    /// `minProperties`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_properties: Option<i64>,
    /// `maxProperties`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_properties: Option<i64>,
    /// `x-kubernetes-validations`: CEL rules with their messages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,
    /// `exclusiveMinimum`: the value must be above `minimum`, not equal to it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exclusive_minimum: bool,
    /// `exclusiveMaximum`: the value must be below `maximum`, not equal to it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exclusive_maximum: bool,
    /// `uniqueItems`
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique_items: bool,
    /// `format`, written over the one the type implies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `example`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<serde_json::Value>,
    /// `default`, set on a newtype only: the value a use of it gets when the use gives none (a
    /// field's own default is [`Field::default`], which takes precedence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
    /// `x-kubernetes-preserve-unknown-fields`
    #[serde(default, skip_serializing_if = "is_false")]
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-int-or-string`: an integer or a string, in place of the type's own.
    #[serde(default, skip_serializing_if = "is_false")]
    pub int_or_string: bool,
}

impl Validation {
    /// True when no marker is set.
    pub fn is_empty(&self) -> bool {
        *self == Validation::default()
    }
}

/// One `x-kubernetes-validations` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    /// The CEL expression.
    pub rule: String,
    /// The message shown when it fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// A CEL expression that computes the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_expression: Option<String>,
    /// The reason a failure reports: `FieldValueInvalid` (the API server's default),
    /// `FieldValueRequired`, `FieldValueForbidden` or `FieldValueDuplicate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The path, from the value the rule is on, of the field a failure is reported at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_path: Option<String>,
}

/// The CRD markers of one version of a custom resource (its root type).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Crd {
    /// API group.
    pub group: String,
    /// API version.
    pub version: String,
    /// Plural resource name (the URL path segment).
    pub plural: String,
    /// Singular name (default: the kind in lower case).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub singular: String,
    /// Short names for kubectl.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// Categories for kubectl.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// True for namespaced resources.
    #[serde(default, skip_serializing_if = "is_false")]
    pub namespaced: bool,
    /// The status subresource is enabled.
    #[serde(default, skip_serializing_if = "is_false")]
    pub status: bool,
    /// The version objects are stored in.
    #[serde(default, skip_serializing_if = "is_false")]
    pub storage: bool,
    /// The version is deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// kubectl columns, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printer_columns: Vec<PrinterColumn>,
}

/// One `additionalPrinterColumns` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrinterColumn {
    /// Column header.
    pub name: String,
    /// Column type: string, integer, number, boolean or date.
    #[serde(rename = "type")]
    pub ty: String,
    /// JSONPath of the value.
    pub json_path: String,
    /// Help text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// 0 for the default view; higher only in wide output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
}

/// How a type of an older version converts to and from the hub (storage) version.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversion {
    /// The peer type in the hub version.
    pub hub: Named,
    /// `fn(&Self, &mut Hub)` completing the fields the generator cannot convert.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_hub: Option<String>,
    /// `fn(&Hub, &mut Self)` completing the fields the generator cannot convert.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_hub: Option<String>,
    /// Only the conversion to the hub is generated, for this type and every type of its module
    /// paired with one of the hub's module (an older shape that is read and never written).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub to_hub_only: bool,
}

/// The wire shape of a type.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Shape {
    /// A JSON object with named properties: a struct with named fields.
    Object {
        /// The fields in declaration order.
        fields: Vec<Field>,
    },
    /// A string with a fixed set of values: an enum of unit variants.
    Enum {
        /// The variants in declaration order.
        variants: Vec<Variant>,
        /// Whether the schema lists the values (`#[schema(enum)]`, Go's `+enum`).
        listed: bool,
    },
    /// The schema of another type, used in place: a newtype or `#[serde(transparent)]` struct.
    Transparent {
        /// The wrapped type.
        ty: Ty,
    },
    /// A type whose schema is given literally (`#[schema(opaque = "...")]`): types with
    /// custom JSON such as `Time` or `IntOrString`. Its uses get no implicit default.
    Opaque {
        /// The schema, without description.
        schema: serde_json::Value,
        /// Written in place at each use (`#[schema(inline)]`) instead of as a component.
        #[serde(default, skip_serializing_if = "is_false")]
        inline: bool,
    },
}

/// A field of an object type.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Field {
    /// The Rust field name, without `r#`.
    pub ident: String,
    /// The JSON property name (serde's serialize name).
    pub name: String,
    /// The field's type.
    pub ty: Ty,
    /// Doc comment lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    /// Listed in the schema's `required`.
    pub required: bool,
    /// Left out of the JSON when empty (serde `skip_serializing_if`, Go's `omitempty`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub omit_empty: bool,
    /// How the schema's `default` is chosen.
    #[serde(default, skip_serializing_if = "DefaultRule::is_implicit")]
    pub default: DefaultRule,
    /// `x-kubernetes-list-type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_type: Option<String>,
    /// `x-kubernetes-list-map-keys`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-map-type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_type: Option<String>,
    /// `x-kubernetes-patch-strategy` (Go's `patchStrategy` struct tag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_strategy: Option<String>,
    /// `x-kubernetes-patch-merge-key` (Go's `patchMergeKey` struct tag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_merge_key: Option<String>,
    /// CRD validation markers of the field (boxed: most fields have none).
    #[serde(default, skip_serializing_if = "Validation::is_empty")]
    pub validation: Box<Validation>,
    /// Where the field was defined.
    #[serde(skip, default = "call_site")]
    pub span: Span,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How a property's `default` is chosen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DefaultRule {
    /// The generator's rule for the type (see `emit::openapi`): `{}` for struct values, the
    /// zero value for scalars that are always serialized, nothing otherwise.
    #[default]
    Implicit,
    /// No default on the property nor on its items (`#[schema(no_default)]`).
    None,
    /// This value (`#[schema(default = ...)]`).
    Value(serde_json::Value),
}

impl DefaultRule {
    fn is_implicit(&self) -> bool {
        *self == DefaultRule::Implicit
    }
}

/// A variant of a string enum.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Variant {
    /// The wire value (serde's serialize name).
    pub name: String,
    /// The Rust variant name.
    #[serde(default)]
    pub ident: String,
    /// Doc comment lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
}

/// The part a type plays in a hook call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Role {
    /// A hook request: carries `apiVersion`, `kind` and usually `settings`.
    Request,
    /// A hook response: carries `apiVersion`, `kind`, `status` and `message`.
    Response,
    /// A response that also carries `retryAfterSeconds`.
    RetryableResponse,
}

/// A field type.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Ty {
    /// `String`
    String,
    /// `bool`
    Bool,
    /// `i32`, `i16`, `u16`
    Int32,
    /// `i64`, `u32`, `u64`
    Int64,
    /// `f32`
    Float,
    /// `f64`
    Double,
    /// `Option<T>`: may be absent or null; never gets an implicit default.
    Option(Box<Ty>),
    /// `Vec<T>`
    List(Box<Ty>),
    /// A map with string keys.
    Map(Box<Ty>),
    /// Another type with its own definition.
    Named(Named),
}

/// A reference to another type.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Named {
    /// The path as written in the source, e.g. `Cluster` or `meta::v1::Time`.
    pub path: String,
    /// Before resolution, the derive's local reference number (or `None` from the CLI);
    /// after resolution, the index in [`Model::types`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    /// Where the path was written.
    #[serde(skip, default = "call_site")]
    pub span: Span,
}

/// A hook: one endpoint an extension can serve.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HookDef {
    /// The Rust type that describes the hook.
    pub ident: String,
    /// The hook name, e.g. `BeforeClusterCreate` (case kept; paths lower-case it).
    pub name: String,
    /// API group, e.g. `hooks.runtime.cluster.x-k8s.io`.
    pub group: String,
    /// API version, e.g. `v1alpha1`.
    pub version: String,
    /// The request type.
    pub request: Named,
    /// The response type.
    pub response: Named,
    /// OpenAPI tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// One-line summary.
    pub summary: String,
    /// Doc comment lines: the longer description.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc: Vec<String>,
    /// Served without a handler-name path segment (only Discovery).
    #[serde(default, skip_serializing_if = "is_false")]
    pub singleton: bool,
    /// Marked deprecated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// Where the hook was defined.
    #[serde(skip, default = "call_site")]
    pub span: Span,
    /// The input file (CLI only).
    #[serde(skip)]
    pub file: Option<FileId>,
}

/// Every type and hook of one generation run, with every [`Named`] resolved. Its JSON form
/// (see [`crate::write_model`]) keeps the resolved indices and drops spans and file ids.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Model {
    /// Types; [`Named::id`] indexes this list.
    pub types: Vec<TypeDef>,
    /// Hooks, in input order.
    pub hooks: Vec<HookDef>,
    /// The modules the types were read from, with their `use` items: what another crate needs
    /// to find a type by any path it is reachable by, when the model stands in for its
    /// sources (empty in a model the derive built).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<Module>,
}

/// A module of the input (a file or an inline `mod name { ... }`), as name resolution sees it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Module {
    /// The path from the crate root, starting with the crate name, e.g.
    /// `["crate", "hooks", "v1alpha1"]`.
    pub path: Vec<String>,
    /// `use` items: `(name, path)` imports one name, `("*", path)` a glob.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<(String, Vec<String>)>,
    /// Types defined here that derive `Schema`: (name, index into [`Model::types`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<(String, usize)>,
    /// Child modules (declared with `mod`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<String>,
}

impl Model {
    /// The definition a resolved reference points at.
    pub fn get(&self, named: &Named) -> &TypeDef {
        &self.types[named.id.expect("reference resolved before emission")]
    }
}

impl Ty {
    /// Calls `f` on every named reference inside this type, in order.
    pub fn for_each_named<'a>(&'a self, f: &mut impl FnMut(&'a Named)) {
        match self {
            Ty::Option(t) | Ty::List(t) | Ty::Map(t) => t.for_each_named(f),
            Ty::Named(n) => f(n),
            _ => {}
        }
    }

    /// Like [`Ty::for_each_named`], with mutable access.
    pub fn for_each_named_mut(&mut self, f: &mut impl FnMut(&mut Named)) {
        match self {
            Ty::Option(t) | Ty::List(t) | Ty::Map(t) => t.for_each_named_mut(f),
            Ty::Named(n) => f(n),
            _ => {}
        }
    }
}

impl TypeDef {
    /// Calls `f` on every named reference in the definition, in declaration order (the
    /// conversion hub last).
    pub fn for_each_named<'a>(&'a self, f: &mut impl FnMut(&'a Named)) {
        match &self.shape {
            Shape::Object { fields } => fields.iter().for_each(|fl| fl.ty.for_each_named(f)),
            Shape::Transparent { ty } => ty.for_each_named(f),
            Shape::Enum { .. } | Shape::Opaque { .. } => {}
        }
        if let Some(c) = &self.conversion {
            f(&c.hub);
        }
    }

    /// Like [`TypeDef::for_each_named`], with mutable access.
    pub fn for_each_named_mut(&mut self, f: &mut impl FnMut(&mut Named)) {
        match &mut self.shape {
            Shape::Object { fields } => {
                fields.iter_mut().for_each(|fl| fl.ty.for_each_named_mut(f))
            }
            Shape::Transparent { ty } => ty.for_each_named_mut(f),
            Shape::Enum { .. } | Shape::Opaque { .. } => {}
        }
        if let Some(c) = &mut self.conversion {
            f(&mut c.hub);
        }
    }

    /// The fields of an object type (empty for other shapes).
    pub fn fields(&self) -> &[Field] {
        match &self.shape {
            Shape::Object { fields } => fields,
            _ => &[],
        }
    }
}
