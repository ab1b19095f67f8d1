//! The hook API: request and response types of every hook, per version.

pub mod v1alpha1;

use crate::catalog::Catalog;

/// A catalog with every hook of this crate registered.
pub fn catalog() -> Catalog {
    let mut catalog = Catalog::new();
    v1alpha1::add_to_catalog(&mut catalog).expect("the built-in hooks register without conflict");
    catalog
}
