// A custom resource in two versions, with every CRD marker.
use std::collections::BTreeMap;

use capi_runtime::Schema;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};

pub mod v1 {
    use super::*;

    /// A widget.
    ///
    /// Its second paragraph keeps its line
    /// breaks in the CRD.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1")]
    #[crd(
        group = "widgets.example.com",
        version = "v1",
        plural = "widgets",
        short_names("wd", "wdg"),
        categories("all", "example"),
        scope = "Namespaced",
        status,
        storage,
        printcolumn(name = "Size", type = "integer", json_path = ".spec.size", description = "How big"),
        printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp", priority = 1)
    )]
    #[serde(default, rename_all = "camelCase")]
    pub struct Widget {
        /// The version.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub api_version: String,
        /// The kind.
        #[serde(skip_serializing_if = "String::is_empty")]
        pub kind: String,
        /// Metadata.
        pub metadata: metav1::ObjectMeta,
        /// The desired state.
        #[schema(required)]
        pub spec: WidgetSpec,
        /// The observed state.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub status: Option<WidgetStatus>,
    }

    /// What a widget should be.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(
        package = "example.com/widgets/v1",
        min_properties = 1,
        x_validation(rule = "self.size >= self.minSize", message = "size is below minSize")
    )]
    #[serde(default, rename_all = "camelCase")]
    pub struct WidgetSpec {
        /// A name.
        #[schema(min_length = 1, max_length = 63, pattern = "^[a-z]+$")]
        pub name: String,
        /// A size.
        #[schema(minimum = 0, maximum = 100, default = 10)]
        pub size: i32,
        /// A lower bound.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub min_size: Option<i32>,
        /// One of three colors.
        #[serde(skip_serializing_if = "String::is_empty")]
        #[schema(enum_values("red", "green", "blue"))]
        pub color: String,
        /// A mode, from a Rust enum.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub mode: Option<Mode>,
        /// Tags.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        #[schema(min_items = 1, max_items = 8, list_type = "set")]
        pub tags: Vec<String>,
        /// Labels.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        #[schema(max_properties = 4, map_type = "granular")]
        pub labels: BTreeMap<String, String>,
        /// Parts, keyed by name.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        #[schema(list_type = "map", list_map_keys("name"))]
        pub parts: Vec<Part>,
        /// A count or a percentage.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub surge: Option<IntOrString>,
        /// Anything.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub extra: Option<RawExtension>,
        /// A selector.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<metav1::LabelSelector>,
    }

    /// A part of a widget.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1")]
    #[serde(default)]
    pub struct Part {
        /// Its name.
        pub name: String,
        /// When it was made.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub made: Option<metav1::Time>,
    }

    /// How a widget behaves.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1")]
    pub enum Mode {
        /// Quickly.
        #[default]
        Fast,
        /// Carefully.
        Safe,
    }

    /// What a widget is.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1")]
    #[serde(default)]
    pub struct WidgetStatus {
        /// Conditions.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        #[schema(list_type = "map", list_map_keys("type"), max_items = 8)]
        pub conditions: Vec<metav1::Condition>,
    }
}

pub mod v1beta1 {
    use super::*;

    /// A widget, older version.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
    #[schema(package = "example.com/widgets/v1beta1")]
    #[crd(
        group = "widgets.example.com",
        version = "v1beta1",
        plural = "widgets",
        short_names("wd", "wdg"),
        categories("all", "example"),
        scope = "Namespaced",
        deprecated
    )]
    #[serde(default, rename_all = "camelCase")]
    pub struct Widget {
        /// Metadata.
        pub metadata: metav1::ObjectMeta,
        /// The size.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub size: Option<i32>,
    }
}
