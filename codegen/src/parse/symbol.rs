//! Attribute names, as constants so that the parsers hold no magic strings.

/// The attribute of `#[derive(Schema)]`.
pub const SCHEMA: &str = "schema";
/// The attribute of `#[derive(Hook)]`.
pub const HOOK: &str = "hook";

// Container attributes of `#[schema(...)]`.
/// Go import path of the type's package; the component name is derived from it.
pub const PACKAGE: &str = "package";
/// Full component name.
pub const NAME: &str = "name";
/// List the values of a string enum (Go's `+enum`).
pub const ENUM: &str = "enum";
/// The type is a hook request.
pub const REQUEST: &str = "request";
/// The type is a hook response.
pub const RESPONSE: &str = "response";
/// The type is a hook response with `retryAfterSeconds`.
pub const RETRYABLE: &str = "retryable";
/// `x-kubernetes-map-type`.
pub const MAP_TYPE: &str = "map_type";
/// Path of the runtime crate in generated code.
pub const CRATE: &str = "crate";
/// The type's schema, given as JSON text.
pub const OPAQUE: &str = "opaque";
/// An opaque schema is written in place rather than as a component.
pub const INLINE: &str = "inline";

/// Every container attribute of `#[schema(...)]`, for suggestions.
pub const SCHEMA_CONTAINER: &[&str] = &[
    PACKAGE, NAME, ENUM, REQUEST, RESPONSE, RETRYABLE, MAP_TYPE, CRATE, OPAQUE, INLINE,
];

// Field attributes of `#[schema(...)]`.
/// Listed in `required`.
pub const REQUIRED: &str = "required";
/// Not listed in `required`.
pub const OPTIONAL: &str = "optional";
/// Explicit default value.
pub const DEFAULT: &str = "default";
/// Explicit default value given as JSON text.
pub const DEFAULT_JSON: &str = "default_json";
/// No implicit default.
pub const NO_DEFAULT: &str = "no_default";
/// `x-kubernetes-patch-strategy`.
pub const PATCH_STRATEGY: &str = "patch_strategy";
/// `x-kubernetes-patch-merge-key`.
pub const PATCH_MERGE_KEY: &str = "patch_merge_key";
/// `x-kubernetes-list-type`.
pub const LIST_TYPE: &str = "list_type";
/// `x-kubernetes-list-map-keys`.
pub const LIST_MAP_KEYS: &str = "list_map_keys";

/// Every field attribute of `#[schema(...)]`, for suggestions.
pub const SCHEMA_FIELD: &[&str] = &[
    REQUIRED,
    OPTIONAL,
    DEFAULT,
    DEFAULT_JSON,
    NO_DEFAULT,
    LIST_TYPE,
    LIST_MAP_KEYS,
    MAP_TYPE,
    PATCH_STRATEGY,
    PATCH_MERGE_KEY,
];

// Attributes of `#[hook(...)]`.
/// API group.
pub const GROUP: &str = "group";
/// API version.
pub const VERSION: &str = "version";
/// OpenAPI tags.
pub const TAGS: &str = "tags";
/// One-line summary.
pub const SUMMARY: &str = "summary";
/// Served without a handler name.
pub const SINGLETON: &str = "singleton";
/// Marked deprecated.
pub const DEPRECATED: &str = "deprecated";

/// Every attribute of `#[hook(...)]`, for suggestions.
pub const HOOK_ATTRS: &[&str] = &[
    NAME, GROUP, VERSION, REQUEST, RESPONSE, TAGS, SUMMARY, SINGLETON, DEPRECATED, CRATE,
];

/// Values accepted by `list_type`.
pub const LIST_TYPES: &[&str] = &["atomic", "set", "map"];
/// Values accepted by `map_type`.
pub const MAP_TYPES: &[&str] = &["atomic", "granular"];
