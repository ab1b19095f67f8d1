// Wire names come from serde: rename, rename_all, skip, skip_serializing.
use capi_runtime::Schema;
use serde::{Deserialize, Serialize};

/// The wire names of this struct follow serde.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default, rename_all = "camelCase")]
pub struct Renamed {
    /// camelCase from rename_all.
    pub node_name: String,
    /// Explicit rename wins.
    #[serde(rename = "providerID")]
    pub provider_id: String,
    /// Never written: not in the schema.
    #[serde(skip)]
    pub cache: String,
    /// Only read: not in the schema.
    #[serde(skip_serializing)]
    pub legacy: String,
    /// A raw identifier.
    pub r#type: String,
    /// A nested object with names of its own.
    pub common: Common,
}

/// Fields shared by several objects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, Schema)]
#[schema(package = "example.com/golden/v1")]
#[serde(default, rename_all = "SCREAMING_SNAKE_CASE")]
pub struct Common {
    /// Becomes SHARED_VALUE.
    pub shared_value: String,
    /// Optional.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<i64>,
}
