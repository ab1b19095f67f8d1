//! The grammar of `#[variable(...)]`: what makes a type the root of a ClusterClass variable
//! (its name, whether a Cluster must set it, the labels and annotations of its `x-metadata`).
//! The schema itself is described with the same `#[schema(...)]` attributes as any type.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::meta::{ident_of, lit_str, set_once, skip_value, suggest};
use super::symbol::{ANNOTATION, CRATE, LABEL, NAME, REQUIRED, VARIABLE, VARIABLE_ATTRS};
use crate::diag::{Diagnostics, FileId};

/// `#[variable(...)]` on the root type of a variable.
#[derive(Default)]
pub struct VariableAttrs {
    /// `name = "..."`
    pub name: Option<syn::LitStr>,
    /// `required`
    pub required: bool,
    /// `label(key = "...", value = "...")`, in order, with the span of each key.
    pub labels: Vec<(String, String, Span)>,
    /// `annotation(key = "...", value = "...")`, in order, with the span of each key.
    pub annotations: Vec<(String, String, Span)>,
    /// `crate = "..."`
    pub krate: Option<syn::Path>,
    /// Where the first `#[variable(...)]` is, if any.
    pub span: Option<Span>,
}

/// Parses every `#[variable(...)]` of a type.
pub fn variable(cx: &Diagnostics, file: Option<FileId>, attrs: &[syn::Attribute]) -> VariableAttrs {
    let mut out = VariableAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(VARIABLE)) {
        out.span.get_or_insert(attr.span());
        let res = attr.parse_nested_meta(|meta| {
            let key = ident_of(&meta);
            let span = meta.path.span();
            match key.as_str() {
                NAME => {
                    let lit = lit_str(&meta)?;
                    set_once(cx, file, &mut out.name, lit, span, NAME)?;
                }
                REQUIRED => {
                    if std::mem::replace(&mut out.required, true) {
                        cx.error(file, span, "duplicate attribute `required`");
                    }
                }
                LABEL | ANNOTATION => {
                    let (mut k, mut v) = (None, None);
                    meta.parse_nested_meta(|inner| {
                        if inner.path.is_ident("key") {
                            k = Some(lit_str(&inner)?);
                        } else if inner.path.is_ident("value") {
                            v = Some(lit_str(&inner)?.value());
                        } else {
                            let name = ident_of(&inner);
                            skip_value(&inner)?;
                            cx.error(
                                file,
                                inner.path.span(),
                                format!("unknown `{key}` key `{name}` (expected `key`, `value`)"),
                            );
                        }
                        Ok(())
                    })?;
                    match k {
                        Some(k) => {
                            let entry = (k.value(), v.unwrap_or_default(), k.span());
                            if key == LABEL {
                                out.labels.push(entry);
                            } else {
                                out.annotations.push(entry);
                            }
                        }
                        None => cx.error(file, span, format!("`{key}` needs `key = \"...\"`")),
                    }
                }
                CRATE => {
                    let path = lit_str(&meta)?.parse::<syn::Path>()?;
                    set_once(cx, file, &mut out.krate, path, span, CRATE)?;
                }
                _ => {
                    skip_value(&meta)?;
                    cx.error(
                        file,
                        span,
                        format!(
                            "unknown variable attribute `{key}`{}",
                            suggest(&key, VARIABLE_ATTRS)
                        ),
                    );
                }
            }
            Ok(())
        });
        if let Err(e) = res {
            cx.push(file, e);
        }
    }
    out
}
