//! The grammar of `#[crd(...)]` (resource markers of a custom resource version's root type) and
//! of the CRD validation markers inside `#[schema(...)]`: controller-gen's `+kubebuilder:*`.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use super::attr::{ident_of, lit_str, one_of, skip_value, string_list, suggest};
use super::symbol::*;
use crate::diag::{Diagnostics, FileId};
use crate::model::{Crd, PrinterColumn, Rule, Validation};

/// Parses one CRD validation marker into `v`; returns its canonical name, or `None` when a
/// duplicate or bad value was reported.
pub(super) fn validation(
    cx: &Diagnostics,
    file: Option<FileId>,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    v: &mut Validation,
) -> syn::Result<Option<&'static str>> {
    let span = meta.path.span();
    let int = |meta: &ParseNestedMeta<'_>| -> syn::Result<i64> {
        let lit: syn::LitInt = meta.value()?.parse()?;
        lit.base10_parse::<i64>()
    };
    let (name, dup) = match key {
        MIN_LENGTH => (MIN_LENGTH, v.min_length.replace(int(meta)?).is_some()),
        MAX_LENGTH => (MAX_LENGTH, v.max_length.replace(int(meta)?).is_some()),
        MINIMUM => (MINIMUM, v.minimum.replace(int(meta)?).is_some()),
        MAXIMUM => (MAXIMUM, v.maximum.replace(int(meta)?).is_some()),
        MIN_ITEMS => (MIN_ITEMS, v.min_items.replace(int(meta)?).is_some()),
        MAX_ITEMS => (MAX_ITEMS, v.max_items.replace(int(meta)?).is_some()),
        MIN_PROPERTIES => (
            MIN_PROPERTIES,
            v.min_properties.replace(int(meta)?).is_some(),
        ),
        MAX_PROPERTIES => (
            MAX_PROPERTIES,
            v.max_properties.replace(int(meta)?).is_some(),
        ),
        PATTERN => {
            let lit = lit_str(meta)?;
            (PATTERN, v.pattern.replace(lit.value()).is_some())
        }
        ENUM_VALUES => {
            let had = !v.enum_values.is_empty();
            v.enum_values = string_list(meta)?
                .into_iter()
                .map(serde_json::Value::String)
                .collect();
            (ENUM_VALUES, had)
        }
        X_VALIDATION => {
            let mut rule = None;
            let mut message = None;
            meta.parse_nested_meta(|inner| {
                if inner.path.is_ident("rule") {
                    rule = Some(lit_str(&inner)?.value());
                } else if inner.path.is_ident("message") {
                    message = Some(lit_str(&inner)?.value());
                } else {
                    let k = ident_of(&inner);
                    skip_value(&inner)?;
                    cx.error(
                        file,
                        inner.path.span(),
                        format!("unknown `x_validation` key `{k}` (expected `rule`, `message`)"),
                    );
                }
                Ok(())
            })?;
            match rule {
                Some(rule) => v.rules.push(Rule { rule, message }),
                None => cx.error(
                    file,
                    span,
                    "`x_validation` needs `rule = \"<CEL expression>\"`",
                ),
            }
            (X_VALIDATION, false)
        }
        _ => unreachable!("called for validation keys only"),
    };
    if dup {
        cx.error(file, span, format!("duplicate attribute `{name}`"));
        return Ok(None);
    }
    Ok(Some(name))
}

/// Parses `#[crd(...)]` on the root type of a custom resource version.
pub fn crd(
    cx: &Diagnostics,
    file: Option<FileId>,
    attrs: &[syn::Attribute],
) -> Option<(Crd, Span)> {
    let mut out: Option<(Crd, Span)> = None;
    let mut scope: Option<String> = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident(CRD)) {
        let (crd, _) = out.get_or_insert_with(|| (Crd::default(), attr.span()));
        let res = attr.parse_nested_meta(|meta| {
            let key = ident_of(&meta);
            let span = meta.path.span();
            match key.as_str() {
                GROUP => crd.group = lit_str(&meta)?.value(),
                VERSION => crd.version = lit_str(&meta)?.value(),
                PLURAL => crd.plural = lit_str(&meta)?.value(),
                SINGULAR => crd.singular = lit_str(&meta)?.value(),
                SHORT_NAMES => crd.short_names = string_list(&meta)?,
                CATEGORIES => crd.categories = string_list(&meta)?,
                SCOPE => scope = Some(one_of(cx, file, &meta, &["Cluster", "Namespaced"])?),
                STATUS => crd.status = true,
                STORAGE => crd.storage = true,
                DEPRECATED => crd.deprecated = true,
                PRINTCOLUMN => crd.printer_columns.push(printcolumn(cx, file, &meta)?),
                _ => {
                    skip_value(&meta)?;
                    cx.error(
                        file,
                        span,
                        format!("unknown crd attribute `{key}`{}", suggest(&key, CRD_ATTRS)),
                    );
                }
            }
            Ok(())
        });
        if let Err(e) = res {
            cx.push(file, e);
        }
    }
    let (mut crd, span) = out?;
    crd.namespaced = scope.as_deref() == Some("Namespaced");
    for (value, what) in [
        (&crd.group, "group"),
        (&crd.version, "version"),
        (&crd.plural, "plural"),
    ] {
        if value.is_empty() {
            cx.error(
                file,
                span,
                format!("`#[crd(...)]` needs `{what} = \"...\"`"),
            );
        }
    }
    if scope.is_none() {
        cx.error(
            file,
            span,
            "`#[crd(...)]` needs `scope = \"Cluster\"` or `scope = \"Namespaced\"`",
        );
    }
    Some((crd, span))
}

fn printcolumn(
    cx: &Diagnostics,
    file: Option<FileId>,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<PrinterColumn> {
    let mut col = PrinterColumn::default();
    let span = meta.path.span();
    meta.parse_nested_meta(|inner| {
        let key = ident_of(&inner);
        match key.as_str() {
            "name" => col.name = lit_str(&inner)?.value(),
            "type" => col.ty = one_of(cx, file, &inner, &["string", "integer", "number", "boolean", "date"])?,
            "json_path" => col.json_path = lit_str(&inner)?.value(),
            "description" => col.description = lit_str(&inner)?.value(),
            "priority" => {
                let lit: syn::LitInt = inner.value()?.parse()?;
                col.priority = Some(lit.base10_parse()?);
            }
            _ => {
                skip_value(&inner)?;
                cx.error(
                    file,
                    inner.path.span(),
                    format!("unknown printcolumn key `{key}` (expected name, type, json_path, description, priority)"),
                );
            }
        }
        Ok(())
    })?;
    if col.name.is_empty() || col.ty.is_empty() || col.json_path.is_empty() {
        cx.error(
            file,
            span,
            "a printcolumn needs `name`, `type` and `json_path`",
        );
    }
    Ok(col)
}
