//! Derive macros of the Cluster API Runtime SDK. Each is a thin shim over
//! [`capi_runtime_codegen`], which owns the model, the checks and the emitters; the
//! `runtime-openapi-gen` CLI runs the same code over whole files.
#![doc = include_str!("../attributes.md")]

use proc_macro::TokenStream;

/// Describes a wire type for the Runtime SDK generator and, for hook messages, implements the
/// message traits. See the crate docs for every `#[schema(...)]` attribute.
#[proc_macro_derive(Schema, attributes(schema, crd))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    capi_runtime_codegen::expand_schema(&input).into()
}

/// Describes a hook (one endpoint an extension serves). See the crate docs for every
/// `#[hook(...)]` attribute.
#[proc_macro_derive(Hook, attributes(hook))]
pub fn derive_hook(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    capi_runtime_codegen::expand_hook(&input).into()
}

/// Makes a type (struct, enum or newtype) part of a ClusterClass variable's schema, described
/// with the same `#[schema(...)]` attributes as any type; with `#[variable(name = "...")]` it is
/// the root of a variable. See the crate docs for every `#[variable(...)]` attribute.
#[proc_macro_derive(Variable, attributes(schema, variable))]
pub fn derive_variable(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    capi_runtime_codegen::expand_variable(&input).into()
}
