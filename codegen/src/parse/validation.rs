//! The grammar of the CRD validation markers inside `#[schema(...)]` (controller-gen's
//! `+kubebuilder:validation:*`): lengths, bounds, pattern, enum values, item and property
//! counts and CEL rules. Which marker fits which type is decided in `crate::markers`.

use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use super::meta::{ident_of, lit_str, skip_value, string_list};
use super::symbol::*;
use crate::diag::{Diagnostics, FileId};
use crate::model::{Rule, Validation};

/// Parses one CRD validation marker into `v`; returns its canonical name, or `None` when a
/// duplicate or bad value was reported.
pub(super) fn marker(
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
