//! Why a conversion between two versions of a type failed.
//!
//! The generated conversions (`TryFrom<&A> for B` between the versions of a custom resource or
//! a hook message), the functions that complete them (`#[schema(to_hub = ..., from_hub =
//! ...)]`), the catalog's hook-version conversions and the per-kind JSON conversion functions
//! (`api::runtime::convert_extension_config`, what a ConversionReview handler calls) all fail
//! with a [`ConversionError`]: the field path where it happened and the reason. Pure data,
//! below the catalog.

use std::fmt;
use std::sync::Arc;

/// A failed conversion: where (a field path such as `status.handlers[0].name`, empty for the
/// object itself) and why. One pointer wide, so `Result`s of conversions stay small.
#[derive(Clone, Debug)]
pub struct ConversionError(Box<Inner>);

#[derive(Clone, Debug)]
struct Inner {
    path: String,
    kind: ConversionErrorKind,
}

/// Why a conversion failed.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ConversionErrorKind {
    /// A value has no counterpart in the target version; the text says why (written by a
    /// completion function or a catalog conversion).
    Invalid(String),
    /// The object's `apiVersion`, or the version asked for, is not a version of the kind.
    UnknownVersion {
        /// The `apiVersion` given.
        api_version: String,
        /// The versions the conversion knows.
        known: &'static [&'static str],
    },
    /// The object's `kind` is not the kind being converted.
    WrongKind {
        /// The `kind` given (empty when absent).
        kind: String,
        /// The kind the conversion converts.
        expected: &'static str,
    },
    /// The object is not a JSON object with a string `apiVersion`, or does not decode as its
    /// version's type (the decoder's error is the [`source`](std::error::Error::source)).
    Malformed(Option<Arc<serde_json::Error>>),
    /// The converted object could not be written as JSON (the cause is the source).
    Encode(Arc<serde_json::Error>),
}

impl ConversionError {
    /// A value that cannot be converted, for the reason given.
    pub fn invalid(reason: impl Into<String>) -> Self {
        Self::new(ConversionErrorKind::Invalid(reason.into()))
    }

    /// An error of this kind at the object itself.
    pub fn new(kind: ConversionErrorKind) -> Self {
        ConversionError(Box::new(Inner {
            path: String::new(),
            kind,
        }))
    }

    /// The field path, in JSON names (`spec.clientConfig`, `status.handlers[0]`,
    /// `spec.settings[key]`); empty when the error concerns the object itself.
    pub fn path(&self) -> &str {
        &self.0.path
    }

    /// Why the conversion failed.
    pub fn kind(&self) -> &ConversionErrorKind {
        &self.0.kind
    }

    /// The same error, one field further out: `field` is prefixed to the path.
    pub fn at(self, field: &str) -> Self {
        self.prefixed(field.to_string())
    }

    /// The same error inside list element `index`.
    pub fn at_index(self, index: usize) -> Self {
        self.prefixed(format!("[{index}]"))
    }

    /// The same error inside the map entry `key`.
    pub fn at_key(self, key: &str) -> Self {
        self.prefixed(format!("[{key}]"))
    }

    fn prefixed(mut self, outer: String) -> Self {
        let path = &mut self.0.path;
        *path = if path.is_empty() || path.starts_with('[') {
            outer + path
        } else {
            format!("{outer}.{path}")
        };
        self
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path().is_empty() {
            write!(f, "{}: ", self.path())?;
        }
        match self.kind() {
            ConversionErrorKind::Invalid(reason) => f.write_str(reason),
            ConversionErrorKind::UnknownVersion { api_version, known } => write!(
                f,
                "unknown apiVersion {api_version:?} (known: {})",
                known.join(", ")
            ),
            ConversionErrorKind::WrongKind { kind, expected } => {
                write!(f, "kind {kind:?} is not {expected}")
            }
            ConversionErrorKind::Malformed(None) => {
                f.write_str("not an object with a string apiVersion")
            }
            ConversionErrorKind::Malformed(Some(_)) => {
                f.write_str("the object does not decode as its version")
            }
            ConversionErrorKind::Encode(_) => f.write_str("the converted object cannot be encoded"),
        }
    }
}

/// A value of the source version that the target version has no place for. A conversion that
/// leaves such values out says which ([`crate::api::core::v1beta1::unconverted`]), so that no
/// value is dropped without a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unconverted {
    path: String,
    reason: &'static str,
    routine: bool,
}

impl Unconverted {
    /// The value at `path` (JSON names, `spec.topology.rolloutAfter`), left out for `reason`.
    pub fn new(path: impl Into<String>, reason: &'static str) -> Self {
        Unconverted {
            path: path.into(),
            reason,
            routine: false,
        }
    }

    /// The same, for a value that its sender writes every time and that says nothing the
    /// target version does not already imply (a v1beta1 reference's namespace when it is the
    /// Cluster's own, where every v1beta2 reference points; the version in its `apiVersion`,
    /// which v1beta2 leaves to the group's served version). Cluster API's own conversion drops
    /// it the same way.
    pub fn routine(path: impl Into<String>, reason: &'static str) -> Self {
        Unconverted {
            routine: true,
            ..Unconverted::new(path, reason)
        }
    }

    /// Whether the value is one of those [`Unconverted::routine`] describes: still reported,
    /// but no sign that anything a handler could act on was left out. The server logs these
    /// at debug level, the others at warning level.
    pub fn is_routine(&self) -> bool {
        self.routine
    }

    /// Where the value is in the source object, in JSON names.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why the target version cannot hold it.
    pub fn reason(&self) -> &str {
        self.reason
    }

    /// The same, inside the field `field` of an enclosing object.
    pub fn at(mut self, field: &str) -> Self {
        self.path = format!("{field}.{}", self.path);
        self
    }
}

impl fmt::Display for Unconverted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: not converted: {}", self.path, self.reason)
    }
}

impl std::error::Error for ConversionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.kind() {
            ConversionErrorKind::Malformed(Some(e)) | ConversionErrorKind::Encode(e) => Some(&**e),
            _ => None,
        }
    }
}
