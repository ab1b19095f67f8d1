//! Naming an object for the helpers that read, wait for or change it: its `apiVersion`, kind,
//! namespace and name, taken from whatever the test holds (a typed Cluster, a `DynamicObject`
//! the API server returned, a builder of this crate).

use capi_runtime::api::core::v1beta2::{Cluster, Machine, MachineSet};
use capi_runtime::object::KubeObject;
use kube::api::DynamicObject;
use serde_json::Value;

/// Where an object is: `apiVersion` (`group/version`), kind, namespace and name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectKey {
    /// `group/version` (`v1` for the core group).
    pub api_version: String,
    /// The kind.
    pub kind: String,
    /// The namespace (empty for a cluster-scoped object).
    pub namespace: String,
    /// The name.
    pub name: String,
}

impl ObjectKey {
    /// The object `kind` of `api_version` called `name` in `namespace`.
    pub fn new(api_version: &str, kind: &str, namespace: &str, name: &str) -> ObjectKey {
        ObjectKey {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }
}

impl std::fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}.{} {}/{}",
            self.kind, self.api_version, self.namespace, self.name
        )
    }
}

/// Anything that names one object: the helpers ([`ClusterApi::get`](crate::ClusterApi::get),
/// [`wait_for_condition`](crate::ClusterApi::wait_for_condition),
/// [`patch`](crate::ClusterApi::patch), [`annotate`](crate::ClusterApi::annotate)) take it.
pub trait ObjectRef {
    /// Where the object is.
    fn object_key(&self) -> ObjectKey;
}

impl<T: ObjectRef + ?Sized> ObjectRef for &T {
    fn object_key(&self) -> ObjectKey {
        (**self).object_key()
    }
}

impl ObjectRef for ObjectKey {
    fn object_key(&self) -> ObjectKey {
        self.clone()
    }
}

impl ObjectRef for DynamicObject {
    fn object_key(&self) -> ObjectKey {
        let types = self.types.clone().unwrap_or_default();
        ObjectKey {
            api_version: types.api_version,
            kind: types.kind,
            namespace: self.metadata.namespace.clone().unwrap_or_default(),
            name: self.metadata.name.clone().unwrap_or_default(),
        }
    }
}

/// An object as JSON, with `apiVersion`, `kind` and `metadata`.
impl ObjectRef for Value {
    fn object_key(&self) -> ObjectKey {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        ObjectKey {
            api_version: text(&self["apiVersion"]),
            kind: text(&self["kind"]),
            namespace: text(&self["metadata"]["namespace"]),
            name: text(&self["metadata"]["name"]),
        }
    }
}

macro_rules! core_object {
    ($($ty:ty),*) => {$(
        /// The SDK's typed object; its type metadata from the type when the value has none.
        impl ObjectRef for $ty {
            fn object_key(&self) -> ObjectKey {
                ObjectKey {
                    api_version: <$ty as KubeObject>::API_VERSION.to_string(),
                    kind: <$ty as KubeObject>::KIND.to_string(),
                    namespace: self.metadata.namespace.clone().unwrap_or_default(),
                    name: self.metadata.name.clone().unwrap_or_default(),
                }
            }
        }
    )*};
}

core_object!(Cluster, Machine, MachineSet);
