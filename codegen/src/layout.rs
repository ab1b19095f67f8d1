//! Where the generator looks inside a crate: the one list that `read_crate` follows, for
//! `--input` crates and for the SDK itself when `cargo xtask codegen` records its model.

/// The entries under a crate's `src/` that hold its hook and API types: the generator reads
/// every `.rs` file below the folders `hooks` and `api`, the file `hook.rs` (where the SDK
/// keeps `ResponseStatus`, with the hook traits), the file `raw.rs` (the SDK's raw JSON field
/// types, `RawExtension` and `Json`), and nothing else of the crate. An entry a crate does not
/// have is skipped.
pub const CRATE_LAYOUT: &[&str] = &["hook.rs", "raw.rs", "hooks", "api"];
