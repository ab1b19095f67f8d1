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
/// How the wire decoder reads an opaque type: Go's `metav1.Time` or `[]byte` (only in this
/// crate's descriptions of external types, `codegen/external/`).
pub const WIRE: &str = "wire";
/// Values accepted by `wire`.
pub const WIRE_KINDS: &[&str] = &["time", "bytes"];

/// The structural CRD schema of an opaque type.
pub const CRD_SCHEMA: &str = "crd_schema";
/// The peer type in the hub version, for conversion.
pub const HUB: &str = "hub";
/// Manual completion of the conversion to the hub.
pub const TO_HUB: &str = "to_hub";
/// Manual completion of the conversion from the hub.
pub const FROM_HUB: &str = "from_hub";
/// The conversion goes to the hub only (an older shape read, never written).
pub const TO_HUB_ONLY: &str = "to_hub_only";

/// Every container attribute of `#[schema(...)]`, for suggestions.
pub const SCHEMA_CONTAINER: &[&str] = &[
    PACKAGE,
    NAME,
    ENUM,
    REQUEST,
    RESPONSE,
    RETRYABLE,
    MAP_TYPE,
    CRATE,
    OPAQUE,
    INLINE,
    WIRE,
    CRD_SCHEMA,
    HUB,
    TO_HUB,
    FROM_HUB,
    TO_HUB_ONLY,
    MIN_PROPERTIES,
    MAX_PROPERTIES,
    X_VALIDATION,
    EXCLUSIVE_MINIMUM,
    EXCLUSIVE_MAXIMUM,
    UNIQUE_ITEMS,
    FORMAT,
    EXAMPLE,
    EXAMPLE_JSON,
    PRESERVE_UNKNOWN_FIELDS,
    INT_OR_STRING,
];

// CRD validation markers, on fields (and some on types).
/// `minLength`
pub const MIN_LENGTH: &str = "min_length";
/// `maxLength`
pub const MAX_LENGTH: &str = "max_length";
/// `minimum`
pub const MINIMUM: &str = "minimum";
/// `maximum`
pub const MAXIMUM: &str = "maximum";
/// `pattern`
pub const PATTERN: &str = "pattern";
/// `enum` of a string field
pub const ENUM_VALUES: &str = "enum_values";
/// `minItems`
pub const MIN_ITEMS: &str = "min_items";
/// `maxItems`
pub const MAX_ITEMS: &str = "max_items";
/// `minProperties`
pub const MIN_PROPERTIES: &str = "min_properties";
/// `maxProperties`
pub const MAX_PROPERTIES: &str = "max_properties";
/// `x-kubernetes-validations`
pub const X_VALIDATION: &str = "x_validation";
/// `exclusiveMinimum`
pub const EXCLUSIVE_MINIMUM: &str = "exclusive_minimum";
/// `exclusiveMaximum`
pub const EXCLUSIVE_MAXIMUM: &str = "exclusive_maximum";
/// `uniqueItems`
pub const UNIQUE_ITEMS: &str = "unique_items";
/// `format`
pub const FORMAT: &str = "format";
/// `example`, given as a literal.
pub const EXAMPLE: &str = "example";
/// `example`, given as JSON text.
pub const EXAMPLE_JSON: &str = "example_json";
/// `x-kubernetes-preserve-unknown-fields`
pub const PRESERVE_UNKNOWN_FIELDS: &str = "preserve_unknown_fields";
/// `x-kubernetes-int-or-string`
pub const INT_OR_STRING: &str = "int_or_string";
/// The reasons a CEL rule may give (`x_validation(reason = ...)`).
pub const RULE_REASONS: &[&str] = &[
    "FieldValueInvalid",
    "FieldValueRequired",
    "FieldValueForbidden",
    "FieldValueDuplicate",
];

/// The attribute of CRD root types.
pub const CRD: &str = "crd";
/// Plural resource name.
pub const PLURAL: &str = "plural";
/// Singular resource name.
pub const SINGULAR: &str = "singular";
/// Short names.
pub const SHORT_NAMES: &str = "short_names";
/// Categories.
pub const CATEGORIES: &str = "categories";
/// `Cluster` or `Namespaced`.
pub const SCOPE: &str = "scope";
/// The status subresource.
pub const STATUS: &str = "status";
/// The storage version.
pub const STORAGE: &str = "storage";
/// A printer column.
pub const PRINTCOLUMN: &str = "printcolumn";

/// Every attribute of `#[crd(...)]`, for suggestions.
pub const CRD_ATTRS: &[&str] = &[
    GROUP,
    VERSION,
    PLURAL,
    SINGULAR,
    SHORT_NAMES,
    CATEGORIES,
    SCOPE,
    STATUS,
    STORAGE,
    DEPRECATED,
    PRINTCOLUMN,
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
/// Go holds the field by value although it is an `Option` here: a `null` leaves it as it is.
pub const BY_VALUE: &str = "by_value";

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
    BY_VALUE,
    MIN_LENGTH,
    MAX_LENGTH,
    MINIMUM,
    MAXIMUM,
    PATTERN,
    ENUM_VALUES,
    MIN_ITEMS,
    MAX_ITEMS,
    MIN_PROPERTIES,
    MAX_PROPERTIES,
    X_VALIDATION,
    EXCLUSIVE_MINIMUM,
    EXCLUSIVE_MAXIMUM,
    UNIQUE_ITEMS,
    FORMAT,
    EXAMPLE,
    EXAMPLE_JSON,
    PRESERVE_UNKNOWN_FIELDS,
    INT_OR_STRING,
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
/// The request type is not the hook's own: no `RequestOf` impl for it.
pub const SHARED_REQUEST: &str = "shared_request";

/// Every attribute of `#[hook(...)]`, for suggestions.
pub const HOOK_ATTRS: &[&str] = &[
    NAME,
    GROUP,
    VERSION,
    REQUEST,
    RESPONSE,
    TAGS,
    SUMMARY,
    SINGLETON,
    DEPRECATED,
    SHARED_REQUEST,
    CRATE,
];

/// Values accepted by `list_type`.
pub const LIST_TYPES: &[&str] = &["atomic", "set", "map"];
/// Values accepted by `map_type`.
pub const MAP_TYPES: &[&str] = &["atomic", "granular"];

// Attributes of `#[variable(...)]` (besides `name`, `required` and `crate`).
/// The attribute of `#[derive(Variable)]`.
pub const VARIABLE: &str = "variable";
/// A label of the variable's `x-metadata`.
pub const LABEL: &str = "label";
/// An annotation of the variable's `x-metadata`.
pub const ANNOTATION: &str = "annotation";

/// Every attribute of `#[variable(...)]`, for suggestions.
pub const VARIABLE_ATTRS: &[&str] = &[NAME, REQUIRED, LABEL, ANNOTATION, CRATE];
