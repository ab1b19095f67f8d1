//! The identity of the core objects hook messages carry (Cluster, Machine, MachineSet), so that
//! a controller reads them with `kube::Api` (feature `kube`) and hands the same values to a
//! hook request, without a second type.
//!
//! These are not custom resources of this crate (Cluster API's CRDs define them), so the
//! generator does not emit their identity; it is written here, from Cluster API's API.

use super::{Cluster, GROUP, Machine, MachineSet, VERSION};
use crate::object::KubeObject;

macro_rules! core_object {
    ($ty:ty, $kind:literal, $plural:literal) => {
        impl KubeObject for $ty {
            const GROUP: &'static str = GROUP;
            const VERSION: &'static str = VERSION;
            const API_VERSION: &'static str = "cluster.x-k8s.io/v1beta2";
            const KIND: &'static str = $kind;
            const PLURAL: &'static str = $plural;
            const NAMESPACED: bool = true;
        }
        crate::__impl_kube_resource!($ty, NamespaceResourceScope);
    };
}

core_object!(Cluster, "Cluster", "clusters");
core_object!(Machine, "Machine", "machines");
core_object!(MachineSet, "MachineSet", "machinesets");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_version_is_group_and_version() {
        assert_eq!(
            <Cluster as KubeObject>::API_VERSION,
            format!("{GROUP}/{VERSION}")
        );
    }
}
