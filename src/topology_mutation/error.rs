//! Why a walk over the templates of a request failed.

use crate::api::runtime::validation::GroupVersionError;
use crate::go::errors::BoxError;

use super::variables::VariableError;

/// Why the [`Walker`](super::Walker) could not patch or check a template: its own failures, and
/// the error a registered function returned.
///
/// Each variant's `Display` is its own layer and `source()` its cause; the Failure message of
/// the answer is the whole chain on one line, [`chain(&err)`](crate::go::errors::chain), which
/// is Cluster API's text where its walker has the same failure. [`WalkError::Function`] and
/// [`WalkError::Variables`] add no layer: their text is that of the error they hold.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// The item's variables do not merge with the request's (a builtin variable that is not
    /// Cluster API's shape).
    #[error(transparent)]
    Variables(VariableError),
    /// No function is registered for the template's kind and the walker was told to
    /// [fail for unknown types](super::Walker::fail_for_unknown_types).
    #[error("no kind \"{kind}\" is registered for version \"{api_version}\"")]
    UnknownKind {
        /// `apiVersion` of the template.
        api_version: String,
        /// `kind` of the template.
        kind: String,
    },
    /// The holder's `apiVersion` is not `<group>/<version>` or `<version>`.
    #[error(
        "error generating patches - HolderReference apiVersion \"{}\" is not in valid format",
        source.api_version
    )]
    HolderApiVersion {
        /// Why the apiVersion does not parse; it holds the apiVersion as written.
        source: GroupVersionError,
    },
    /// The template does not decode into the function's type (read with the wire codec's
    /// rules, as a message is).
    #[error("failed to decode {template}")]
    Decode {
        /// `group/version/kind` of the template.
        template: String,
        /// The decoder's error.
        source: crate::wire::DecodeError,
    },
    /// The template holds a number that a `serde_json::Value` cannot (beyond `f64`'s range),
    /// and a function needs it as one to patch it.
    #[error("failed to read {template} as JSON")]
    ToValue {
        /// `group/version/kind` of the template.
        template: String,
        /// Why it has no `serde_json::Value`.
        source: crate::raw::ToValueError,
    },
    /// The decoded template does not serialize back to JSON.
    #[error("failed to marshal original object")]
    MarshalOriginal(#[source] serde_json::Error),
    /// The template, as the function changed it, does not serialize to JSON.
    #[error("failed to marshal modified object")]
    MarshalModified(#[source] serde_json::Error),
    /// The patch does not serialize to JSON.
    #[error("failed to marshal patch")]
    MarshalPatch(#[source] serde_json::Error),
    /// The walker was set to a patch format it cannot write
    /// ([`PatchType::Other`](crate::hooks::v1alpha1::PatchType::Other)); the
    /// format as written.
    #[error("unknown patch format {0:?}")]
    UnknownPatchFormat(String),
    /// A registered function failed. Its error is kept as it was returned (a `String` becomes
    /// an error of that text), so `downcast_ref` finds the function's own type.
    #[error(transparent)]
    Function(BoxError),
}
