//! ExtensionConfig `runtime.cluster.x-k8s.io/v1beta2`: the served and stored version.

// Visible to the crate so that the generated conversion code can name the types.
pub(crate) mod extension_config;

pub use extension_config::*;

/// The API version of the types in this module.
pub const VERSION: &str = "v1beta2";
/// `<group>/<version>`.
pub const API_VERSION: &str = "runtime.cluster.x-k8s.io/v1beta2";

/// Condition type: whether discovery of the extension succeeded.
pub const DISCOVERED_CONDITION: &str = "Discovered";
/// Reason of a true [`DISCOVERED_CONDITION`].
pub const DISCOVERED_REASON: &str = "Discovered";
/// Reason of a false [`DISCOVERED_CONDITION`].
pub const NOT_DISCOVERED_REASON: &str = "NotDiscovered";
/// Condition type: whether reconciliation of the ExtensionConfig is paused.
pub const PAUSED_CONDITION: &str = "Paused";
/// Reason of the legacy (v1beta1-style) Discovered condition when discovery failed.
pub const DISCOVERY_FAILED_V1BETA1_REASON: &str = "DiscoveryFailed";
