//! Runs the example Runtime Extension (work in progress).
fn main() {}
