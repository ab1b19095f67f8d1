//! The code samples of the book (`docs/book`). Each module is one sample; the pages include
//! the parts between `ANCHOR:` and `ANCHOR_END:` comments, and the tests of this crate
//! (`tests/`) run every sample for real: over TLS on loopback, with the runtime client.

pub mod client;
pub mod hooks;
pub mod in_place;
pub mod lifecycle;
pub mod quickstart;
pub mod state;
pub mod topology;
pub mod upgrade_plan;
pub mod variables;
