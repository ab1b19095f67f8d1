//! A GeneratePatches answer applied to its request's templates, as Cluster API applies it, and
//! the templates read back as types: what a unit test of a GeneratePatches handler checks.
//!
//! ```
//! use capi_runtime::hooks::v1alpha1::{
//!     GeneratePatchesRequest, GeneratePatchesRequestItem, HolderReference,
//! };
//! use capi_runtime::topology_mutation::{Template, Walker, apply_answer, templates};
//! use serde::{Deserialize, Serialize};
//! use serde_json::json;
//!
//! #[derive(Serialize, Deserialize)]
//! struct DockerMachineTemplate {
//!     spec: serde_json::Value,
//! }
//! impl Template for DockerMachineTemplate {
//!     const GROUP: &'static str = "infrastructure.cluster.x-k8s.io";
//!     const KIND: &'static str = "DockerMachineTemplate";
//! }
//!
//! let mut request = GeneratePatchesRequest::default();
//! request.items.push(GeneratePatchesRequestItem {
//!     uid: "1".into(),
//!     holder_reference: HolderReference {
//!         api_version: "cluster.x-k8s.io/v1beta2".into(),
//!         kind: "MachineDeployment".into(),
//!         name: "md-0".into(),
//!         field_path: "spec.template.spec.infrastructureRef".into(),
//!         ..Default::default()
//!     },
//!     object: json!({
//!         "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
//!         "kind": "DockerMachineTemplate",
//!         "spec": {"template": {"spec": {}}}
//!     })
//!     .into(),
//!     ..Default::default()
//! });
//! let walker = Walker::new().mutate(|t: &mut DockerMachineTemplate, _| {
//!     t.spec["template"]["spec"]["customImage"] = json!("kindest/node:v1.33.2");
//!     Ok::<_, std::convert::Infallible>(())
//! });
//! let answer = walker.generate_patches(&request);
//!
//! apply_answer(&mut request, &answer)?;
//! let patched = templates::<DockerMachineTemplate>(&request)?;
//! assert_eq!(patched[0].0.name, "md-0");
//! assert_eq!(patched[0].1.spec["template"]["spec"]["customImage"], "kindest/node:v1.33.2");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::hooks::v1alpha1::{
    GeneratePatchesRequest, GeneratePatchesResponse, HolderReference, PatchType, ResponseStatus,
};
use crate::raw::RawExtension;

use super::patch::{PatchError, PatchOperation, apply, apply_merge};
use super::walker::{Template, group_of, type_meta};

/// Why an answer could not be applied, or a template not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// The answer is a Failure: Cluster API applies nothing of it.
    #[error("the answer is a Failure: {message}")]
    Failed {
        /// The answer's message.
        message: String,
    },
    /// An item of the answer names a uid that no template of the request has.
    #[error("the answer patches uid {uid:?}, which no template of the request has")]
    UnknownUid {
        /// The uid as answered.
        uid: String,
    },
    /// An item's patch is not JSON of its patch type.
    #[error("the patch for uid {uid:?} is not a {patch_type}")]
    PatchText {
        /// The item's uid.
        uid: String,
        /// `JSONPatch` or `JSONMergePatch`.
        patch_type: &'static str,
        /// The JSON error.
        source: serde_json::Error,
    },
    /// An item's patch type is neither JSON Patch nor merge patch.
    #[error("the patch for uid {uid:?} has the unknown type {patch_type:?}")]
    PatchType {
        /// The item's uid.
        uid: String,
        /// The type as written.
        patch_type: String,
    },
    /// A JSON Patch does not apply to its template.
    #[error("the patch for uid {uid:?} does not apply")]
    Apply {
        /// The item's uid.
        uid: String,
        /// Why.
        source: PatchError,
    },
    /// A template is not JSON a `serde_json::Value` holds.
    #[error("the template of uid {uid:?} is not JSON")]
    Template {
        /// The item's uid.
        uid: String,
        /// Why.
        source: crate::raw::ToValueError,
    },
    /// A template does not decode into the type asked for.
    #[error("the template of uid {uid:?} does not decode into {kind}")]
    Decode {
        /// The item's uid.
        uid: String,
        /// The kind asked for.
        kind: &'static str,
        /// The decoder's error.
        source: crate::wire::DecodeError,
    },
}

/// Applies `answer`'s patches to `request`'s templates: each item's patch, a JSON Patch or a
/// merge patch, to the template of the same uid (what Cluster API's topology controller does
/// with an external patch's answer; not compared with it by a test). All or nothing: on error `request` is left as it was.
///
/// A template the answer does not name stays as it was; an answer may name a template with an
/// empty patch (`[]`).
pub fn apply_answer(
    request: &mut GeneratePatchesRequest,
    answer: &GeneratePatchesResponse,
) -> Result<(), AnswerError> {
    if answer.status == ResponseStatus::Failure {
        return Err(AnswerError::Failed {
            message: answer.message.clone(),
        });
    }
    let mut patched = Vec::with_capacity(answer.items.len());
    for item in &answer.items {
        let Some(index) = request.items.iter().position(|i| i.uid == item.uid) else {
            return Err(AnswerError::UnknownUid {
                uid: item.uid.clone(),
            });
        };
        // A template patched by an earlier item of the same answer carries that change.
        let mut object =
            match patched.iter().position(|(i, _)| *i == index) {
                Some(at) => patched.swap_remove(at).1,
                None => request.items[index].object.to_value().map_err(|source| {
                    AnswerError::Template {
                        uid: item.uid.clone(),
                        source,
                    }
                })?,
            };
        let text = |patch_type| {
            move |source| AnswerError::PatchText {
                uid: item.uid.clone(),
                patch_type,
                source,
            }
        };
        match &item.patch_type {
            PatchType::JsonPatch => {
                let ops: Vec<PatchOperation> =
                    serde_json::from_slice(&item.patch.0).map_err(text("JSONPatch"))?;
                apply(&mut object, &ops).map_err(|source| AnswerError::Apply {
                    uid: item.uid.clone(),
                    source,
                })?;
            }
            PatchType::JsonMergePatch => {
                let patch: serde_json::Value =
                    serde_json::from_slice(&item.patch.0).map_err(text("JSONMergePatch"))?;
                apply_merge(&mut object, &patch);
            }
            PatchType::Other(other) => {
                return Err(AnswerError::PatchType {
                    uid: item.uid.clone(),
                    patch_type: other.clone(),
                });
            }
        }
        patched.push((index, object));
    }
    for (index, object) in patched {
        request.items[index].object = RawExtension::from(&object);
    }
    Ok(())
}

/// The request's templates of `T`'s group and kind (any version), each with the reference of
/// the object that uses it, decoded as the walker decodes them, in the request's order.
pub fn templates<T: Template>(
    request: &GeneratePatchesRequest,
) -> Result<Vec<(&HolderReference, T)>, AnswerError> {
    let mut found = Vec::new();
    for item in &request.items {
        let meta = type_meta(&item.object);
        if group_of(&meta.api_version) != T::GROUP || meta.kind != T::KIND {
            continue;
        }
        let template = item.object.decode().map_err(|source| AnswerError::Decode {
            uid: item.uid.clone(),
            kind: T::KIND,
            source,
        })?;
        found.push((&item.holder_reference, template));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::hooks::v1alpha1::{GeneratePatchesRequestItem, GeneratePatchesResponseItem};
    use k8s_openapi::ByteString;

    fn request() -> GeneratePatchesRequest {
        let mut request = GeneratePatchesRequest::default();
        for uid in ["a", "b"] {
            request.items.push(GeneratePatchesRequestItem {
                uid: uid.into(),
                object: json!({"kind": "T", "spec": {"x": 1}}).into(),
                ..Default::default()
            });
        }
        request
    }

    fn item(
        uid: &str,
        patch_type: PatchType,
        patch: serde_json::Value,
    ) -> GeneratePatchesResponseItem {
        GeneratePatchesResponseItem {
            uid: uid.into(),
            patch_type,
            patch: ByteString(patch.to_string().into_bytes()),
        }
    }

    fn answer(items: Vec<GeneratePatchesResponseItem>) -> GeneratePatchesResponse {
        GeneratePatchesResponse {
            status: ResponseStatus::Success,
            items,
            ..Default::default()
        }
    }

    fn spec(request: &GeneratePatchesRequest, index: usize) -> serde_json::Value {
        request.items[index].object.to_value().unwrap()["spec"].clone()
    }

    #[test]
    fn both_patch_types_apply_to_their_uid_in_order() {
        let mut request = request();
        let answer = answer(vec![
            item(
                "b",
                PatchType::JsonPatch,
                json!([{"op": "replace", "path": "/spec/x", "value": 2}]),
            ),
            item("b", PatchType::JsonMergePatch, json!({"spec": {"y": 3}})),
            item("a", PatchType::JsonPatch, json!([])),
        ]);
        apply_answer(&mut request, &answer).unwrap();
        assert_eq!(spec(&request, 0), json!({"x": 1}));
        assert_eq!(spec(&request, 1), json!({"x": 2, "y": 3}));
    }

    #[test]
    fn a_bad_item_changes_nothing_and_names_its_uid() {
        let cases = [
            (
                item("z", PatchType::JsonPatch, json!([])),
                "the answer patches uid \"z\", which no template of the request has",
            ),
            (
                item("b", PatchType::JsonPatch, json!({"op": "add"})),
                "the patch for uid \"b\" is not a JSONPatch",
            ),
            (
                item(
                    "b",
                    PatchType::JsonPatch,
                    json!([{"op": "remove", "path": "/spec/nope"}]),
                ),
                "the patch for uid \"b\" does not apply",
            ),
        ];
        for (bad, message) in cases {
            let mut request = request();
            let good = item("a", PatchType::JsonMergePatch, json!({"spec": {"x": 9}}));
            let err = apply_answer(&mut request, &answer(vec![good, bad])).unwrap_err();
            assert_eq!(err.to_string(), message);
            assert_eq!(spec(&request, 0), json!({"x": 1}), "{message}");
        }
    }

    #[test]
    fn a_failure_applies_nothing() {
        let mut request = request();
        let mut failed = answer(vec![item(
            "a",
            PatchType::JsonMergePatch,
            json!({"spec": {"x": 9}}),
        )]);
        failed.status = ResponseStatus::Failure;
        failed.message = "no registry".into();
        let err = apply_answer(&mut request, &failed).unwrap_err();
        assert_eq!(err.to_string(), "the answer is a Failure: no registry");
        assert_eq!(spec(&request, 0), json!({"x": 1}));
    }
}
