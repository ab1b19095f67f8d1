// An older shape that is only read: `to_hub_only` asks for the conversion to the hub alone,
// for the type and for the peers found along the way, so no `from_hub` is needed for the
// field the hub does not have.
use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

pub mod v1beta1 {
    use super::*;

    /// The old shape, read and never written.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(
        package = "example.com/widgets/v1beta1",
        hub = super::v1beta2::Widget,
        to_hub = "super::fixups::to_v1beta2",
        to_hub_only
    )]
    #[serde(default, rename_all = "camelCase")]
    pub struct Widget {
        /// Copied as is.
        pub name: String,
        /// Renamed in v1beta2: completed by hand.
        pub class: String,
        /// A peer type.
        pub part: Part,
    }

    /// A part.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1beta1")]
    #[serde(default)]
    pub struct Part {
        /// Its size.
        pub size: i32,
    }
}

pub mod v1beta2 {
    use super::*;

    /// The hub.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1beta2")]
    #[serde(default, rename_all = "camelCase")]
    pub struct Widget {
        /// Copied as is.
        pub name: String,
        /// Was `class`.
        pub class_name: String,
        /// A peer type.
        pub part: Part,
    }

    /// A part.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1beta2")]
    #[serde(default)]
    pub struct Part {
        /// Its size.
        pub size: i32,
    }
}

pub mod fixups {
    use crate::conversion::ConversionError;

    /// `class` becomes `className`.
    pub fn to_v1beta2(
        src: &super::v1beta1::Widget,
        dst: &mut super::v1beta2::Widget,
    ) -> Result<(), ConversionError> {
        dst.class_name = src.class.clone();
        Ok(())
    }
}
