// Conversion between two versions: automatic fields, pointer/value, enums, nested peers,
// lists and maps, and a hand-written completion for what changed shape.
use std::collections::BTreeMap;

use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

pub mod v1alpha1 {
    use super::*;

    /// The old shape.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(
        package = "example.com/gadgets/v1alpha1",
        hub = super::v2::Gadget,
        to_hub = "super::fixups::to_v2",
        from_hub = "super::fixups::from_v2"
    )]
    #[serde(default, rename_all = "camelCase")]
    pub struct Gadget {
        /// Copied as is.
        pub name: String,
        /// A pointer here, a value in v2.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub owner: Option<String>,
        /// A pointer here, a value in v2.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub count: Option<i32>,
        /// A peer type, optional here.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub motor: Option<Motor>,
        /// A list of peers.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub parts: Vec<Part>,
        /// A map of peers.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        pub spares: BTreeMap<String, Part>,
        /// Changed type in v2: hand-written.
        pub weight: String,
        /// Gone in v2: hand-written.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub legacy: String,
    }

    /// A motor.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/gadgets/v1alpha1")]
    #[serde(default)]
    pub struct Motor {
        /// Its power.
        pub watts: i64,
        /// Its kind.
        pub kind: Drive,
    }

    /// A part.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/gadgets/v1alpha1")]
    #[serde(default)]
    pub struct Part {
        /// Its id.
        pub id: String,
    }

    /// How a motor drives.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/gadgets/v1alpha1")]
    pub enum Drive {
        /// Electric.
        #[default]
        Electric,
        /// Steam.
        Steam,
    }
}

pub mod v2 {
    use super::*;

    /// The new shape.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/gadgets/v2")]
    #[serde(default, rename_all = "camelCase")]
    pub struct Gadget {
        /// Copied as is.
        pub name: String,
        /// A value here.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub owner: String,
        /// A value here.
        pub count: i32,
        /// A value here.
        pub motor: Motor,
        /// A list of peers.
        pub parts: Vec<Part>,
        /// A map of peers.
        pub spares: BTreeMap<String, Part>,
        /// Grams, as a number now.
        pub weight: i64,
        /// New in v2: hand-written.
        pub notes: Vec<String>,
    }

    /// A motor.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/gadgets/v2")]
    #[serde(default)]
    pub struct Motor {
        /// Its power.
        pub watts: i64,
        /// Its kind.
        pub kind: Drive,
    }

    /// A part.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/gadgets/v2")]
    #[serde(default)]
    pub struct Part {
        /// Its id.
        pub id: String,
    }

    /// How a motor drives.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/gadgets/v2")]
    pub enum Drive {
        /// Electric.
        #[default]
        Electric,
        /// Steam.
        Steam,
    }
}

pub mod fixups {
    use super::{v1alpha1, v2};

    /// The weight changed type; the legacy field became a note.
    pub fn to_v2(src: &v1alpha1::Gadget, dst: &mut v2::Gadget) {
        dst.weight = src.weight.parse().unwrap_or_default();
        if !src.legacy.is_empty() {
            dst.notes.push(src.legacy.clone());
        }
    }

    /// The reverse of [`to_v2`].
    pub fn from_v2(src: &v2::Gadget, dst: &mut v1alpha1::Gadget) {
        dst.weight = src.weight.to_string();
        dst.legacy = src.notes.first().cloned().unwrap_or_default();
    }
}
