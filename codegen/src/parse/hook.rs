//! `#[derive(Hook)]` inputs: a unit struct describing one hook.

use syn::spanned::Spanned;

use super::{HookInput, attr, doc, ty, unraw};
use crate::diag::{Diagnostics, FileId};
use crate::model::{HookDef, Named};

/// Parses a `#[derive(Hook)]` input.
pub fn hook(cx: &Diagnostics, file: Option<FileId>, input: &syn::DeriveInput) -> Option<HookInput> {
    let attrs = attr::hook(cx, file, &input.attrs);
    let is_unit =
        matches!(&input.data, syn::Data::Struct(s) if matches!(s.fields, syn::Fields::Unit));
    if !is_unit {
        cx.error(
            file,
            input.ident.span(),
            "a hook is described by a unit struct, e.g. `pub struct BeforeClusterCreate;`",
        );
    }
    if is_unit && !input.generics.params.is_empty() {
        cx.error(file, input.generics.span(), "a hook type cannot be generic");
    }
    let mut missing = Vec::new();
    for (present, name) in [
        (attrs.group.is_some(), "group = \"...\""),
        (attrs.version.is_some(), "version = \"...\""),
        (attrs.request.is_some(), "request = Type"),
        (attrs.response.is_some(), "response = Type"),
    ] {
        if !present {
            missing.push(format!("`{name}`"));
        }
    }
    if !missing.is_empty() {
        cx.error(
            file,
            input.ident.span(),
            format!("hook `{}` is missing {}", input.ident, missing.join(", ")),
        );
        return None;
    }
    for lit in [&attrs.group, &attrs.version, &attrs.name]
        .into_iter()
        .flatten()
    {
        if lit.value().is_empty() || lit.value().contains('/') {
            cx.error(file, lit.span(), "must be non-empty and contain no `/`");
        }
    }
    let doc = doc::doc_lines(&input.attrs);
    let summary = match &attrs.summary {
        Some(s) => s.value(),
        None => doc
            .iter()
            .take_while(|l| !l.is_empty())
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join(" "),
    };
    let request = attrs.request.unwrap();
    let response = attrs.response.unwrap();
    let named = |p: &syn::Path| Named {
        path: ty::tokens(p),
        id: None,
        span: p.span(),
    };
    Some(HookInput {
        def: HookDef {
            ident: unraw(&input.ident),
            name: attrs
                .name
                .map(|n| n.value())
                .unwrap_or_else(|| unraw(&input.ident)),
            group: attrs.group.unwrap().value(),
            version: attrs.version.unwrap().value(),
            request: named(&request),
            response: named(&response),
            tags: attrs.tags,
            summary,
            doc,
            singleton: attrs.singleton,
            deprecated: attrs.deprecated,
            span: input.ident.span(),
            file,
        },
        request,
        response,
        krate: attrs.krate,
        shared_request: attrs.shared_request,
    })
}
