//! Helpers for the topology-mutation hooks: patch typed templates instead of raw JSON.
//!
//! A GeneratePatches extension receives the templates of a Cluster's topology as JSON together
//! with variables, and answers with patches. With this module it registers one typed function
//! per template kind on a [`Walker`], reads variables (the builtin one included) through
//! [`Variables`], and lets the walker compute the patches from what the functions changed. The
//! same walker runs validators for ValidateTopology; why a walk failed is a [`WalkError`]. The
//! counterpart of Cluster API's `exp/runtime/topologymutation`. A unit test applies the answer
//! to the request's templates with [`apply_answer`] and reads them back typed with
//! [`templates`].

mod answer;
mod error;
mod patch;
pub mod paths;
mod variables;
mod walker;

pub use answer::{AnswerError, apply_answer, templates};
pub use error::WalkError;
pub use patch::{
    PatchError, PatchOperation, apply, apply_merge, diff, json_patch_between, merge_diff,
    merge_patch_between,
};
pub use variables::{VariableError, Variables};
pub use walker::{Template, TemplateContext, Walker, holder_ref};
