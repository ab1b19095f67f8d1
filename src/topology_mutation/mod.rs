//! Topology-mutation helpers (work in progress).
