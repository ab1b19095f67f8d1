//! What `#[derive(Schema)]` and `#[derive(Hook)]` record about a type for the generator.
//!
//! The derive sees one type at a time, so it stores the generator's model of that type as
//! JSON plus links to the types it references; `capi-runtime-codegen` turns a graph of these
//! into the same OpenAPI document as the `runtime-openapi-gen` CLI (a test asserts it).
//!
//! Nothing here is needed to serve or call hooks: [`Hook`](crate::Hook) and [`Message`](crate::Message)
//! do not require these traits, and a catalog registers a hook without its model
//! ([`Catalog::register`](crate::Catalog::register)); [`Catalog::register_described`]
//! keeps the model too, for callers that generate a document from a catalog.
//!
//! [`Catalog::register_described`]: crate::Catalog::register_described
//!
//! Beside the model, the derive records the type's [`shape`]: what the wire decoder needs to
//! read it with Go's rules (which fields Go holds by value, which are Go times or bytes).

#[doc(hidden)]
pub mod shape;

/// A wire type the generator can describe: implemented by `#[derive(Schema)]`.
pub trait Schema {
    /// The type's model and its references.
    fn schema_info() -> &'static TypeInfo;
}

/// A hook the generator can describe: implemented by `#[derive(Hook)]` beside
/// [`Hook`](crate::Hook). Its own trait (no supertrait), so this module imports nothing else of
/// the crate.
pub trait HookSchema {
    /// The generator's model of the hook, with the models of its request and response.
    fn hook_info() -> &'static HookInfo;
}

/// The generator's model of one type, as the derive recorded it (the derive builds it; new
/// fields may be added).
#[derive(Debug)]
#[non_exhaustive]
pub struct TypeInfo {
    /// The version of the JSON form of [`model`](Self::model): the
    /// `capi_runtime_codegen::model::MODEL_FORMAT` of the derive that recorded it. The
    /// generator refuses a version it does not read.
    pub format: u32,
    /// The model as JSON (`capi_runtime_codegen::model::TypeDef`); reference `n` in it is
    /// `refs[n]`.
    pub model: &'static str,
    /// The referenced types.
    pub refs: &'static [fn() -> &'static TypeInfo],
    /// How the wire decoder reads the type.
    pub(crate) shape: shape::Shape,
    /// Its fields in serde's order, once a decoding has asked.
    pub(crate) field_map: shape::FieldMapCell,
}

/// The generator's model of one hook (the derive builds it; new fields may be added).
#[derive(Debug)]
#[non_exhaustive]
pub struct HookInfo {
    /// The version of the JSON form of [`model`](Self::model): the
    /// `capi_runtime_codegen::model::MODEL_FORMAT` of the derive that recorded it. The
    /// generator refuses a version it does not read.
    pub format: u32,
    /// The model as JSON (`capi_runtime_codegen::model::HookDef`).
    pub model: &'static str,
    /// The request type.
    pub request: fn() -> &'static TypeInfo,
    /// The response type.
    pub response: fn() -> &'static TypeInfo,
}
