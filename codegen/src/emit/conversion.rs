//! Model → Rust conversion code between two versions of the same API (conversion-gen's job).
//!
//! Each type with `#[schema(hub = Peer)]` is converted to and from its peer, field by field,
//! recursing into the pairs of named types found along the way. A field converts automatically
//! when both sides have it (by Rust name) with types that match up to `Option` (empty ↔ `None`),
//! `Vec`, maps and peer types. Every other field is reported by name; the author completes it in
//! the function named by `to_hub = "..."` / `from_hub = "..."` (`fn(&Self, &mut Hub) ->
//! Result<(), ConversionError>` / `fn(&Hub, &mut Self) -> Result<(), ConversionError>`, a path
//! relative to the type's module), which runs after the automatic part. The output is
//! `TryFrom<&A> for B` impls in both directions, failing with the runtime crate's
//! `conversion::ConversionError` (its path names the field, in JSON names, where a nested
//! conversion failed), and, for every custom resource kind with versions, a function
//! `convert_<kind>(object: serde_json::Value, to: &str)` that converts a JSON object of any
//! version to the apiVersion `to` through the hub (what a ConversionReview handler calls).
//!
//! A spoke declared `#[schema(hub = Peer, to_hub_only)]` (an older shape that is read and never
//! written) gets the conversion to the hub alone, and so do the other types of its module: no
//! `from_hub` is asked for.
//!
//! `apiVersion`/`kind` are never copied: a custom resource root gets its target version's
//! values (when the source had them), other types leave them empty for the caller to set.
//!
//! Generated code names the runtime crate `crate` when the sources are the runtime crate
//! itself, and `::capi_runtime` when they read it as a dependency.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::diag::{Diagnostics, Errors};
use crate::model::{Model, Shape, Ty, TypeDef};
use crate::parse::TYPE_META_FIELDS;

/// The Rust source of every conversion in the model, or the fields nobody converts.
pub fn conversions(model: &Model, preamble: &str) -> Result<String, Errors> {
    let cx = Diagnostics::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (id, def) in model.types.iter().enumerate() {
        if let Some(c) = &def.conversion {
            let hub = c.hub.id.expect("resolved");
            if !pairs.contains(&(id, hub)) {
                pairs.push((id, hub));
            }
        }
    }
    pairs.sort_by(|a, b| path(&model.types[a.0]).cmp(&path(&model.types[b.0])));
    let krate: TokenStream = if model
        .types
        .iter()
        .any(|t| t.module.first().is_some_and(|m| m == "capi_runtime"))
    {
        quote!(::capi_runtime)
    } else {
        quote!(crate)
    };
    let mut g = Gen {
        model,
        krate,
        cx: &cx,
        pairs,
        done: BTreeSet::new(),
        items: Vec::new(),
        notes: Vec::new(),
    };
    let mut i = 0;
    while i < g.pairs.len() {
        let (s, h) = g.pairs[i];
        if g.done.insert((s, h)) {
            g.pair(s, h);
        }
        i += 1;
    }
    let json = g.json_functions();
    let Gen {
        mut items, notes, ..
    } = g;
    items.extend(json);
    cx.check()?;
    let helper = quote! {
        /// True for the zero value: what converts to `None` where one version has an `Option`.
        fn is_zero<T: ::core::default::Default + ::core::cmp::PartialEq>(v: &T) -> bool {
            *v == T::default()
        }
    };
    let items = if items.iter().any(|i| i.to_string().contains("is_zero")) {
        std::iter::once(helper).chain(items).collect()
    } else {
        items
    };
    let file: syn::File = syn::parse2(quote!(#(#items)*)).expect("generated code parses");
    let mut out = String::from(preamble);
    if !notes.is_empty() {
        out.push_str("//\n// Fields completed by hand-written functions:\n");
        for n in notes {
            out.push_str(&format!("// - {n}\n"));
        }
    }
    out.push('\n');
    // The generator does not know which types are `Copy`; it clones them all.
    out.push_str("#![allow(clippy::clone_on_copy)]\n\n");
    out.push_str(&prettyplease::unparse(&file));
    Ok(out)
}

/// The Rust path of a type: `crate::a::b::Type` or `k8s_openapi::...::Type`.
fn path(def: &TypeDef) -> String {
    let mut segs = def.module.clone();
    segs.push(def.ident.clone());
    segs.join("::")
}

fn tokens(def: &TypeDef) -> TokenStream {
    path(def).parse().expect("a module path parses")
}

struct Gen<'a> {
    model: &'a Model,
    /// The path of the runtime crate in generated code.
    krate: TokenStream,
    cx: &'a Diagnostics,
    pairs: Vec<(usize, usize)>,
    done: BTreeSet<(usize, usize)>,
    items: Vec<TokenStream>,
    notes: Vec<String>,
}

impl Gen<'_> {
    fn pair(&mut self, s: usize, h: usize) {
        let (spoke, hub) = (&self.model.types[s], &self.model.types[h]);
        if let Some(c) = &spoke.conversion
            && c.hub.id != Some(h)
        {
            self.cx.error(
                spoke.file,
                c.hub.span,
                format!(
                    "`{}` names `{}` as its hub, but its field types convert it to `{}`",
                    spoke.ident, c.hub.path, hub.ident
                ),
            );
            return;
        }
        match (&spoke.shape, &hub.shape) {
            (Shape::Object { .. }, Shape::Object { .. }) => {
                self.one_way(s, h, true);
                if !self.to_hub_only(s) {
                    self.one_way(h, s, false);
                }
            }
            (Shape::Enum { .. }, Shape::Enum { .. }) => self.enums(s, h),
            _ => self.cx.error(
                spoke.file,
                spoke.span,
                format!(
                    "`{}` and `{}` have different shapes and cannot be converted automatically",
                    spoke.ident, hub.ident
                ),
            ),
        }
    }

    /// `impl From<&types[from]> for types[to]`; `to_hub` tells the direction.
    fn one_way(&mut self, from: usize, to: usize, to_hub: bool) {
        let (src, dst) = (&self.model.types[from], &self.model.types[to]);
        let spoke = if to_hub { src } else { dst };
        let mut inits = Vec::new();
        let mut manual = Vec::new();
        for df in dst.fields() {
            let ident = format_ident!("{}", raw(&df.ident));
            // `apiVersion`/`kind` of an object with type metadata (a custom resource root or a
            // hook message), as opposed to ordinary fields that happen to have these names.
            let type_meta = TYPE_META_FIELDS.contains(&df.ident.as_str())
                && matches!(df.ty, Ty::String)
                && (dst.crd.is_some() || dst.role.is_some());
            if type_meta {
                if let Some(crd) = &dst.crd {
                    let value = if df.ident == "kind" {
                        dst.ident.clone()
                    } else {
                        format!("{}/{}", crd.group, crd.version)
                    };
                    let sf = format_ident!("{}", raw(&df.ident));
                    if src.fields().iter().any(|f| f.ident == df.ident) {
                        inits.push(quote! {
                            #ident: if src.#sf.is_empty() { String::new() } else { #value.to_string() }
                        });
                    }
                }
                continue;
            }
            let Some(sf) = src.fields().iter().find(|f| f.ident == df.ident) else {
                manual.push(df.ident.clone());
                continue;
            };
            let sident = format_ident!("{}", raw(&sf.ident));
            match self.expr(&sf.ty, &df.ty, quote!(src.#sident), false) {
                Some(Conv::Plain(e)) => inits.push(quote!(#ident: #e)),
                Some(Conv::Fallible(e)) => {
                    let name = &df.name;
                    inits.push(quote!(#ident: #e.map_err(|e| e.at(#name))?));
                }
                None => manual.push(df.ident.clone()),
            }
        }
        let conv = spoke.conversion.as_ref();
        let func = conv.and_then(|c| {
            if to_hub {
                c.to_hub.as_ref()
            } else {
                c.from_hub.as_ref()
            }
        });
        let call = match (func, manual.is_empty()) {
            (Some(f), _) => {
                let f: TokenStream = relative(spoke, f).parse().expect("a path parses");
                self.notes.push(format!(
                    "{} -> {}: {} ({})",
                    path(src),
                    path(dst),
                    if manual.is_empty() {
                        "nothing left".to_string()
                    } else {
                        manual.join(", ")
                    },
                    relative(spoke, func.unwrap())
                ));
                quote!(#f(src, &mut out)?;)
            }
            (None, true) => TokenStream::new(),
            (None, false) => {
                let attr = if to_hub { "to_hub" } else { "from_hub" };
                self.cx.error(
                    spoke.file,
                    spoke.span,
                    format!(
                        "no automatic conversion from `{}` to `{}` for field(s) {}; name a function \
                         completing them with `#[schema({attr} = \"...\")]` on `{}`",
                        path(src),
                        path(dst),
                        manual.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "),
                        spoke.ident
                    ),
                );
                TokenStream::new()
            }
        };
        let (sp, dp) = (tokens(src), tokens(dst));
        let rest = if inits.len() < dst.fields().len() {
            quote!(..::core::default::Default::default())
        } else {
            quote!()
        };
        let body = if call.is_empty() {
            quote!(::core::result::Result::Ok(Self { #(#inits,)* #rest }))
        } else {
            quote! {
                let mut out = Self { #(#inits,)* #rest };
                #call
                ::core::result::Result::Ok(out)
            }
        };
        let err = self.error_type();
        self.items.push(quote! {
            impl ::core::convert::TryFrom<&#sp> for #dp {
                type Error = #err;
                fn try_from(src: &#sp) -> ::core::result::Result<Self, #err> {
                    #body
                }
            }
        });
    }

    fn enums(&mut self, s: usize, h: usize) {
        let (spoke, hub) = (&self.model.types[s], &self.model.types[h]);
        let names = |d: &TypeDef| -> Vec<String> {
            match &d.shape {
                Shape::Enum { variants, .. } => variants.iter().map(|v| v.name.clone()).collect(),
                _ => Vec::new(),
            }
        };
        let (sv, hv) = (names(spoke), names(hub));
        if sv != hv {
            self.cx.error(
                spoke.file,
                spoke.span,
                format!(
                    "enums `{}` and `{}` have different values ({sv:?} vs {hv:?}) and cannot be \
                     converted automatically",
                    path(spoke),
                    path(hub)
                ),
            );
            return;
        }
        let variants = |d: &TypeDef| -> Vec<syn::Ident> {
            match &d.shape {
                Shape::Enum { variants, .. } => variants
                    .iter()
                    .map(|v| format_ident!("{}", raw(&v.ident)))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let err = self.error_type();
        let directions: &[(&TypeDef, &TypeDef)] = if self.to_hub_only(s) {
            &[(spoke, hub)]
        } else {
            &[(spoke, hub), (hub, spoke)]
        };
        for &(a, b) in directions {
            let (ap, bp) = (tokens(a), tokens(b));
            let (av, bv) = (variants(a), variants(b));
            self.items.push(quote! {
                impl ::core::convert::TryFrom<&#ap> for #bp {
                    type Error = #err;
                    fn try_from(src: &#ap) -> ::core::result::Result<Self, #err> {
                        ::core::result::Result::Ok(match src {
                            #(#ap::#av => #bp::#bv,)*
                        })
                    }
                }
            });
        }
    }

    /// The expression converting `e` (a place of type `s`, or a reference to one when
    /// `by_ref`) to type `h`: a value, or a `Result` when a peer conversion is involved.
    fn expr(&mut self, s: &Ty, h: &Ty, e: TokenStream, by_ref: bool) -> Option<Conv> {
        let as_ref = if by_ref { e.clone() } else { quote!(&#e) };
        let copied = if by_ref { quote!(*#e) } else { e.clone() };
        let rt = self.krate.clone();
        Some(match (s, h) {
            (Ty::Option(a), Ty::Option(b)) => match self.mapper(a, b)? {
                Mapper::Clone if is_copy(a) => Conv::Plain(copied),
                Mapper::Clone => Conv::Plain(quote!(#e.clone())),
                Mapper::Plain(f) => Conv::Plain(quote!(#e.as_ref().map(#f))),
                Mapper::Fallible(f) => Conv::Fallible(quote!(#e.as_ref().map(#f).transpose())),
            },
            (Ty::Option(a), b) => match self.mapper(a, b)? {
                Mapper::Clone if is_copy(a) => Conv::Plain(quote!(#copied.unwrap_or_default())),
                Mapper::Clone => Conv::Plain(quote!(#e.clone().unwrap_or_default())),
                Mapper::Plain(f) => Conv::Plain(quote!(#e.as_ref().map(#f).unwrap_or_default())),
                Mapper::Fallible(f) => Conv::Fallible(
                    quote!(#e.as_ref().map(#f).transpose().map(::core::option::Option::unwrap_or_default)),
                ),
            },
            (a, Ty::Option(b)) => match self.expr(a, b, e.clone(), by_ref)? {
                Conv::Plain(inner) => {
                    Conv::Plain(quote!(if is_zero(#as_ref) { None } else { Some(#inner) }))
                }
                Conv::Fallible(inner) => Conv::Fallible(quote! {
                    if is_zero(#as_ref) {
                        ::core::result::Result::Ok(None)
                    } else {
                        #inner.map(Some)
                    }
                }),
            },
            (Ty::List(a), Ty::List(b)) => match self.mapper(a, b)? {
                Mapper::Clone => Conv::Plain(quote!(#e.clone())),
                Mapper::Plain(f) => Conv::Plain(quote!(#e.iter().map(#f).collect())),
                Mapper::Fallible(f) => {
                    Conv::Fallible(quote!(#rt::__private::conversion::list(#e.iter(), #f)))
                }
            },
            (Ty::Map(a), Ty::Map(b)) => match self.expr(a, b, quote!(v), true)? {
                Conv::Plain(inner) => {
                    Conv::Plain(quote!(#e.iter().map(|(k, v)| (k.clone(), #inner)).collect()))
                }
                Conv::Fallible(inner) => {
                    Conv::Fallible(quote!(#rt::__private::conversion::map(#e.iter(), |v| #inner)))
                }
            },
            (Ty::Named(x), Ty::Named(y)) if x.id == y.id => Conv::Plain(quote!(#e.clone())),
            (Ty::Named(x), Ty::Named(y)) => {
                let target = self.peer(x, y)?;
                Conv::Fallible(quote!(#target::try_from(#as_ref)))
            }
            (a, b) if same_scalar(a, b) && is_copy(a) => Conv::Plain(copied),
            (a, b) if same_scalar(a, b) => Conv::Plain(quote!(#e.clone())),
            _ => return None,
        })
    }

    /// How each element of type `s` becomes an `h`: a plain clone (same type), the peer's
    /// `try_from` (peer types), or a closure.
    fn mapper(&mut self, s: &Ty, h: &Ty) -> Option<Mapper> {
        match (s, h) {
            (Ty::Named(x), Ty::Named(y)) if x.id == y.id => Some(Mapper::Clone),
            (Ty::Named(x), Ty::Named(y)) => {
                let target = self.peer(x, y)?;
                Some(Mapper::Fallible(quote!(#target::try_from)))
            }
            (a, b) if same_scalar(a, b) => Some(Mapper::Clone),
            _ => Some(match self.expr(s, h, quote!(v), true)? {
                Conv::Plain(inner) => Mapper::Plain(quote!(|v| #inner)),
                Conv::Fallible(inner) => Mapper::Fallible(quote!(|v| #inner)),
            }),
        }
    }

    /// The runtime crate's conversion error type.
    fn error_type(&self) -> TokenStream {
        let rt = &self.krate;
        quote!(#rt::conversion::ConversionError)
    }

    /// `convert_<kind>(object, to)` for every custom resource kind converted here: decodes
    /// the object in its version, converts it to the hub and from there to `to`.
    fn json_functions(&self) -> Vec<TokenStream> {
        let types = &self.model.types;
        // (hub, spokes) for roots of custom resources, in the order of the pairs.
        let mut kinds: Vec<(usize, Vec<usize>)> = Vec::new();
        for &(s, h) in &self.pairs {
            if types[s].crd.is_none() || types[h].crd.is_none() {
                continue;
            }
            match kinds.iter_mut().find(|(hub, _)| *hub == h) {
                Some((_, spokes)) => spokes.push(s),
                None => kinds.push((h, vec![s])),
            }
        }
        let rt = &self.krate;
        let err = self.error_type();
        let api_version = |t: &TypeDef| {
            let crd = t.crd.as_ref().expect("a custom resource root");
            format!("{}/{}", crd.group, crd.version)
        };
        kinds
            .into_iter()
            .map(|(h, spokes)| {
                let hub = &types[h];
                let kind = &hub.ident;
                let name = format_ident!("convert_{}", snake(kind));
                let hp = tokens(hub);
                let hub_version = api_version(hub);
                let mut versions: Vec<String> = spokes.iter().map(|&s| api_version(&types[s])).collect();
                versions.push(hub_version.clone());
                versions.sort();
                let spoke_versions: Vec<String> = spokes.iter().map(|&s| api_version(&types[s])).collect();
                let spoke_paths: Vec<TokenStream> = spokes.iter().map(|&s| tokens(&types[s])).collect();
                let doc = format!(
                    " Converts an object of kind `{kind}` (JSON, in any of the versions {}) to the \
                     apiVersion `to`, through the hub `{hub_version}`. An object already in \
                     `to` is returned as it is, once it decodes and converts.",
                    versions.join(", ")
                );
                quote! {
                    #[doc = #doc]
                    pub fn #name(
                        object: ::serde_json::Value,
                        to: &str,
                    ) -> ::core::result::Result<::serde_json::Value, #err> {
                        const VERSIONS: &[&str] = &[#(#versions),*];
                        let from = #rt::__private::conversion::source_version(&object, #kind, VERSIONS, to)?;
                        let hub: #hp = match from.as_str() {
                            #hub_version => #rt::__private::conversion::decode(&object)?,
                            #(#spoke_versions => #hp::try_from(
                                &#rt::__private::conversion::decode::<#spoke_paths>(&object)?,
                            )?,)*
                            _ => ::core::unreachable!("source_version accepts only these versions"),
                        };
                        if from == to {
                            return ::core::result::Result::Ok(object);
                        }
                        match to {
                            #hub_version => #rt::__private::conversion::encode(&hub),
                            #(#spoke_versions => #rt::__private::conversion::encode(
                                &#spoke_paths::try_from(&hub)?,
                            ),)*
                            _ => ::core::unreachable!("source_version accepts only these versions"),
                        }
                    }
                }
            })
            .collect()
    }

    /// The path of `y` when it is the peer of `x` (a type of a spoke module and one of its hub
    /// module, same shape), recording the pair for generation. Shared types (core, Kubernetes)
    /// with different shapes are the author's business.
    fn peer(&mut self, x: &crate::model::Named, y: &crate::model::Named) -> Option<TokenStream> {
        let (xs, ys) = (x.id.expect("resolved"), y.id.expect("resolved"));
        let (xd, yd) = (&self.model.types[xs], &self.model.types[ys]);
        let same_shape = matches!(
            (&xd.shape, &yd.shape),
            (Shape::Object { .. }, Shape::Object { .. }) | (Shape::Enum { .. }, Shape::Enum { .. })
        );
        if !same_shape {
            return None;
        }
        // Pairs are recorded spoke first.
        let pair = match self.module_pair(&xd.module, &yd.module)? {
            true => (xs, ys),
            false => (ys, xs),
        };
        if !self.pairs.contains(&pair) {
            self.pairs.push(pair);
        }
        Some(tokens(yd))
    }

    /// Whether the spoke `s` converts to its hub only: its module has a type declared
    /// `to_hub_only` (one module is one older shape, read and never written).
    fn to_hub_only(&self, s: usize) -> bool {
        let module = &self.model.types[s].module;
        self.model
            .types
            .iter()
            .any(|t| &t.module == module && t.conversion.as_ref().is_some_and(|c| c.to_hub_only))
    }

    /// `Some(true)` when `a` is a spoke module whose hub module is `b`, `Some(false)` for the
    /// reverse, `None` when the modules are not peers. Peers come from the declared `hub`s.
    fn module_pair(&self, a: &[String], b: &[String]) -> Option<bool> {
        self.model.types.iter().find_map(|t| {
            let hub = &self.model.types[t.conversion.as_ref()?.hub.id?].module;
            if t.module == a && hub == b {
                Some(true)
            } else if t.module == b && hub == a {
                Some(false)
            } else {
                None
            }
        })
    }
}

/// What to do with each element of an `Option` or a list.
enum Mapper {
    /// The element types are the same: clone the container.
    Clone,
    /// Convert each element with this function (or closure) of `&element`.
    Plain(TokenStream),
    /// Convert each element with this function (or closure) of `&element`, which returns a
    /// `Result`.
    Fallible(TokenStream),
}

/// A converting expression.
enum Conv {
    /// Evaluates to the converted value.
    Plain(TokenStream),
    /// Evaluates to a `Result` of the converted value.
    Fallible(TokenStream),
}

/// `ExtensionConfig` → `extension_config`.
fn snake(ident: &str) -> String {
    let mut out = String::new();
    for (i, c) in ident.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Scalars that are `Copy` (everything but `String`).
fn is_copy(t: &Ty) -> bool {
    matches!(t, Ty::Bool | Ty::Int32 | Ty::Int64 | Ty::Float | Ty::Double)
}

fn same_scalar(a: &Ty, b: &Ty) -> bool {
    matches!(
        (a, b),
        (Ty::String, Ty::String)
            | (Ty::Bool, Ty::Bool)
            | (Ty::Int32, Ty::Int32)
            | (Ty::Int64, Ty::Int64)
            | (Ty::Float, Ty::Float)
            | (Ty::Double, Ty::Double)
    )
}

/// A function path given relative to `def`'s module (leading `self::` and `super::` allowed),
/// made absolute.
fn relative(def: &TypeDef, f: &str) -> String {
    if f.starts_with("crate::") || f.starts_with("::") {
        return f.to_string();
    }
    let mut base = def.module.clone();
    let mut rest = f;
    loop {
        if let Some(r) = rest.strip_prefix("self::") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("super::") {
            if base.len() > 1 {
                base.pop();
            }
            rest = r;
        } else {
            break;
        }
    }
    format!("{}::{rest}", base.join("::"))
}

fn raw(ident: &str) -> String {
    if syn::parse_str::<syn::Ident>(ident).is_ok() {
        ident.to_string()
    } else {
        format!("r#{ident}")
    }
}
