//! Model → `impl schemars::JsonSchema` (schemars 1) for the types of the primary input, so that
//! an operator can embed them in a kube-derive `CustomResource`.
//!
//! The schema of each type is the one the CRD emitter writes for it ([`crd::type_schema`]):
//! the same properties, `required` lists, formats, enums, defaults, validation markers and
//! `x-kubernetes-*` extensions, and the type's doc comment as description. Only the way the
//! pieces are put together is schemars': each impl holds its own level as JSON, and every other
//! type of the primary input is asked from the generator (`subschema_for`) at the place it is
//! used. With kube-derive's settings (`inline_subschemas`) the result is exactly the CRD
//! emitter's inlined schema; with schemars' defaults the types become `$defs` entries named
//! after the Rust type and are referenced with `$ref`.
//!
//! External types (k8s-openapi, serde_json) get no impl: neither the trait nor the type is ours.
//! Their schemas are written in place from the table of known external types, as the CRD
//! emitter writes them, rather than taken from k8s-openapi's own `JsonSchema` impls, whose
//! schemas carry other descriptions and none of the CRD markers (`x-kubernetes-list-type` on
//! conditions, enums, lengths).
//!
//! A type used inside itself (such as `JSONSchemaProps`) is cut where the CRD emitter cuts it
//! (`x-kubernetes-preserve-unknown-fields`). Two or more types that contain each other are
//! refused: the place of the cut would depend on which of them the schema starts from.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Value, json};

use super::crd;
use super::rust::raw_str;
use crate::diag::{Diagnostics, Errors};
use crate::model::{Model, Named, Shape, TypeDef};

/// The key of the marker that stands for another type's schema in an impl's JSON; its value is
/// the index of that type in the impl's list of subschemas.
pub const SUBSCHEMA_KEY: &str = "$subschema";

/// One generated file of the impls: its name in the generated module's folder, and its text.
pub type ImplFile = (String, String);

/// The Rust source of the `JsonSchema` impls of every type `primary` accepts, as the files of
/// one module folder, each starting with `preamble`: `mod.rs` (the shared helpers and the list
/// of every impl) and one file per source module of the types, named after its path
/// (`api_core_v1beta2_cluster.rs` for the types of `crate::api::core::v1beta2::cluster`), so
/// that no file grows with the whole API. The files name the runtime crate as `crate` and
/// schemars as `::schemars`.
pub fn impls(
    model: &Model,
    primary: impl Fn(&TypeDef) -> bool,
    preamble: &str,
) -> Result<Vec<ImplFile>, Errors> {
    let cx = Diagnostics::new();
    let ids: Vec<usize> = (0..model.types.len())
        .filter(|&id| primary(&model.types[id]))
        .collect();
    check_cycles(&cx, model, &ids);
    cx.check()?;
    // Every primary type but the one being written stands for itself as a marker.
    let mut marked = model.clone();
    for &id in &ids {
        marked.types[id] = marker(&model.types[id], id);
    }
    // Per source module, in order of first appearance: its impls and its list entries.
    let mut modules: Vec<(String, Vec<TokenStream>, Vec<TokenStream>)> = Vec::new();
    for &id in &ids {
        let def = &model.types[id];
        let original = std::mem::replace(&mut marked.types[id], def.clone());
        let named = Named {
            path: def.ident.clone(),
            id: Some(id),
            span: def.span,
        };
        let mut schema = crd::type_schema(&marked, &named);
        marked.types[id] = original;
        let mut subs = Vec::new();
        renumber(&mut schema, &mut subs);
        let name = file_stem(def);
        let at = match modules.iter().position(|m| m.0 == name) {
            Some(at) => at,
            None => {
                modules.push((name, Vec::new(), Vec::new()));
                modules.len() - 1
            }
        };
        let (component, path) = (&def.component, rust_path(def));
        modules[at].1.push(item(model, def, &schema, &subs));
        modules[at].2.push(quote!((#component, subschema::<#path>)));
    }
    let render = |tokens: TokenStream| {
        let file: syn::File = syn::parse2(tokens).expect("generated code parses");
        format!("{preamble}{}", prettyplease::unparse(&file))
    };
    let helpers = helpers();
    let names: Vec<syn::Ident> = modules
        .iter()
        .map(|m| syn::Ident::new(&m.0, proc_macro2::Span::call_site()))
        .collect();
    let mut files = vec![(
        "mod.rs".to_string(),
        render(quote! {
            #(mod #names;)*
            #helpers
            /// Every type that has an impl here, by schema id (its OpenAPI component name), with
            /// the function that asks a generator for its schema. Tests use it to check every
            /// impl.
            pub fn all() -> Vec<(&'static str, Subschema)> {
                [#(#names::ALL),*].concat()
            }
        }),
    )];
    for (name, items, all) in modules {
        files.push((
            format!("{name}.rs"),
            render(quote! {
                use super::{Subschema, assemble, subschema};
                /// The impls of this file, by schema id.
                pub(super) const ALL: &[(&str, Subschema)] = &[#(#all),*];
                #(#items)*
            }),
        ));
    }
    Ok(files)
}

/// The name of the file that holds the impls of `def`: its module path without the crate,
/// joined by `_` (`root` for the crate root).
fn file_stem(def: &TypeDef) -> String {
    let path = def.module.get(1..).unwrap_or_default();
    if path.is_empty() {
        "root".to_string()
    } else {
        path.join("_")
    }
}

/// A stand-in for `def` whose CRD schema is only the marker `{"$subschema": id}`.
fn marker(def: &TypeDef, id: usize) -> TypeDef {
    TypeDef {
        doc: Vec::new(),
        shape: Shape::Opaque {
            schema: json!({ SUBSCHEMA_KEY: id }),
            inline: false,
        },
        map_type: None,
        validation: Box::default(),
        crd_schema: None,
        ..def.clone()
    }
}

/// Replaces the model indices in the markers of `schema` by indices into `subs`, the list of
/// model indices in order of first use. Only schema positions are visited (the root,
/// `properties`, `items`, `additionalProperties`), never `default` or `enum` values.
fn renumber(schema: &mut Value, subs: &mut Vec<usize>) {
    let Value::Object(map) = schema else { return };
    if let Some(id) = map.get(SUBSCHEMA_KEY).and_then(Value::as_u64) {
        let id = id as usize;
        let local = match subs.iter().position(|&s| s == id) {
            Some(i) => i,
            None => {
                subs.push(id);
                subs.len() - 1
            }
        };
        map.insert(SUBSCHEMA_KEY.into(), json!(local));
        return;
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        props.values_mut().for_each(|p| renumber(p, subs));
    }
    for key in ["items", "additionalProperties"] {
        if let Some(v) = map.get_mut(key) {
            renumber(v, subs);
        }
    }
}

/// Refuses two or more distinct primary types that reach each other (see the module docs).
fn check_cycles(cx: &Diagnostics, model: &Model, ids: &[usize]) {
    let set: BTreeSet<usize> = ids.iter().copied().collect();
    let edges = |id: usize| {
        let mut out = BTreeSet::new();
        wire_refs(&model.types[id], &mut |n| {
            if let Some(t) = n.id
                && t != id
                && set.contains(&t)
            {
                out.insert(t);
            }
        });
        out
    };
    for &start in ids {
        // Depth-first from each type; a path back to `start` is a cycle through it.
        let mut stack = vec![start];
        let mut seen = BTreeSet::new();
        'walk: while let Some(id) = stack.pop() {
            for next in edges(id) {
                if next == start {
                    let def = &model.types[start];
                    cx.error(
                        def.file,
                        def.span,
                        format!(
                            "`{}` contains itself through other types; the schemars impls \
                             support only a type that contains itself directly",
                            def.ident
                        ),
                    );
                    break 'walk;
                }
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
    }
}

/// Calls `f` on every type the wire shape of `def` names (not its conversion hub).
fn wire_refs<'a>(def: &'a TypeDef, f: &mut impl FnMut(&'a Named)) {
    match &def.shape {
        Shape::Object { fields } => fields.iter().for_each(|fl| fl.ty.for_each_named(f)),
        Shape::Transparent { ty } => ty.for_each_named(f),
        Shape::Enum { .. } | Shape::Opaque { .. } => {}
    }
}

/// The Rust path of a type of the runtime crate.
fn rust_path(def: &TypeDef) -> TokenStream {
    let segs = def
        .module
        .iter()
        .map(String::as_str)
        .chain([def.ident.as_str()]);
    segs.collect::<Vec<_>>()
        .join("::")
        .parse()
        .expect("a module path parses")
}

fn item(model: &Model, def: &TypeDef, schema: &Value, subs: &[usize]) -> TokenStream {
    let ty = rust_path(def);
    let name = &def.ident;
    let id = &def.component;
    let json = raw_str(&serde_json::to_string(schema).expect("a JSON value serializes"));
    let subs = subs.iter().map(|&s| {
        let path = rust_path(&model.types[s]);
        quote!(subschema::<#path>)
    });
    quote! {
        impl ::schemars::JsonSchema for #ty {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#name)
            }
            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#id)
            }
            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                assemble(generator, #json, &[#(#subs),*])
            }
        }
    }
}

/// The fixed part of the file: putting an impl's JSON and its subschemas together.
fn helpers() -> TokenStream {
    quote! {
        use ::serde_json::{Map, Value};

        /// Asks a generator for the schema of one type.
        pub type Subschema = fn(&mut ::schemars::SchemaGenerator) -> ::schemars::Schema;

        /// The schema of `T` from the generator: inlined or a `$ref`, as it is set up.
        fn subschema<T: ::schemars::JsonSchema>(
            generator: &mut ::schemars::SchemaGenerator,
        ) -> ::schemars::Schema {
            generator.subschema_for::<T>()
        }

        /// Where a subschema is used: as the whole schema or a property, where the use site's
        /// description replaces the type's, or as a list item or map value, where the type's
        /// own description stays.
        #[derive(Clone, Copy)]
        enum Site {
            Property,
            Item,
        }

        /// The schema `json` (written by the generator, always valid) with every
        /// `{"$subschema": i, ...}` marker replaced by `subs[i]`'s schema, the marker's other
        /// keys (the use site's description, default and markers) written over it.
        fn assemble(
            generator: &mut ::schemars::SchemaGenerator,
            json: &str,
            subs: &[Subschema],
        ) -> ::schemars::Schema {
            let mut value: Value =
                ::serde_json::from_str(json).expect("the generated schema is valid JSON");
            fill(generator, &mut value, subs, Site::Property);
            match value {
                Value::Object(map) => ::schemars::Schema::from(map),
                _ => ::schemars::Schema::default(),
            }
        }

        fn fill(
            generator: &mut ::schemars::SchemaGenerator,
            value: &mut Value,
            subs: &[Subschema],
            site: Site,
        ) {
            let Value::Object(map) = value else { return };
            if let Some(index) = map.get("$subschema").and_then(Value::as_u64) {
                map.remove("$subschema");
                let sub = subs.get(index as usize).map(|f| f(generator));
                let mut schema: Map<String, Value> = match sub.map(::schemars::Schema::to_value) {
                    Some(Value::Object(schema)) => schema,
                    _ => Map::new(),
                };
                if matches!(site, Site::Property) && !schema.contains_key("$ref") {
                    schema.remove("description");
                }
                schema.append(map);
                *map = schema;
                return;
            }
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                for p in props.values_mut() {
                    fill(generator, p, subs, Site::Property);
                }
            }
            for key in ["items", "additionalProperties"] {
                if let Some(v) = map.get_mut(key) {
                    fill(generator, v, subs, Site::Item);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    fn load(text: &str) -> Model {
        let src = SourceFile::in_crate("src/api/mod.rs", "api/mod.rs", text);
        crate::load(&[src]).unwrap_or_else(|f| panic!("{f}"))
    }

    const HEADER: &str = "use capi_runtime::Schema;\nuse serde::{Deserialize, Serialize};\n";

    #[test]
    fn a_type_inside_itself_is_cut_and_others_are_subschemas() {
        let model = load(&format!(
            "{HEADER}
            /// A tree.
            #[derive(Serialize, Deserialize, Schema)]
            #[schema(package = \"example.com/t/v1\")]
            pub struct Node {{
                /// The children.
                pub children: Vec<Node>,
                /// The label.
                pub label: Label,
            }}
            /// A label.
            #[derive(Serialize, Deserialize, Schema)]
            #[schema(package = \"example.com/t/v1\")]
            pub struct Label {{
                /// Its text.
                pub text: String,
            }}"
        ));
        let files = impls(&model, |t| t.module[0] == "crate", "").expect("generated");
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, ["mod.rs", "api.rs"]);
        let code = &files[1].1;
        assert!(code.contains("(\"example.com.t.v1.Node\", subschema::<crate::api::Node>)"));
        assert!(files[0].1.contains("[api::ALL].concat()"));
        let node = code
            .split("impl ::schemars::JsonSchema for crate::api::Node")
            .nth(1)
            .expect("an impl for Node");
        let json_start = node.find("r#\"").expect("the schema literal") + 3;
        let json_end = node[json_start..].find("\"#").expect("its end") + json_start;
        let schema: Value = serde_json::from_str(&node[json_start..json_end]).unwrap();
        assert_eq!(
            schema,
            json!({
                "description": "A tree.",
                "type": "object",
                "properties": {
                    "children": {
                        "description": "The children.",
                        "type": "array",
                        "items": {
                            "description": "A tree.",
                            "x-kubernetes-preserve-unknown-fields": true,
                        },
                    },
                    "label": { SUBSCHEMA_KEY: 0, "description": "The label." },
                },
                "required": ["children", "label"],
            })
        );
        assert!(node.contains("subschema::<crate::api::Label>"));
    }

    #[test]
    fn types_that_contain_each_other_are_refused() {
        let model = load(&format!(
            "{HEADER}
            /// A.
            #[derive(Serialize, Deserialize, Schema)]
            #[schema(package = \"example.com/t/v1\")]
            pub struct A {{
                /// To B.
                pub b: Option<Box<B>>,
            }}
            /// B.
            #[derive(Serialize, Deserialize, Schema)]
            #[schema(package = \"example.com/t/v1\")]
            pub struct B {{
                /// Back to A.
                pub a: Vec<A>,
            }}"
        ));
        let errors = impls(&model, |t| t.module[0] == "crate", "").unwrap_err();
        let text = format!("{errors:?}");
        assert!(
            text.contains("`A` contains itself through other types"),
            "{text}"
        );
        assert!(
            text.contains("`B` contains itself through other types"),
            "{text}"
        );
    }

    #[test]
    fn renumber_visits_schema_positions_only() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "a": { SUBSCHEMA_KEY: 7, "description": "a" },
                "b": { "type": "array", "items": { SUBSCHEMA_KEY: 3 } },
                "c": { "type": "object", "additionalProperties": { SUBSCHEMA_KEY: 7 } },
                "d": { "default": { SUBSCHEMA_KEY: 9 } },
            },
        });
        let mut subs = Vec::new();
        renumber(&mut schema, &mut subs);
        assert_eq!(subs, vec![7, 3]);
        assert_eq!(schema["properties"]["a"][SUBSCHEMA_KEY], json!(0));
        assert_eq!(schema["properties"]["b"]["items"][SUBSCHEMA_KEY], json!(1));
        assert_eq!(
            schema["properties"]["c"]["additionalProperties"][SUBSCHEMA_KEY],
            json!(0)
        );
        assert_eq!(
            schema["properties"]["d"]["default"][SUBSCHEMA_KEY],
            json!(9)
        );
    }
}
