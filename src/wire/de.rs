//! The decoder: a `serde::Deserializer` over the body's bytes that reads JSON the way Go's
//! `encoding/json` reads it into a typed value (see the table in the module above).
//!
//! It tokenizes the input itself and hands values straight to the types' `Deserialize`
//! implementations, so no tree of the message is ever built. Two things need more than one
//! token of look-ahead: a struct key that repeats (Go applies every occurrence in turn, so the
//! last one decides) and the byte offsets of values. The decoder therefore runs in one of two
//! modes. The fast mode streams and refuses nothing Go accepts, except that a struct field
//! seen twice abandons the pass; the whole message is then decoded again in the careful mode,
//! where each struct object is first scanned for its keys (values are skipped, not decoded),
//! and every field is decoded once from its occurrences with Go's rules for that type. So that
//! a value nested in many structs is not skipped once per enclosing struct (which made the
//! careful mode O(depth × bytes)), the careful mode starts with one pass over the message that
//! checks its syntax and records where every object and array ends ([`De::index_containers`]);
//! a skip then jumps over a nested object or array at once. Every byte is thereby read at most
//! four times: by the fast pass, the index pass, the key scan of its enclosing struct (keys
//! and scalar values) and its decoding (`scanned_bytes_stay_linear_in_the_careful_mode`
//! counts them). The
//! fast pass asks for the careful one by setting a flag in the decoder's state, which the
//! caller reads whatever the pass returned: the error that unwinds the pass goes through the
//! types' `Deserialize` impls, and one that maps or drops errors must not be able to keep the
//! message from being decoded again. Once the flag is set, the pass fails at the next key or
//! level it reaches.
//!
//! Decoding stops with [`Kind::Timeout`] once the deadline has passed; every loop
//! that can run long (values produced, levels entered, values skipped, keys scanned, escapes
//! read) counts a tick and looks at the clock every [`DEADLINE_TICKS`] ticks.
//!
//! Memory is charged as values are produced: every sequence element costs twice the size of
//! its Rust value (a `Vec` grows by doubling), every map entry twice the size of its key and
//! value plus, for a map's first entry, a whole B-tree leaf, every string its length, every
//! box that asks to be charged (the newtype [`CHARGED_BOX`], `__private::charged_box`: the
//! `Option<Box<JSONSchemaProps>>` fields `items`, `not`, `additionalProperties`) the heap
//! block of its value. A plain `Box<T>` is not seen: serde boxes the value after the decoder
//! has produced it, so a recursive type must box through `charged_box`. Past the budget,
//! decoding stops with [`DecodeErrorKind::OverBudget`].
//!
//! The decoder recurses once per nested object or array, and a level can take a lot of
//! stack (about 15 KiB for a `JSONSchemaProps` in an unoptimized build), more than a 2 MiB
//! tokio thread has for the 128 levels of the default depth limit. Each descent therefore
//! goes through [`grow`], which continues on a new stack segment taken from the heap when
//! the thread's stack runs short, so decoding needs no particular stack size on the calling
//! thread. The depth limit is still what bounds it: at most `max_depth` levels are live at
//! once, so the segments in use at any time hold at most `max_depth` levels (plus one red
//! zone per segment), about 2 MiB unoptimized at the default limit, and all are freed when
//! the levels return. Dropping a decoded value is recursive too but takes far less per
//! level (2,000 levels of schemas drop on a 256 KiB stack unoptimized).

#[path = "value_table.rs"]
mod value_table;
use value_table::VALUE_FIELDS;

use std::fmt;
use std::time::Instant;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{
    self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};

use k8s_openapi::jiff::Timestamp;

use super::DecodeErrorKind as Kind;
use super::fold::{eq_fold, resolve};
use crate::go::base64::{canonical_len, decode_std, encode_std};
use crate::go::time::parse_rfc3339;

/// Entries of a B-tree leaf: what a map's first entry allocates.
const BTREE_LEAF: usize = 11;

/// How many ticks (values, levels, skips, keys, escapes) pass between two looks at the
/// deadline: a look costs a clock read (some tens of nanoseconds), the ticks between two looks
/// well under a millisecond.
const DEADLINE_TICKS: u32 = 4096;

/// What one entry of the careful mode's index of objects and arrays is charged: its opening
/// and closing offsets, twice (a `Vec` grows by doubling).
const INDEX_ENTRY: usize = 2 * std::mem::size_of::<(u32, u32)>();

#[cfg(test)]
thread_local! {
    /// Bytes of tokens read on this thread (strings, numbers, literals, brackets), for the
    /// test that proves the careful mode linear.
    pub(crate) static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts `n` bytes of tokens read (tests only).
#[inline(always)]
fn scanned(n: usize) {
    #[cfg(test)]
    SCANNED.with(|c| c.set(c.get() + n));
    #[cfg(not(test))]
    let _ = n;
}

/// The newtype name of a box that asks to be charged (`__private::CHARGED_BOX`, which this
/// module may not name; a unit test checks that the two are equal). Asked for it, the decoder
/// hands the visitor [`ChargedBox`], which charges the value before decoding it.
pub(crate) const CHARGED_BOX: &str = "$capi_runtime::__private::Charged";

/// The newtype name by which the raw JSON types (`crate::raw`) ask for the text of the value
/// that comes next. The decoder checks the value's syntax, charges its length to the budget and
/// hands the visitor its bytes as they are in the input ([`De::raw_value`]); `null` is
/// `visit_unit`. Any other deserializer treats it as any newtype.
pub(crate) const RAW_VALUE: &str = "$capi_runtime::raw::Text";

/// A field that a k8s-openapi type requires in its Rust `Deserialize` but that Go leaves at
/// its zero value when it is missing or `null`: the field's index and the JSON of the value
/// that stands for Go's zero value.
type Zero = (usize, &'static [u8]);

/// The newtype name of k8s-openapi's `metav1.Time`, read with Go's RFC 3339 rules
/// ([`De::go_time`]).
const GO_TIME: &str = "Time";

/// Go's zero `time.Time`, as k8s-openapi's `Time` reads it.
const GO_ZERO_TIME: &str = "0001-01-01T00:00:00Z";

/// What k8s-openapi's `ByteString` visitor says it expects: how the decoder knows a `[]byte`
/// (the type asks for an option, like any other).
const BYTE_STRING_EXPECTS: &str = "a base64-encoded string";

/// True when `visitor` is the one of k8s-openapi's `ByteString`.
fn is_byte_string(visitor: &dyn de::Expected) -> bool {
    /// Compares what is written with a text as it comes, without allocating.
    struct Prefix<'a>(Option<&'a str>);
    impl fmt::Write for Prefix<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 = self.0.and_then(|rest| rest.strip_prefix(s));
            match self.0 {
                Some(_) => Ok(()),
                // Stops the formatting at the first difference.
                None => Err(fmt::Error),
            }
        }
    }
    let mut prefix = Prefix(Some(BYTE_STRING_EXPECTS));
    fmt::write(&mut prefix, format_args!("{visitor}")).is_ok() && prefix.0 == Some("")
}

/// The fields of k8s-openapi's `metav1.Condition`, as its `Deserialize` names them.
const CONDITION_FIELDS: &[&str] = &[
    "lastTransitionTime",
    "message",
    "observedGeneration",
    "reason",
    "status",
    "type",
];

/// The fields of struct `name` (with `fields`) that must be supplied with Go's zero value
/// when the message leaves them out. Of the k8s-openapi types hook messages reach (ObjectMeta,
/// OwnerReference, ManagedFieldsEntry, FieldsV1, Time, Condition, LabelSelector,
/// LabelSelectorRequirement, NodeSystemInfo, NodeSwapStatus, RawExtension, IntOrString, JSON,
/// ByteString), only `Condition.lastTransitionTime` is required by k8s-openapi (a `Time`,
/// not an `Option`); its strings default to empty already.
fn go_zeros(name: &str, fields: &'static [&'static str]) -> &'static [Zero] {
    if name == "Condition" && fields == CONDITION_FIELDS {
        // Go's zero `time.Time`, written as RFC 3339.
        const ZEROS: &[Zero] = &[(0, b"\"0001-01-01T00:00:00Z\"")];
        ZEROS
    } else {
        &[]
    }
}

/// The fields of struct `name` (with `fields`) that Go holds by value (a string, a number, a
/// struct), so that a `null`, even one repeating the key, leaves them as they are, where it
/// resets a pointer, a slice or a map. This crate's types and k8s-openapi's read many such
/// fields as `Option`s, so the decoder looks them up in a table written from Cluster API's Go
/// types (`value_table.rs`, `cargo xtask go-tables`): the Go type of that name whose JSON
/// fields include all of `fields` (two Go types may share a name: `metav1.Condition` and
/// Cluster API's v1beta1 `Condition`).
fn go_values(name: &str, fields: &'static [&'static str]) -> &'static [&'static str] {
    let from = VALUE_FIELDS.partition_point(|(n, _, _)| *n < name);
    VALUE_FIELDS[from..]
        .iter()
        .take_while(|(n, _, _)| *n == name)
        .find(|(_, all, _)| fields.iter().all(|f| all.contains(f)))
        .map_or(&[], |(_, _, values)| *values)
}

/// A decoding failure on its way out: kind, message, where it happened.
pub(crate) struct Error(Box<Inner>);

struct Inner {
    kind: Kind,
    message: String,
    offset: Option<usize>,
    /// Innermost segment first.
    path: Vec<Seg>,
}

/// One step of the JSON path of a failure.
enum Seg {
    Field(&'static str),
    Index(usize),
    /// A map key, by the offset of its opening quote (read again when the error is shown).
    Key(usize),
}

impl Error {
    fn new(kind: Kind, message: impl Into<String>, offset: Option<usize>) -> Self {
        Error(Box::new(Inner {
            kind,
            message: message.into(),
            offset,
            path: Vec::new(),
        }))
    }

    /// What the fast pass returns once it has asked for the careful mode. The caller looks at
    /// [`De::needs_careful`] first, so this error is never shown, whatever a `Deserialize`
    /// impl on the way out did with it.
    fn abandoned() -> Self {
        Error::new(
            Kind::Syntax,
            "a struct key repeats: the message is decoded again in the careful mode",
            None,
        )
    }

    fn within(mut self, seg: Seg, start: usize) -> Self {
        self.0.path.push(seg);
        self.0.offset.get_or_insert(start);
        self
    }

    pub(crate) fn kind(&self) -> Kind {
        self.0.kind
    }

    pub(crate) fn message(&self) -> &str {
        &self.0.message
    }

    pub(crate) fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// The JSON path, e.g. `.items[3].object`; map keys are read back from `input`.
    pub(crate) fn path(&self, input: &[u8]) -> String {
        let mut out = String::new();
        for seg in self.0.path.iter().rev() {
            match seg {
                Seg::Field(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                Seg::Index(i) => out.push_str(&format!("[{i}]")),
                Seg::Key(at) => {
                    let mut de = De::new(input, usize::MAX, usize::MAX, false);
                    de.pos = *at;
                    let key = de.parse_str().map(|s| s.as_str().to_owned());
                    let key = key.unwrap_or_default();
                    out.push('[');
                    out.push_str(&serde_json::to_string(&key).unwrap_or_default());
                    out.push(']');
                }
            }
        }
        out
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(Kind::Type, msg.to_string(), None)
    }
}

type Result<T> = std::result::Result<T, Error>;

/// A string as read: borrowed from the input when it had no escapes, else in the scratch.
enum Str<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

impl Str<'_, '_> {
    fn as_str(&self) -> &str {
        match self {
            Str::Borrowed(s) => s,
            Str::Copied(s) => s,
        }
    }
}

/// Bytes that end the fast scan of a string: the quote, the backslash and control characters.
static STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The index of the first byte at or after `i` that ends the fast scan of a string (a quote,
/// a backslash or a control character), or `input.len()`. Eight bytes at a time.
#[inline]
fn find_stop(input: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = input.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        // A byte is zero (after the xor) or below 0x20: its high bit survives here.
        let hit = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (x.wrapping_sub(ONES * 0x20) & !x);
        let hit = hit & HIGH;
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < input.len() && !STOP[input[i] as usize] {
        i += 1;
    }
    i
}

/// Stack that must be left before the decoder descends one level without switching stacks.
///
/// One level of the costliest shape, a `JSONSchemaProps` under `not` in the careful mode,
/// takes about 15 KiB of stack in an unoptimized build (11 KiB in the fast mode; optimized,
/// 4–5 KiB). Measured by recording the lowest `stacker::remaining_stack()` seen at the
/// descents while decoding schemas nested 20 and 123 deep on an 8 MiB thread, without
/// growing: the two differed by 1.50 MiB careful, 1.11 MiB fast, over the 103 levels
/// between. The red zone holds four such levels, so a
/// level, and what it calls at the bottom (string scans, error messages), always fits.
const RED_ZONE: usize = 64 << 10;

/// The stack segment allocated (on the heap, with a guard page) when less than
/// [`RED_ZONE`] is left: about 60 levels of the costliest shape unoptimized, 200 optimized.
const STACK_SEGMENT: usize = 1 << 20;

/// Runs `f`, which decodes or skips one nested object or array, on the current stack if at
/// least [`RED_ZONE`] of it is left, else on a new [`STACK_SEGMENT`] that is freed when `f`
/// returns. The check reads the stack pointer and a thread-local limit, once per level.
#[inline(always)]
fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, f)
}

/// The decoder's state over one message.
pub(crate) struct De<'de> {
    input: &'de [u8],
    pos: usize,
    depth: usize,
    max_depth: usize,
    charged: usize,
    budget: usize,
    careful: bool,
    /// Set by the fast pass when a struct key repeats: the pass is abandoned and the message
    /// decoded again in the careful mode. A flag, not an error, so that a `Deserialize` impl
    /// that maps or drops errors cannot hide it.
    needs_careful: bool,
    scratch: Vec<u8>,
    /// The outermost struct's field that is the response status, read as a plain string.
    status_field: Option<&'static str>,
    status: String,
    deadline: Option<Instant>,
    ticks: u32,
    /// The budget shared with other decodings, and how much of it this one holds.
    shared: Option<super::SharedBudget>,
    held: usize,
    /// Careful mode: the opening and closing offsets (the closing one past the bracket) of
    /// every object and array of the message, in order of their openings.
    ends: Vec<(u32, u32)>,
    /// `ends` is complete: a skip of an object or array jumps to its end.
    indexed: bool,
    /// The index pass is under way: skips record the objects and arrays they pass.
    recording: bool,
}

impl Drop for De<'_> {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            shared.give_back(self.held);
        }
    }
}

impl<'de> De<'de> {
    pub(crate) fn new(input: &'de [u8], budget: usize, max_depth: usize, careful: bool) -> Self {
        De {
            input,
            pos: 0,
            depth: 0,
            max_depth,
            charged: 0,
            budget,
            careful,
            needs_careful: false,
            scratch: Vec::new(),
            status_field: None,
            status: String::new(),
            deadline: None,
            ticks: 0,
            shared: None,
            held: 0,
            ends: Vec::new(),
            indexed: false,
            recording: false,
        }
    }

    /// Takes what it charges also from `shared`.
    pub(crate) fn with_shared(mut self, shared: Option<super::SharedBudget>) -> Self {
        self.shared = shared;
        self
    }

    /// What this decoding holds of the shared budget, handed over to the decoded message.
    pub(crate) fn take_hold(&mut self) -> super::BudgetHold {
        super::BudgetHold::new(self.shared.clone(), std::mem::take(&mut self.held))
    }

    /// Gives up with [`Kind::Timeout`] once `deadline` has passed.
    pub(crate) fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Fails when the deadline has passed.
    pub(crate) fn check_deadline(&self) -> Result<()> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(Error::new(
                Kind::Timeout,
                "the deadline passed while decoding",
                Some(self.pos),
            )),
            _ => Ok(()),
        }
    }

    /// Counts one step of a loop and looks at the deadline every [`DEADLINE_TICKS`] steps.
    #[inline]
    fn tick(&mut self) -> Result<()> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(DEADLINE_TICKS) {
            self.check_deadline()?;
        }
        Ok(())
    }

    /// The careful mode's first pass: checks the syntax of the value at `pos` (and its
    /// nesting) as a skip does, and records where each of its objects and arrays ends, so
    /// that every later skip of one jumps over it. Its entries are charged to the budget. On
    /// an input too long for 32-bit offsets nothing is recorded and skips scan.
    pub(crate) fn index_containers(&mut self) -> Result<()> {
        if u32::try_from(self.input.len()).is_err() {
            return Ok(());
        }
        let start = self.pos;
        self.recording = true;
        let walked = self.skip_value();
        self.recording = false;
        walked?;
        self.pos = start;
        self.indexed = true;
        Ok(())
    }

    /// Records the object or array opening at `pos` while indexing: its entry's position.
    fn open_container(&mut self) -> Result<Option<usize>> {
        if !self.recording {
            return Ok(None);
        }
        self.charge(INDEX_ENTRY)?;
        // Offsets fit: `index_containers` runs only on inputs shorter than 4 GiB.
        self.ends.push((self.pos as u32, 0));
        Ok(Some(self.ends.len() - 1))
    }

    /// Records that the object or array of entry `slot` ends at `pos`.
    fn close_container(&mut self, slot: Option<usize>) {
        if let Some(slot) = slot {
            self.ends[slot].1 = self.pos as u32;
        }
    }

    /// Past the index pass: the end of the object or array opening at `pos`.
    fn indexed_end(&self) -> Option<usize> {
        if !self.indexed {
            return None;
        }
        let at = u32::try_from(self.pos).ok()?;
        let i = self
            .ends
            .binary_search_by_key(&at, |&(open, _)| open)
            .ok()?;
        Some(self.ends[i].1 as usize)
    }

    /// Reads the outermost struct's field `name` as the raw status instead of decoding it.
    pub(crate) fn with_status_field(mut self, name: &'static str) -> Self {
        self.status_field = Some(name);
        self
    }

    /// True when the fast pass found a repeated struct key: whatever it returned, the message
    /// must be decoded again with `careful` set.
    pub(crate) fn needs_careful(&self) -> bool {
        self.needs_careful
    }

    /// Records that the fast pass cannot go on (a repeated struct key) and returns the error
    /// that unwinds it.
    fn ask_careful(&mut self) -> Error {
        self.needs_careful = true;
        Error::abandoned()
    }

    /// Bytes charged so far.
    pub(crate) fn charged(&self) -> usize {
        self.charged
    }

    /// The status read by [`De::with_status_field`] (empty when absent or null).
    pub(crate) fn take_status(&mut self) -> String {
        std::mem::take(&mut self.status)
    }

    /// Requires that only white space follows the value (Go's `json.Unmarshal`).
    pub(crate) fn end(&mut self) -> Result<()> {
        self.skip_ws();
        if self.pos < self.input.len() {
            return Err(Error::new(
                Kind::TrailingData,
                format!(
                    "invalid character {} after top-level value",
                    self.quote_byte()
                ),
                Some(self.pos),
            ));
        }
        Ok(())
    }

    fn charge(&mut self, bytes: usize) -> Result<()> {
        self.tick()?;
        self.charged = self.charged.saturating_add(bytes);
        if self.charged > self.budget {
            return Err(Error::new(
                Kind::OverBudget,
                format!(
                    "the message decodes to more than the memory budget of {} bytes",
                    self.budget
                ),
                Some(self.pos),
            ));
        }
        if self.charged > self.held
            && let Some(shared) = &self.shared
        {
            let step = (self.charged - self.held).max(super::SharedBudget::STEP);
            if !shared.try_take(step) {
                return Err(Error::new(
                    Kind::OverBudget,
                    format!(
                        "the messages being decoded and handled at once hold the shared memory \
                         budget of {} bytes",
                        shared.capacity()
                    ),
                    Some(self.pos),
                ));
            }
            self.held += step;
        }
        Ok(())
    }

    fn enter(&mut self) -> Result<()> {
        // A pass that is to be run again stops at the next level, even if a `Deserialize`
        // impl swallowed the error that was to end it.
        if self.needs_careful {
            return Err(Error::abandoned());
        }
        self.tick()?;
        scanned(1);
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(Error::new(
                Kind::TooDeep,
                format!("exceeded max depth of {}", self.max_depth),
                Some(self.pos),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn syntax(&self, message: impl Into<String>) -> Error {
        Error::new(Kind::Syntax, message, Some(self.pos))
    }

    fn quote_byte(&self) -> String {
        match self.input.get(self.pos) {
            None => "end of input".into(),
            Some(b) if b.is_ascii_graphic() => format!("'{}'", *b as char),
            Some(b) => format!("byte 0x{b:02x}"),
        }
    }

    fn eof(&self) -> Error {
        self.syntax("unexpected end of JSON input")
    }

    fn unexpected_char(&self, context: &str) -> Error {
        if self.pos >= self.input.len() {
            return self.eof();
        }
        self.syntax(format!("invalid character {} {context}", self.quote_byte()))
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.input.get(self.pos) {
            self.pos += 1;
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.input.get(self.pos).copied()
    }

    fn expect(&mut self, byte: u8, context: &str) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected_char(context))
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<()> {
        let end = self.pos + word.len();
        if self.input.get(self.pos..end) == Some(word) {
            self.pos = end;
            scanned(word.len());
            Ok(())
        } else {
            // Point at the first byte that differs.
            let at = (0..word.len())
                .find(|&i| self.input.get(self.pos + i) != Some(&word[i]))
                .unwrap_or(0);
            self.pos += at;
            Err(self.unexpected_char("in literal"))
        }
    }

    /// What the next value is, for a type mismatch message.
    fn unexpected(&mut self) -> Unexpected<'static> {
        match self.peek() {
            Some(b'"') => Unexpected::Other("string"),
            Some(b'{') => Unexpected::Map,
            Some(b'[') => Unexpected::Seq,
            Some(b't') => Unexpected::Bool(true),
            Some(b'f') => Unexpected::Bool(false),
            Some(b'n') => Unexpected::Unit,
            _ => Unexpected::Other("number"),
        }
    }

    /// Reads a `metav1.Time` as Go does: `null` is the zero time, a string is read with
    /// `time.Parse(time.RFC3339, ..)` ([`parse_rfc3339`]); the visitor (k8s-openapi's `Time`)
    /// is then handed the instant in the one form its parser reads.
    fn go_time<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let instant = match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                return visitor.visit_newtype_struct(StrDeserializer::<Error>::new(GO_ZERO_TIME));
            }
            Some(b'"') => {
                let text = self.parse_str()?;
                parse_rfc3339(text.as_str())
                    .map_err(|e| Error::new(Kind::Type, e.to_string(), Some(start)))?
            }
            _ => return Err(self.mismatch(&visitor)),
        };
        let nanos = i32::try_from(instant.nanos).unwrap_or_default();
        let timestamp = Timestamp::new(instant.unix_seconds, nanos).map_err(|_| {
            Error::new(
                Kind::Type,
                format!(
                    "time {} is outside the range of the time type ({} to {})",
                    String::from_utf8_lossy(&self.input[start..self.pos]),
                    Timestamp::MIN,
                    Timestamp::MAX
                ),
                Some(start),
            )
        })?;
        visitor.visit_newtype_struct(de::value::StringDeserializer::<Error>::new(
            timestamp.to_string(),
        ))
    }

    /// Reads a `[]byte` (k8s-openapi's `ByteString`) as Go does: `null` is nil, a string is
    /// read with `base64.StdEncoding` ([`decode_std`]), an array of numbers as its bytes (each
    /// a `uint8`). The visitor is then handed the bytes in the one form its parser reads.
    fn go_bytes<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let bytes = match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                return visitor.visit_none();
            }
            Some(b'"') => {
                let text = self.parse_str()?;
                // Canonical base64 (what Go and every encoder write) reads the same under
                // Go's rules and the visitor's strict ones: it is handed over as it is and
                // decoded once, by the visitor.
                if let Some(len) = canonical_len(text.as_str().as_bytes()) {
                    let value = visitor.visit_some(StrDeserializer::<Error>::new(text.as_str()));
                    self.charge(len)?;
                    return value;
                }
                decode_std(text.as_str().as_bytes())
                    .map_err(|e| Error::new(Kind::Type, e.to_string(), Some(start)))?
            }
            Some(b'[') => <Vec<u8> as de::Deserialize>::deserialize(&mut *self)?,
            _ => return Err(self.mismatch(&visitor)),
        };
        self.charge(bytes.len())?;
        visitor.visit_some(de::value::StringDeserializer::<Error>::new(encode_std(
            &bytes,
        )))
    }

    fn mismatch(&mut self, expected: &dyn de::Expected) -> Error {
        match self.peek() {
            None => return self.eof(),
            Some(b'"' | b'{' | b'[' | b't' | b'f' | b'n' | b'-' | b'0'..=b'9') => {}
            Some(_) => return self.unexpected_char("looking for beginning of value"),
        }
        let unexpected = self.unexpected();
        let mut e = <Error as de::Error>::invalid_type(unexpected, expected);
        e.0.offset = Some(self.pos);
        e
    }

    /// Reads a string at `pos` (its opening quote). Invalid UTF-8 becomes U+FFFD, one per
    /// byte, and so do unpaired surrogate escapes, as in Go.
    fn parse_str<'s>(&'s mut self) -> Result<Str<'de, 's>> {
        let input = self.input;
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        let mut i = find_stop(input, start);
        match input.get(i) {
            None => {
                self.pos = i;
                return Err(self.eof());
            }
            Some(b'"') => {
                self.pos = i + 1;
                scanned(self.pos - open);
                let raw = &input[start..i];
                return match std::str::from_utf8(raw) {
                    Ok(s) => Ok(Str::Borrowed(s)),
                    Err(_) => {
                        self.scratch.clear();
                        push_lossy(&mut self.scratch, raw);
                        Ok(Str::Copied(as_utf8(&self.scratch)))
                    }
                };
            }
            Some(b'\\') => {}
            Some(_) => {
                self.pos = i;
                return Err(self.unexpected_char("in string literal"));
            }
        }
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut raw_from = start;
        loop {
            i = find_stop(input, i);
            push_lossy(&mut out, &input[raw_from..i]);
            match input.get(i) {
                None => {
                    self.pos = i;
                    self.scratch = out;
                    return Err(self.eof());
                }
                Some(b'"') => {
                    self.pos = i + 1;
                    scanned(self.pos - open);
                    self.scratch = out;
                    return Ok(Str::Copied(as_utf8(&self.scratch)));
                }
                Some(b'\\') => {
                    self.pos = i;
                    let c = match self.escape() {
                        Ok(c) => c,
                        Err(e) => {
                            self.scratch = out;
                            return Err(e);
                        }
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    i = self.pos;
                    raw_from = i;
                }
                Some(_) => {
                    self.pos = i;
                    self.scratch = out;
                    return Err(self.unexpected_char("in string literal"));
                }
            }
        }
    }

    /// Reads one escape at `pos` (its backslash) and leaves `pos` after it.
    fn escape(&mut self) -> Result<char> {
        self.tick()?;
        self.pos += 1;
        let c = match self.input.get(self.pos) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let first = self.hex4()?;
                if (0xd800..0xdc00).contains(&first)
                    && self.input.get(self.pos..self.pos + 2) == Some(b"\\u")
                {
                    let save = self.pos;
                    self.pos += 2;
                    let second = self.hex4()?;
                    if (0xdc00..0xe000).contains(&second) {
                        let c = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                        return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
                    }
                    // Not a pair: the first is replaced and the second read on its own.
                    self.pos = save;
                }
                return Ok(char::from_u32(first).unwrap_or('\u{fffd}'));
            }
            _ => return Err(self.unexpected_char("in string escape code")),
        };
        self.pos += 1;
        Ok(c)
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut v = 0;
        for _ in 0..4 {
            let d = match self.input.get(self.pos) {
                Some(b) if b.is_ascii_hexdigit() => (*b as char).to_digit(16).unwrap_or(0),
                _ => return Err(self.unexpected_char("in \\u hexadecimal character escape")),
            };
            v = v * 16 + d;
            self.pos += 1;
        }
        Ok(v)
    }

    /// Skips a string at `pos`, checking its escapes as Go's scanner does.
    fn skip_str(&mut self) -> Result<()> {
        let input = self.input;
        let open = self.pos;
        self.pos += 1;
        loop {
            let i = find_stop(input, self.pos);
            self.pos = i;
            match input.get(i) {
                None => return Err(self.eof()),
                Some(b'"') => {
                    self.pos += 1;
                    scanned(self.pos - open);
                    return Ok(());
                }
                Some(b'\\') => {
                    self.escape()?;
                }
                Some(_) => return Err(self.unexpected_char("in string literal")),
            }
        }
    }

    /// Scans a number at `pos`: its text and whether it is written as an integer.
    fn scan_number(&mut self) -> Result<(&'de str, bool)> {
        let input = self.input;
        let start = self.pos;
        let mut i = start;
        if input.get(i) == Some(&b'-') {
            i += 1;
        }
        match input.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(b'0'..=b'9') = input.get(i) {
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return Err(self.unexpected_char("in numeric literal"));
            }
        }
        let mut integer = true;
        if input.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !matches!(input.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return Err(self.unexpected_char("after decimal point in numeric literal"));
            }
            while let Some(b'0'..=b'9') = input.get(i) {
                i += 1;
            }
        }
        if let Some(b'e' | b'E') = input.get(i) {
            integer = false;
            i += 1;
            if let Some(b'+' | b'-') = input.get(i) {
                i += 1;
            }
            if !matches!(input.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return Err(self.unexpected_char("in exponent of numeric literal"));
            }
            while let Some(b'0'..=b'9') = input.get(i) {
                i += 1;
            }
        }
        self.pos = i;
        scanned(i - start);
        // Only ASCII digits, signs, points and exponents were consumed.
        let text = std::str::from_utf8(&input[start..i]).unwrap_or("0");
        Ok((text, integer))
    }

    /// The offsets of the elements of the array at `at` (its syntax is checked already).
    fn array_items(&mut self, at: usize) -> Result<Vec<usize>> {
        let saved = self.pos;
        self.pos = at + 1;
        let mut items = Vec::new();
        while self.peek() != Some(b']') {
            if !items.is_empty() {
                self.expect(b',', "after array element")?;
            }
            self.skip_ws();
            items.push(self.pos);
            self.skip_value()?;
        }
        self.pos = saved;
        Ok(items)
    }

    /// Skips any value, checking its syntax (Go checks the whole input, ignored parts too).
    /// Past the careful mode's index pass, an object or array is jumped over (its syntax was
    /// checked by that pass); during it, each is recorded.
    fn skip_value(&mut self) -> Result<()> {
        self.tick()?;
        let next = self.peek();
        if let Some(b'{' | b'[') = next
            && let Some(end) = self.indexed_end()
        {
            self.pos = end;
            return Ok(());
        }
        match next {
            Some(b'"') => self.skip_str(),
            Some(b'{') => {
                self.enter()?;
                let slot = self.open_container()?;
                self.pos += 1;
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    self.close_container(slot);
                    self.leave();
                    return Ok(());
                }
                loop {
                    if self.peek() != Some(b'"') {
                        return Err(
                            self.unexpected_char("looking for beginning of object key string")
                        );
                    }
                    self.skip_str()?;
                    self.expect(b':', "after object key")?;
                    grow(|| self.skip_value())?;
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            self.close_container(slot);
                            self.leave();
                            return Ok(());
                        }
                        _ => return Err(self.unexpected_char("after object key:value pair")),
                    }
                }
            }
            Some(b'[') => {
                self.enter()?;
                let slot = self.open_container()?;
                self.pos += 1;
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    self.close_container(slot);
                    self.leave();
                    return Ok(());
                }
                loop {
                    grow(|| self.skip_value())?;
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            self.close_container(slot);
                            self.leave();
                            return Ok(());
                        }
                        _ => return Err(self.unexpected_char("after array element")),
                    }
                }
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.scan_number().map(drop),
            _ => Err(self.unexpected_char("looking for beginning of value")),
        }
    }

    /// Reads an integer for a Go integer type: written as an integer and in range.
    fn integer<T: TryFrom<i128>>(&mut self, go_type: &str) -> Result<T> {
        let at = self.pos;
        let (text, integer) = self.scan_number()?;
        let number_error = || {
            Error::new(
                Kind::Number,
                format!("cannot unmarshal number {text} into Go value of type {go_type}"),
                Some(at),
            )
        };
        if !integer || (go_type.starts_with('u') && text.starts_with('-')) {
            return Err(number_error());
        }
        let digits = text.trim_start_matches('-');
        if digits.len() > 38 {
            return Err(number_error());
        }
        let magnitude: i128 = digits.parse().map_err(|_| number_error())?;
        let value = if text.starts_with('-') {
            -magnitude
        } else {
            magnitude
        };
        T::try_from(value).map_err(|_| number_error())
    }

    /// Reads a float for `float64` (`bits` 64) or `float32`: finite in that type.
    fn float(&mut self, bits: u32) -> Result<f64> {
        let at = self.pos;
        let (text, _) = self.scan_number()?;
        let value = if bits == 32 {
            text.parse::<f32>().map(f64::from)
        } else {
            text.parse::<f64>()
        };
        match value {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(Error::new(
                Kind::Number,
                format!("cannot unmarshal number {text} into Go value of type float{bits}"),
                Some(at),
            )),
        }
    }

    fn visit_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let at = self.pos;
        let (text, integer) = self.scan_number()?;
        if integer {
            if let Ok(u) = text.parse::<u64>() {
                return visitor.visit_u64(u);
            }
            if let Ok(i) = text.parse::<i64>() {
                return visitor.visit_i64(i);
            }
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => visitor.visit_f64(v),
            _ => Err(Error::new(
                Kind::Number,
                format!("cannot unmarshal number {text} into Go value of type float64"),
                Some(at),
            )),
        }
    }

    fn visit_string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let s = self.parse_str()?;
        let len = heap_size(s.as_str().len());
        let value = match s {
            Str::Borrowed(s) => visitor.visit_borrowed_str(s),
            Str::Copied(s) => visitor.visit_str(s),
        };
        self.charge(len)?;
        value
    }

    /// Decodes the struct object at `pos` (careful mode) or at each of `objects`, merged in
    /// order as Go merges repeated objects into one struct.
    fn careful_struct<V: Visitor<'de>>(
        &mut self,
        fields: &'static [&'static str],
        visitor: V,
        objects: &[usize],
        status: Option<&'static str>,
        zeros: &'static [Zero],
        values: &'static [&'static str],
    ) -> Result<V::Value> {
        let mut entries: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut end = self.pos;
        self.enter()?;
        for &at in objects {
            self.pos = at;
            if self.peek() != Some(b'{') {
                let e = self.mismatch(&visitor);
                return Err(e);
            }
            self.pos += 1;
            if self.peek() == Some(b'}') {
                self.pos += 1;
                end = self.pos;
                continue;
            }
            loop {
                self.tick()?;
                if self.peek() != Some(b'"') {
                    return Err(self.unexpected_char("looking for beginning of object key string"));
                }
                let (field, is_status) = {
                    let key = self.parse_str()?;
                    key_target(key.as_str(), fields, status)
                };
                self.expect(b':', "after object key")?;
                self.skip_ws();
                let value_at = self.pos;
                if is_status {
                    self.read_status()?;
                } else {
                    self.skip_value()?;
                    if let Some(f) = field {
                        self.charge(std::mem::size_of::<usize>())?;
                        match entries.iter_mut().find(|(g, _)| *g == f) {
                            Some((_, at)) => at.push(value_at),
                            None => entries.push((f, vec![value_at])),
                        }
                    }
                }
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected_char("after object key:value pair")),
                }
            }
            end = self.pos;
        }
        let input = self.input;
        // A field Go holds by value ignores a null, even a later one.
        for (f, at) in &mut entries {
            if at.len() > 1 && values.contains(&fields[*f]) && at.iter().any(|&a| input[a] != b'n')
            {
                at.retain(|&a| input[a] != b'n');
            }
        }
        entries.retain(|(_, at)| !(at.len() == 1 && input[at[0]] == b'n'));
        let value = grow(|| {
            visitor.visit_map(CarefulStruct {
                de: &mut *self,
                fields,
                entries,
                next: 0,
                zeros,
                synth: None,
            })
        })?;
        self.leave();
        self.pos = end;
        Ok(value)
    }

    /// A raw JSON value ([`RAW_VALUE`]): its bytes as written, checked and charged; `null` is
    /// no value (Go's nil `Raw`).
    fn raw_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            return visitor.visit_unit();
        }
        let start = self.pos;
        grow(|| self.skip_value())?;
        let input = self.input;
        let raw = &input[start..self.pos];
        self.charge(heap_size(raw.len()))?;
        visitor.visit_borrowed_bytes(raw)
    }

    /// Reads the raw status: a string, or null (which leaves the previous one, as in Go).
    fn read_status(&mut self) -> Result<()> {
        match self.peek() {
            Some(b'n') => self.literal(b"null"),
            Some(b'"') => {
                let s = self.parse_str()?.as_str().to_owned();
                self.status = s;
                Ok(())
            }
            _ => {
                let at = self.pos;
                let unexpected = self.unexpected();
                let e = <Error as de::Error>::invalid_type(unexpected, &"a string");
                Err(e.within(Seg::Field("status"), at))
            }
        }
    }
}

/// The field `key` sets, and whether it is the status (read raw, also into a type that has
/// no status field, such as a caller's own view of a response).
fn key_target(
    key: &str,
    fields: &'static [&'static str],
    status: Option<&'static str>,
) -> (Option<usize>, bool) {
    let field = resolve(key, fields);
    let is_status = status.is_some_and(|status| match field {
        Some(f) => fields[f] == status,
        None => eq_fold(key, status),
    });
    (field, is_status)
}

/// What a heap block of `len` bytes takes with the allocator's header and rounding (glibc:
/// 8 bytes of header, 16-byte granules, 32 bytes at least).
fn heap_size(len: usize) -> usize {
    if len == 0 {
        0
    } else {
        (len + 8).next_multiple_of(16).max(32)
    }
}

/// Appends `raw` with each byte of invalid UTF-8 replaced by U+FFFD (Go's rule).
pub(crate) fn push_lossy(out: &mut Vec<u8>, raw: &[u8]) {
    for chunk in raw.utf8_chunks() {
        out.extend_from_slice(chunk.valid().as_bytes());
        for _ in chunk.invalid() {
            out.extend_from_slice("\u{fffd}".as_bytes());
        }
    }
}

fn as_utf8(bytes: &[u8]) -> &str {
    // Only valid UTF-8 is ever pushed into the scratch.
    std::str::from_utf8(bytes).unwrap_or_default()
}

macro_rules! integer {
    ($method:ident, $visit:ident, $ty:ty, $go:literal) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.peek() {
                Some(b'n') => {
                    self.literal(b"null")?;
                    visitor.$visit(0)
                }
                Some(b'-' | b'0'..=b'9') => {
                    let v: $ty = self.integer($go)?;
                    visitor.$visit(v)
                }
                _ => Err(self.mismatch(&visitor)),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for &mut De<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            Some(b'"') => self.visit_string(visitor),
            Some(b'-' | b'0'..=b'9') => self.visit_number(visitor),
            Some(b'[') => self.deserialize_seq(visitor),
            Some(b'{') => self.deserialize_map(visitor),
            _ => Err(self.unexpected_char("looking for beginning of value")),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_bool(false)
            }
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    integer!(deserialize_i8, visit_i8, i8, "int8");
    integer!(deserialize_i16, visit_i16, i16, "int16");
    integer!(deserialize_i32, visit_i32, i32, "int32");
    integer!(deserialize_i64, visit_i64, i64, "int64");
    integer!(deserialize_u8, visit_u8, u8, "uint8");
    integer!(deserialize_u16, visit_u16, u16, "uint16");
    integer!(deserialize_u32, visit_u32, u32, "uint32");
    integer!(deserialize_u64, visit_u64, u64, "uint64");

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_f32(0.0)
            }
            Some(b'-' | b'0'..=b'9') => {
                let v = self.float(32)?;
                visitor.visit_f32(v as f32)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_f64(0.0)
            }
            Some(b'-' | b'0'..=b'9') => {
                let v = self.float(64)?;
                visitor.visit_f64(v)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_borrowed_str("")
            }
            Some(b'"') => self.visit_string(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if is_byte_string(&visitor) {
            return self.go_bytes(visitor);
        }
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_unit()
        } else {
            Err(self.mismatch(&visitor))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == CHARGED_BOX {
            return visitor.visit_newtype_struct(ChargedBox {
                de: self,
                repeated: None,
            });
        }
        if name == GO_TIME {
            return self.go_time(visitor);
        }
        if name == RAW_VALUE {
            return self.raw_value(visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_seq(Seq {
                    de: self,
                    index: 0,
                    empty: true,
                })
            }
            Some(b'[') => {
                self.enter()?;
                self.pos += 1;
                let value = grow(|| {
                    visitor.visit_seq(Seq {
                        de: &mut *self,
                        index: 0,
                        empty: false,
                    })
                })?;
                self.expect(b']', "after array element")?;
                self.leave();
                Ok(value)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_map(Map::empty(self))
            }
            Some(b'{') => {
                self.enter()?;
                let at = self.pos;
                let value = grow(|| visitor.visit_map(Map::one(&mut *self, at)))?;
                self.leave();
                Ok(value)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let status = self.status_field.take();
        let zeros = go_zeros(name, fields);
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_map(CarefulStruct {
                    de: self,
                    fields,
                    entries: Vec::new(),
                    next: 0,
                    zeros,
                    synth: None,
                })
            }
            Some(b'{') if self.careful => {
                let at = self.pos;
                self.careful_struct(
                    fields,
                    visitor,
                    &[at],
                    status,
                    zeros,
                    go_values(name, fields),
                )
            }
            Some(b'{') => {
                self.enter()?;
                self.pos += 1;
                let value = grow(|| {
                    visitor.visit_map(Struct {
                        de: &mut *self,
                        fields,
                        status,
                        seen: 0,
                        seen_more: Vec::new(),
                        first: true,
                        field: "",
                        zeros,
                        yielded: 0,
                        synth: None,
                    })
                })?;
                self.expect(b'}', "after object key:value pair")?;
                self.leave();
                Ok(value)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => {
                let s = self.parse_str()?;
                visitor.visit_enum(StrDeserializer::<Error>::new(s.as_str()))
            }
            Some(b'{') => {
                self.enter()?;
                self.pos += 1;
                let value = grow(|| visitor.visit_enum(Tagged { de: &mut *self }))?;
                self.expect(b'}', "after object key:value pair")?;
                self.leave();
                Ok(value)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}

/// The elements of an array.
struct Seq<'a, 'de> {
    de: &'a mut De<'de>,
    index: usize,
    empty: bool,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.empty {
            return Ok(None);
        }
        match self.de.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if self.index > 0 => {
                self.de.pos += 1;
            }
            _ if self.index > 0 => return Err(self.de.unexpected_char("after array element")),
            Some(b',') => return Err(self.de.unexpected_char("looking for beginning of value")),
            _ => {}
        }
        self.de.skip_ws();
        let start = self.de.pos;
        if self.index > 0 && self.de.input.get(start) == Some(&b']') {
            return Err(self.de.unexpected_char("looking for beginning of value"));
        }
        let index = self.index;
        self.index += 1;
        self.de
            .charge(2 * std::mem::size_of::<T::Value>())
            .map_err(|e| e.within(Seg::Index(index), start))?;
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(|e| e.within(Seg::Index(index), start))
    }
}

/// The elements of a repeated array (careful mode): for each element of the last occurrence,
/// the occurrences of that element it merges, in order.
struct RepeatedSeq<'a, 'de> {
    de: &'a mut De<'de>,
    items: Vec<Vec<usize>>,
    index: usize,
}

impl<'de> SeqAccess<'de> for RepeatedSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let index = self.index;
        let Some(at) = self.items.get(index).cloned() else {
            return Ok(None);
        };
        self.index += 1;
        let start = *at.last().expect("an element occurs");
        self.de
            .charge(2 * std::mem::size_of::<T::Value>())
            .map_err(|e| e.within(Seg::Index(index), start))?;
        let result = if at.len() == 1 {
            self.de.pos = start;
            seed.deserialize(&mut *self.de)
        } else {
            seed.deserialize(Repeated {
                de: &mut *self.de,
                at,
            })
        };
        result
            .map(Some)
            .map_err(|e| e.within(Seg::Index(index), start))
    }
}

/// The value of a box that asks to be charged ([`CHARGED_BOX`]), where the input stands or
/// from the occurrences of a repeated field (careful mode). Whatever the value's `Deserialize`
/// asks for, the heap block of the visitor's `Value` (the boxed type, for a derived struct) is
/// charged first, then the request is handed on.
struct ChargedBox<'a, 'de> {
    de: &'a mut De<'de>,
    repeated: Option<Vec<usize>>,
}

macro_rules! charged {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            self.de.charge(heap_size(std::mem::size_of::<V::Value>()))?;
            match self.repeated {
                None => de::Deserializer::$method(self.de, $($arg,)* visitor),
                Some(at) => Repeated { de: self.de, at }.$method($($arg,)* visitor),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for ChargedBox<'_, 'de> {
    type Error = Error;

    charged! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
}

/// The entries of a JSON object read as a map, or of several objects one after the other
/// (a repeated map field, merged as Go merges it).
struct Map<'a, 'de> {
    de: &'a mut De<'de>,
    /// The opening brace of the object to read next, when it is not read yet.
    opening: Option<usize>,
    /// The objects after it, last first.
    rest: Vec<usize>,
    key_at: usize,
    key_size: usize,
    entries: usize,
    done: bool,
}

impl<'a, 'de> Map<'a, 'de> {
    fn new(de: &'a mut De<'de>, mut objects: Vec<usize>) -> Self {
        objects.reverse();
        let opening = objects.pop();
        Map {
            de,
            done: opening.is_none(),
            opening,
            rest: objects,
            key_at: 0,
            key_size: 0,
            entries: 0,
        }
    }

    fn one(de: &'a mut De<'de>, at: usize) -> Self {
        Map {
            de,
            opening: Some(at),
            rest: Vec::new(),
            key_at: 0,
            key_size: 0,
            entries: 0,
            done: false,
        }
    }

    fn empty(de: &'a mut De<'de>) -> Self {
        Map::new(de, Vec::new())
    }
}

impl<'de> MapAccess<'de> for Map<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            if self.done {
                return Ok(None);
            }
            let de = &mut *self.de;
            if let Some(at) = self.opening.take() {
                de.pos = at;
                if de.peek() != Some(b'{') {
                    return Err(de.mismatch(&"a map"));
                }
                de.pos += 1;
                if de.peek() == Some(b'}') {
                    de.pos += 1;
                    self.opening = self.rest.pop();
                    self.done = self.opening.is_none();
                    continue;
                }
            } else {
                match de.peek() {
                    Some(b',') => de.pos += 1,
                    Some(b'}') => {
                        de.pos += 1;
                        self.opening = self.rest.pop();
                        self.done = self.opening.is_none();
                        continue;
                    }
                    _ => return Err(de.unexpected_char("after object key:value pair")),
                }
            }
            if de.peek() != Some(b'"') {
                return Err(de.unexpected_char("looking for beginning of object key string"));
            }
            self.key_at = de.pos;
            self.key_size = std::mem::size_of::<K::Value>();
            return seed.deserialize(MapKey { de }).map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let entry = self.key_size + std::mem::size_of::<V::Value>();
        let cost = if self.entries == 0 {
            heap_size(BTREE_LEAF * entry + 16)
        } else {
            2 * entry
        };
        self.entries += 1;
        self.de.charge(cost)?;
        self.de.expect(b':', "after object key")?;
        self.de.skip_ws();
        let start = self.de.pos;
        let key = Seg::Key(self.key_at);
        seed.deserialize(&mut *self.de)
            .map_err(|e| e.within(key, start))
    }
}

/// A map key: always a JSON string. For a map with integer keys, the string is read as Go
/// reads the key of a `map[int64]T` (see [`integer_key`]).
struct MapKey<'a, 'de> {
    de: &'a mut De<'de>,
}

macro_rules! integer_key {
    ($method:ident, $visit:ident, $ty:ty, $go:literal) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let at = self.de.pos;
            let key = self.de.parse_str()?;
            let unsigned = $go.starts_with('u');
            match integer_key::<$ty>(key.as_str(), unsigned) {
                Some(v) => visitor.$visit(v),
                None => Err(Error::new(
                    Kind::Number,
                    format!(
                        "cannot unmarshal number {} into Go value of type {}",
                        key.as_str(),
                        $go
                    ),
                    Some(at),
                )),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for MapKey<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.visit_string(visitor)
    }

    integer_key!(deserialize_i8, visit_i8, i8, "int8");
    integer_key!(deserialize_i16, visit_i16, i16, "int16");
    integer_key!(deserialize_i32, visit_i32, i32, "int32");
    integer_key!(deserialize_i64, visit_i64, i64, "int64");
    integer_key!(deserialize_u8, visit_u8, u8, "uint8");
    integer_key!(deserialize_u16, visit_u16, u16, "uint16");
    integer_key!(deserialize_u32, visit_u32, u32, "uint32");
    integer_key!(deserialize_u64, visit_u64, u64, "uint64");

    serde::forward_to_deserialize_any! {
        bool i128 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The map key `text` as Go's `encoding/json` reads it into an integer key type: for a signed
/// type `strconv.ParseInt(text, 10, 64)` (an optional `+` or `-`, then decimal digits, leading
/// zeros allowed), for an unsigned one `strconv.ParseUint(text, 10, 64)` (digits only), then
/// refused when the value overflows `T`. Nothing else is accepted: no white space, no
/// fraction or exponent, no `0x` or `_`. `None` when Go would refuse the key.
fn integer_key<T: TryFrom<i128>>(text: &str, unsigned: bool) -> Option<T> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') if !unsigned => (true, &text[1..]),
        Some(b'+') if !unsigned => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // More digits than a u128 holds is out of range for every key type.
    let magnitude = i128::try_from(digits.parse::<u128>().ok()?).ok()?;
    T::try_from(if negative { -magnitude } else { magnitude }).ok()
}

/// The fields of a struct object, streamed (fast mode).
struct Struct<'a, 'de> {
    de: &'a mut De<'de>,
    fields: &'static [&'static str],
    status: Option<&'static str>,
    seen: u128,
    seen_more: Vec<usize>,
    first: bool,
    field: &'static str,
    /// Fields supplied with Go's zero value when the object leaves them out.
    zeros: &'static [Zero],
    /// The fields (below 128) handed to the visitor.
    yielded: u128,
    /// The JSON of the zero value to decode next, instead of the input.
    synth: Option<&'static [u8]>,
}

impl Struct<'_, '_> {
    /// Marks field `f` seen; false when it was seen before.
    fn mark(&mut self, f: usize) -> bool {
        if f < 128 {
            let bit = 1u128 << f;
            let new = self.seen & bit == 0;
            self.seen |= bit;
            new
        } else if self.seen_more.contains(&f) {
            false
        } else {
            self.seen_more.push(f);
            true
        }
    }
}

impl<'de> MapAccess<'de> for Struct<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            let de = &mut *self.de;
            if de.needs_careful {
                return Err(Error::abandoned());
            }
            de.tick()?;
            match de.peek() {
                Some(b'}') => {
                    let yielded = self.yielded;
                    let Some(&(f, json)) =
                        self.zeros.iter().find(|(f, _)| yielded & (1u128 << f) == 0)
                    else {
                        return Ok(None);
                    };
                    self.yielded |= 1u128 << f;
                    self.synth = Some(json);
                    self.field = self.fields[f];
                    return seed
                        .deserialize(BorrowedStrDeserializer::<Error>::new(self.fields[f]))
                        .map(Some);
                }
                Some(b',') if !self.first => de.pos += 1,
                _ if !self.first => {
                    return Err(de.unexpected_char("after object key:value pair"));
                }
                _ => {}
            }
            self.first = false;
            if de.peek() != Some(b'"') {
                return Err(de.unexpected_char("looking for beginning of object key string"));
            }
            let (field, is_status) = {
                let key = de.parse_str()?;
                key_target(key.as_str(), self.fields, self.status)
            };
            de.expect(b':', "after object key")?;
            if is_status {
                de.read_status()?;
                continue;
            }
            let Some(f) = field else {
                de.skip_value()?;
                continue;
            };
            let name = self.fields[f];
            if de.peek() == Some(b'n') {
                // null leaves the field as it is: its zero value, as the field is new.
                de.literal(b"null")?;
                if !self.mark(f) {
                    return Err(self.de.ask_careful());
                }
                continue;
            }
            if !self.mark(f) {
                return Err(self.de.ask_careful());
            }
            if f < 128 {
                self.yielded |= 1u128 << f;
            }
            self.field = name;
            return seed
                .deserialize(BorrowedStrDeserializer::<Error>::new(name))
                .map(Some);
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if let Some(json) = self.synth.take() {
            return seed.deserialize(&mut De::new(json, usize::MAX, 1, false));
        }
        self.de.skip_ws();
        let start = self.de.pos;
        let field = self.field;
        seed.deserialize(&mut *self.de)
            .map_err(|e| e.within(Seg::Field(field), start))
    }
}

/// The fields of a struct, each decoded from its occurrences (careful mode).
struct CarefulStruct<'a, 'de> {
    de: &'a mut De<'de>,
    fields: &'static [&'static str],
    entries: Vec<(usize, Vec<usize>)>,
    next: usize,
    /// Fields supplied with Go's zero value when no entry sets them.
    zeros: &'static [Zero],
    /// The JSON of the zero value to decode next, instead of the input.
    synth: Option<&'static [u8]>,
}

impl<'de> MapAccess<'de> for CarefulStruct<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if let Some((f, _)) = self.entries.get(self.next) {
            return seed
                .deserialize(BorrowedStrDeserializer::<Error>::new(self.fields[*f]))
                .map(Some);
        }
        // Past the entries, the fields that must stand at Go's zero value (the entries are
        // taken as they are decoded, so only their field index is left).
        while let Some((&(f, json), rest)) = self.zeros.split_first() {
            self.zeros = rest;
            if self.entries.iter().any(|(g, _)| *g == f) {
                continue;
            }
            self.synth = Some(json);
            return seed
                .deserialize(BorrowedStrDeserializer::<Error>::new(self.fields[f]))
                .map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if let Some(json) = self.synth.take() {
            return seed.deserialize(&mut De::new(json, usize::MAX, 1, false));
        }
        let f = self.entries[self.next].0;
        let at = std::mem::take(&mut self.entries[self.next].1);
        self.next += 1;
        let field = self.fields[f];
        let start = at[0];
        let result = if at.len() == 1 {
            self.de.pos = start;
            seed.deserialize(&mut *self.de)
        } else {
            seed.deserialize(Repeated {
                de: &mut *self.de,
                at,
            })
        };
        result.map_err(|e| e.within(Seg::Field(field), start))
    }
}

/// A struct field written more than once: the occurrences, in order. What Go makes of them
/// depends on the field's type, which the requested method tells.
struct Repeated<'a, 'de> {
    de: &'a mut De<'de>,
    at: Vec<usize>,
}

impl<'a, 'de> Repeated<'a, 'de> {
    fn is_null(&self, at: usize) -> bool {
        self.de.input.get(at) == Some(&b'n')
    }

    /// Replaced by each occurrence, null included (slices).
    fn last(self) -> &'a mut De<'de> {
        self.de.pos = *self.at.last().unwrap_or(&self.de.pos);
        self.de
    }

    /// For a value Go decodes itself on every occurrence (a time, a `[]byte`): each earlier
    /// occurrence is read with `check` (a bad one fails the message, as in Go), and the last
    /// one decides; the deserializer is left at it.
    fn checked_last(
        self,
        check: impl Fn(&mut De<'de>) -> Result<de::IgnoredAny>,
    ) -> Result<&'a mut De<'de>> {
        let (last, earlier) = self.at.split_last().expect("a repeated field occurs");
        for &at in earlier {
            self.de.pos = at;
            check(self.de)?;
        }
        self.de.pos = *last;
        Ok(self.de)
    }

    /// Null has no effect (strings, numbers, bools, raw JSON): the last other occurrence.
    fn last_non_null(self) -> &'a mut De<'de> {
        let at = self
            .at
            .iter()
            .rev()
            .find(|&&at| !self.is_null(at))
            .or(self.at.last())
            .copied()
            .unwrap_or(self.de.pos);
        self.de.pos = at;
        self.de
    }

    /// Null resets (pointers, maps); what follows the last null is merged.
    fn after_last_null(&self) -> Vec<usize> {
        let from = self
            .at
            .iter()
            .rposition(|&at| self.is_null(at))
            .map_or(0, |i| i + 1);
        self.at[from..].to_vec()
    }
}

macro_rules! last_non_null {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.last_non_null().$method(visitor)
        }
    )*};
}

/// Go decodes every occurrence of a scalar field into it: a mistyped occurrence fails the
/// message even when a later one is fine (null has no effect). Each earlier occurrence is
/// checked with the field's own method; a bad one is then read with the field's visitor, for
/// the error in the field's words.
macro_rules! checked_last_non_null {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let Repeated { de, at } = self;
            let chosen = at.iter().rposition(|&at| de.input.get(at) != Some(&b'n'));
            for &earlier in &at[..chosen.unwrap_or(0)] {
                de.pos = earlier;
                if de::Deserializer::$method(&mut *de, de::IgnoredAny).is_err() {
                    de.pos = earlier;
                    return de::Deserializer::$method(de, visitor);
                }
            }
            de.pos = chosen.map_or_else(|| at.last().copied().unwrap_or(de.pos), |i| at[i]);
            de::Deserializer::$method(de, visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Repeated<'_, 'de> {
    type Error = Error;

    last_non_null!(deserialize_any, deserialize_identifier);

    checked_last_non_null!(
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string
    );

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.last().deserialize_bytes(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.last().deserialize_byte_buf(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if is_byte_string(&visitor) {
            // Null (nil) decides too, when it is last.
            return self
                .checked_last(|de| de.go_bytes(de::IgnoredAny))?
                .go_bytes(visitor);
        }
        let at = self.after_last_null();
        match at.len() {
            0 => visitor.visit_none(),
            1 => {
                self.de.pos = at[0];
                visitor.visit_some(self.de)
            }
            _ => visitor.visit_some(Repeated { de: self.de, at }),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.last().deserialize_unit(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.last().deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == CHARGED_BOX {
            // One box for all occurrences: Go decodes each into the struct the pointer holds.
            return visitor.visit_newtype_struct(ChargedBox {
                de: self.de,
                repeated: Some(self.at),
            });
        }
        if name == GO_TIME {
            // Null (the zero time) decides too, when it is last.
            return self
                .checked_last(|de| de.go_time(de::IgnoredAny))?
                .go_time(visitor);
        }
        if name == RAW_VALUE {
            // Go's `UnmarshalJSON` of a raw value replaces its bytes with each occurrence but
            // a null (every occurrence's syntax is checked already).
            return self.last_non_null().raw_value(visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // Go decodes a repeated array into the slice it holds: element i of each occurrence
        // into element i of the slice, so elements of objects merge across occurrences; the
        // slice ends with the last occurrence's length. A shorter occurrence only shortens the
        // slice: the elements it cut off stay in the slice's backing array, and a longer
        // occurrence after it decodes into them again (Go grows the array only when every
        // element is in use, copying them all). A null or an empty array replaces the slice,
        // elements and all.
        let at = self.after_last_null();
        if at.len() < 2 || self.de.input.get(at[0]) != Some(&b'[') {
            return self.last().deserialize_seq(visitor);
        }
        let mut occurrences = Vec::with_capacity(at.len());
        for &occurrence in &at {
            if self.de.input.get(occurrence) != Some(&b'[') {
                return self.last().deserialize_seq(visitor);
            }
            occurrences.push(self.de.array_items(occurrence)?);
        }
        let last = occurrences.last().map_or(0, Vec::len);
        let items = (0..last)
            .map(|i| {
                // The occurrences element i went through, since the last empty one.
                let from = occurrences
                    .iter()
                    .rposition(Vec::is_empty)
                    .map_or(0, |j| j + 1);
                occurrences[from..]
                    .iter()
                    .filter_map(|items| items.get(i).copied())
                    .collect()
            })
            .collect();
        let de = self.de;
        de.pos = *at.last().expect("two occurrences");
        de.enter()?;
        let value = grow(|| {
            visitor.visit_seq(RepeatedSeq {
                de: &mut *de,
                items,
                index: 0,
            })
        })?;
        de.leave();
        de.pos = *at.last().expect("two occurrences");
        de.skip_value()?;
        Ok(value)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.last().deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.last().deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let at = self.after_last_null();
        let Some(&first) = at.first() else {
            return self.last().deserialize_map(visitor);
        };
        let de = self.de;
        de.pos = first;
        de.enter()?;
        let value = grow(|| visitor.visit_map(Map::new(&mut *de, at)))?;
        de.leave();
        Ok(value)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let at: Vec<usize> = self
            .at
            .iter()
            .copied()
            .filter(|&at| !self.is_null(at))
            .collect();
        if at.is_empty() {
            return self.last().deserialize_struct(name, fields, visitor);
        }
        self.de.careful_struct(
            fields,
            visitor,
            &at,
            None,
            go_zeros(name, fields),
            go_values(name, fields),
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.last_non_null()
            .deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
}

/// An enum written as `{"Variant": value}`.
struct Tagged<'a, 'de> {
    de: &'a mut De<'de>,
}

impl<'a, 'de> EnumAccess<'de> for Tagged<'a, 'de> {
    type Error = Error;
    type Variant = &'a mut De<'de>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self::Variant)> {
        if self.de.peek() != Some(b'"') {
            return Err(self
                .de
                .unexpected_char("looking for beginning of object key string"));
        }
        let tag = seed.deserialize(MapKey { de: &mut *self.de })?;
        self.de.expect(b':', "after object key")?;
        Ok((tag, self.de))
    }
}

impl<'de> VariantAccess<'de> for &mut De<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}
