//! One parsed type → the expression of its wire shape (`capi_runtime::schema::shape::Shape`):
//! what the wire decoder reads it as. A struct lists the fields serde reads, each with its
//! declared type (references numbered as in the model's `refs`) and whether it asked to be
//! held by value; an opaque type says whether it reads its own JSON or is one of Go's times
//! or byte strings (`#[schema(wire = "...")]`, in this crate's descriptions of external types).

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Shape, Ty, TypeDef};
use crate::parse::WireInput;

/// The `Shape` expression of `def` (its references already numbered), for a `static`.
pub fn shape(krate: &TokenStream, def: &TypeDef, wire: &WireInput) -> TokenStream {
    let path = quote!(#krate::__private::shape);
    match &def.shape {
        Shape::Object { fields } => {
            let mut zero_times = false;
            let entries = wire.fields.iter().map(|w| {
                let ty = fields.iter().find(|f| f.ident == w.ident).map(|f| &f.ty);
                zero_times |= matches!(ty, Some(Ty::Named(_)));
                let node = ty.map_or_else(|| quote!(#path::Node::Scalar), |ty| node(&path, ty));
                let (name, by_value) = (&w.name, w.by_value);
                quote!(#path::Field { name: #name, node: #node, by_value: #by_value })
            });
            let entries: Vec<TokenStream> = entries.collect();
            let zero_times = zero_times && !wire.serde_default;
            quote! {
                #path::Shape::Struct(&#path::StructShape {
                    fields: &[#(#entries),*],
                    zero_times: #zero_times,
                })
            }
        }
        Shape::Enum { .. } => quote!(#path::Shape::Value),
        Shape::Transparent { ty } => {
            let node = node(&path, ty);
            quote!(#path::Shape::Transparent(#node))
        }
        Shape::Opaque { .. } => match wire.kind.as_ref().map(|(k, _)| k.as_str()) {
            Some("time") => quote!(#path::Shape::Time),
            Some("bytes") => quote!(#path::Shape::Bytes),
            _ => quote!(#path::Shape::Own),
        },
    }
}

fn node(path: &TokenStream, ty: &Ty) -> TokenStream {
    match ty {
        Ty::String | Ty::Bool | Ty::Int32 | Ty::Int64 | Ty::Float | Ty::Double => {
            quote!(#path::Node::Scalar)
        }
        Ty::Option(inner) => {
            let inner = node(path, inner);
            quote!(#path::Node::Option(&#inner))
        }
        Ty::List(inner) => {
            let inner = node(path, inner);
            quote!(#path::Node::List(&#inner))
        }
        Ty::Map(inner) => {
            let inner = node(path, inner);
            quote!(#path::Node::Map(&#inner))
        }
        Ty::Named(named) => {
            let id = proc_macro2::Literal::usize_unsuffixed(named.id.unwrap_or_default());
            quote!(#path::Node::Ref(#id))
        }
    }
}
