// The wire schema of `serde_json::Value`: any JSON value, written in place. Read by the
// generator as the crate `serde_json`; see k8s_openapi.rs.

/// Any JSON value.
#[derive(Schema)]
#[schema(name = "serde_json.Value", opaque = "{}", inline)]
pub struct Value;
