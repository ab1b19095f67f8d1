//! Decoding a request in whichever shape of Cluster it arrived with.
//!
//! The nine lifecycle hooks kept their version (`v1alpha1`) when Cluster API moved the Cluster
//! they embed from `cluster.x-k8s.io/v1beta1` (v1.12 and older) to `v1beta2` (v1.13 and newer).
//! [`decode_request`] tells the embedded Cluster's shape first (see [`Peek::shape`]): a
//! v1beta1 Cluster is decoded as v1.12 wrote it ([`super::lifecycle_v1beta1`]) and converted
//! to the v1beta2 view by generated code; anything else is decoded as v1beta2, as before. The [`Arrival`] says which
//! shape came, and lists what the view has no place for. The server hands both to the handler
//! through its context (`Context::cluster_api_shape`, `Context::unconverted`).

use std::any::{Any, TypeId};

use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::lifecycle::*;
use super::lifecycle_v1beta1::*;
use crate::Schema;
use crate::api::core::v1beta1;
use crate::conversion::{ConversionError, Unconverted};
use crate::hook::{Hook, Message};
use crate::wire::{self, DecodeError, Decoded, Limits};

/// The `apiVersion` of a v1beta1 Cluster.
const V1BETA1: &str = "cluster.x-k8s.io/v1beta1";

/// The API version of the Cluster a request embeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClusterApiShape {
    /// `cluster.x-k8s.io/v1beta1`, as Cluster API v1.12 and older send it: converted to the
    /// v1beta2 view.
    V1Beta1,
    /// `cluster.x-k8s.io/v1beta2`, as v1.13 and newer send it (and a Cluster that names no
    /// version): read as it is.
    V1Beta2,
}

/// How a request arrived: the shape of the Cluster it embeds (none for hooks without one) and
/// what of that Cluster the view handlers see has no place for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Arrival {
    shape: Option<ClusterApiShape>,
    unconverted: Vec<Unconverted>,
}

impl Arrival {
    /// The shape of the embedded Cluster; `None` when the request embeds none that changed
    /// shape (every hook but the nine lifecycle hooks).
    pub fn shape(&self) -> Option<ClusterApiShape> {
        self.shape
    }

    /// The values of a v1beta1 Cluster that v1beta2 cannot hold, with their paths in the
    /// request (`cluster.spec.topology.rolloutAfter`); empty when everything converted.
    pub fn unconverted(&self) -> &[Unconverted] {
        &self.unconverted
    }
}

/// Decodes a request body of hook `H` with the default [`Limits`], in either shape of Cluster
/// (see the module docs).
pub fn decode_request<H: Hook>(bytes: &[u8]) -> Result<(H::Request, Arrival), DecodeError> {
    decode_request_with::<H>(bytes, &Limits::default()).map(|(d, a)| (d.message, a))
}

/// Decodes a request body of hook `H` within `limits`, in either shape of Cluster.
pub fn decode_request_with<H: Hook>(
    bytes: &[u8],
    limits: &Limits,
) -> Result<(Decoded<H::Request>, Arrival), DecodeError> {
    let Some(legacy) = legacy_of::<H::Request>() else {
        return wire::decode_request_with::<H>(bytes, limits).map(|d| (d, Arrival::default()));
    };
    // A body that is not even this much is refused by the decoding below, with its error.
    let peeked = wire::decode_embedded::<Peek>(bytes, limits, None)
        .map(|d| d.message.shape())
        .unwrap_or(ClusterApiShape::V1Beta2);
    if peeked == ClusterApiShape::V1Beta1 {
        let (decoded, unconverted) = legacy(bytes, limits)?;
        return Ok((
            decoded,
            Arrival {
                shape: Some(ClusterApiShape::V1Beta1),
                unconverted,
            },
        ));
    }
    let decoded = wire::decode_request_with::<H>(bytes, limits)?;
    Ok((
        decoded,
        Arrival {
            shape: Some(ClusterApiShape::V1Beta2),
            unconverted: Vec::new(),
        },
    ))
}

/// What tells the embedded Cluster's shape.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Peek {
    cluster: PeekCluster,
}

impl Peek {
    /// The shape of the embedded Cluster.
    ///
    /// Its `apiVersion` when it names one. A real v1.12 manager sends the Cluster without
    /// `apiVersion` and `kind` (it converts its v1beta2 Cluster down and leaves the type empty,
    /// as the lifecycle flow against it recorded), so a Cluster that names no version is told
    /// by fields only v1beta1 has: `spec.topology.class`, the `apiVersion` of a
    /// `controlPlaneRef` or `infrastructureRef` (v1beta2 names their `apiGroup`), and the
    /// `infrastructureReady` and `controlPlaneReady` of `status`, which v1beta1 always writes
    /// (v1beta2 keeps readiness under `status.initialization`).
    fn shape(&self) -> ClusterApiShape {
        let cluster = &self.cluster;
        match cluster.api_version.as_str() {
            V1BETA1 => return ClusterApiShape::V1Beta1,
            "" => {}
            _ => return ClusterApiShape::V1Beta2,
        }
        let spec = &cluster.spec;
        let v1beta1_only = spec.topology.class.is_some()
            || spec.control_plane_ref.api_version.is_some()
            || spec.infrastructure_ref.api_version.is_some()
            || cluster.status.infrastructure_ready.is_some()
            || cluster.status.control_plane_ready.is_some();
        if v1beta1_only {
            ClusterApiShape::V1Beta1
        } else {
            ClusterApiShape::V1Beta2
        }
    }
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct PeekCluster {
    api_version: String,
    spec: PeekSpec,
    status: PeekStatus,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct PeekSpec {
    topology: PeekTopology,
    control_plane_ref: PeekRef,
    infrastructure_ref: PeekRef,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct PeekTopology {
    class: Option<serde::de::IgnoredAny>,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct PeekRef {
    api_version: Option<serde::de::IgnoredAny>,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct PeekStatus {
    infrastructure_ready: Option<serde::de::IgnoredAny>,
    control_plane_ready: Option<serde::de::IgnoredAny>,
}

/// Decodes the v1.12 shape of a request and converts it.
type Legacy<R> = fn(&[u8], &Limits) -> Result<(Decoded<R>, Vec<Unconverted>), DecodeError>;

/// What a v1.12 request has that the conversion does not copy.
trait V1Beta1Request: DeserializeOwned + Schema {
    fn type_meta(&self) -> (&str, &str);
    fn cluster(&self) -> &v1beta1::Cluster;
}

fn decode_legacy<L, R>(
    bytes: &[u8],
    limits: &Limits,
) -> Result<(Decoded<R>, Vec<Unconverted>), DecodeError>
where
    L: V1Beta1Request,
    R: Message + for<'a> TryFrom<&'a L, Error = ConversionError>,
{
    let decoded = wire::decode_embedded::<L>(bytes, limits, Some(L::schema_info()))?;
    let old = &decoded.message;
    let mut request = R::try_from(old).map_err(|e| {
        DecodeError::new(format!(
            "the v1beta1 Cluster does not convert to v1beta2: {e}"
        ))
    })?;
    let (api_version, kind) = old.type_meta();
    request.set_type_meta(api_version, kind);
    let unconverted = v1beta1::unconverted(old.cluster())
        .into_iter()
        .map(|u| u.at("cluster"))
        .collect();
    Ok((
        Decoded {
            message: request,
            status: decoded.status,
            charged: decoded.charged,
            hold: decoded.hold,
        },
        unconverted,
    ))
}

/// The nine lifecycle requests and their v1.12 shapes: the trait above for each, and
/// `legacy_of`, which finds the v1.12 decoder of a request type.
macro_rules! lifecycle_requests {
    ($($hub:ident => $old:ident),* $(,)?) => {
        $(
            impl V1Beta1Request for $old {
                fn type_meta(&self) -> (&str, &str) {
                    (&self.api_version, &self.kind)
                }
                fn cluster(&self) -> &v1beta1::Cluster {
                    &self.cluster
                }
            }
        )*

        /// The v1.12 decoder of request type `R`, for the nine lifecycle requests.
        fn legacy_of<R: 'static>() -> Option<Legacy<R>> {
            $(
                if TypeId::of::<R>() == TypeId::of::<$hub>() {
                    let f: Legacy<$hub> = decode_legacy::<$old, $hub>;
                    return (&f as &dyn Any).downcast_ref::<Legacy<R>>().copied();
                }
            )*
            None
        }
    };
}

lifecycle_requests!(
    BeforeClusterCreateRequest => V1Beta1BeforeClusterCreateRequest,
    AfterControlPlaneInitializedRequest => V1Beta1AfterControlPlaneInitializedRequest,
    BeforeClusterUpgradeRequest => V1Beta1BeforeClusterUpgradeRequest,
    BeforeControlPlaneUpgradeRequest => V1Beta1BeforeControlPlaneUpgradeRequest,
    AfterControlPlaneUpgradeRequest => V1Beta1AfterControlPlaneUpgradeRequest,
    BeforeWorkersUpgradeRequest => V1Beta1BeforeWorkersUpgradeRequest,
    AfterWorkersUpgradeRequest => V1Beta1AfterWorkersUpgradeRequest,
    AfterClusterUpgradeRequest => V1Beta1AfterClusterUpgradeRequest,
    BeforeClusterDeleteRequest => V1Beta1BeforeClusterDeleteRequest,
);
