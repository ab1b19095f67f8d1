//! The catalog: which hooks exist, keyed by group, version and hook name.
//!
//! The counterpart of Cluster API's `runtime/catalog`. Hooks are registered explicitly
//! ([`crate::hooks::catalog`] registers the built-in ones); lookups are by
//! [`HookId`]. Conversions between versions of the same hook are registered here too,
//! so a caller holding the newest request type can talk to a handler of an older version.
//! Pure data: no I/O, no global state.

use std::any::{Any, TypeId, type_name};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::api::runtime::validation::{GroupVersionError, parse_group_version};
use crate::conversion::ConversionError;
use crate::hook::{Hook, HookMeta};
use crate::schema::{HookInfo, HookSchema};
use crate::wire::{self, DecodeError};

/// Identifies a hook in the catalog: API group, version and hook name (Cluster API's
/// `runtimecatalog.GroupVersionHook`).
///
/// Not to be confused with the wire types named `GroupVersionHook` (in
/// [`hooks::v1alpha1`](crate::hooks::v1alpha1::GroupVersionHook) and both ExtensionConfig
/// versions), which carry `apiVersion` and `hook` as strings: a `HookId` converts into each
/// of them with `From`, and back with `TryFrom`, which splits the `apiVersion` as Kubernetes'
/// `ParseGroupVersion` does (the registry's rule).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HookId {
    /// API group, e.g. `hooks.runtime.cluster.x-k8s.io`.
    pub group: String,
    /// API version, e.g. `v1alpha1`.
    pub version: String,
    /// Hook name, e.g. `BeforeClusterCreate`.
    pub hook: String,
}

impl HookId {
    /// A GVH from its parts.
    pub fn new(
        group: impl Into<String>,
        version: impl Into<String>,
        hook: impl Into<String>,
    ) -> Self {
        HookId {
            group: group.into(),
            version: version.into(),
            hook: hook.into(),
        }
    }

    /// The GVH of hook `H`.
    pub fn of<H: Hook>() -> Self {
        Self::new(H::GROUP, H::VERSION, H::NAME)
    }

    /// Parses an `apiVersion` (`<group>/<version>`) and a hook name, as they appear in a
    /// Discovery response. `None` when the apiVersion is not of that form (see
    /// [`validation::parse_hook_api_version`](crate::api::runtime::validation::parse_hook_api_version)).
    pub fn from_api_version(api_version: &str, hook: &str) -> Option<Self> {
        let (group, version) =
            crate::api::runtime::validation::parse_hook_api_version(api_version)?;
        Some(Self::new(group, version, hook))
    }

    /// True when group, version and hook are all empty.
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.version.is_empty() && self.hook.is_empty()
    }

    /// `<group>/<version>`.
    pub fn api_version(&self) -> String {
        format!("{}/{}", self.group, self.version)
    }

    /// The group and hook, without the version.
    pub fn group_hook(&self) -> GroupHook {
        GroupHook {
            group: self.group.clone(),
            hook: self.hook.clone(),
        }
    }
}

impl fmt::Display for HookId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Hook={}", self.group, self.version, self.hook)
    }
}

impl HookId {
    /// The hook identified by a wire `GroupVersionHook`'s `apiVersion` and `hook`.
    pub(crate) fn from_wire(api_version: &str, hook: &str) -> Result<Self, GroupVersionError> {
        let (group, version) = parse_group_version(api_version)?;
        Ok(HookId::new(group, version, hook))
    }
}

/// The conversions between [`HookId`] and a wire `GroupVersionHook` type, invoked where each
/// wire type is defined or known (the hook versions sit above the catalog).
macro_rules! wire_hook_id {
    ($($wire:ty),*) => {$(
        impl From<&$crate::catalog::HookId> for $wire {
            fn from(id: &$crate::catalog::HookId) -> Self {
                Self {
                    api_version: id.api_version(),
                    hook: id.hook.clone(),
                }
            }
        }

        impl From<$crate::catalog::HookId> for $wire {
            fn from(id: $crate::catalog::HookId) -> Self {
                Self::from(&id)
            }
        }

        impl TryFrom<&$wire> for $crate::catalog::HookId {
            type Error = $crate::api::runtime::validation::GroupVersionError;

            fn try_from(wire: &$wire) -> Result<Self, Self::Error> {
                Self::from_wire(&wire.api_version, &wire.hook)
            }
        }

        impl TryFrom<$wire> for $crate::catalog::HookId {
            type Error = $crate::api::runtime::validation::GroupVersionError;

            fn try_from(wire: $wire) -> Result<Self, Self::Error> {
                Self::try_from(&wire)
            }
        }
    )*};
}
pub(crate) use wire_hook_id;

wire_hook_id!(
    crate::api::runtime::v1alpha1::GroupVersionHook,
    crate::api::runtime::v1beta2::GroupVersionHook
);

/// A hook in any version: group and hook name.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupHook {
    /// API group.
    pub group: String,
    /// Hook name.
    pub hook: String,
}

impl GroupHook {
    /// A group and hook name, e.g. `GroupHook::new("hooks.runtime.cluster.x-k8s.io",
    /// "BeforeClusterCreate")`.
    pub fn new(group: impl Into<String>, hook: impl Into<String>) -> Self {
        GroupHook {
            group: group.into(),
            hook: hook.into(),
        }
    }

    /// The group and name of hook `H`.
    pub fn of<H: Hook>() -> Self {
        Self::new(H::GROUP, H::NAME)
    }
}

impl fmt::Display for GroupHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.hook)
        } else {
            write!(f, "{}.{}", self.hook, self.group)
        }
    }
}

/// The URL path of a hook handler: `/<group>/<version>/<hook>` and, when `name` is not empty,
/// `/<name>`. Hook and name are lower-cased; group and version are used as they are.
///
/// ```
/// use capi_runtime::catalog::{HookId, gvh_to_path};
/// let gvh = HookId::new("hooks.runtime.cluster.x-k8s.io", "v1alpha1", "BeforeClusterCreate");
/// assert_eq!(
///     gvh_to_path(&gvh, "My-Handler"),
///     "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/my-handler"
/// );
/// ```
pub fn gvh_to_path(gvh: &HookId, name: &str) -> String {
    let mut path = format!("/{}/{}/{}", gvh.group, gvh.version, gvh.hook.to_lowercase());
    if !name.is_empty() {
        path.push('/');
        path.push_str(&name.to_lowercase());
    }
    path
}

/// Everything the catalog knows about one hook (new fields may be added).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HookDescriptor {
    /// The hook's identity.
    pub gvh: HookId,
    /// The `kind` of its request.
    pub request_kind: &'static str,
    /// The `kind` of its response.
    pub response_kind: &'static str,
    /// Whether its response carries `retryAfterSeconds`.
    pub retryable: bool,
    /// Documentation metadata.
    pub meta: HookMeta,
    /// The generator's model of the hook, when it was registered with
    /// [`Catalog::register_described`]; serving and calling the hook never need it.
    pub info: Option<fn() -> &'static HookInfo>,
    hook_type: TypeId,
    request_type: TypeId,
    response_type: TypeId,
    encode_request: fn(&dyn Any) -> Result<Vec<u8>, wire::EncodeError>,
    decode_response: DecodeResponse,
}

/// Decodes a response body of one hook version within the limits: the response
/// (type-erased), the `status` the extension wrote and what decoding took of the limits'
/// shared budget.
type DecodeResponse = fn(&[u8], &wire::Limits) -> Result<DecodedResponse, DecodeError>;

/// A type-erased response, its raw `status` and its share of the shared decode budget.
pub(crate) type DecodedResponse = (Box<dyn Any + Send>, String, wire::BudgetHold);

/// The request of hook `H` (given type-erased) as JSON, with its `apiVersion` and `kind` set.
fn encode_request<H: Hook>(request: &dyn Any) -> Result<Vec<u8>, wire::EncodeError> {
    let request = request
        .downcast_ref::<H::Request>()
        .ok_or_else(|| wire::EncodeError::other_type(H::REQUEST_KIND))?;
    wire::encode_request::<H>(request)
}

/// A response body of hook `H`, decoded by the wire codec (Go's rules).
fn decode_response<H: Hook>(
    bytes: &[u8],
    limits: &wire::Limits,
) -> Result<DecodedResponse, DecodeError> {
    let (response, wire::RawStatus(status), hold) =
        wire::decode_response_raw_with::<H::Response>(bytes, limits)?;
    Ok((Box::new(response), status, hold))
}

impl HookDescriptor {
    /// The path of the hook for handler `name` (or the singleton path when `name` is empty).
    pub fn path(&self, name: &str) -> String {
        gvh_to_path(&self.gvh, name)
    }

    /// The type of the hook's request.
    pub fn request_type(&self) -> TypeId {
        self.request_type
    }

    /// The type of the hook's response.
    pub fn response_type(&self) -> TypeId {
        self.response_type
    }

    /// Serializes a request of this hook, given type-erased (it must be of
    /// [`HookDescriptor::request_type`]), with its `apiVersion` and `kind` set.
    pub fn encode_request(&self, request: &dyn Any) -> Result<Vec<u8>, wire::EncodeError> {
        (self.encode_request)(request)
    }

    /// Decodes a response body of this hook with the wire codec (Go's rules) within `limits`:
    /// the response, of [`HookDescriptor::response_type`], and the `status` the extension
    /// wrote, with what decoding took of the limits' shared budget.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn decode_response_with(
        &self,
        bytes: &[u8],
        limits: &wire::Limits,
    ) -> Result<DecodedResponse, DecodeError> {
        (self.decode_response)(bytes, limits)
    }
}

/// Why a registration, lookup or conversion failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogError {
    /// Group or version is empty.
    #[error("hook {hook} has an empty group or version")]
    EmptyGroupVersion {
        /// The hook.
        hook: String,
    },
    /// Another hook type already uses this GVH.
    #[error("hook {gvh} is already registered by {existing}")]
    DuplicateHook {
        /// The hook.
        gvh: HookId,
        /// The type that registered it first.
        existing: &'static str,
    },
    /// Another type already uses this kind in this group/version.
    #[error("kind {kind} in {api_version} already belongs to another type")]
    DuplicateKind {
        /// `<group>/<version>`.
        api_version: String,
        /// The kind.
        kind: String,
    },
    /// The hook is not registered.
    #[error("hook {0} is not registered")]
    UnknownHook(HookId),
    /// No conversion is registered between the two types.
    #[error("no conversion from {from} to {to}")]
    NoConversion {
        /// The source type.
        from: &'static str,
        /// The target type.
        to: &'static str,
    },
    /// The registered conversion refused the value.
    #[error("converting {from} to {to}")]
    Conversion {
        /// The source type.
        from: &'static str,
        /// The target type.
        to: &'static str,
        /// Where and why it failed.
        #[source]
        source: ConversionError,
    },
}

type Converter = Box<dyn Fn(&dyn Any) -> Result<Box<dyn Any>, ConversionError> + Send + Sync>;

/// The registry of hooks and of conversions between hook versions.
#[derive(Default)]
pub struct Catalog {
    hooks: BTreeMap<HookId, HookDescriptor>,
    hook_names: HashMap<TypeId, &'static str>,
    kinds: HashMap<(String, String), TypeId>,
    conversions: HashMap<(TypeId, TypeId), Converter>,
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field("hooks", &self.hooks.keys().collect::<Vec<_>>())
            .field("conversions", &self.conversions.len())
            .finish()
    }
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers hook `H`. Registering the same hook again does nothing; another hook type with
    /// the same GVH, or a request/response kind already used by another type in the same
    /// group/version, is an error.
    pub fn register<H: Hook>(&mut self) -> Result<&mut Self, CatalogError> {
        self.add::<H>(None)
    }

    /// [`Catalog::register`], keeping the generator's model of the hook
    /// ([`HookDescriptor::info`]) for callers that build an OpenAPI document from the catalog.
    /// Registering a hook again with its model adds the model.
    pub fn register_described<H: Hook + HookSchema>(&mut self) -> Result<&mut Self, CatalogError> {
        self.add::<H>(Some(H::hook_info))
    }

    fn add<H: Hook>(
        &mut self,
        info: Option<fn() -> &'static HookInfo>,
    ) -> Result<&mut Self, CatalogError> {
        let gvh = HookId::of::<H>();
        if gvh.group.is_empty() || gvh.version.is_empty() {
            return Err(CatalogError::EmptyGroupVersion {
                hook: H::NAME.to_string(),
            });
        }
        let hook_type = TypeId::of::<H>();
        if let Some(existing) = self.hooks.get_mut(&gvh) {
            if existing.hook_type == hook_type {
                existing.info = existing.info.or(info);
                return Ok(self);
            }
            return Err(CatalogError::DuplicateHook {
                gvh,
                existing: self.hook_names[&existing.hook_type],
            });
        }
        let api_version = gvh.api_version();
        let request_type = TypeId::of::<H::Request>();
        let response_type = TypeId::of::<H::Response>();
        for (kind, ty) in [
            (H::REQUEST_KIND, request_type),
            (H::RESPONSE_KIND, response_type),
        ] {
            if let Some(other) = self.kinds.get(&(api_version.clone(), kind.to_string()))
                && *other != ty
            {
                return Err(CatalogError::DuplicateKind {
                    api_version,
                    kind: kind.to_string(),
                });
            }
        }
        for (kind, ty) in [
            (H::REQUEST_KIND, request_type),
            (H::RESPONSE_KIND, response_type),
        ] {
            self.kinds
                .insert((api_version.clone(), kind.to_string()), ty);
        }
        self.hook_names.insert(hook_type, type_name::<H>());
        self.hooks.insert(
            gvh.clone(),
            HookDescriptor {
                gvh,
                request_kind: H::REQUEST_KIND,
                response_kind: H::RESPONSE_KIND,
                retryable: <H::Response as crate::hook::HookResponse>::RETRYABLE,
                meta: H::META,
                info,
                hook_type,
                request_type,
                response_type,
                encode_request: encode_request::<H>,
                decode_response: decode_response::<H>,
            },
        );
        Ok(self)
    }

    /// True when the hook is registered.
    pub fn is_registered(&self, gvh: &HookId) -> bool {
        self.hooks.contains_key(gvh)
    }

    /// The descriptor of a registered hook.
    pub fn hook(&self, gvh: &HookId) -> Result<&HookDescriptor, CatalogError> {
        self.hooks
            .get(gvh)
            .ok_or_else(|| CatalogError::UnknownHook(gvh.clone()))
    }

    /// Every registered hook, sorted by group, version and name.
    pub fn hooks(&self) -> impl Iterator<Item = &HookDescriptor> {
        self.hooks.values()
    }

    /// The GVH of hook `H` if it is registered.
    pub fn group_version_hook<H: Hook>(&self) -> Result<HookId, CatalogError> {
        let gvh = HookId::of::<H>();
        match self.hooks.get(&gvh) {
            Some(d) if d.hook_type == TypeId::of::<H>() => Ok(gvh),
            _ => Err(CatalogError::UnknownHook(gvh)),
        }
    }

    /// True when `T` is the request type of the registered hook `gvh`.
    pub fn is_request_of<T: 'static>(&self, gvh: &HookId) -> bool {
        self.hooks
            .get(gvh)
            .is_some_and(|d| d.request_type == TypeId::of::<T>())
    }

    /// True when `T` is the response type of the registered hook `gvh`.
    pub fn is_response_of<T: 'static>(&self, gvh: &HookId) -> bool {
        self.hooks
            .get(gvh)
            .is_some_and(|d| d.response_type == TypeId::of::<T>())
    }

    /// Registers a conversion from `A` to `B` (for example a request of one hook version to the
    /// same hook's request in another version), such as a generated `B::try_from`. A later
    /// registration replaces an earlier one.
    pub fn add_conversion<A: 'static, B: 'static>(
        &mut self,
        convert: fn(&A) -> Result<B, ConversionError>,
    ) -> &mut Self {
        self.conversions.insert(
            (TypeId::of::<A>(), TypeId::of::<B>()),
            Box::new(move |a: &dyn Any| {
                let a = a.downcast_ref::<A>().expect("keyed by the source type");
                convert(a).map(|b| Box::new(b) as Box<dyn Any>)
            }),
        );
        self
    }

    /// True when a conversion from the type `from` to the type `to` is registered.
    pub fn has_conversion(&self, from: TypeId, to: TypeId) -> bool {
        self.conversions.contains_key(&(from, to))
    }

    /// Converts a type-erased value of type `from` with the registered conversion to `to`;
    /// `None` when there is none (or `value` is not a `from`), `Some(Err(..))` when the
    /// conversion refused the value.
    pub fn convert_any(
        &self,
        value: &dyn Any,
        from: TypeId,
        to: TypeId,
    ) -> Option<Result<Box<dyn Any>, ConversionError>> {
        if value.type_id() != from {
            return None;
        }
        self.conversions.get(&(from, to)).map(|f| f(value))
    }

    /// Converts `a` with the registered conversion from `A` to `B`.
    pub fn convert<A: 'static, B: 'static>(&self, a: &A) -> Result<B, CatalogError> {
        let f = self
            .conversions
            .get(&(TypeId::of::<A>(), TypeId::of::<B>()))
            .ok_or(CatalogError::NoConversion {
                from: type_name::<A>(),
                to: type_name::<B>(),
            })?;
        let b = f(a).map_err(|source| CatalogError::Conversion {
            from: type_name::<A>(),
            to: type_name::<B>(),
            source,
        })?;
        Ok(*b.downcast::<B>().expect("keyed by the target type"))
    }
}
