//! Where the generator looks inside a crate. Kept in its own dependency-free file so that the
//! CLI's build script, which embeds the SDK's own sources, reads the same list.

/// The folders under a crate's `src/` that hold its hook and API types: the generator reads
/// every `.rs` file below them, and nothing else of the crate.
pub const CRATE_LAYOUT: &[&str] = &["hooks", "api"];
