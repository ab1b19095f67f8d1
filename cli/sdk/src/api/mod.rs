//! Kubernetes API types of Cluster API that the Runtime SDK uses.

pub mod core;
pub mod runtime;
