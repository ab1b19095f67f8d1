//! Emitters: each reads a resolved [`crate::model::Model`] (or one parsed input) and writes
//! one kind of output.

pub mod canonical;
pub mod conversion;
pub mod crd;
pub mod doc;
pub mod external;
pub mod object;
pub mod openapi;
pub mod rust;
pub mod schemars;
pub mod shape;
pub mod variable;
