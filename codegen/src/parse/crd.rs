//! The grammar of `#[crd(...)]`: the resource markers of a custom resource version's root type
//! (controller-gen's `+kubebuilder:resource`, `storageversion`, `printcolumn`, ...). The
//! validation markers inside `#[schema(...)]` are in `validation.rs`.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use super::meta::{ident_of, lit_str, one_of, skip_value, string_list, suggest};
use super::symbol::*;
use crate::diag::{Diagnostics, FileId};
use crate::model::{Crd, PrinterColumn};

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
