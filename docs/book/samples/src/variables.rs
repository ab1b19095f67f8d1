//! Variables declared as Rust types: the type is the schema Cluster API checks a Cluster's
//! value against, the answer to DiscoverVariables, and what a template function reads.

// ANCHOR: types
use capi_runtime::variable::Variable;
use serde::{Deserialize, Serialize};

/// The registry the node images are pulled from.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[serde(rename_all = "camelCase")]
#[variable(name = "registry", required)]
pub struct Registry {
    /// Host name of the registry.
    #[schema(min_length = 1, pattern = "^[a-z0-9.-]+$")]
    pub host: String,
    /// Port of the registry, 443 unless set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 65535, default = 443)]
    pub port: Option<i32>,
    /// Other registries holding the same images, tried in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 4)]
    pub mirrors: Vec<Mirror>,
}

/// Another registry holding the same images.
#[derive(Debug, Serialize, Deserialize, Variable)]
pub struct Mirror {
    /// Its host name.
    #[schema(min_length = 1)]
    pub host: String,
}
// ANCHOR_END: types

// ANCHOR: serve
use capi_runtime::server::ServerBuilder;
use capi_runtime::topology_mutation::{TemplateContext, VariableError, Walker};

use crate::topology::DockerMachineTemplate;

/// Points the machines at the registry: `ctx.variable()` reads the value into `Registry`.
fn use_registry(
    template: &mut DockerMachineTemplate,
    ctx: &TemplateContext<'_>,
) -> Result<(), VariableError> {
    let registry: Registry = ctx.variable()?;
    let port = registry.port.unwrap_or(443);
    template.spec.template.spec.custom_image = format!("{}:{port}/node", registry.host);
    Ok(())
}

/// DiscoverVariables answered from the type, and GeneratePatches reading through it.
pub fn register(builder: ServerBuilder) -> ServerBuilder {
    let walker = Walker::new().mutate(use_registry);
    builder
        .variable::<Registry>()
        .discover_variables("discover-variables")
        .handle("generate-patches", move |request| {
            let response = walker.generate_patches(&request);
            async move { response }
        })
}
// ANCHOR_END: serve

// ANCHOR: check
#[cfg(test)]
mod tests {
    use capi_runtime::variable::check;
    use serde_json::json;

    use super::Registry;

    #[test]
    fn a_value_without_a_port_gets_the_default() {
        let value = check::<Registry>(&json!({ "host": "registry.example.com" })).unwrap();
        assert_eq!(value["port"], 443);
        // What Cluster API would store is what the template function reads.
        let registry: Registry = serde_json::from_value(value).unwrap();
        assert_eq!(registry.port, Some(443));
    }

    #[test]
    fn a_port_out_of_range_is_refused_as_cluster_api_refuses_it() {
        let refused = check::<Registry>(&json!({ "host": "r", "port": 70000 })).unwrap_err();
        assert_eq!(
            refused.to_string(),
            r#"spec.topology.variables[registry].value.port: Invalid value: "{\"host\":\"r\",\"port\":70000}": port in body should be less than or equal to 65535"#
        );
    }

    #[test]
    fn a_field_the_schema_does_not_name_is_refused() {
        let refused = check::<Registry>(&json!({ "host": "r", "user": "me" })).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains(r#""user" field(s) are not specified"#)
        );
    }
}
// ANCHOR_END: check
