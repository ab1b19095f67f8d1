//! The extension server (work in progress).
