//! Model → the Rust code of the derive expansions.
//!
//! Everything generated is wrapped in `const _: () = { ... };` and reaches the runtime crate
//! through a path that `#[schema(crate = "...")]` / `#[hook(crate = "...")]` can override
//! (`::capi_runtime` by default; the runtime crate itself says `crate`).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::model::{HookDef, MODEL_FORMAT, Role, TypeDef};
use crate::parse::{HookInput, RETRY_FIELD, SETTINGS_FIELD, SchemaInput};

pub(crate) fn krate(path: &Option<syn::Path>) -> TokenStream {
    match path {
        Some(p) => quote!(#p),
        None => quote!(::capi_runtime),
    }
}

/// The expansion of `#[derive(Schema)]` for a parsed type.
pub fn schema(input: &SchemaInput) -> TokenStream {
    let krate = krate(&input.krate);
    let ident = format_ident!("{}", input.def.ident, span = input.def.span);
    let ident = raw_if_needed(&ident);
    let (def, paths) = numbered(&input.def);
    let model = raw_str(&serde_json::to_string(&def).expect("model serializes"));
    let refs = paths.iter().map(|(p, span)| {
        let path = respan(p.parse::<TokenStream>().unwrap_or_default(), *span);
        quote_spanned!(*span=> <#path as #krate::schema::Schema>::schema_info)
    });
    let format = MODEL_FORMAT;
    let shape = super::shape::shape(&krate, &def, &input.wire);
    let role = role_impl(&krate, &ident, &def);
    let object = object_impl(&krate, &ident, &def);
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::schema::Schema for #ident {
                fn schema_info() -> &'static #krate::schema::TypeInfo {
                    static INFO: #krate::schema::TypeInfo = #krate::__private::type_info(
                        #format,
                        #model,
                        &[#(#refs),*],
                        #shape,
                    );
                    &INFO
                }
            }
            #role
            #object
        };
    }
}

/// A copy of `def` whose references are numbered in order of first appearance (the number
/// is what the model stores), with the path and span of each number.
pub(crate) fn numbered(def: &TypeDef) -> (TypeDef, Vec<(String, Span)>) {
    let mut def = def.clone();
    let mut paths: Vec<(String, Span)> = Vec::new();
    def.for_each_named_mut(&mut |n| {
        let local = match paths.iter().position(|(p, _)| *p == n.path) {
            Some(i) => i,
            None => {
                paths.push((n.path.clone(), n.span));
                paths.len() - 1
            }
        };
        n.id = Some(local);
    });
    (def, paths)
}

/// For the root type of a custom resource version: its identity, and kube's `Resource` when
/// the runtime crate has its `kube` feature.
fn object_impl(krate: &TokenStream, ident: &TokenStream, def: &TypeDef) -> TokenStream {
    let Some(crd) = &def.crd else {
        return TokenStream::new();
    };
    let (group, version, plural, kind) = (&crd.group, &crd.version, &crd.plural, &def.ident);
    let api_version = format!("{group}/{version}");
    let namespaced = crd.namespaced;
    let scope = if namespaced {
        format_ident!("NamespaceResourceScope")
    } else {
        format_ident!("ClusterResourceScope")
    };
    quote! {
        #[automatically_derived]
        impl #krate::object::KubeObject for #ident {
            const GROUP: &'static str = #group;
            const VERSION: &'static str = #version;
            const API_VERSION: &'static str = #api_version;
            const KIND: &'static str = #kind;
            const PLURAL: &'static str = #plural;
            const NAMESPACED: bool = #namespaced;
        }
        #krate::__impl_kube_resource!(#ident, #scope);
    }
}

fn role_impl(krate: &TokenStream, ident: &TokenStream, def: &TypeDef) -> TokenStream {
    let Some(role) = def.role else {
        return TokenStream::new();
    };
    let has = |name: &str| def.fields().iter().any(|f| f.ident == name);
    let message = quote! {
        #[automatically_derived]
        impl #krate::hook::Message for #ident {
            fn api_version(&self) -> &str {
                &self.api_version
            }
            fn kind(&self) -> &str {
                &self.kind
            }
            fn set_type_meta(&mut self, api_version: &str, kind: &str) {
                api_version.clone_into(&mut self.api_version);
                kind.clone_into(&mut self.kind);
            }
            fn wire_info() -> ::core::option::Option<&'static #krate::schema::TypeInfo> {
                ::core::option::Option::Some(
                    <Self as #krate::schema::Schema>::schema_info(),
                )
            }
        }
    };
    let specific = match role {
        Role::Request => {
            let settings = format_ident!("{}", SETTINGS_FIELD);
            let (get, get_mut) = if has(SETTINGS_FIELD) {
                (
                    quote!(Some(&self.#settings)),
                    quote!(Some(&mut self.#settings)),
                )
            } else {
                (quote!(None), quote!(None))
            };
            quote! {
                #[automatically_derived]
                impl #krate::hook::HookRequest for #ident {
                    fn settings(&self) -> Option<&#krate::__private::Settings> {
                        #get
                    }
                    fn settings_mut(&mut self) -> Option<&mut #krate::__private::Settings> {
                        #get_mut
                    }
                }
            }
        }
        Role::Response | Role::RetryableResponse => {
            let retry = format_ident!("{}", RETRY_FIELD);
            let retryable = role == Role::RetryableResponse;
            let (get, set) = if retryable {
                (
                    quote!(Some(self.#retry)),
                    quote! {
                        self.#retry = seconds;
                        true
                    },
                )
            } else {
                (
                    quote!(None),
                    quote! {
                        let _ = seconds;
                        false
                    },
                )
            };
            let inherent = response_constructors(krate, ident);
            quote! {
                #[automatically_derived]
                impl #krate::hook::HookResponse for #ident {
                    const RETRYABLE: bool = #retryable;
                    fn status(&self) -> #krate::__private::ResponseStatus {
                        self.status
                    }
                    fn set_status(&mut self, status: #krate::__private::ResponseStatus) {
                        self.status = status;
                    }
                    fn message(&self) -> &str {
                        &self.message
                    }
                    fn set_message(&mut self, message: String) {
                        self.message = message;
                    }
                    fn retry_after_seconds(&self) -> Option<i32> {
                        #get
                    }
                    fn set_retry_after_seconds(&mut self, seconds: i32) -> bool {
                        #set
                    }
                }
                #inherent
            }
        }
    };
    quote!(#message #specific)
}

/// `success()` and `failure(..)` as inherent functions of a response type, so that they are
/// callable without `HookResponse` in scope. They delegate to the trait's provided methods,
/// which stay the one definition (and what generic code over `H::Response` calls); an
/// inherent function wins over a trait's of the same name, so code that imports the trait as
/// well resolves the same way, without ambiguity.
fn response_constructors(krate: &TokenStream, ident: &TokenStream) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl #ident {
            /// A response with status `Success` and every other field at its default
            /// (`HookResponse::success`).
            #[must_use]
            pub fn success() -> Self {
                <Self as #krate::hook::HookResponse>::success()
            }

            /// A response with status `Failure` and `message` (`HookResponse::failure`).
            #[must_use]
            pub fn failure(message: impl ::core::convert::Into<::std::string::String>) -> Self {
                <Self as #krate::hook::HookResponse>::failure(message)
            }
        }
    }
}

/// The expansion of `#[derive(Hook)]` for a parsed hook.
pub fn hook(input: &HookInput) -> TokenStream {
    let krate = krate(&input.krate);
    let def: &HookDef = &input.def;
    let ident = raw_if_needed(&format_ident!("{}", def.ident, span = def.span));
    let request = &input.request;
    let response = &input.response;
    let kind = |p: &syn::Path| {
        p.segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default()
    };
    let (request_kind, response_kind) = (kind(request), kind(response));
    let (name, group, version) = (&def.name, &def.group, &def.version);
    let api_version = format!("{group}/{version}");
    let summary = &def.summary;
    let description = super::doc::openapi(&def.doc);
    let tags = &def.tags;
    let (singleton, deprecated) = (def.singleton, def.deprecated);
    let model = raw_str(&serde_json::to_string(def).expect("model serializes"));
    let format = MODEL_FORMAT;
    let request_of = (!input.shared_request).then(|| {
        quote! {
            #[automatically_derived]
            impl #krate::hook::RequestOf for #request {
                type Hook = #ident;
            }
        }
    });
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::hook::Hook for #ident {
                type Request = #request;
                type Response = #response;
                const NAME: &'static str = #name;
                const GROUP: &'static str = #group;
                const VERSION: &'static str = #version;
                const API_VERSION: &'static str = #api_version;
                const REQUEST_KIND: &'static str = #request_kind;
                const RESPONSE_KIND: &'static str = #response_kind;
                const META: #krate::hook::HookMeta = #krate::__private::hook_meta(
                    #summary,
                    #description,
                    &[#(#tags),*],
                    #singleton,
                    #deprecated,
                );
            }
            #[automatically_derived]
            impl #krate::schema::HookSchema for #ident {
                fn hook_info() -> &'static #krate::schema::HookInfo {
                    static INFO: #krate::schema::HookInfo = #krate::__private::hook_info(
                        #format,
                        #model,
                        <#request as #krate::schema::Schema>::schema_info,
                        <#response as #krate::schema::Schema>::schema_info,
                    );
                    &INFO
                }
            }
            #request_of
        };
    }
}

/// What a failed `#[derive(Schema)]` expands to besides the errors: an impl of the trait, so
/// that uses of the type do not add "trait not implemented" errors to the real one.
pub fn schema_fallback(input: &syn::DeriveInput, krate: &Option<syn::Path>) -> TokenStream {
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let krate = krate_from_attrs(krate, &input.attrs, "schema");
    let ident = &input.ident;
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::schema::Schema for #ident {
                fn schema_info() -> &'static #krate::schema::TypeInfo {
                    ::core::unreachable!()
                }
            }
        };
    }
}

fn krate_from_attrs(
    given: &Option<syn::Path>,
    attrs: &[syn::Attribute],
    attr: &str,
) -> TokenStream {
    if given.is_some() {
        return krate(given);
    }
    // Best effort: find `crate = "..."` even when the rest of the attribute was invalid.
    for a in attrs.iter().filter(|a| a.path().is_ident(attr)) {
        let mut found = None;
        let _ = a.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                if let Ok(s) = meta.value().and_then(|v| v.parse::<syn::LitStr>()) {
                    found = s.parse::<syn::Path>().ok();
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _ = meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                let _: TokenStream = content.parse()?;
            }
            Ok(())
        });
        if found.is_some() {
            return krate(&found);
        }
    }
    krate(&None)
}

pub(crate) fn raw_if_needed(ident: &syn::Ident) -> TokenStream {
    let s = ident.to_string();
    if syn::parse_str::<syn::Ident>(&s).is_ok() {
        quote!(#ident)
    } else {
        let raw = syn::Ident::new_raw(&s, ident.span());
        quote!(#raw)
    }
}

/// A raw string literal (`r#"..."#`), which keeps JSON readable in expansions.
pub(crate) fn raw_str(s: &str) -> TokenStream {
    let mut hashes = String::from("#");
    while s.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{s}\"{hashes}")
        .parse()
        .expect("a raw string literal always lexes")
}

pub(crate) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(g) = &tt {
                let mut ng = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                ng.set_span(span);
                tt = proc_macro2::TokenTree::Group(ng);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}
