//! Model → Rust constructors of custom resource roots.
//!
//! Every `#[crd(...)]` root of the model gets an inherent `new`: `new(name, spec)` when the
//! root has a `spec` field of a named type (or an `Option` of one), `new(name)` when it has no
//! `spec` at all. The object it returns has `metadata.name` set, `apiVersion` and `kind` filled
//! in from the root's group, version and type name (when the root has those fields), and every
//! other field at the value of the root's `Default`, which the root must therefore implement.
//! A root whose `spec` is of another type gets no constructor; the file's header says so.
//!
//! The code names the types by their absolute paths (`crate::...`), so it belongs in the crate
//! that defines them, like the conversion code (`emit::conversion`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Model, Ty, TypeDef};

/// The Rust source of the constructors of every custom resource root in `model`, in the order
/// of their paths, after `preamble`.
pub fn constructors(model: &Model, preamble: &str) -> String {
    let mut roots: Vec<&TypeDef> = model.types.iter().filter(|t| t.crd.is_some()).collect();
    roots.sort_by_key(|t| path(t));
    let mut items = Vec::new();
    let mut skipped = Vec::new();
    for root in roots {
        match constructor(model, root) {
            Some(item) => items.push(item),
            None => skipped.push(path(root)),
        }
    }
    let file: syn::File = syn::parse2(quote!(#(#items)*)).expect("generated code parses");
    let mut out = String::from(preamble);
    if !skipped.is_empty() {
        out.push_str("//\n// Roots without a constructor (their `spec` is not a named type):\n");
        for s in skipped {
            out.push_str(&format!("// - {s}\n"));
        }
    }
    out.push('\n');
    out.push_str(&prettyplease::unparse(&file));
    out
}

/// `impl Root { pub fn new(...) }`, or `None` when the root's `spec` has a type the
/// constructor cannot take.
fn constructor(model: &Model, root: &TypeDef) -> Option<TokenStream> {
    let crd = root.crd.as_ref()?;
    let api_version = format!("{}/{}", crd.group, crd.version);
    let kind = &root.ident;
    let has = |name: &str| {
        root.fields()
            .iter()
            .any(|f| f.ident == name && matches!(f.ty, Ty::String))
    };
    let mut inits = Vec::new();
    if has("api_version") {
        inits.push(quote!(api_version: #api_version.to_string()));
    }
    if has("kind") {
        inits.push(quote!(kind: #kind.to_string()));
    }
    let spec = root.fields().iter().find(|f| f.ident == "spec");
    let (param, spec_doc) = match spec.map(|f| &f.ty) {
        None => (TokenStream::new(), String::new()),
        Some(Ty::Named(n)) => {
            let ty = tokens(&model.types[n.id?]);
            inits.push(quote!(spec));
            (quote!(, spec: #ty), ", with `spec`".to_string())
        }
        Some(Ty::Option(inner)) => match &**inner {
            Ty::Named(n) => {
                let ty = tokens(&model.types[n.id?]);
                inits.push(quote!(spec: ::core::option::Option::Some(spec)));
                (quote!(, spec: #ty), ", with `Some(spec)`".to_string())
            }
            _ => return None,
        },
        Some(_) => return None,
    };
    let others = if has("api_version") && has("kind") {
        " `apiVersion` and `kind` are filled in; the other fields,"
    } else {
        " The other fields,"
    };
    let lines = [
        format!(" Builds an object of kind `{kind}` in `{api_version}` named `name`{spec_doc}."),
        String::new(),
        format!("{others} and `metadata` but its name, keep their values in"),
        format!(" `{kind}::default()`; labels, annotations and the like can be set on the result."),
    ];
    let ty = tokens(root);
    let object = if inits.is_empty() {
        quote!(<Self as ::core::default::Default>::default())
    } else {
        quote!(Self {
            #(#inits,)*
            ..::core::default::Default::default()
        })
    };
    Some(quote! {
        impl #ty {
            #(#[doc = #lines])*
            pub fn new(name: impl ::core::convert::Into<::std::string::String> #param) -> Self {
                let mut object = #object;
                object.metadata.name = ::core::option::Option::Some(name.into());
                object
            }
        }
    })
}

/// The Rust path of a type: `crate::a::b::Type`.
fn path(def: &TypeDef) -> String {
    let mut segs = def.module.clone();
    segs.push(def.ident.clone());
    segs.join("::")
}

fn tokens(def: &TypeDef) -> TokenStream {
    path(def).parse().expect("a module path parses")
}
