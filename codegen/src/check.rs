//! Rules that need more than one definition. Rules about a single attribute are checked while
//! parsing (`parse/attr.rs`); each function here says what it rejects.

use std::collections::BTreeMap;

use crate::diag::{Diagnostics, Errors};
use crate::model::{Model, Role, Shape, Ty};

/// Runs every cross-cutting rule over a resolved model.
pub fn check(model: &Model) -> Result<(), Errors> {
    let cx = Diagnostics::new();
    duplicate_hooks(&cx, model);
    duplicate_components(&cx, model);
    hook_messages(&cx, model);
    list_map_keys(&cx, model);
    markers_fit(&cx, model);
    cx.check()
}

// Two hooks with the same group, version and name:
//
//     #[hook(group = "g", version = "v1", ...)] struct A;
//     #[hook(group = "g", version = "v1", name = "A", ...)] struct B;
fn duplicate_hooks(cx: &Diagnostics, model: &Model) {
    let mut seen = BTreeMap::new();
    for hook in &model.hooks {
        let key = (&hook.group, &hook.version, hook.name.to_lowercase());
        if let Some(first) = seen.insert(key, &hook.ident) {
            cx.error(
                hook.file,
                hook.span,
                format!(
                    "duplicate hook `{}` in {}/{}: `{}` already registers it (hook paths are \
                     case-insensitive)",
                    hook.name, hook.group, hook.version, first
                ),
            );
        }
    }
}

// Two types that would be written under the same component name:
//
//     #[schema(package = "p")] struct Foo { .. }   // in module a
//     #[schema(package = "p")] struct Foo { .. }   // in module b
fn duplicate_components(cx: &Diagnostics, model: &Model) {
    let mut seen: BTreeMap<&str, &crate::model::TypeDef> = BTreeMap::new();
    for def in &model.types {
        if matches!(def.shape, Shape::Enum { .. } | Shape::Transparent { .. })
            || matches!(def.shape, Shape::Opaque { inline: true, .. })
        {
            continue;
        }
        if let Some(first) = seen.insert(&def.component, def) {
            // Two Rust types of one opaque wire type (k8s-openapi's `RawExtension` and the
            // SDK's own): the same schema, written once.
            if same_opaque(def, first) {
                continue;
            }
            cx.error(
                def.file,
                def.span,
                format!(
                    "`{}` and another type `{}` would both be the component `{}`; give one of \
                     them another `package` or `name`",
                    def.ident, first.ident, def.component
                ),
            );
        }
    }
}

/// True when `a` and `b` are opaque types with the same schemas and description, so that
/// either one's component is the other's.
fn same_opaque(a: &crate::model::TypeDef, b: &crate::model::TypeDef) -> bool {
    let shape = |t: &crate::model::TypeDef| serde_json::to_value(&t.shape).ok();
    matches!(a.shape, Shape::Opaque { .. })
        && shape(a) == shape(b)
        && a.crd_schema == b.crd_schema
        && a.doc == b.doc
        && a.map_type == b.map_type
}

// A hook whose request or response type does not play that role, or a request/response pair
// shared by two hooks (the wire kind must identify one hook):
//
//     #[hook(request = Foo, response = Bar, ..)]   // Foo lacks #[schema(request)]
fn hook_messages(cx: &Diagnostics, model: &Model) {
    let mut used = BTreeMap::new();
    for hook in &model.hooks {
        for (named, want) in [(&hook.request, "request"), (&hook.response, "response")] {
            let def = model.get(named);
            let ok = match want {
                "request" => def.role == Some(Role::Request),
                _ => matches!(def.role, Some(Role::Response | Role::RetryableResponse)),
            };
            if !ok {
                cx.error(
                    hook.file,
                    named.span,
                    format!(
                        "`{}` is the {want} of hook `{}` but is not marked `#[schema({want})]`",
                        def.ident, hook.name
                    ),
                );
            }
            let id = named.id.unwrap();
            if let Some(other) = used.insert(id, &hook.name) {
                cx.error(
                    hook.file,
                    named.span,
                    format!(
                        "`{}` is already a message of hook `{other}`; each hook needs its own \
                         request and response types",
                        def.ident
                    ),
                );
            }
        }
    }
}

// A list-map key that the list's items do not have:
//
//     #[schema(list_type = "map", list_map_keys("nmae"))] pub handlers: Vec<ExtensionHandler>,
fn list_map_keys(cx: &Diagnostics, model: &Model) {
    for def in &model.types {
        for f in def.fields() {
            if f.list_map_keys.is_empty() {
                continue;
            }
            let item = match &f.ty {
                Ty::List(t) => t.as_ref(),
                Ty::Option(o) => match o.as_ref() {
                    Ty::List(t) => t.as_ref(),
                    _ => o.as_ref(),
                },
                t => t,
            };
            let Ty::Named(n) = item else {
                cx.error(def.file, f.span, "`list_map_keys` needs a list of structs");
                continue;
            };
            let target = model.get(n);
            for key in &f.list_map_keys {
                if !target.fields().iter().any(|tf| &tf.name == key) {
                    cx.error(
                        def.file,
                        f.span,
                        format!(
                            "list map key `{key}` is not a property of `{}`",
                            target.ident
                        ),
                    );
                }
            }
        }
    }
}

// A CRD validation marker on a field whose (named) type cannot carry it:
//
//     #[schema(max_length = 3)] pub inner: Inner,   // Inner is a struct
fn markers_fit(cx: &Diagnostics, model: &Model) {
    use crate::markers::{Kind, fits};
    let names = |v: &crate::model::Validation| -> Vec<&'static str> {
        let mut out = Vec::new();
        for (set, name) in [
            (v.min_length.is_some(), "min_length"),
            (v.max_length.is_some(), "max_length"),
            (v.pattern.is_some(), "pattern"),
            (!v.enum_values.is_empty(), "enum_values"),
            (v.minimum.is_some(), "minimum"),
            (v.maximum.is_some(), "maximum"),
            (v.min_items.is_some(), "min_items"),
            (v.max_items.is_some(), "max_items"),
            (v.min_properties.is_some(), "min_properties"),
            (v.max_properties.is_some(), "max_properties"),
        ] {
            if set {
                out.push(name);
            }
        }
        out
    };
    for def in &model.types {
        for f in def.fields() {
            for name in names(&f.validation) {
                let kind = Kind::of(name);
                if fits(&f.ty, kind, Some(model)) == Some(false) {
                    cx.error(
                        def.file,
                        f.span,
                        format!(
                            "`{name}` applies to {}, and field `{}` is not one",
                            kind.noun(),
                            f.name
                        ),
                    );
                }
            }
        }
    }
}
