//! The runtime client (work in progress).
