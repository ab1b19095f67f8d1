//! Walking the templates of GeneratePatches and ValidateTopology requests with typed
//! functions per template kind.

use std::fmt;

use k8s_openapi::ByteString;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::WalkError;
use super::patch;
use super::variables::{VariableError, Variables};
use crate::api::runtime::validation::parse_group_version;
use crate::go::errors::{BoxError, chain};
use crate::hooks::v1alpha1::{
    GeneratePatchesRequest, GeneratePatchesResponse, GeneratePatchesResponseItem, HolderReference,
    PatchType, ResponseStatus, ValidateTopologyRequest, ValidateTopologyRequestItem,
    ValidateTopologyResponse, Variable,
};
use crate::raw::RawExtension;

/// A template kind the walker can decode: its API group and kind. Any version of the group
/// decodes into the type; use [`TemplateContext::api_version`] where versions differ.
///
/// Types that do not model every field of the object lose nothing: patches only carry what the
/// function changed. Fields the type does not model are, however, absent from what the function
/// sees, and an array the function changes is written back whole, as the type serializes it.
pub trait Template: Serialize + DeserializeOwned + Send + 'static {
    /// The API group, e.g. `infrastructure.cluster.x-k8s.io`.
    const GROUP: &'static str;
    /// The kind, e.g. `DockerMachineTemplate`.
    const KIND: &'static str;
}

/// What a template function knows about the template it is given.
#[derive(Debug)]
pub struct TemplateContext<'a> {
    /// The object that uses the template.
    pub holder: &'a HolderReference,
    /// The variables that apply to the template: global ones merged with the item's.
    pub variables: &'a Variables,
    /// `apiVersion` of the template object.
    pub api_version: &'a str,
    /// `kind` of the template object.
    pub kind: &'a str,
}

impl TemplateContext<'_> {
    /// `group/version/kind` of the template, for logs.
    pub fn template_ref(&self) -> String {
        join_nonempty(&[self.api_version, self.kind])
    }

    /// `group/version/kind/namespace/name` of the holder, for logs.
    pub fn holder_ref(&self) -> String {
        holder_ref(self.holder)
    }

    /// The variable `V` declares, read into its type ([`Variables::variable`]): a function
    /// returns its error with `?`, and the Failure message names the variable and the path of
    /// the bad field.
    pub fn variable<V: crate::variable::Variable>(&self) -> Result<V, VariableError> {
        self.variables.variable::<V>()
    }

    /// The variable `V` declares, read into its type when the Cluster sets it, `None` when it
    /// does not ([`Variables::optional_variable`]): for a variable the class does not require.
    /// A value that does not fit the type is still an error.
    pub fn optional_variable<V: crate::variable::Variable>(
        &self,
    ) -> Result<Option<V>, VariableError> {
        self.variables.optional_variable::<V>()
    }
}

/// `group/version/kind/namespace/name` of a holder reference; empty parts are left out.
pub fn holder_ref(holder: &HolderReference) -> String {
    join_nonempty(&[
        &holder.api_version,
        &holder.kind,
        &holder.namespace,
        &holder.name,
    ])
}

fn join_nonempty(parts: &[&str]) -> String {
    parts
        .iter()
        .flat_map(|p| p.split('/'))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

type MutateFn =
    dyn Fn(&mut Object<'_>, &TemplateContext<'_>) -> Result<(), WalkError> + Send + Sync;
type ValidateFn =
    dyn Fn(&RawExtension, &TemplateContext<'_>) -> Result<(), WalkError> + Send + Sync;

/// The template of one item while its functions run: the text as received, and the JSON tree
/// only once a function has changed something (or asked for the tree), so that a function
/// that changes nothing costs one typed decoding from the text and no tree at all.
struct Object<'a> {
    raw: &'a RawExtension,
    modified: Option<Value>,
}

impl Object<'_> {
    /// The template as a typed value: decoded from the text as received, or, once an earlier
    /// function changed it, from the changed tree (written out and read with the same rules).
    fn decode<T: DeserializeOwned>(&self, ctx: &TemplateContext<'_>) -> Result<T, WalkError> {
        let decoded = match &self.modified {
            None => self.raw.decode(),
            Some(value) => RawExtension::from(value).decode(),
        };
        decoded.map_err(|source| WalkError::Decode {
            template: ctx.template_ref(),
            source,
        })
    }

    /// The tree, made from the text the first time it is needed.
    fn tree(&mut self, ctx: &TemplateContext<'_>) -> Result<&mut Value, WalkError> {
        if self.modified.is_none() {
            let value = self.raw.to_value().map_err(|source| WalkError::ToValue {
                template: ctx.template_ref(),
                source,
            })?;
            self.modified = Some(value);
        }
        Ok(self.modified.get_or_insert(Value::Null))
    }
}

struct Registration<F: ?Sized> {
    group: String,
    kind: String,
    holder_kind: Option<String>,
    run: Box<F>,
}

impl<F: ?Sized> Registration<F> {
    fn handles(&self, group: &str, kind: &str) -> bool {
        self.group == group && self.kind == kind
    }

    fn applies(&self, group: &str, kind: &str, holder: &HolderReference) -> bool {
        self.handles(group, kind) && self.holder_kind.as_ref().is_none_or(|k| *k == holder.kind)
    }
}

/// Runs typed functions over the templates of a GeneratePatches or ValidateTopology request,
/// chosen by template kind and, optionally, holder kind. The counterpart of upstream's
/// `WalkTemplates`.
///
/// A registered function returns `Result<(), E>` with any `E` that converts into a boxed error
/// (`E: Into<Box<dyn Error + Send + Sync>>`): a `String` or `&str`, any `std::error::Error +
/// Send + Sync + 'static` type (a [`VariableError`](super::VariableError) with `?`), a
/// `Box<dyn Error + Send + Sync>`, an `anyhow::Error`. The Failure message is the error with
/// its causes, [`chain(&err)`](crate::go::errors::chain), as Go's `err.Error()` prints a
/// wrapped error: a `VariableError` that did not decode shows the decoder's words too, a string
/// shows as it is. A type that is only `Display` converts with `.to_string()`. The error itself
/// is kept in [`WalkError::Function`] (see [`Walker::try_generate_patches`]).
///
/// ```
/// use capi_runtime::topology_mutation::{Template, Walker, paths};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize)]
/// struct DockerClusterTemplate {
///     #[serde(default)]
///     spec: serde_json::Value,
/// }
/// impl Template for DockerClusterTemplate {
///     const GROUP: &'static str = "infrastructure.cluster.x-k8s.io";
///     const KIND: &'static str = "DockerClusterTemplate";
/// }
///
/// let walker = Walker::new().mutate(|t: &mut DockerClusterTemplate, ctx| {
///     let version = ctx.variables.get_string(paths::builtin::CLUSTER_TOPOLOGY_VERSION)?;
///     t.spec["template"]["spec"]["version"] = version.into();
///     Ok::<_, capi_runtime::topology_mutation::VariableError>(())
/// });
/// # let _ = walker;
/// ```
pub struct Walker {
    fail_for_unknown_types: bool,
    patch_format: PatchType,
    mutators: Vec<Registration<MutateFn>>,
    validators: Vec<Registration<ValidateFn>>,
}

impl fmt::Debug for Walker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kinds = |r: &[Registration<_>]| r.iter().map(|r| r.kind.clone()).collect::<Vec<_>>();
        f.debug_struct("Walker")
            .field("fail_for_unknown_types", &self.fail_for_unknown_types)
            .field("patch_format", &self.patch_format)
            .field("mutators", &kinds(&self.mutators))
            .finish_non_exhaustive()
    }
}

impl Default for Walker {
    fn default() -> Self {
        Self::new()
    }
}

impl Walker {
    /// A walker with no functions, skipping unknown template kinds and producing JSON Patches.
    pub fn new() -> Self {
        Walker {
            fail_for_unknown_types: false,
            patch_format: PatchType::JsonPatch,
            mutators: Vec::new(),
            validators: Vec::new(),
        }
    }

    /// Answer Failure for a template no function is registered for, instead of skipping it.
    pub fn fail_for_unknown_types(mut self, fail: bool) -> Self {
        self.fail_for_unknown_types = fail;
        self
    }

    /// The patch format of GeneratePatches answers (JSON Patch by default).
    pub fn patch_format(mut self, format: PatchType) -> Self {
        self.patch_format = format;
        self
    }

    /// Registers `f` to change templates of type `T`, whatever holds them.
    pub fn mutate<T, E>(
        self,
        f: impl Fn(&mut T, &TemplateContext<'_>) -> Result<(), E> + Send + Sync + 'static,
    ) -> Self
    where
        T: Template,
        E: Into<BoxError>,
    {
        self.add_mutator::<T, E>(None, f)
    }

    /// Registers `f` to change templates of type `T` held by an object of `holder_kind`
    /// (see [`paths::holder_kind`](super::paths::holder_kind)).
    pub fn mutate_held_by<T, E>(
        self,
        holder_kind: &str,
        f: impl Fn(&mut T, &TemplateContext<'_>) -> Result<(), E> + Send + Sync + 'static,
    ) -> Self
    where
        T: Template,
        E: Into<BoxError>,
    {
        self.add_mutator::<T, E>(Some(holder_kind.to_string()), f)
    }

    fn add_mutator<T, E>(
        mut self,
        holder_kind: Option<String>,
        f: impl Fn(&mut T, &TemplateContext<'_>) -> Result<(), E> + Send + Sync + 'static,
    ) -> Self
    where
        T: Template,
        E: Into<BoxError>,
    {
        let run = move |object: &mut Object<'_>, ctx: &TemplateContext<'_>| {
            let mut typed: T = object.decode(ctx)?;
            let before = serde_json::to_value(&typed).map_err(WalkError::MarshalOriginal)?;
            f(&mut typed, ctx).map_err(function_error)?;
            let after = serde_json::to_value(&typed).map_err(WalkError::MarshalModified)?;
            if before != after {
                // Only what the function changed goes back onto the raw object; see `overlay`.
                patch::overlay(object.tree(ctx)?, &before, &after);
            }
            Ok(())
        };
        self.mutators.push(Registration {
            group: T::GROUP.to_string(),
            kind: T::KIND.to_string(),
            holder_kind,
            run: Box::new(run),
        });
        self
    }

    /// Registers `f` to change templates of a kind the extension has no type for, as JSON.
    pub fn mutate_json<E: Into<BoxError>>(
        mut self,
        group: &str,
        kind: &str,
        f: impl Fn(&mut Value, &TemplateContext<'_>) -> Result<(), E> + Send + Sync + 'static,
    ) -> Self {
        self.mutators.push(Registration {
            group: group.to_string(),
            kind: kind.to_string(),
            holder_kind: None,
            run: Box::new(move |object: &mut Object<'_>, ctx: &TemplateContext<'_>| {
                f(object.tree(ctx)?, ctx).map_err(function_error)
            }),
        });
        self
    }

    /// Registers `f` to check templates of type `T` in ValidateTopology.
    pub fn validate<T, E>(
        mut self,
        f: impl Fn(&T, &TemplateContext<'_>) -> Result<(), E> + Send + Sync + 'static,
    ) -> Self
    where
        T: Template,
        E: Into<BoxError>,
    {
        let run = move |object: &RawExtension, ctx: &TemplateContext<'_>| {
            let typed: T = object.decode().map_err(|source| WalkError::Decode {
                template: ctx.template_ref(),
                source,
            })?;
            f(&typed, ctx).map_err(function_error)
        };
        self.validators.push(Registration {
            group: T::GROUP.to_string(),
            kind: T::KIND.to_string(),
            holder_kind: None,
            run: Box::new(run),
        });
        self
    }

    /// Answers a GeneratePatches request: for every item, in request order, runs the functions
    /// registered for its template and adds a patch from the item's object to the result (an
    /// empty one when nothing changed). The first error stops the walk with a Failure response
    /// that keeps the patches made so far; its message is the error with its causes
    /// ([`chain`](crate::go::errors::chain) of the [`WalkError`]).
    pub fn generate_patches(&self, request: &GeneratePatchesRequest) -> GeneratePatchesResponse {
        let mut response = GeneratePatchesResponse::success();
        if let Err(error) = self.walk_patches(request, &mut response.items) {
            response.status = ResponseStatus::Failure;
            response.message = chain(&error).to_string();
        }
        response
    }

    /// The walk of [`generate_patches`](Self::generate_patches), with its error as a value: the
    /// Success response with every item's patch, or the first error (the patches made before it
    /// are dropped).
    pub fn try_generate_patches(
        &self,
        request: &GeneratePatchesRequest,
    ) -> Result<GeneratePatchesResponse, WalkError> {
        let mut response = GeneratePatchesResponse::success();
        self.walk_patches(request, &mut response.items)?;
        Ok(response)
    }

    fn walk_patches(
        &self,
        request: &GeneratePatchesRequest,
        items: &mut Vec<GeneratePatchesResponseItem>,
    ) -> Result<(), WalkError> {
        let global = Variables::from_list(&request.variables).map_err(WalkError::Variables)?;
        for item in &request.items {
            let patch = self.patch_item(
                &global,
                &item.variables,
                &item.holder_reference,
                &item.object,
            )?;
            if let Some(patch) = patch {
                items.push(GeneratePatchesResponseItem {
                    uid: item.uid.clone(),
                    patch_type: self.patch_format.clone(),
                    patch: ByteString(patch),
                });
            }
        }
        Ok(())
    }

    fn patch_item(
        &self,
        global: &Variables,
        item_variables: &[Variable],
        holder: &HolderReference,
        object: &RawExtension,
    ) -> Result<Option<Vec<u8>>, WalkError> {
        let item_variables = Variables::from_list(item_variables).map_err(WalkError::Variables)?;
        let variables =
            Variables::merge(&[global, &item_variables]).map_err(WalkError::Variables)?;
        let meta = type_meta(object);
        let (api_version, kind) = (meta.api_version.as_str(), meta.kind.as_str());
        let group = group_of(api_version);
        if !self.knows(group, kind) {
            return self.unknown(api_version, kind).map(|()| None);
        }
        check_holder_api_version(holder)?;
        let ctx = TemplateContext {
            holder,
            variables: &variables,
            api_version,
            kind,
        };
        tracing::debug!(template = %ctx.template_ref(), holder = %ctx.holder_ref(), "patching template");
        let mut modified = Object {
            raw: object,
            modified: None,
        };
        for mutator in self
            .mutators
            .iter()
            .filter(|m| m.applies(group, kind, holder))
        {
            (mutator.run)(&mut modified, &ctx)?;
        }
        // Unchanged: the empty patch of the format, from no tree at all.
        let (original, modified) = match modified.modified {
            Some(after) => (
                object.to_value().map_err(|source| WalkError::ToValue {
                    template: ctx.template_ref(),
                    source,
                })?,
                after,
            ),
            None => (
                Value::Object(Default::default()),
                Value::Object(Default::default()),
            ),
        };
        let patch = match &self.patch_format {
            PatchType::JsonPatch => serde_json::to_vec(&patch::diff(&original, &modified)),
            PatchType::JsonMergePatch => {
                serde_json::to_vec(&patch::merge_diff(&original, &modified))
            }
            PatchType::Other(other) => return Err(WalkError::UnknownPatchFormat(other.clone())),
        }
        .map_err(WalkError::MarshalPatch)?;
        Ok(Some(patch))
    }

    /// Answers a ValidateTopology request: runs the validators registered for each item's
    /// template. Every error is reported, one per line (each with its causes), in a Failure
    /// response.
    pub fn validate_topology(&self, request: &ValidateTopologyRequest) -> ValidateTopologyResponse {
        let errors = self.validation_errors(request);
        if errors.is_empty() {
            ValidateTopologyResponse::success()
        } else {
            let lines: Vec<String> = errors.iter().map(|e| chain(e).to_string()).collect();
            ValidateTopologyResponse::failure(lines.join("\n"))
        }
    }

    /// The errors [`validate_topology`](Self::validate_topology) reports, as values, in request
    /// order: at most one per item (its first), none when the topology is valid.
    pub fn validation_errors(&self, request: &ValidateTopologyRequest) -> Vec<WalkError> {
        let global = match Variables::from_list(&request.variables) {
            Ok(global) => global,
            Err(e) => return vec![WalkError::Variables(e)],
        };
        request
            .items
            .iter()
            .filter_map(|item| self.validate_item(&global, item).err())
            .collect()
    }

    fn validate_item(
        &self,
        global: &Variables,
        item: &ValidateTopologyRequestItem,
    ) -> Result<(), WalkError> {
        let item_variables = Variables::from_list(&item.variables).map_err(WalkError::Variables)?;
        let variables =
            Variables::merge(&[global, &item_variables]).map_err(WalkError::Variables)?;
        let object = &item.object;
        let meta = type_meta(object);
        let (api_version, kind) = (meta.api_version.as_str(), meta.kind.as_str());
        let group = group_of(api_version);
        if !self.knows(group, kind) {
            return self.unknown(api_version, kind);
        }
        check_holder_api_version(&item.holder_reference)?;
        let ctx = TemplateContext {
            holder: &item.holder_reference,
            variables: &variables,
            api_version,
            kind,
        };
        for validator in self
            .validators
            .iter()
            .filter(|v| v.applies(group, kind, &item.holder_reference))
        {
            (validator.run)(object, &ctx)?;
        }
        Ok(())
    }

    /// A template kind is known when any function, mutator or validator, is registered for it.
    fn knows(&self, group: &str, kind: &str) -> bool {
        self.mutators.iter().any(|m| m.handles(group, kind))
            || self.validators.iter().any(|v| v.handles(group, kind))
    }

    fn unknown(&self, api_version: &str, kind: &str) -> Result<(), WalkError> {
        if self.fail_for_unknown_types {
            Err(WalkError::UnknownKind {
                api_version: api_version.to_string(),
                kind: kind.to_string(),
            })
        } else {
            Ok(())
        }
    }
}

/// `apiVersion` and `kind` of a template object.
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(super) struct TypeMeta {
    pub(super) api_version: String,
    pub(super) kind: String,
}

/// The template's type metadata, read from its text without the rest of it; empty when the
/// template is not an object or they are not strings.
pub(super) fn type_meta(object: &RawExtension) -> TypeMeta {
    object.decode().unwrap_or_default()
}

/// The group of an apiVersion: empty for the core group (`v1`).
pub(super) fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// A holder apiVersion must be `<group>/<version>` or `<version>`, as Kubernetes parses it.
fn check_holder_api_version(holder: &HolderReference) -> Result<(), WalkError> {
    parse_group_version(&holder.api_version)
        .map(drop)
        .map_err(|source| WalkError::HolderApiVersion { source })
}

/// A function's error, kept as it was returned.
fn function_error(error: impl Into<BoxError>) -> WalkError {
    WalkError::Function(error.into())
}
