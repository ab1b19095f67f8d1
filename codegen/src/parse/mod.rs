//! Syntax to model: one `DeriveInput` at a time (the derive and the CLI share this), and whole
//! files for the CLI (`file.rs`).

pub mod attr;
pub mod crd;
pub mod doc;
pub mod file;
mod hook;
mod meta;
mod serde_attrs;
pub mod symbol;
pub mod ty;
mod validation;
pub mod variable;

pub use hook::hook;
pub(crate) use meta::key_span;

use proc_macro2::Span;
use serde_derive_internals::{Ctxt, Derive, ast, attr::TagType};
use syn::spanned::Spanned;

use crate::diag::{Diagnostics, FileId};
use crate::markers::{self, Kind};
use crate::model::{
    Conversion, DefaultRule, Field, HookDef, Named, Role, Shape, TypeDef, Validation, Variant,
};

/// A type parsed from `#[derive(Schema)]`, with what the derive needs besides the model.
pub struct SchemaInput {
    /// The model of the type.
    pub def: TypeDef,
    /// `#[schema(crate = "...")]`
    pub krate: Option<syn::Path>,
    /// What the wire decoder is told about the type (not part of the model).
    pub wire: WireInput,
}

/// What the wire decoder is told about a type besides its model (see `emit::shape`).
#[derive(Default)]
pub struct WireInput {
    /// `#[schema(wire = "...")]`, with where it was written.
    pub kind: Option<(String, Span)>,
    /// The fields serde reads, in the order of its field list.
    pub fields: Vec<WireField>,
    /// The type has `#[serde(default)]`: serde fills a field the message leaves out.
    pub serde_default: bool,
}

/// A field serde reads.
pub struct WireField {
    /// The JSON name serde reads (its deserialize name).
    pub name: String,
    /// The Rust field name, without `r#`: the model's field of that name gives its type.
    pub ident: String,
    /// `#[schema(by_value)]`
    pub by_value: bool,
}

/// A hook parsed from `#[derive(Hook)]`.
pub struct HookInput {
    /// The model of the hook.
    pub def: HookDef,
    /// The request type as written.
    pub request: syn::Path,
    /// The response type as written.
    pub response: syn::Path,
    /// `#[hook(crate = "...")]`
    pub krate: Option<syn::Path>,
    /// `#[hook(shared_request)]`: the request type is not the hook's own, so it gets no
    /// `RequestOf` impl naming this hook.
    pub shared_request: bool,
}

/// Rust field names every hook message carries (Go's embedded `TypeMeta`).
pub const TYPE_META_FIELDS: &[&str] = &["api_version", "kind"];
/// Rust field names a hook response carries (Go's `CommonResponse`).
pub const RESPONSE_FIELDS: &[&str] = &["api_version", "kind", "status", "message"];
/// The field a retryable response adds (Go's `CommonRetryResponse`).
pub const RETRY_FIELD: &str = "retry_after_seconds";
/// The field of a request that carries settings (Go's `CommonRequest`).
pub const SETTINGS_FIELD: &str = "settings";

/// Parses a `#[derive(Schema)]` input. Serde's own attribute errors are reported only when
/// `report_serde_errors` is set: in the derive, serde's derive reports them already.
pub fn schema(
    cx: &Diagnostics,
    file: Option<FileId>,
    input: &syn::DeriveInput,
    report_serde_errors: bool,
) -> Option<SchemaInput> {
    parse_schema(cx, file, input, report_serde_errors, true)
}

/// Parses the input of `#[derive(Variable)]`: the same `#[schema(...)]` attributes as
/// [`schema`], except that no component name is needed (a variable's schema is written in
/// place, never as a component), so `package` may be left out.
pub fn variable_schema(cx: &Diagnostics, input: &syn::DeriveInput) -> Option<SchemaInput> {
    parse_schema(cx, None, input, false, false)
}

fn parse_schema(
    cx: &Diagnostics,
    file: Option<FileId>,
    input: &syn::DeriveInput,
    report_serde_errors: bool,
    component_required: bool,
) -> Option<SchemaInput> {
    let attrs = attr::container(cx, file, &input.attrs);
    let ident = unraw(&input.ident);
    if !input.generics.params.is_empty() {
        cx.error(
            file,
            input.generics.span(),
            "generic types are not supported: a schema describes one fixed wire shape",
        );
    }
    let component = match (&attrs.name, &attrs.package) {
        (Some(name), None) => name.value(),
        (None, Some(pkg)) => format!("{}.{}", pkg.value().replace('/', "."), ident),
        (Some(name), Some(_)) => {
            cx.error(
                file,
                name.span(),
                "give either `name` or `package`, not both",
            );
            name.value()
        }
        (None, None) if attrs.malformed => String::new(),
        (None, None) if !component_required => ident.clone(),
        (None, None) => {
            cx.error(
                file,
                input.ident.span(),
                format!(
                    "missing `#[schema(package = \"...\")]` on `{ident}`: the component name is \
                     the Go-style package path with `/` replaced by `.`, then `.{ident}` \
                     (or give the whole name with `#[schema(name = \"...\")]`)"
                ),
            );
            String::new()
        }
    };

    let role = match (attrs.request, attrs.response, attrs.retryable) {
        (None, None, None) => None,
        (Some(_), None, None) => Some(Role::Request),
        (None, _, None) => Some(Role::Response),
        (None, _, Some(_)) => Some(Role::RetryableResponse),
        (Some(span), _, _) => {
            cx.error(
                file,
                span,
                "a type is either a hook request or a hook response, not both",
            );
            None
        }
    };

    let serde_cx = Ctxt::new();
    let private = syn::Ident::new("__private", Span::call_site());
    let container = ast::Container::from_ast(&serde_cx, input, Derive::Serialize, &private);
    let serde_errors = serde_cx.check();
    if let Err(e) = serde_errors {
        if report_serde_errors {
            cx.push(file, e);
        }
        return None;
    }
    let container = container?;

    serde_attrs::container(cx, file, input, &container);

    if let (Some(span), None) = (attrs.inline, &attrs.opaque) {
        cx.error(
            file,
            span,
            "`inline` only applies together with `opaque = \"...\"`",
        );
    }
    let mut wire = WireInput {
        kind: attrs.wire.clone(),
        fields: Vec::new(),
        serde_default: !matches!(
            container.attrs.default(),
            serde_derive_internals::attr::Default::None
        ),
    };
    if let (Some((_, span)), None) = (&attrs.wire, &attrs.opaque) {
        cx.error(
            file,
            *span,
            "`wire` only applies together with `opaque = \"...\"`",
        );
    }
    let shape = match &container.data {
        _ if attrs.opaque.is_some() => Some(Shape::Opaque {
            schema: attrs.opaque.clone().unwrap(),
            inline: attrs.inline.is_some(),
        }),
        ast::Data::Struct(style, fields) => {
            if let Some(span) = attrs.listed_enum {
                cx.error(
                    file,
                    span,
                    "`enum` applies to enums of unit variants, not to structs",
                );
            }
            struct_shape(cx, file, input, &container, *style, fields, &mut wire)
        }
        ast::Data::Enum(variants) => {
            if let Some(span) = attrs.request.or(attrs.response).or(attrs.retryable) {
                cx.error(file, span, "a hook request or response must be a struct");
            }
            enum_shape(
                cx,
                file,
                input,
                &container,
                variants,
                attrs.listed_enum.is_some(),
            )
        }
    }?;

    let crd = crd::crd(cx, file, &input.attrs);
    if let (Some((_, span)), Shape::Object { fields }) = (&crd, &shape)
        && !fields.iter().any(|f| f.ident == "metadata")
    {
        cx.error(
            file,
            *span,
            "a custom resource root needs a `metadata: ObjectMeta` field (kube's `Resource` reads it)",
        );
    }
    if let (Some((_, span)), false) = (&crd, matches!(shape, Shape::Object { .. })) {
        cx.error(
            file,
            *span,
            "`#[crd(...)]` belongs on the root struct of a custom resource version",
        );
    }
    if let (Some(span), Shape::Enum { .. }) = (attrs.validation_span, &shape)
        && (attrs.validation.min_properties.is_some() || attrs.validation.max_properties.is_some())
    {
        cx.error(
            file,
            span,
            "`min_properties`/`max_properties` apply to objects, not to enums",
        );
    }
    match &shape {
        Shape::Transparent { ty } => {
            checked_validation(cx, file, ty, Validation::default(), &attrs.newtype_markers);
        }
        _ => {
            for (name, span) in &attrs.newtype_markers {
                cx.error(
                    file,
                    *span,
                    format!("`{name}` on a type applies to a newtype only; put it on the field"),
                );
            }
        }
    }
    if attrs.to_hub_only.is_some()
        && let Some(from) = &attrs.from_hub
    {
        cx.error(
            file,
            from.span(),
            "`from_hub` completes a conversion from the hub, which `to_hub_only` leaves out",
        );
    }
    if let (None, Some(span)) = (&attrs.hub, attrs.to_hub_only) {
        cx.error(
            file,
            span,
            "`to_hub_only` needs `hub = Type` naming the peer type",
        );
    }
    let conversion = match (attrs.hub, &attrs.to_hub, &attrs.from_hub) {
        (Some(hub), _, _) => Some(Conversion {
            hub: Named {
                path: ty::tokens(&hub),
                id: None,
                span: hub.span(),
            },
            to_hub: attrs.to_hub.as_ref().map(|l| l.value()),
            from_hub: attrs.from_hub.as_ref().map(|l| l.value()),
            to_hub_only: attrs.to_hub_only.is_some(),
        }),
        (None, Some(l), _) | (None, None, Some(l)) => {
            cx.error(
                file,
                l.span(),
                "`to_hub`/`from_hub` need `hub = Type` naming the peer type",
            );
            None
        }
        (None, None, None) => None,
    };
    let def = TypeDef {
        ident,
        component,
        doc: doc::doc_lines(&input.attrs),
        shape,
        role,
        map_type: attrs.map_type,
        validation: Box::new(attrs.validation),
        crd_schema: attrs.crd_schema,
        crd: crd.map(|(c, _)| Box::new(c)),
        conversion: conversion.map(Box::new),
        span: input.ident.span(),
        file,
        module: Vec::new(),
    };
    if matches!(def.shape, Shape::Object { .. }) {
        check_role_fields(cx, &def);
    }
    Some(SchemaInput {
        def,
        krate: attrs.krate,
        wire,
    })
}

fn struct_shape(
    cx: &Diagnostics,
    file: Option<FileId>,
    input: &syn::DeriveInput,
    container: &ast::Container<'_>,
    style: ast::Style,
    fields: &[ast::Field<'_>],
    wire: &mut WireInput,
) -> Option<Shape> {
    let transparent = container.attrs.transparent();
    match style {
        ast::Style::Newtype => {
            let f = &fields[0];
            attr::reject(cx, file, &f.original.attrs, "the field of a newtype");
            return Some(Shape::Transparent {
                ty: ty::parse(cx, file, f.ty)?,
            });
        }
        ast::Style::Struct if transparent => {
            let f = fields.iter().find(|f| !f.attrs.skip_serializing())?;
            return Some(Shape::Transparent {
                ty: ty::parse(cx, file, f.ty)?,
            });
        }
        ast::Style::Tuple => {
            cx.error(
                file,
                input.ident.span(),
                "tuple structs serialize as JSON arrays, which have no schema here; use named fields",
            );
            return None;
        }
        ast::Style::Unit => {
            cx.error(
                file,
                input.ident.span(),
                "a unit struct serializes as null and has no schema; hooks use #[derive(Hook)]",
            );
            return None;
        }
        ast::Style::Struct => {}
    }
    let mut out = Vec::new();
    for f in fields {
        let fa = attr::field(cx, file, &f.original.attrs);
        for a in f
            .original
            .attrs
            .iter()
            .filter(|a| a.path().is_ident(symbol::CRD))
        {
            cx.error(
                file,
                a.span(),
                "`#[crd(...)]` belongs on the root struct of a custom resource version, not on a field",
            );
        }
        let ident = match &f.member {
            syn::Member::Named(i) => unraw(i),
            syn::Member::Unnamed(_) => continue,
        };
        if let Some(span) = fa.by_value
            && !matches!(ty::parse_quiet(f.ty), Some(crate::model::Ty::Option(_)))
        {
            cx.error(
                file,
                span,
                "`by_value` applies to an `Option` field; a field of any other type is held \
                 by value already",
            );
        }
        if !f.attrs.skip_deserializing() {
            wire.fields.push(WireField {
                name: f.attrs.name().deserialize_name().value.clone(),
                ident: ident.clone(),
                by_value: fa.by_value.is_some(),
            });
        }
        if f.attrs.skip_serializing() {
            continue;
        }
        serde_attrs::field(cx, file, f);
        if f.attrs.serialize_with().is_some() {
            // Its type need not have a schema; nothing more to say about it.
            continue;
        }
        let Some(ty) = ty::parse(cx, file, f.ty) else {
            continue;
        };
        let omit_empty = f.attrs.skip_serializing_if().is_some();
        let required = match (fa.required, fa.optional) {
            (Some(_), _) => true,
            (_, Some(_)) => false,
            _ => !omit_empty,
        };
        let default = match (fa.default, fa.no_default) {
            (Some(v), _) => DefaultRule::Value(v),
            (None, Some(_)) => DefaultRule::None,
            _ => DefaultRule::Implicit,
        };
        let ty_for_check = ty.clone();
        out.push(Field {
            ident,
            name: f.attrs.name().serialize_name().value.clone(),
            ty,
            doc: doc::doc_lines(&f.original.attrs),
            required,
            omit_empty,
            default,
            list_type: fa.list_type,
            list_map_keys: fa.list_map_keys,
            map_type: fa.map_type,
            patch_strategy: fa.patch_strategy,
            patch_merge_key: fa.patch_merge_key,
            validation: Box::new(checked_validation(
                cx,
                file,
                &ty_for_check,
                fa.validation,
                &fa.validation_spans,
            )),
            span: f.original.span(),
        });
    }
    Some(Shape::Object { fields: out })
}

fn enum_shape(
    cx: &Diagnostics,
    file: Option<FileId>,
    input: &syn::DeriveInput,
    container: &ast::Container<'_>,
    variants: &[ast::Variant<'_>],
    listed: bool,
) -> Option<Shape> {
    if !matches!(container.attrs.tag(), TagType::External) {
        cx.error(
            file,
            input.ident.span(),
            "only externally tagged enums (serde's default) of unit variants are supported",
        );
        return None;
    }
    let mut out = Vec::new();
    for v in variants {
        attr::reject(cx, file, &v.original.attrs, "enum variants");
        serde_attrs::variant(cx, file, v);
        if v.attrs.untagged() && matches!(v.style, ast::Style::Newtype) {
            // An open string enum (Go's string type with named constants): the untagged
            // newtype variant carries any other value; it has no wire name to list.
            if !is_string(v.fields[0].ty) {
                cx.error(
                    file,
                    v.original.span(),
                    "the untagged variant of an open enum must hold a String",
                );
            }
            continue;
        }
        if !matches!(v.style, ast::Style::Unit) {
            cx.error(
                file,
                v.original.span(),
                "only unit variants are supported: the enum must serialize as a plain string",
            );
            continue;
        }
        if v.attrs.skip_serializing() {
            continue;
        }
        out.push(Variant {
            name: v.attrs.name().serialize_name().value.clone(),
            ident: unraw(&v.ident),
            doc: doc::doc_lines(&v.original.attrs),
        });
    }
    Some(Shape::Enum {
        variants: out,
        listed,
    })
}

fn is_string(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("String"))
}

/// Reports each validation marker that cannot apply to the field's type, as far as the type
/// is known here (named types are checked after resolution, in `check.rs`).
fn checked_validation(
    cx: &Diagnostics,
    file: Option<FileId>,
    ty: &crate::model::Ty,
    v: Validation,
    spans: &[(&'static str, Span)],
) -> Validation {
    for (name, span) in spans {
        let kind = Kind::of(name);
        if markers::fits(ty, kind, None) == Some(false) {
            cx.error(
                file,
                *span,
                format!(
                    "`{name}` applies to {}, and this field is not one",
                    kind.noun()
                ),
            );
        }
    }
    v
}

/// A hook message's accessors are generated from fixed field names (Go's embedded `TypeMeta`,
/// `CommonRequest` and `CommonResponse`); say which ones are missing.
fn check_role_fields(cx: &Diagnostics, def: &TypeDef) {
    let Some(role) = def.role else { return };
    let mut needed: Vec<&str> = match role {
        Role::Request => TYPE_META_FIELDS.to_vec(),
        Role::Response => RESPONSE_FIELDS.to_vec(),
        Role::RetryableResponse => RESPONSE_FIELDS.to_vec(),
    };
    if role == Role::RetryableResponse {
        needed.push(RETRY_FIELD);
    }
    let have: Vec<&str> = def.fields().iter().map(|f| f.ident.as_str()).collect();
    let missing: Vec<String> = needed
        .iter()
        .filter(|n| !have.contains(n))
        .map(|n| format!("`{n}`"))
        .collect();
    if !missing.is_empty() {
        let what = match role {
            Role::Request => "a hook request",
            Role::Response => "a hook response",
            Role::RetryableResponse => "a retryable hook response",
        };
        cx.error(
            def.file,
            def.span,
            format!("{what} needs the field(s) {}", missing.join(", ")),
        );
    }
}

/// An identifier without its `r#` prefix.
pub fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}
