//! The impls of the known external types (k8s-openapi, serde_json) for the runtime crate's
//! `src/generated/external_schemas.rs`: each description in `external/` expanded as the
//! derives would expand it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{rust, variable};

/// The `Schema` impls of the known external types (k8s-openapi, serde_json), as one Rust file
/// for the runtime crate: the derive expansion of each description in `external/`, placed in a
/// module that imports the real type; and the `VariableSchema` impls of those that can be part
/// of a ClusterClass variable (`crate::variable::accepts_external`).
pub fn impls(files: &[(Vec<String>, syn::File)]) -> Result<String, crate::Errors> {
    let cx = crate::Diagnostics::new();
    let mut modules = Vec::new();
    for (root, file) in files {
        walk_external(&cx, root.clone(), &file.items, &mut modules);
    }
    cx.check()?;
    let mods = modules.into_iter().map(|(path, idents, impls)| {
        let mod_name = format_ident!("{}", path.join("_"));
        let path: Vec<syn::Ident> = path.iter().map(|p| format_ident!("{}", p)).collect();
        let idents: Vec<syn::Ident> = idents.iter().map(|i| format_ident!("{}", i)).collect();
        quote! {
            mod #mod_name {
                use #(#path)::*::{#(#idents),*};
                #(#impls)*
            }
        }
    });
    let file: syn::File = syn::parse2(quote!(#(#mods)*)).expect("generated code parses");
    Ok(prettyplease::unparse(&file))
}

type ExternalModule = (Vec<String>, Vec<String>, Vec<TokenStream>);

fn walk_external(
    cx: &crate::Diagnostics,
    path: Vec<String>,
    items: &[syn::Item],
    out: &mut Vec<ExternalModule>,
) {
    let mut idents = Vec::new();
    let mut impls = Vec::new();
    for item in items {
        let input: syn::DeriveInput = match item {
            syn::Item::Struct(s) => s.clone().into(),
            syn::Item::Enum(e) => e.clone().into(),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    let mut child = path.clone();
                    child.push(m.ident.to_string());
                    walk_external(cx, child, inner, out);
                }
                continue;
            }
            _ => continue,
        };
        if let Some(mut parsed) = crate::parse::schema(cx, None, &input, true) {
            parsed.krate = Some(syn::parse_quote!(crate));
            idents.push(parsed.def.ident.clone());
            impls.push(rust::schema(&parsed));
            if crate::variable::accepts_external(&parsed.def) {
                impls.push(variable::expand(&parsed, &Default::default()));
            }
        }
    }
    if !idents.is_empty() {
        out.push((path, idents, impls));
    }
}
