//! An example Runtime Extension (work in progress).
