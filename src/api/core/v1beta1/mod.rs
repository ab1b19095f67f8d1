//! Cluster API's `cluster.x-k8s.io/v1beta1` Cluster, as a v1.12 manager embeds it in the
//! lifecycle hooks' requests; read only, and converted to the v1beta2 types (the hub, what
//! handlers see) by generated code (`src/generated/conversion.rs`) completed by the functions
//! of `conversion.rs`.
//!
//! Only what a lifecycle request carries is declared: the Cluster with everything its spec and
//! status reach. What v1beta2 has no place for is listed by [`unconverted`], never dropped
//! without a word.

// `pub(crate)` so that generated code (`crate::generated`) can name the types by module.
pub(crate) mod cluster;
pub(crate) mod conversion;

pub use cluster::*;
pub use conversion::unconverted;

/// The API version of the types in this module.
pub const VERSION: &str = "v1beta1";
