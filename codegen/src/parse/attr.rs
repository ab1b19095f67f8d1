//! The grammar of `#[schema(...)]` and `#[hook(...)]`.
//!
//! Each parser records every problem in [`Diagnostics`] and goes on, so one compile shows all
//! bad attributes at once. Rules that involve one attribute live here; rules that need the whole
//! type or several types live in `check.rs`.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::meta::{
    ident_of, json_lit, lit_str, lit_to_json, one_of, set_once, skip_value, string_list, suggest,
};
use super::symbol::*;
use super::validation;
use crate::diag::{Diagnostics, FileId};
use crate::model::Validation;

/// `#[schema(...)]` on a struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `package = "..."`
    pub package: Option<syn::LitStr>,
    /// `name = "..."`
    pub name: Option<syn::LitStr>,
    /// `enum`
    pub listed_enum: Option<Span>,
    /// `request`
    pub request: Option<Span>,
    /// `response`
    pub response: Option<Span>,
    /// `retryable`
    pub retryable: Option<Span>,
    /// `map_type = "..."`
    pub map_type: Option<String>,
    /// `crate = "..."`
    pub krate: Option<syn::Path>,
    /// `opaque = "<json>"`
    pub opaque: Option<serde_json::Value>,
    /// `inline`
    pub inline: Option<Span>,
    /// `wire = "time" | "bytes"`, with where it was written
    pub wire: Option<(String, Span)>,
    /// An attribute could not be parsed; checks that depend on it are skipped.
    pub malformed: bool,
    /// Type-level CRD validation markers, with the span of the first one.
    pub validation: Validation,
    /// Where the first type-level validation marker is.
    pub validation_span: Option<Span>,
    /// The markers only a newtype takes at the type level (lengths, bounds, pattern, enum
    /// values, item counts), with where each is.
    pub newtype_markers: Vec<(&'static str, Span)>,
    /// `crd_schema = "<json>"`
    pub crd_schema: Option<serde_json::Value>,
    /// `hub = Type`
    pub hub: Option<syn::Path>,
    /// `to_hub = "path"`
    pub to_hub: Option<syn::LitStr>,
    /// `from_hub = "path"`
    pub from_hub: Option<syn::LitStr>,
    /// `to_hub_only`
    pub to_hub_only: Option<Span>,
}

/// `#[schema(...)]` on a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `required`
    pub required: Option<Span>,
    /// `optional`
    pub optional: Option<Span>,
    /// `default = <literal>`
    pub default: Option<serde_json::Value>,
    /// `no_default`
    pub no_default: Option<Span>,
    /// `list_type = "..."`
    pub list_type: Option<String>,
    /// `list_map_keys("a", "b")`
    pub list_map_keys: Vec<String>,
    /// `map_type = "..."`
    pub map_type: Option<String>,
    /// `patch_strategy = "..."`
    pub patch_strategy: Option<String>,
    /// `patch_merge_key = "..."`
    pub patch_merge_key: Option<String>,
    /// CRD validation markers.
    pub validation: Validation,
    /// Span of each validation marker, by attribute name (for type checks).
    pub validation_spans: Vec<(&'static str, Span)>,
    /// `by_value`
    pub by_value: Option<Span>,
}

/// `#[hook(...)]` on a hook type.
#[derive(Default)]
pub struct HookAttrs {
    /// `name = "..."`
    pub name: Option<syn::LitStr>,
    /// `group = "..."`
    pub group: Option<syn::LitStr>,
    /// `version = "..."`
    pub version: Option<syn::LitStr>,
    /// `request = Type`
    pub request: Option<syn::Path>,
    /// `response = Type`
    pub response: Option<syn::Path>,
    /// `tags("...", ...)`
    pub tags: Vec<String>,
    /// `summary = "..."`
    pub summary: Option<syn::LitStr>,
    /// `singleton`
    pub singleton: bool,
    /// `shared_request`
    pub shared_request: bool,
    /// `deprecated`
    pub deprecated: bool,
    /// `crate = "..."`
    pub krate: Option<syn::Path>,
}

/// Parses every `#[schema(...)]` on a struct or enum.
pub fn container(
    cx: &Diagnostics,
    file: Option<FileId>,
    attrs: &[syn::Attribute],
) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(SCHEMA)) {
        let res = attr.parse_nested_meta(|meta| {
            let key = ident_of(&meta);
            let span = meta.path.span();
            match key.as_str() {
                PACKAGE => set_once(cx, file, &mut out.package, lit_str(&meta)?, span, PACKAGE),
                NAME => set_once(cx, file, &mut out.name, lit_str(&meta)?, span, NAME),
                ENUM => set_once(cx, file, &mut out.listed_enum, span, span, ENUM),
                REQUEST => set_once(cx, file, &mut out.request, span, span, REQUEST),
                RESPONSE => set_once(cx, file, &mut out.response, span, span, RESPONSE),
                RETRYABLE => set_once(cx, file, &mut out.retryable, span, span, RETRYABLE),
                MAP_TYPE => {
                    let v = one_of(cx, file, &meta, MAP_TYPES)?;
                    set_once(cx, file, &mut out.map_type, v, span, MAP_TYPE)
                }
                CRATE => {
                    let lit = lit_str(&meta)?;
                    let path = lit.parse::<syn::Path>()?;
                    set_once(cx, file, &mut out.krate, path, span, CRATE)
                }
                OPAQUE => match json_lit(cx, file, &meta)? {
                    Some(v) => set_once(cx, file, &mut out.opaque, v, span, OPAQUE),
                    None => Ok(()),
                },
                INLINE => set_once(cx, file, &mut out.inline, span, span, INLINE),
                WIRE => {
                    let v = one_of(cx, file, &meta, WIRE_KINDS)?;
                    set_once(cx, file, &mut out.wire, (v, span), span, WIRE)
                }
                CRD_SCHEMA => match json_lit(cx, file, &meta)? {
                    Some(v) => set_once(cx, file, &mut out.crd_schema, v, span, CRD_SCHEMA),
                    None => Ok(()),
                },
                HUB => {
                    let p: syn::Path = meta.value()?.parse()?;
                    set_once(cx, file, &mut out.hub, p, span, HUB)
                }
                TO_HUB => set_once(cx, file, &mut out.to_hub, lit_str(&meta)?, span, TO_HUB),
                FROM_HUB => set_once(cx, file, &mut out.from_hub, lit_str(&meta)?, span, FROM_HUB),
                TO_HUB_ONLY => set_once(cx, file, &mut out.to_hub_only, span, span, TO_HUB_ONLY),
                MIN_PROPERTIES
                | MAX_PROPERTIES
                | X_VALIDATION
                | FORMAT
                | EXAMPLE
                | EXAMPLE_JSON
                | PRESERVE_UNKNOWN_FIELDS
                | INT_OR_STRING => {
                    out.validation_span.get_or_insert(span);
                    validation::marker(cx, file, &meta, &key, &mut out.validation).map(|_| ())
                }
                // A newtype's own default: what a field holding it gets when it gives none.
                DEFAULT | DEFAULT_JSON => {
                    if let Some(v) = default_value(cx, file, &meta, &key)? {
                        let had = out.validation.default.is_some();
                        set_once(cx, file, &mut out.validation.default, v, span, &key)?;
                        if !had {
                            out.newtype_markers.push((DEFAULT, span));
                        }
                    }
                    Ok(())
                }
                // On a newtype, which has no field of its own to carry them.
                MIN_LENGTH | MAX_LENGTH | MINIMUM | MAXIMUM | PATTERN | ENUM_VALUES | MIN_ITEMS
                | MAX_ITEMS | EXCLUSIVE_MINIMUM | EXCLUSIVE_MAXIMUM | UNIQUE_ITEMS => {
                    if let Some(name) =
                        validation::marker(cx, file, &meta, &key, &mut out.validation)?
                    {
                        out.newtype_markers.push((name, span));
                    }
                    Ok(())
                }
                _ => {
                    let hint = if SCHEMA_FIELD.contains(&key.as_str()) {
                        format!(" (`{key}` is a field attribute)")
                    } else {
                        suggest(&key, SCHEMA_CONTAINER)
                    };
                    skip_value(&meta)?;
                    cx.error(
                        file,
                        span,
                        format!("unknown schema attribute `{key}` on a type{hint}"),
                    );
                    Ok(())
                }
            }
        });
        if let Err(e) = res {
            out.malformed = true;
            cx.push(file, e);
        }
    }
    validation::check_bounds(cx, file, &out.validation, attrs_span(attrs));
    out
}

/// Parses every `#[schema(...)]` on a field.
pub fn field(cx: &Diagnostics, file: Option<FileId>, attrs: &[syn::Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(SCHEMA)) {
        let res = attr.parse_nested_meta(|meta| {
            let key = ident_of(&meta);
            let span = meta.path.span();
            match key.as_str() {
                REQUIRED => set_once(cx, file, &mut out.required, span, span, REQUIRED),
                OPTIONAL => set_once(cx, file, &mut out.optional, span, span, OPTIONAL),
                NO_DEFAULT => set_once(cx, file, &mut out.no_default, span, span, NO_DEFAULT),
                BY_VALUE => set_once(cx, file, &mut out.by_value, span, span, BY_VALUE),
                DEFAULT | DEFAULT_JSON => match default_value(cx, file, &meta, &key)? {
                    Some(v) => set_once(cx, file, &mut out.default, v, span, &key),
                    None => Ok(()),
                },
                PATCH_STRATEGY => {
                    let v = lit_str(&meta)?.value();
                    set_once(cx, file, &mut out.patch_strategy, v, span, PATCH_STRATEGY)
                }
                PATCH_MERGE_KEY => {
                    let v = lit_str(&meta)?.value();
                    set_once(cx, file, &mut out.patch_merge_key, v, span, PATCH_MERGE_KEY)
                }
                LIST_TYPE => {
                    let v = one_of(cx, file, &meta, LIST_TYPES)?;
                    set_once(cx, file, &mut out.list_type, v, span, LIST_TYPE)
                }
                LIST_MAP_KEYS => {
                    if !out.list_map_keys.is_empty() {
                        cx.error(file, span, "duplicate attribute `list_map_keys`");
                    }
                    out.list_map_keys.extend(string_list(&meta)?);
                    Ok(())
                }
                MAP_TYPE => {
                    let v = one_of(cx, file, &meta, MAP_TYPES)?;
                    set_once(cx, file, &mut out.map_type, v, span, MAP_TYPE)
                }
                MIN_LENGTH
                | MAX_LENGTH
                | MINIMUM
                | MAXIMUM
                | PATTERN
                | ENUM_VALUES
                | MIN_ITEMS
                | MAX_ITEMS
                | MIN_PROPERTIES
                | MAX_PROPERTIES
                | X_VALIDATION
                | EXCLUSIVE_MINIMUM
                | EXCLUSIVE_MAXIMUM
                | UNIQUE_ITEMS
                | FORMAT
                | EXAMPLE
                | EXAMPLE_JSON
                | PRESERVE_UNKNOWN_FIELDS
                | INT_OR_STRING => {
                    if let Some(name) =
                        validation::marker(cx, file, &meta, &key, &mut out.validation)?
                    {
                        out.validation_spans.push((name, span));
                    }
                    Ok(())
                }
                _ => {
                    let hint = if SCHEMA_CONTAINER.contains(&key.as_str())
                        || CRD_ATTRS.contains(&key.as_str())
                    {
                        format!(" (`{key}` is a type attribute)")
                    } else {
                        suggest(&key, SCHEMA_FIELD)
                    };
                    skip_value(&meta)?;
                    cx.error(
                        file,
                        span,
                        format!("unknown schema attribute `{key}` on a field{hint}"),
                    );
                    Ok(())
                }
            }
        });
        if let Err(e) = res {
            cx.push(file, e);
        }
    }
    validation::check_bounds(cx, file, &out.validation, attrs_span(attrs));
    if let (Some(a), Some(_)) = (out.required, out.optional) {
        cx.error(file, a, "a field cannot be both `required` and `optional`");
    }
    if let (Some(_), Some(b)) = (&out.default, out.no_default) {
        cx.error(
            file,
            b,
            "`no_default` contradicts `default = ...` on the same field",
        );
    }
    if !out.list_map_keys.is_empty() && out.list_type.as_deref() != Some("map") {
        cx.error(
            file,
            attrs_span(attrs),
            "`list_map_keys` needs `list_type = \"map\"` on the same field",
        );
    }
    if out.list_type.as_deref() == Some("map") && out.list_map_keys.is_empty() {
        cx.error(
            file,
            attrs_span(attrs),
            "`list_type = \"map\"` needs `list_map_keys(\"...\")` naming the key fields",
        );
    }
    out
}

/// Parses every `#[hook(...)]` on a hook type.
pub fn hook(cx: &Diagnostics, file: Option<FileId>, attrs: &[syn::Attribute]) -> HookAttrs {
    let mut out = HookAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(HOOK)) {
        let res = attr.parse_nested_meta(|meta| {
            let key = ident_of(&meta);
            let span = meta.path.span();
            match key.as_str() {
                NAME => set_once(cx, file, &mut out.name, lit_str(&meta)?, span, NAME),
                GROUP => set_once(cx, file, &mut out.group, lit_str(&meta)?, span, GROUP),
                VERSION => set_once(cx, file, &mut out.version, lit_str(&meta)?, span, VERSION),
                SUMMARY => set_once(cx, file, &mut out.summary, lit_str(&meta)?, span, SUMMARY),
                REQUEST => {
                    let p: syn::Path = meta.value()?.parse()?;
                    set_once(cx, file, &mut out.request, p, span, REQUEST)
                }
                RESPONSE => {
                    let p: syn::Path = meta.value()?.parse()?;
                    set_once(cx, file, &mut out.response, p, span, RESPONSE)
                }
                TAGS => {
                    if !out.tags.is_empty() {
                        cx.error(file, span, "duplicate attribute `tags`");
                    }
                    out.tags.extend(string_list(&meta)?);
                    Ok(())
                }
                SINGLETON => {
                    out.singleton = true;
                    Ok(())
                }
                DEPRECATED => {
                    out.deprecated = true;
                    Ok(())
                }
                SHARED_REQUEST => {
                    out.shared_request = true;
                    Ok(())
                }
                CRATE => {
                    let lit = lit_str(&meta)?;
                    let path = lit.parse::<syn::Path>()?;
                    set_once(cx, file, &mut out.krate, path, span, CRATE)
                }
                _ => {
                    skip_value(&meta)?;
                    cx.error(
                        file,
                        span,
                        format!(
                            "unknown hook attribute `{key}`{}",
                            suggest(&key, HOOK_ATTRS)
                        ),
                    );
                    Ok(())
                }
            }
        });
        if let Err(e) = res {
            cx.push(file, e);
        }
    }
    out
}

/// Rejects `#[schema(...)]` and `#[crd(...)]` where they have no meaning (enum variants,
/// newtype fields).
pub fn reject(cx: &Diagnostics, file: Option<FileId>, attrs: &[syn::Attribute], what: &str) {
    for attr in attrs
        .iter()
        .filter(|a| a.path().is_ident(SCHEMA) || a.path().is_ident(CRD))
    {
        let name = if attr.path().is_ident(CRD) {
            CRD
        } else {
            SCHEMA
        };
        cx.error(
            file,
            attr.span(),
            format!("`#[{name}(...)]` is not supported on {what}"),
        );
    }
}

/// The value of `default = <literal>` or `default_json = "<json>"`; `None` when a bad one was
/// reported.
fn default_value(
    cx: &Diagnostics,
    file: Option<FileId>,
    meta: &syn::meta::ParseNestedMeta<'_>,
    key: &str,
) -> syn::Result<Option<serde_json::Value>> {
    if key == DEFAULT_JSON {
        return json_lit(cx, file, meta);
    }
    let lit: syn::Lit = meta.value()?.parse()?;
    let value = lit_to_json(&lit);
    if value.is_none() {
        cx.error(
            file,
            lit.span(),
            "a default must be a string, integer, float or bool literal",
        );
    }
    Ok(value)
}

fn attrs_span(attrs: &[syn::Attribute]) -> Span {
    attrs
        .iter()
        .find(|a| a.path().is_ident(SCHEMA))
        .map(|a| a.span())
        .unwrap_or_else(Span::call_site)
}
