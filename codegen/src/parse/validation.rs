//! The grammar of the CRD validation markers inside `#[schema(...)]` (controller-gen's
//! `+kubebuilder:validation:*`): lengths, bounds and their exclusiveness, pattern, enum
//! values, item and property counts, unique items, format, example, the
//! `x-kubernetes-preserve-unknown-fields` and `-int-or-string` flags, and CEL rules. Which marker fits which type is decided in `crate::markers`.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use super::meta::{ident_of, json_lit, lit_str, lit_to_json, skip_value, string_list};
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
    let flag = |slot: &mut bool| std::mem::replace(slot, true);
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
        EXCLUSIVE_MINIMUM => (EXCLUSIVE_MINIMUM, flag(&mut v.exclusive_minimum)),
        EXCLUSIVE_MAXIMUM => (EXCLUSIVE_MAXIMUM, flag(&mut v.exclusive_maximum)),
        UNIQUE_ITEMS => (UNIQUE_ITEMS, flag(&mut v.unique_items)),
        PRESERVE_UNKNOWN_FIELDS => (
            PRESERVE_UNKNOWN_FIELDS,
            flag(&mut v.preserve_unknown_fields),
        ),
        INT_OR_STRING => (INT_OR_STRING, flag(&mut v.int_or_string)),
        FORMAT => {
            let lit = lit_str(meta)?;
            (FORMAT, v.format.replace(lit.value()).is_some())
        }
        EXAMPLE => {
            let lit: syn::Lit = meta.value()?.parse()?;
            match lit_to_json(&lit) {
                Some(value) => (EXAMPLE, v.example.replace(value).is_some()),
                None => {
                    cx.error(
                        file,
                        lit.span(),
                        "an example must be a string, integer, float or bool literal \
                         (`example_json = \"...\"` takes any JSON)",
                    );
                    return Ok(None);
                }
            }
        }
        EXAMPLE_JSON => match json_lit(cx, file, meta)? {
            Some(value) => (EXAMPLE, v.example.replace(value).is_some()),
            None => return Ok(None),
        },
        X_VALIDATION => {
            let mut rule = None;
            let mut entry = Rule::default();
            meta.parse_nested_meta(|inner| {
                let k = ident_of(&inner);
                let slot = match k.as_str() {
                    "rule" => &mut rule,
                    "message" => &mut entry.message,
                    "message_expression" => &mut entry.message_expression,
                    "reason" => &mut entry.reason,
                    "field_path" => &mut entry.field_path,
                    _ => {
                        skip_value(&inner)?;
                        cx.error(
                            file,
                            inner.path.span(),
                            format!(
                                "unknown `x_validation` key `{k}` (expected `rule`, `message`, \
                                 `message_expression`, `reason`, `field_path`)"
                            ),
                        );
                        return Ok(());
                    }
                };
                let lit = lit_str(&inner)?;
                if k == "reason" && !RULE_REASONS.contains(&lit.value().as_str()) {
                    cx.error(
                        file,
                        lit.span(),
                        format!("`reason` is one of {}", RULE_REASONS.join(", ")),
                    );
                }
                *slot = Some(lit.value());
                Ok(())
            })?;
            match rule {
                Some(rule) => v.rules.push(Rule { rule, ..entry }),
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

/// `exclusive_minimum` and `exclusive_maximum` qualify a bound, so they need it beside them:
///
///     #[schema(exclusive_minimum)]   // no `minimum = ...`
pub(super) fn check_bounds(cx: &Diagnostics, file: Option<FileId>, v: &Validation, span: Span) {
    for (flag, bound, name, needs) in [
        (v.exclusive_minimum, v.minimum, EXCLUSIVE_MINIMUM, MINIMUM),
        (v.exclusive_maximum, v.maximum, EXCLUSIVE_MAXIMUM, MAXIMUM),
    ] {
        if flag && bound.is_none() {
            cx.error(
                file,
                span,
                format!("`{name}` needs `{needs} = ...` on the same item"),
            );
        }
    }
}
