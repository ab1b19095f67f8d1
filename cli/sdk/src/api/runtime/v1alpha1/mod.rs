//! ExtensionConfig `runtime.cluster.x-k8s.io/v1alpha1`: the older, deprecated version. It is
//! still served; objects are stored as v1beta2, and the conversion between the two is generated
//! (`src/generated/conversion.rs`) with the hand-written parts in [`conversion`].

pub mod conversion;
// Visible to the crate so that the generated conversion code can name the types.
pub(crate) mod extension_config;

pub use extension_config::*;

/// The API version of the types in this module.
pub const VERSION: &str = "v1alpha1";
/// `<group>/<version>`.
pub const API_VERSION: &str = "runtime.cluster.x-k8s.io/v1alpha1";
