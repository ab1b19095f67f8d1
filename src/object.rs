//! The runtime-object layer the generator still emits: group, version and kind.
//!
//! In Rust, `Clone` is the deep copy, so nothing here copies anything (Go's generated
//! `DeepCopy*` functions have no counterpart). What `#[derive(Schema)]` does emit for the root
//! type of a custom resource version (`#[crd(...)]`) is this trait, the static identity of the
//! type, and, with the `kube` feature, kube's `Resource` impl built from it, so the type works
//! with `kube::Api`. Hook messages get their identity from the hook instead ([`crate::Hook`]).

/// The identity of a custom resource version's root type.
pub trait KubeObject {
    /// API group, e.g. `runtime.cluster.x-k8s.io`.
    const GROUP: &'static str;
    /// API version, e.g. `v1beta2`.
    const VERSION: &'static str;
    /// `<group>/<version>`.
    const API_VERSION: &'static str;
    /// Kind, e.g. `ExtensionConfig`.
    const KIND: &'static str;
    /// Plural resource name, e.g. `extensionconfigs`.
    const PLURAL: &'static str;
    /// True for namespaced resources.
    const NAMESPACED: bool;
}

/// Implements kube's `Resource` for a [`KubeObject`] with a `metadata` field (derive output
/// calls this; it expands to nothing without the `kube` feature).
#[cfg(feature = "kube")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube_resource {
    ($ty:ty, $scope:ident) => {
        impl $crate::__private::kube_core::Resource for $ty {
            type DynamicType = ();
            type Scope = $crate::__private::kube_core::$scope;
            fn kind(_: &()) -> ::std::borrow::Cow<'_, str> {
                <$ty as $crate::object::KubeObject>::KIND.into()
            }
            fn group(_: &()) -> ::std::borrow::Cow<'_, str> {
                <$ty as $crate::object::KubeObject>::GROUP.into()
            }
            fn version(_: &()) -> ::std::borrow::Cow<'_, str> {
                <$ty as $crate::object::KubeObject>::VERSION.into()
            }
            fn api_version(_: &()) -> ::std::borrow::Cow<'_, str> {
                <$ty as $crate::object::KubeObject>::API_VERSION.into()
            }
            fn plural(_: &()) -> ::std::borrow::Cow<'_, str> {
                <$ty as $crate::object::KubeObject>::PLURAL.into()
            }
            fn meta(&self) -> &$crate::__private::kube_core::ObjectMeta {
                &self.metadata
            }
            fn meta_mut(&mut self) -> &mut $crate::__private::kube_core::ObjectMeta {
                &mut self.metadata
            }
        }
    };
}

/// Without the `kube` feature there is no `Resource` to implement.
#[cfg(not(feature = "kube"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube_resource {
    ($ty:ty, $scope:ident) => {};
}
