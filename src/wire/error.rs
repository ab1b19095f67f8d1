//! Why a body could not be decoded: the public [`DecodeError`], and the error the decoder
//! carries out of the types' `Deserialize` impls on its way there.

use std::fmt;

use serde::de;

/// What kind of problem a [`DecodeError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The body is not well-formed JSON (or is empty).
    Syntax,
    /// A value has the wrong JSON type for its field, or a value the type does not accept.
    Type,
    /// A number that the field's type cannot hold (a fraction for an integer, out of range).
    Number,
    /// Something other than white space follows the value.
    TrailingData,
    /// Arrays and objects nest deeper than [`Limits::max_depth`](super::Limits::max_depth).
    TooDeep,
    /// The decoded value would take more than
    /// [`Limits::memory_budget`](super::Limits::memory_budget).
    OverBudget,
    /// [`Limits::deadline`](super::Limits::deadline) passed while decoding.
    Timeout,
    /// The decoded message could not be converted to the caller's version of the hook.
    Conversion,
}

/// Why a body could not be decoded: the kind, Go-style message, the JSON path of the value
/// (`.items[3].object`, empty for the whole body) and the byte offset in the body.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct DecodeError {
    kind: DecodeErrorKind,
    message: String,
    path: String,
    offset: Option<usize>,
    /// Refused because the [`SharedBudget`](super::SharedBudget) was used up, not the
    /// message's own budget.
    shared_budget: bool,
}

impl DecodeError {
    /// An error of kind [`DecodeErrorKind::Conversion`] with this message.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn new(message: impl Into<String>) -> Self {
        DecodeError {
            kind: DecodeErrorKind::Conversion,
            message: message.into(),
            path: String::new(),
            offset: None,
            shared_budget: false,
        }
    }

    /// The public form of the decoder's error.
    pub(super) fn from_de(e: Error, shared_budget: bool) -> Self {
        DecodeError {
            kind: e.kind(),
            path: e.path(),
            offset: e.offset(),
            message: e.0.message,
            shared_budget,
        }
    }

    /// The same error with another message (path and offset kept).
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    fn render(&self) -> String {
        let mut out = self.message.clone();
        if !self.path.is_empty() {
            out.push_str(&format!(" at {}", self.path));
        }
        if let Some(offset) = self.offset {
            out.push_str(&format!(" (byte {offset})"));
        }
        out
    }

    /// The kind of problem.
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The message alone, without path and offset.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The JSON path of the offending value, e.g. `.items[3].object` (empty: the whole body).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The byte offset in the body where the problem was found.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// True when the body was refused for a limit of this side (memory budget, nesting depth),
    /// not because the peer wrote something Go would refuse.
    pub fn is_limit(&self) -> bool {
        matches!(
            self.kind,
            DecodeErrorKind::OverBudget | DecodeErrorKind::TooDeep
        )
    }

    /// True when the body was refused ([`DecodeErrorKind::OverBudget`]) because the
    /// [`SharedBudget`](super::SharedBudget) was used up by other messages held at once,
    /// although the message itself is within its own memory budget: the same body may fit
    /// later.
    pub fn is_shared_budget(&self) -> bool {
        self.shared_budget
    }
}

/// A decoding failure on its way out: kind, message, where it happened.
pub(super) struct Error(Box<Inner>);

struct Inner {
    kind: DecodeErrorKind,
    message: String,
    offset: Option<usize>,
    /// Innermost segment first.
    path: Vec<Seg>,
}

/// One step of the JSON path of a failure.
pub(super) enum Seg {
    Field(&'static str),
    Index(usize),
    /// A map key, as read.
    Key(String),
}

pub(super) type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(super) fn new(
        kind: DecodeErrorKind,
        message: impl Into<String>,
        offset: Option<usize>,
    ) -> Self {
        Error(Box::new(Inner {
            kind,
            message: message.into(),
            offset,
            path: Vec::new(),
        }))
    }

    /// What the fast pass returns once it has asked for the careful mode. The caller looks at
    /// `De::needs_careful` first, so this error is never shown, whatever a `Deserialize` impl
    /// on the way out did with it.
    pub(super) fn abandoned() -> Self {
        Error::new(
            DecodeErrorKind::Syntax,
            "a struct key repeats: the message is decoded again in the careful mode",
            None,
        )
    }

    /// The same error one level out: inside `seg`, whose value starts at `start`.
    pub(super) fn within(mut self, seg: Seg, start: usize) -> Self {
        self.0.path.push(seg);
        self.0.offset.get_or_insert(start);
        self
    }

    /// The same error found at `offset` (when it has no place yet).
    pub(super) fn at(mut self, offset: usize) -> Self {
        self.0.offset = Some(offset);
        self
    }

    pub(super) fn kind(&self) -> DecodeErrorKind {
        self.0.kind
    }

    pub(super) fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// The JSON path, e.g. `.items[3].object`.
    fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.0.path.iter().rev() {
            match seg {
                Seg::Field(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                Seg::Index(i) => out.push_str(&format!("[{i}]")),
                Seg::Key(key) => {
                    out.push('[');
                    out.push_str(&serde_json::to_string(key).unwrap_or_default());
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
        Error::new(DecodeErrorKind::Type, msg.to_string(), None)
    }
}
