// Name resolution across modules: local, use, super, glob and renamed imports.
use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

pub mod shapes {
    use capi_runtime::Schema;
    use serde::{Deserialize, Serialize};

    /// A square.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/golden/shapes/v1")]
    #[serde(default)]
    pub struct Square {
        /// Side length.
        pub side: i32,
    }

    pub mod round {
        use capi_runtime::Schema;
        use serde::{Deserialize, Serialize};

        /// A circle.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
        #[schema(package = "example.com/golden/shapes/v1")]
        #[serde(default)]
        pub struct Circle {
            /// Radius.
            pub radius: i32,
            /// A square around it, through `super`.
            pub bounds: super::Square,
        }
    }

    pub use round::*;
}

use shapes::Circle as Disc;
use shapes::*;

/// A drawing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default)]
pub struct Drawing {
    /// Through a glob import.
    pub square: Square,
    /// Through a renamed import of a re-export.
    pub disc: Disc,
    /// Through a path.
    pub circle: shapes::round::Circle,
    /// Through an absolute crate path.
    pub other: crate::shapes::Square,
}
