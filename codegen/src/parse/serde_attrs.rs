//! The serde attributes a schema type may not carry.
//!
//! A hook message is read by the wire codec (`capi_runtime::wire`) with Go's `encoding/json`
//! rules and described by a schema built from serde's names. An attribute that makes serde
//! read or write something else than that (another key, another name, another value for a
//! missing field, a decoding outside the codec's rules) is refused here, at the attribute,
//! with the reason. `derive/attributes.md` lists every serde attribute and why it is
//! accepted or refused.

use std::collections::BTreeSet;

use proc_macro2::Span;

use serde_derive_internals::name::{MultiName, Name};
use serde_derive_internals::{ast, attr};
use syn::spanned::Spanned;

use crate::diag::{Diagnostics, FileId};

/// Reports the refused attributes of the type itself.
pub(super) fn container(
    cx: &Diagnostics,
    file: Option<FileId>,
    input: &syn::DeriveInput,
    container: &ast::Container<'_>,
) {
    let attrs = &container.attrs;
    let at = |key: &str| key_span(&input.attrs, key).unwrap_or_else(|| input.ident.span());
    if attrs.type_from().is_some()
        || attrs.type_try_from().is_some()
        || attrs.type_into().is_some()
        || attrs.remote().is_some()
    {
        cx.error(
            file,
            input.ident.span(),
            "serde `from`, `try_from`, `into` and `remote` hide the wire shape from the schema; \
             derive Schema on the type that is serialized instead",
        );
    }
    if attrs.deny_unknown_fields() {
        cx.error(
            file,
            at("deny_unknown_fields"),
            "serde `deny_unknown_fields` refuses keys that Go ignores; the wire codec ignores \
             them too, so serde_json and the codec would disagree about the same message",
        );
    }
    if let attr::Default::Path(_) = attrs.default() {
        cx.error(file, at("default"), DEFAULT_PATH);
    }
    if let (ast::Data::Struct(..), attr::TagType::Internal { tag }) = (&container.data, attrs.tag())
    {
        cx.error(
            file,
            at("tag"),
            format!(
                "serde `tag` on a struct writes a `{tag}` key that the schema does not have; \
                 declare it as a field"
            ),
        );
    }
}

/// Reports the refused attributes of a struct field.
pub(super) fn field(cx: &Diagnostics, file: Option<FileId>, f: &ast::Field<'_>) {
    let attrs = &f.original.attrs;
    let at = |key: &str| key_span(attrs, key).unwrap_or_else(|| f.original.span());
    if f.attrs.serialize_with().is_some() {
        cx.error(
            file,
            f.original.span(),
            "serde `serialize_with`/`with` hides the wire shape from the schema; \
             use a type whose Serialize impl matches its schema",
        );
    }
    if f.attrs.flatten() {
        cx.error(
            file,
            at("flatten"),
            "serde `flatten` reads the whole struct as a map of buffered values, where the wire \
             codec's Go rules (names matched case-insensitively, repeated keys applied in turn) \
             no longer hold; write the fields out, or keep the inner struct as a named field",
        );
    }
    if f.attrs.skip_deserializing() && !f.attrs.skip_serializing() {
        cx.error(
            file,
            at("skip_deserializing"),
            "serde `skip_deserializing` drops a field that the schema lists and Go reads; skip \
             it both ways (`skip`) or read it back",
        );
    }
    if let attr::Default::Path(_) = f.attrs.default() {
        cx.error(file, at("default"), DEFAULT_PATH);
    }
    names(
        cx,
        file,
        f.attrs.name(),
        f.attrs.aliases(),
        "field",
        attrs,
        || f.original.span(),
    );
}

/// Reports the refused attributes of an enum variant.
pub(super) fn variant(cx: &Diagnostics, file: Option<FileId>, v: &ast::Variant<'_>) {
    let attrs = &v.original.attrs;
    if v.attrs.skip_deserializing() && !v.attrs.skip_serializing() {
        cx.error(
            file,
            key_span(attrs, "skip_deserializing").unwrap_or_else(|| v.original.span()),
            "serde `skip_deserializing` refuses a value that the schema lists; skip the variant \
             both ways (`skip`) or read it back",
        );
    }
    names(
        cx,
        file,
        v.attrs.name(),
        v.attrs.aliases(),
        "variant",
        attrs,
        || v.original.span(),
    );
}

const DEFAULT_PATH: &str = "serde `default = \"...\"` fills a missing field with a value of its \
     own, where Go leaves the zero value; use `#[serde(default)]` (the type's `Default`), and \
     `#[schema(default = ...)]` to document a default";

/// A wire name read under other names than it is written under: an alias, or a rename that
/// differs between serializing and deserializing.
fn names(
    cx: &Diagnostics,
    file: Option<FileId>,
    name: &MultiName,
    aliases: &BTreeSet<Name>,
    what: &str,
    attrs: &[syn::Attribute],
    item: impl Fn() -> Span,
) {
    // serde counts the name itself among the aliases.
    let de = &name.deserialize_name().value;
    if let Some(alias) = aliases.iter().find(|a| a.value != *de) {
        cx.error(
            file,
            alias.span,
            format!(
                "serde `alias` lets the {what} be read as `{}` too; Go reads only the name the \
                 schema shows",
                alias.value
            ),
        );
    }
    let ser = &name.serialize_name().value;
    if ser != de {
        cx.error(
            file,
            key_span(attrs, "rename").unwrap_or_else(item),
            format!(
                "serde writes this {what} as `{ser}` but reads it as `{de}`; Go uses one name \
                 both ways"
            ),
        );
    }
}

/// Where `key` is written in the item's `#[serde(...)]` attributes, if it is (an attribute
/// serde cannot parse is serde's to report).
fn key_span(attrs: &[syn::Attribute], key: &str) -> Option<Span> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if found.is_none() && meta.path.is_ident(key) {
                found = Some(meta.path.span());
            }
            super::meta::skip_value(&meta)
        });
    }
    found
}
