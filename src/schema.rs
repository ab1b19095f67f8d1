//! What `#[derive(Schema)]` and `#[derive(Hook)]` record about a type for the generator.
//!
//! The derive sees one type at a time, so it stores the generator's model of that type as
//! JSON plus links to the types it references; `capi-runtime-codegen` turns a graph of these
//! into the same OpenAPI document as the `runtime-openapi-gen` CLI (a test asserts it). Nothing
//! here is needed to serve or call hooks.

/// A wire type the generator can describe.
pub trait Schema {
    /// The type's model and its references.
    fn schema_info() -> &'static TypeInfo;
}

/// The generator's model of one type, as the derive recorded it.
#[derive(Debug)]
pub struct TypeInfo {
    /// The model as JSON (`capi_runtime_codegen::model::TypeDef`); reference `n` in it is
    /// `refs[n]`.
    pub model: &'static str,
    /// The referenced types.
    pub refs: &'static [fn() -> &'static TypeInfo],
}

/// The generator's model of one hook.
#[derive(Debug)]
pub struct HookInfo {
    /// The model as JSON (`capi_runtime_codegen::model::HookDef`).
    pub model: &'static str,
    /// The request type.
    pub request: fn() -> &'static TypeInfo,
    /// The response type.
    pub response: fn() -> &'static TypeInfo,
}
