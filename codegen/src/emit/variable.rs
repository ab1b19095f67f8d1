//! Model → the expansion of `#[derive(Variable)]`: the type's part of a ClusterClass variable's
//! schema, and for the root of a variable its name, `required` and `x-metadata`.
//!
//! The schema is the CRD emitter's structural schema of the type ([`crd::type_schema`]), so a
//! variable and a CRD field of the same type describe the same values. The derive sees one type
//! at a time, so each type it names stands in that schema as a marker `{"$subschema": i}` (the
//! scheme of the schemars impls, [`super::schemars`]); the runtime crate fills each marker with
//! the part of the `i`-th named type when the schema is asked for.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use serde_json::{Value, json};

use super::crd;
use super::rust::{krate, numbered, raw_if_needed, raw_str, respan};
use super::schemars::SUBSCHEMA_KEY;
use crate::model::{Model, Named, Shape, TypeDef, Validation};
use crate::parse::SchemaInput;
use crate::parse::variable::VariableAttrs;

/// The schema of `def` (whose references are numbered locally, see [`numbered`]) with a
/// marker for each referenced type.
pub fn schema_part(def: &TypeDef, refs: usize) -> Value {
    let mut model = Model::default();
    for i in 0..refs {
        model.types.push(marker(i));
    }
    model.types.push(def.clone());
    let named = Named {
        path: def.ident.clone(),
        id: Some(refs),
        span: def.span,
    };
    crd::type_schema(&model, &named)
}

/// A stand-in for the `i`-th referenced type whose schema is only the marker.
fn marker(i: usize) -> TypeDef {
    TypeDef {
        ident: String::new(),
        component: String::new(),
        doc: Vec::new(),
        shape: Shape::Opaque {
            schema: json!({ SUBSCHEMA_KEY: i }),
            inline: true,
        },
        role: None,
        map_type: None,
        validation: Box::new(Validation::default()),
        crd_schema: None,
        crd: None,
        conversion: None,
        span: Span::call_site(),
        file: None,
        module: Vec::new(),
    }
}

/// The expansion of `#[derive(Variable)]` for a checked type.
pub fn expand(input: &SchemaInput, var: &VariableAttrs) -> TokenStream {
    let krate = krate_of(input, var);
    let ident = raw_if_needed(&format_ident!("{}", input.def.ident, span = input.def.span));
    let (def, paths) = numbered(&input.def);
    let json = raw_str(&schema_part(&def, paths.len()).to_string());
    let parts = paths.iter().map(|(p, span)| {
        let path = respan(p.parse::<TokenStream>().unwrap_or_default(), *span);
        quote_spanned!(*span=> <#path as #krate::variable::VariableSchema>::schema_part)
    });
    let root = var.name.as_ref().map(|name| {
        let required = var.required;
        let pairs = |list: &[(String, String, Span)]| {
            let items = list.iter().map(|(k, v, _)| quote!((#k, #v)));
            quote!(&[#(#items),*])
        };
        let (labels, annotations) = (pairs(&var.labels), pairs(&var.annotations));
        let description = super::doc::crd(&input.def.doc);
        quote! {
            #[automatically_derived]
            impl #krate::variable::Variable for #ident {
                const NAME: &'static str = #name;
                const REQUIRED: bool = #required;
                const LABELS: &'static [(&'static str, &'static str)] = #labels;
                const ANNOTATIONS: &'static [(&'static str, &'static str)] = #annotations;
                const DESCRIPTION: &'static str = #description;
            }
        }
    });
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::variable::VariableSchema for #ident {
                fn schema_part() -> &'static #krate::variable::SchemaPart {
                    static PART: #krate::variable::SchemaPart =
                        #krate::variable::SchemaPart::new(#json, &[#(#parts),*]);
                    &PART
                }
            }
            #root
        };
    }
}

/// What a failed `#[derive(Variable)]` expands to besides the errors: impls of the traits, so
/// that uses of the type do not add "trait not implemented" errors to the real ones.
pub fn fallback(input: &syn::DeriveInput, var: &VariableAttrs) -> TokenStream {
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let krate = krate(&var.krate);
    let ident = &input.ident;
    let root = var.name.as_ref().map(|_| {
        quote! {
            #[automatically_derived]
            impl #krate::variable::Variable for #ident {
                const NAME: &'static str = "";
                const REQUIRED: bool = false;
                const LABELS: &'static [(&'static str, &'static str)] = &[];
                const ANNOTATIONS: &'static [(&'static str, &'static str)] = &[];
                const DESCRIPTION: &'static str = "";
            }
        }
    });
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::variable::VariableSchema for #ident {
                fn schema_part() -> &'static #krate::variable::SchemaPart {
                    ::core::unreachable!()
                }
            }
            #root
        };
    }
}

fn krate_of(input: &SchemaInput, var: &VariableAttrs) -> TokenStream {
    krate(if var.krate.is_some() {
        &var.krate
    } else {
        &input.krate
    })
}
