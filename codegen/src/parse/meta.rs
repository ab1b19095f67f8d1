//! Small readers of attribute syntax shared by the `#[schema(...)]`, `#[hook(...)]` and
//! `#[crd(...)]` grammars: one key's name, a string value, a list of strings, a key given once, a value to skip
//! after an unknown key, and the "did you mean" hint.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;

use crate::diag::{Diagnostics, FileId};

pub(super) fn ident_of(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| quote::quote!(#(meta.path)).to_string().replace(' ', ""))
}

/// Stores `value` in `slot` unless a value is there already, which is a "duplicate attribute"
/// error (the first value stays).
pub(super) fn set_once<T>(
    cx: &Diagnostics,
    file: Option<FileId>,
    slot: &mut Option<T>,
    value: T,
    span: Span,
    name: &str,
) -> syn::Result<()> {
    if slot.is_some() {
        cx.error(file, span, format!("duplicate attribute `{name}`"));
    } else {
        *slot = Some(value);
    }
    Ok(())
}

pub(super) fn lit_str(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::LitStr> {
    let value = meta.value()?;
    let lit: syn::Lit = value.parse()?;
    match lit {
        syn::Lit::Str(s) => Ok(s),
        other => Err(syn::Error::new(other.span(), "expected a string literal")),
    }
}

pub(super) fn one_of(
    cx: &Diagnostics,
    file: Option<FileId>,
    meta: &ParseNestedMeta<'_>,
    allowed: &[&str],
) -> syn::Result<String> {
    let lit = lit_str(meta)?;
    let v = lit.value();
    if !allowed.contains(&v.as_str()) {
        cx.error(
            file,
            lit.span(),
            format!(
                "`{v}` is not one of {}",
                allowed
                    .iter()
                    .map(|a| format!("\"{a}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    Ok(v)
}

/// Consumes `= value` or `(...)` after an unknown key, so parsing can go on with the next key.
pub(super) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _ = meta.value()?;
        let _: syn::Expr = meta.input.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _content;
        syn::parenthesized!(_content in meta.input);
        let _: proc_macro2::TokenStream = _content.parse()?;
    }
    Ok(())
}

/// `("a", "b", ...)` after a key.
pub(super) fn string_list(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<String>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let items = content.parse_terminated(
        |p: syn::parse::ParseStream<'_>| p.parse::<syn::LitStr>(),
        syn::Token![,],
    )?;
    Ok(items.into_iter().map(|s| s.value()).collect())
}

/// ` (did you mean `x`?)` for the closest known name, or nothing when none is close.
pub(super) fn suggest(unknown: &str, known: &[&str]) -> String {
    known
        .iter()
        .map(|k| (edit_distance(unknown, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| format!("; did you mean `{k}`?"))
        .unwrap_or_default()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Where `key` is written inside the `#[name(...)]` attributes of `attrs`, if it is: for rules
/// that judge a parsed value and point at the attribute that gave it.
pub(crate) fn key_span(
    attrs: &[syn::Attribute],
    name: &str,
    key: &str,
) -> Option<proc_macro2::Span> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident(name)) {
        let _ = attr.parse_nested_meta(|meta| {
            if found.is_none() && meta.path.is_ident(key) {
                found = Some(syn::spanned::Spanned::span(&meta.path));
            }
            skip_value(&meta)
        });
    }
    found
}

/// `= "<json text>"`, parsed; a parse error is recorded at the literal.
pub(super) fn json_lit(
    cx: &Diagnostics,
    file: Option<FileId>,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Option<serde_json::Value>> {
    let lit = lit_str(meta)?;
    match serde_json::from_str(&lit.value()) {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            cx.error(file, lit.span(), format!("invalid JSON: {e}"));
            Ok(None)
        }
    }
}

pub(super) fn lit_to_json(lit: &syn::Lit) -> Option<serde_json::Value> {
    Some(match lit {
        syn::Lit::Str(s) => serde_json::Value::String(s.value()),
        syn::Lit::Bool(b) => serde_json::Value::Bool(b.value),
        syn::Lit::Int(i) => serde_json::Value::from(i.base10_parse::<i64>().ok()?),
        syn::Lit::Float(f) => serde_json::Value::from(f.base10_parse::<f64>().ok()?),
        _ => return None,
    })
}
