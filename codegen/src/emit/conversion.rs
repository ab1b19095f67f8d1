//! Model → Rust conversion code between two versions of the same API (conversion-gen's job).
//!
//! Each type with `#[schema(hub = Peer)]` is converted to and from its peer, field by field,
//! recursing into the pairs of named types found along the way. A field converts automatically
//! when both sides have it (by Rust name) with types that match up to `Option` (empty ↔ `None`),
//! `Vec`, maps and peer types. Every other field is reported by name; the author completes it in
//! the function named by `to_hub = "..."` / `from_hub = "..."` (`fn(&Self, &mut Hub)` /
//! `fn(&Hub, &mut Self)`, a path relative to the type's module), which runs after the automatic
//! part. The output is `From<&A> for B` impls in both directions.
//!
//! `apiVersion`/`kind` are never copied: a custom resource root gets its target version's
//! values (when the source had them), other types leave them empty for the caller to set.

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
    let mut g = Gen {
        model,
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
    let Gen { items, notes, .. } = g;
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
                self.one_way(h, s, false);
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
            if sf.flatten || df.flatten {
                manual.push(df.ident.clone());
                continue;
            }
            let sident = format_ident!("{}", raw(&sf.ident));
            match self.expr(&sf.ty, &df.ty, quote!(src.#sident), false) {
                Some(e) => inits.push(quote!(#ident: #e)),
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
                quote!(#f(src, &mut out);)
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
            quote!(Self { #(#inits,)* #rest })
        } else {
            quote! {
                let mut out = Self { #(#inits,)* #rest };
                #call
                out
            }
        };
        self.items.push(quote! {
            impl ::core::convert::From<&#sp> for #dp {
                fn from(src: &#sp) -> Self {
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
        for (a, b) in [(spoke, hub), (hub, spoke)] {
            let (ap, bp) = (tokens(a), tokens(b));
            let (av, bv) = (variants(a), variants(b));
            self.items.push(quote! {
                impl ::core::convert::From<&#ap> for #bp {
                    fn from(src: &#ap) -> Self {
                        match src {
                            #(#ap::#av => #bp::#bv,)*
                        }
                    }
                }
            });
        }
    }

    /// The expression converting `e` (a place of type `s`, or a reference to one when
    /// `by_ref`) to type `h`.
    fn expr(&mut self, s: &Ty, h: &Ty, e: TokenStream, by_ref: bool) -> Option<TokenStream> {
        let as_ref = if by_ref { e.clone() } else { quote!(&#e) };
        let copied = if by_ref { quote!(*#e) } else { e.clone() };
        Some(match (s, h) {
            (Ty::Option(a), Ty::Option(b)) => match self.mapper(a, b)? {
                Mapper::Clone if is_copy(a) => copied,
                Mapper::Clone => quote!(#e.clone()),
                Mapper::Func(f) => quote!(#e.as_ref().map(#f)),
            },
            (Ty::Option(a), b) => match self.mapper(a, b)? {
                Mapper::Clone if is_copy(a) => quote!(#copied.unwrap_or_default()),
                Mapper::Clone => quote!(#e.clone().unwrap_or_default()),
                Mapper::Func(f) => quote!(#e.as_ref().map(#f).unwrap_or_default()),
            },
            (a, Ty::Option(b)) => {
                let inner = self.expr(a, b, e.clone(), by_ref)?;
                quote!(if is_zero(#as_ref) { None } else { Some(#inner) })
            }
            (Ty::List(a), Ty::List(b)) => match self.mapper(a, b)? {
                Mapper::Clone => quote!(#e.clone()),
                Mapper::Func(f) => quote!(#e.iter().map(#f).collect()),
            },
            (Ty::Map(a), Ty::Map(b)) => {
                let inner = self.expr(a, b, quote!(v), true)?;
                quote!(#e.iter().map(|(k, v)| (k.clone(), #inner)).collect())
            }
            (Ty::Named(x), Ty::Named(y)) if x.id == y.id => quote!(#e.clone()),
            (Ty::Named(x), Ty::Named(y)) => {
                let target = self.peer(x, y)?;
                quote!(#target::from(#as_ref))
            }
            (a, b) if same_scalar(a, b) && is_copy(a) => copied,
            (a, b) if same_scalar(a, b) => quote!(#e.clone()),
            _ => return None,
        })
    }

    /// How each element of type `s` becomes an `h`: a plain clone (same type), the peer's
    /// `from` (peer types), or a closure.
    fn mapper(&mut self, s: &Ty, h: &Ty) -> Option<Mapper> {
        match (s, h) {
            (Ty::Named(x), Ty::Named(y)) if x.id == y.id => Some(Mapper::Clone),
            (Ty::Named(x), Ty::Named(y)) => {
                let target = self.peer(x, y)?;
                Some(Mapper::Func(quote!(#target::from)))
            }
            (a, b) if same_scalar(a, b) => Some(Mapper::Clone),
            _ => {
                let inner = self.expr(s, h, quote!(v), true)?;
                Some(Mapper::Func(quote!(|v| #inner)))
            }
        }
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
    Func(TokenStream),
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
