//! `capi-runtime-manager`.

fn main() {}
