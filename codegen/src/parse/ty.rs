//! Rust field types to wire types.

use quote::ToTokens;
use syn::spanned::Spanned;

use crate::diag::{Diagnostics, FileId};
use crate::model::{Named, Ty};

/// Maps a field type to its wire type, or records why it has none.
///
/// Standard types are recognized by their last path segment (`Option`, `Vec`, `Box`, the map
/// types, the scalars); every other path becomes a [`Ty::Named`] reference that is resolved
/// later: by the compiler in the derive, by the CLI's name resolution otherwise.
pub fn parse(cx: &Diagnostics, file: Option<FileId>, ty: &syn::Type) -> Option<Ty> {
    match ty {
        syn::Type::Group(g) => parse(cx, file, &g.elem),
        syn::Type::Paren(p) => parse(cx, file, &p.elem),
        syn::Type::Path(p) if p.qself.is_none() => parse_path(cx, file, ty, &p.path),
        _ => {
            cx.error(
                file,
                ty.span(),
                format!(
                    "unsupported field type `{}`: a schema field must be a named type, \
                     a scalar, Option, Box, Vec or a map with String keys",
                    tokens(ty)
                ),
            );
            None
        }
    }
}

fn parse_path(
    cx: &Diagnostics,
    file: Option<FileId>,
    ty: &syn::Type,
    path: &syn::Path,
) -> Option<Ty> {
    let last = path.segments.last()?;
    let name = last.ident.to_string();
    let args = generic_args(&last.arguments);
    let unsupported = |why: &str| {
        cx.error(
            file,
            ty.span(),
            format!("unsupported field type `{}`: {why}", tokens(ty)),
        );
        None
    };
    let scalar = match name.as_str() {
        "String" => Some(Ty::String),
        "bool" => Some(Ty::Bool),
        "i32" | "i16" | "u16" => Some(Ty::Int32),
        "i64" | "u32" | "u64" => Some(Ty::Int64),
        "f32" => Some(Ty::Float),
        "f64" => Some(Ty::Double),
        "i8" | "u8" | "i128" | "u128" | "usize" | "isize" | "char" | "str" => {
            return unsupported(
                "the wire format has no such number or text type; use String, i32, i64 or f64",
            );
        }
        _ => None,
    };
    if let Some(s) = scalar {
        if !args.is_empty() {
            return unsupported("scalars take no generic arguments");
        }
        return Some(s);
    }
    match (name.as_str(), args.as_slice()) {
        ("Option", [inner]) => Some(Ty::Option(Box::new(parse(cx, file, inner)?))),
        ("Box", [inner]) => parse(cx, file, inner),
        ("Vec", [inner]) => {
            if is_u8(inner) {
                return unsupported(
                    "serde writes Vec<u8> as an array of numbers; use k8s_openapi::ByteString \
                     for base64 bytes",
                );
            }
            Some(Ty::List(Box::new(parse(cx, file, inner)?)))
        }
        ("BTreeMap" | "HashMap" | "IndexMap", [key, value]) => {
            if !matches!(parse_quiet(key), Some(Ty::String)) {
                return unsupported("map keys must be String");
            }
            Some(Ty::Map(Box::new(parse(cx, file, value)?)))
        }
        ("Option" | "Box" | "Vec" | "BTreeMap" | "HashMap" | "IndexMap", _) => {
            unsupported("unexpected generic arguments")
        }
        (_, []) if matches!(last.arguments, syn::PathArguments::None) => Some(Ty::Named(Named {
            path: tokens(path),
            id: None,
            span: path.span(),
        })),
        _ => unsupported("generic types other than Option, Box, Vec and maps have no schema"),
    }
}

/// [`parse`] without recording anything.
pub fn parse_quiet(ty: &syn::Type) -> Option<Ty> {
    let cx = Diagnostics::new();
    let t = parse(&cx, None, ty);
    let _ = cx.check();
    t
}

fn is_u8(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.is_ident("u8"))
}

fn generic_args(args: &syn::PathArguments) -> Vec<&syn::Type> {
    match args {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The tokens of `t` as compact text, for messages and for [`Named::path`].
pub fn tokens(t: &impl ToTokens) -> String {
    let mut s = t.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" < ", "<"),
        (" > ", ">"),
        (" <", "<"),
        (" >", ">"),
        (" ,", ","),
    ] {
        s = s.replace(from, to);
    }
    s
}
