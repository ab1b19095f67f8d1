//! The wire codec of hook messages, shared by the client and the server: decoding as Go's
//! `encoding/json` decodes, within a memory budget, and encoding with type metadata.
//!
//! Cluster API and most extensions are Go programs, so what a body means is what
//! `json.Unmarshal` makes of it. [`decode_request`] (the server's side) and
//! [`decode_response`] (the client's side) read a body straight into the typed message, with
//! no tree of the whole body in between, following these rules:
//!
//! Every rule is also checked against Go itself: `interop/oracle/tests/go_wire.rs` decodes about
//! 100,000 bodies of every hook and side (seeds filled by Go, then mutated: key case and
//! folding, repeated keys, `null`, wrong types, numbers, times, base64, escapes, unknown keys,
//! document noise, nesting) with Cluster API's Go types and with this module, and compares
//! what both read, and what Go reads back from what this module writes. Its last column names
//! the mutation class that exercises a rule; the differences it still finds are pinned in
//! `interop/oracle/tests/go_wire.known`.
//!
//! | Go's rule | here | test (`tests/it/wire_go_*.rs`, else `src/wire/tests.rs`; oracle class) |
//! |---|---|---|
//! | a key sets the field with exactly that name, else the first field whose name is equal under Go's case folding (ASCII upper case; any other character folds to the smallest of its `unicode.SimpleFold` orbit, so `K` U+212A is `k` and `ſ` U+017F is `s`, while `ı` U+0131 and `İ` U+0130 match no ASCII letter) | the same, with Go's fold table (`cargo xtask go-tables`); map keys (labels, settings) are never folded | `field_names_fold_like_go`, `unicode_folding_like_go`; KeyFold |
//! | unknown keys are ignored | the same (their values are still checked for syntax) | `unknown_fields_are_ignored` |
//! | `null` has no effect on strings, numbers, bools and structs, and sets slices, maps and pointers to nil | the same: the field keeps its zero value; an `Option` stays `None` | `null_leaves_zero_values` |
//! | a repeated key is applied again: scalars take the last value, repeated objects merge into the struct or map, a repeated array is decoded into the slice already held (element `i` into element `i`, so objects in it merge) and ends with the last length, a later `null` resets slices, maps and pointers but not values | the same, also when the repeats differ only in case. Every occurrence of a scalar is type-checked, as Go decodes each (`"n": 2.5, "n": 2` is refused for an integer). The fields Go holds by value ignore a later `null` even where this crate or k8s-openapi reads them as `Option`s (`port`, `patchType`, `ObjectMeta.name`, `Condition.reason`, ...): the decoder knows them from the shapes the types record (see below; a unit test, `shapes_against_go.rs`, compares them with a table written from Cluster API's Go types by `cargo xtask go-tables`). A shorter repeat of an array only shortens the slice: the elements it cut off are decoded into again by a longer one after it, as Go's slice keeps them in its backing array; an empty array or `null` drops them | `repeated_keys_last_wins`; RepeatKey |
//! | a `metav1.Time` (a field declared as k8s-openapi's `Time`) is read with `time.Parse(time.RFC3339, ..)` (one-digit hours, `,` fractions, any number of fraction digits, zone offsets up to 24:60 accepted; lower-case `t`/`z`, leap seconds, missing seconds refused); `null` is the zero time, also when it repeats the key | the same ([`go::time::parse_rfc3339`](crate::go::time::parse_rfc3339), compared with Go over 2,584 texts in `interop/oracle/tests/go_rules.rs`); times after 9999-12-30T22:00:00Z, which k8s-openapi's `Time` cannot hold, are refused | Time |
//! | a `[]byte` (a field declared as k8s-openapi's `ByteString`) is read from a string with `base64.StdEncoding` (line breaks skipped, non-zero trailing bits accepted, padding required) or from an array of numbers 0 to 255; `null` is nil | the same ([`go::base64::decode_std`](crate::go::base64::decode_std), compared with Go over 1,742 texts); nil and empty are one value here (`ByteString` has no nil) | Base64 |
//! | a nil slice or map (`null`) differs from an empty one (`[]`, `{}`), and an `omitzero` struct holding an empty slice is not zero | a `Vec` or map has no nil: both are empty, and written as empty or left out | NilEmpty (deliberate) |
//! | a `null` element of a list of pointers (`ValidateTopologyRequest.items` is `[]*ValidateTopologyRequestItem`) stays a nil pointer | read as an empty item: a `Vec` of items has no nil, Cluster API never sends a null item, and a Go handler would dereference it | NilElement (deliberate) |
//! | a raw value (`RawExtension`, `JSON`) keeps its bytes: key order, escapes, repeated keys, numbers of any size; a `null` leaves the bytes it had (nil at first), so a repeated key keeps its last value that is not `null`; writing it back writes those bytes, compacted | the same: [`crate::raw::RawExtension`] and [`crate::raw::Json`] hold the value's text as received (its syntax checked, its length charged to the budget), with a byte of invalid UTF-8 in a string as U+FFFD, and write it back without white space between tokens. Not so for `managedFields[].fieldsV1`, which k8s-openapi's `ObjectMeta` holds as a `serde_json::Value`: a number there beyond `f64`/`i64`/`u64` is rounded (or refused past `f64`'s range). That one is deliberate: `ObjectMeta` stays k8s-openapi's, so that it is kube's, and a real field set (`FieldsV1`) has only objects for leaves, never numbers | `tests/it/raw_values.rs`; UnknownKey (extreme numbers in raw objects), Number, RepeatKey; fieldsV1 explained apart |
//! | numbers are parsed for the Go type: an integer field refuses a fraction or an exponent (`1.0`, `1e2`) and values out of range, an unsigned one refuses a sign; a float field refuses what overflows it | the same | `numbers_are_read_as_go_reads_them` |
//! | a string field refuses a number, a number field a string, and so on | the same | `wrong_json_types_are_refused` |
//! | the keys of a map with integer keys (`map[int64]T`, `map[uint32]T`, ...) are read with `strconv.ParseInt` (or `ParseUint`) in base 10, then checked against the key type's range: `+1`, `-1` and `01` are keys of a signed map, an unsigned one takes digits only; a key that does not parse or overflows is refused | the same for maps keyed by `i8` to `i64` and `u8` to `u64` (`serde_json` differs: it refuses `+1` and `01`, and takes `-0` as an unsigned key) | `integer_map_keys_are_read_as_go_reads_them` |
//! | invalid UTF-8 in a string becomes U+FFFD, per byte; so does an unpaired surrogate escape | the same | `invalid_utf8_becomes_replacement` |
//! | a string type with named constants (`PatchType`, `FailurePolicy`) takes any string | both have an `Other` variant that carries an unknown value to the caller (the client then refuses an unknown failure policy in Cluster API's words) | `open_string_enums_reach_the_caller`; StringForm, RepeatKey |
//! | a field held as a pointer to a scalar tells an explicit zero from an absent field | such fields are `Option`s | `interop/oracle/tests/go_pointer_zeros.rs`: every such field of every message at its zero value (447 bodies) |
//! | such a string left out or `null` stays `""`, its zero value | a missing or `null` `patchType` is `PatchType::Other("")` (the type's default, [`PatchType::is_empty`](crate::hooks::v1alpha1::PatchType::is_empty)), never `JSONPatch`; an in-place `Patch` has `None` | `missing_or_null_patch_type_is_empty_like_go` |
//! | a struct field left out or `null` keeps its zero value, whatever its type | the same for this crate's types (`#[serde(default)]`); for the k8s-openapi types the messages reach, the one field k8s-openapi's Rust type requires, `metav1.Condition.lastTransitionTime`, is given Go's zero time `0001-01-01T00:00:00Z` (see below) | `k8s_types_take_go_zero_values` |
//! | a request body (`json.Unmarshal` in Go's server helper) may hold only white space after the value; a response (`json.NewDecoder(body).Decode` in Go's client) is read up to the end of its first value and the rest is ignored | the same: [`decode_request`] refuses trailing data, [`decode_response`] ignores it | `trailing_data_follows_go_per_side` |
//! | the body must be one well-formed JSON value | the same (messages in Go's words) | `malformed_json_is_refused` |
//! | nesting deeper than 10,000 is refused | nesting deeper than [`DEFAULT_MAX_DEPTH`] (128, as `serde_json`) is refused: deeper messages exist in no hook, and the limit bounds the stack the decoder takes (which it grows on the heap when the thread's runs short, so any thread can decode) | `deep_nesting_is_refused` |
//!
//! **Which values get Go's treatment.** Go's rules for times, byte strings, fields held by
//! value and required times are not recognized by any name: each type records its shape with
//! `#[derive(Schema)]` (its fields with their declared types, and `#[schema(by_value)]` on an
//! `Option` field Go holds by value), this crate records those of the k8s-openapi types hook
//! messages embed (`codegen/external/`, where `Time` and `ByteString` are marked as Go's), and
//! the decoder walks the shapes from the message type's own (`Message::wire_info`) in step
//! with the calls the types' `Deserialize` impls make. A field is held by value when it says
//! so or when its declared type is a scalar, a struct or a string enum, not an `Option`, a
//! list, a map or a type that reads its own JSON. Where there is no shape (a type without the
//! derive, `RawExtension::decode` into such a type) or a `Deserialize` asks for something
//! other than its shape, the value is read by serde's ordinary rules: an author's own `Time` or
//! `Condition` is just a type of that name (`tests/it/wire_author_types.rs`).
//!
//! **Go's zero values in k8s-openapi types.** k8s-openapi's `Condition` refuses an object
//! without `lastTransitionTime`, where Go leaves `time.Time{}`. The decoder supplies Go's zero
//! time for a field declared as `Time` (not an `Option`) in a struct without
//! `#[serde(default)]` when it is missing or `null`, so `{}` decodes as in Go. The other
//! k8s-openapi types hook messages reach (`ObjectMeta`, `OwnerReference`, `ManagedFieldsEntry`,
//! `LabelSelector`, `LabelSelectorRequirement`, `NodeSystemInfo`, `NodeSwapStatus`, `Time`,
//! `IntOrString`, `ByteString`) already default every field they require to the empty string.
//! Encoding differs from Go on the way back: a zero time is written as
//! `"0001-01-01T00:00:00Z"`, where Go's `metav1.Time` writes `null`; both decode to the zero
//! time on either side, and Go's `IsZero` holds for it.
//!
//! A response's `status` is read once, here, as the raw string the extension wrote
//! ([`Decoded::status`]), so that a missing or unknown status can be told from a decoding error.
//!
//! **Bounded memory.** The body cap (20 MiB) limits bytes, not what they decode into: a
//! 20 MiB array of `{}` decodes into millions of structs. The decoder charges what it builds
//! to a budget ([`Limits::memory_budget`], 256 MiB by default) as it goes: each array element
//! twice the size of its Rust value (a `Vec` grows by doubling), each map entry twice the size
//! of its key and value and a map's first entry a whole B-tree leaf, each string its length,
//! each boxed schema (`JSONSchemaProps`'s `items`, `not`, `additionalProperties`, which nest
//! up to the depth limit) its heap block. A message past the budget is refused with
//! [`DecodeErrorKind::OverBudget`] as soon as the charge crosses it, so the memory actually
//! held stays below the budget. A realistic 20 MiB GeneratePatches request (5,000 items) is
//! charged far less (see `docs/benchmarks/history.md`).
//!
//! **Time.** [`Limits::deadline`] makes decoding stop with [`DecodeErrorKind::Timeout`] once
//! the deadline has passed (looked at every few thousand values produced, levels entered,
//! values skipped, keys and escapes read, in both modes); the client passes the call's
//! deadline and the server the request's, so decoding counts against the call's timeout.
//!
//! **Repeated keys.** A message with a repeated struct key is decoded a second time in a
//! careful mode (see `de.rs`), which reads no byte more than four times in all, whatever the
//! nesting: a duplicate key at the top of a message whose schemas nest to the depth limit
//! costs a few times a plain decoding, not the depth times (see `docs/benchmarks/history.md`).

mod access;
mod budget;
mod careful;
mod de;
mod deserializer;
mod error;
mod fast;
mod fold;
mod go_types;
mod limits;
mod next;
mod scan;

use serde::de::DeserializeOwned;

use crate::hook::{Hook, HookResponse, Message, ResponseStatus};
use crate::schema::TypeInfo;

#[cfg(test)]
use fold::eq_fold;

pub use error::{DecodeError, DecodeErrorKind};
pub(crate) use go_types::RAW_VALUE;
pub use limits::{BudgetHold, DEFAULT_MAX_DEPTH, DEFAULT_MEMORY_BUDGET, Limits, SharedBudget};
use next::Next;
pub(crate) use scan::push_lossy;

/// A decoded message with what decoding it found out.
#[derive(Debug)]
#[non_exhaustive]
pub struct Decoded<T> {
    /// The message.
    pub message: T,
    /// For a response, its `status` exactly as written (empty when absent or null); empty for
    /// a request.
    pub status: String,
    /// Bytes charged to the memory budget.
    pub charged: usize,
    /// What the decoding took of [`Limits::shared`]; keep it as long as the message lives.
    pub hold: BudgetHold,
}

/// Decodes `bytes` into any type with Go's rules (see the module docs), reading Go's types
/// where `shape` (the model and shape of `T`, when it has one) says they are. `status_field`
/// names a field of the outermost object that is read as a raw string instead.
fn decode_with<T: DeserializeOwned>(
    bytes: &[u8],
    limits: &Limits,
    status_field: Option<&'static str>,
    shape: Option<&'static TypeInfo>,
) -> Result<Decoded<T>, DecodeError> {
    // A response has a status field; it is read like Go's client reads it, with a stream
    // decoder that stops after the first value.
    let trailing_allowed = status_field.is_some();
    // An error carries whether it is the shared budget's refusal: an over-budget charge that is
    // still within the message's own budget. `Ok(None)`: the fast pass asked for the careful one.
    let run = |careful: bool| -> Result<Option<Decoded<T>>, (error::Error, bool)> {
        let root = Next::root(shape);
        let mut de = de::De::new(bytes, limits.memory_budget, limits.max_depth, careful, root)
            .with_deadline(limits.deadline)
            .with_shared(limits.shared.clone());
        if let Some(field) = status_field {
            de = de.with_status_field(field);
        }
        let shared_refusal = |e: error::Error, de: &de::De<'_>| {
            let shared = e.kind() == DecodeErrorKind::OverBudget
                && limits.shared.is_some()
                && de.charged() <= limits.memory_budget;
            (e, shared)
        };
        de.check_deadline().map_err(|e| (e, false))?;
        if careful {
            de.index_containers().map_err(|e| shared_refusal(e, &de))?;
        }
        let result = T::deserialize(&mut de);
        // Read before the result: a `Deserialize` impl may have turned the fast pass's
        // abandonment into any error, or into a value.
        if de.needs_careful() {
            return Ok(None);
        }
        let message = result.map_err(|e| shared_refusal(e, &de))?;
        if !trailing_allowed {
            de.end().map_err(|e| (e, false))?;
        }
        Ok(Some(Decoded {
            message,
            status: de.take_status(),
            charged: de.charged(),
            hold: de.take_hold(),
        }))
    };
    let decoded = match run(false) {
        Ok(None) => run(true).map(|careful| careful.expect("the careful mode never restarts")),
        Ok(Some(decoded)) => Ok(decoded),
        Err(e) => Err(e),
    };
    decoded.map_err(|(e, shared)| DecodeError::from_de(e, shared))
}

/// Decodes any value with Go's rules, without a shape; with a `status_field`, as a response
/// (see [`decode_with`]).
#[cfg(test)]
pub(crate) fn decode_value<T: DeserializeOwned>(
    bytes: &[u8],
    limits: &Limits,
    status_field: Option<&'static str>,
) -> Result<Decoded<T>, DecodeError> {
    decode_with(bytes, limits, status_field, None)
}

/// Decodes the text of an embedded raw value (`crate::raw`) into any type with Go's rules, as
/// `json.Unmarshal` would (only white space may follow the value), reading Go's types where
/// `shape` says they are.
pub(crate) fn decode_embedded<T: DeserializeOwned>(
    bytes: &[u8],
    limits: &Limits,
    shape: Option<&'static TypeInfo>,
) -> Result<Decoded<T>, DecodeError> {
    decode_with(bytes, limits, None, shape)
}

/// Decodes a request body of hook `H` with the default [`Limits`], as Go's server helper does
/// (`json.Unmarshal`: only white space may follow the value).
///
/// This reads the types of `H` as they are: the v1beta1 Cluster a Cluster API v1.12 manager
/// embeds in a lifecycle request is read as v1beta2, and what only v1beta1 has is lost. The
/// server decodes with `hooks::v1alpha1::decode_request` instead, which converts it and says
/// what did not convert.
pub fn decode_request<H: Hook>(bytes: &[u8]) -> Result<H::Request, DecodeError> {
    decode_request_with::<H>(bytes, &Limits::default()).map(|d| d.message)
}

/// Decodes a request body of hook `H` within `limits`.
pub fn decode_request_with<H: Hook>(
    bytes: &[u8],
    limits: &Limits,
) -> Result<Decoded<H::Request>, DecodeError> {
    decode_with(bytes, limits, None, H::Request::wire_info())
}

/// Decodes a response body of hook `H` with the default [`Limits`], as Go's client does: what
/// follows the first JSON value is ignored. The response's status is set from the raw one when
/// it is `Success` or `Failure`; [`Decoded::status`] has it as written.
pub fn decode_response<H: Hook>(bytes: &[u8]) -> Result<Decoded<H::Response>, DecodeError> {
    decode_response_with::<H>(bytes, &Limits::default())
}

/// Decodes a response body of hook `H` within `limits` (see [`decode_response`]).
pub fn decode_response_with<H: Hook>(
    bytes: &[u8],
    limits: &Limits,
) -> Result<Decoded<H::Response>, DecodeError> {
    let mut decoded =
        decode_with::<H::Response>(bytes, limits, Some("status"), H::Response::wire_info())?;
    if let Some(status) = parse_status(&decoded.status) {
        decoded.message.set_status(status);
    }
    Ok(decoded)
}

/// The status a response's raw `status` stands for: `Success` or `Failure`, exactly as
/// [`ResponseStatus::as_str`] writes them (Go compares the status case-sensitively); `None`
/// for anything else. Every reader of a raw status goes through here.
pub fn parse_status(raw: &str) -> Option<ResponseStatus> {
    [ResponseStatus::Success, ResponseStatus::Failure]
        .into_iter()
        .find(|status| status.as_str() == raw)
}

/// Why a message could not be encoded; the serializer's error, when there is one, is the
/// [`source`](std::error::Error::source).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct EncodeError(EncodeErrorInner);

#[derive(Debug, thiserror::Error)]
enum EncodeErrorInner {
    #[error("cannot encode {kind}")]
    Json {
        kind: &'static str,
        #[source]
        source: serde_json::Error,
    },
    #[error("cannot encode a value of another type as a {kind}")]
    OtherType { kind: &'static str },
}

impl EncodeError {
    /// A message handed over type-erased was not of the type its hook sends.
    pub(crate) fn other_type(kind: &'static str) -> Self {
        EncodeError(EncodeErrorInner::OtherType { kind })
    }
}

/// A request of hook `H` as JSON, with its `apiVersion` and `kind` set. Every request this
/// crate sends is encoded here (the client, typed or through the catalog for another
/// version of the hook, and Discovery).
pub fn encode_request<H: Hook>(request: &H::Request) -> Result<Vec<u8>, EncodeError> {
    let mut typed = request.clone();
    typed.set_type_meta(H::API_VERSION, H::REQUEST_KIND);
    encode(&typed, H::REQUEST_KIND)
}

/// A response of hook `H` as JSON, with its `apiVersion` and `kind` set.
pub fn encode_response<H: Hook>(response: &H::Response) -> Result<Vec<u8>, EncodeError> {
    let mut typed = response.clone();
    typed.set_type_meta(H::API_VERSION, H::RESPONSE_KIND);
    encode(&typed, H::RESPONSE_KIND)
}

fn encode(message: &impl serde::Serialize, kind: &'static str) -> Result<Vec<u8>, EncodeError> {
    serde_json::to_vec(message)
        .map_err(|source| EncodeError(EncodeErrorInner::Json { kind, source }))
}

/// The `status` of a response as the extension wrote it (empty when absent or null).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawStatus(pub(crate) String);

/// Decodes a response body into `T` with the default limits and returns it with the raw
/// `status`; `T`'s own status field is left at its default.
#[cfg(test)]
pub(crate) fn decode_response_raw<T: DeserializeOwned>(
    bytes: &[u8],
) -> Result<(T, RawStatus), DecodeError> {
    decode_with::<T>(bytes, &Limits::default(), Some("status"), None)
        .map(|decoded| (decoded.message, RawStatus(decoded.status)))
}

/// Decodes a response body into the message `T` within `limits` and returns it with the raw
/// `status` (`T`'s own status field is left at its default) and what it took of
/// [`Limits::shared`].
pub(crate) fn decode_response_raw_with<T: Message>(
    bytes: &[u8],
    limits: &Limits,
) -> Result<(T, RawStatus, BudgetHold), DecodeError> {
    let decoded = decode_with::<T>(bytes, limits, Some("status"), T::wire_info())?;
    Ok((decoded.message, RawStatus(decoded.status), decoded.hold))
}

#[cfg(test)]
mod go_values;
#[cfg(test)]
mod shapes_against_go;
#[cfg(test)]
mod tests;
