//! Doc comments as lines of text.

/// The lines of the `#[doc = "..."]` attributes (what `///` comments become), each with the
/// one space after `///` removed. Block doc comments are split into lines.
pub fn doc_lines(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        let syn::Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = &nv.value
        else {
            continue;
        };
        for line in s.value().split('\n') {
            let line = line.strip_prefix(' ').unwrap_or(line);
            lines.push(line.trim_end().to_string());
        }
    }
    while lines.first().is_some_and(|l| l.is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}
