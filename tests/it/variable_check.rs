//! `variable::check`: a Cluster's value of a `#[derive(Variable)]` type defaulted and checked
//! as Cluster API's Cluster webhook does, its refusals worded as Cluster API words them.

use std::collections::BTreeMap;

use capi_runtime::variable::{
    Variable, VariableErrors, check, check_unset, check_variable, schema_of,
};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Where the Cluster's images come from.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "registry", required)]
#[schema(x_validation(rule = "self.host != 'localhost'", message = "not the local host"))]
#[schema(x_validation(rule = "self.host == oldSelf.host", message = "the host is immutable"))]
pub struct Registry {
    /// Host name of the registry.
    #[schema(min_length = 1, max_length = 12, pattern = "^[a-z0-9.-]+$")]
    pub host: String,
    /// Port of the registry.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 65535, default = 443)]
    pub port: Option<i32>,
}

/// Mirrors tried in order, each once.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "mirrors")]
#[schema(min_items = 1, max_items = 2, unique_items)]
pub struct Mirrors(pub Vec<String>);

/// How the Cluster reaches the internet.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[serde(rename_all = "camelCase")]
#[variable(name = "proxy")]
pub struct Proxy {
    /// The proxy: by default the internal one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(default_json = r#"{"host": "proxy.internal"}"#)]
    pub endpoint: Option<Endpoint>,
    /// Headers sent to it, at most one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(max_properties = 1)]
    pub headers: BTreeMap<String, String>,
    /// The protocol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheme: Option<Scheme>,
    /// Settings passed on to the proxy as they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<Extra>,
}

/// A host and a port.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[schema(x_validation(
    rule = "self.port != 443",
    message_expression = "'port ' + string(self.port) + ' is the registry port'",
    reason = "FieldValueForbidden",
    field_path = ".port"
))]
pub struct Endpoint {
    /// The host.
    pub host: String,
    /// The port.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(default = 3128)]
    pub port: Option<i32>,
}

/// A protocol.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Plain HTTP.
    Http,
    /// HTTP over TLS.
    Https,
}

/// Settings the proxy reads; fields beyond `mode` are kept.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[schema(preserve_unknown_fields)]
pub struct Extra {
    /// The proxy's mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// The share of the nodes, strictly between 0 and 1.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "share")]
#[schema(minimum = 0, exclusive_minimum, maximum = 1, exclusive_maximum)]
pub struct Share(pub f64);

/// The address of the DNS server.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "dns")]
#[schema(format = "ipv4")]
pub struct Dns(pub String);

/// How many nodes a rollout may add, as a number or a percentage.
#[derive(Debug, Serialize, Deserialize, Variable)]
#[variable(name = "surge")]
pub struct Surge(pub IntOrString);

/// The errors of `check::<V>` of `value`, one per line.
fn refused<V: Variable>(value: Value) -> String {
    let errors: VariableErrors = check::<V>(&value).expect_err("the value is refused");
    assert_eq!(errors.name(), V::NAME);
    errors
        .errors()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_valid_value_is_returned_with_its_defaults() {
    let value = check::<Registry>(&json!({ "host": "r.example" })).unwrap();
    assert_eq!(value, json!({ "host": "r.example", "port": 443 }));
    let read: Registry = serde_json::from_value(value).unwrap();
    assert_eq!(read.port, Some(443));
    assert_eq!(
        check::<Registry>(&json!({ "host": "r", "port": 5000 })).unwrap(),
        json!({ "host": "r", "port": 5000 })
    );
    assert_eq!(
        check::<Mirrors>(&json!(["a", "b"])).unwrap(),
        json!(["a", "b"])
    );
    assert_eq!(check::<Share>(&json!(0.5)).unwrap(), json!(0.5));
    assert_eq!(
        check::<Dns>(&json!("10.0.0.10")).unwrap(),
        json!("10.0.0.10")
    );
    assert_eq!(check::<Surge>(&json!("25%")).unwrap(), json!("25%"));
    assert_eq!(check::<Surge>(&json!(2)).unwrap(), json!(2));
}

#[test]
fn defaults_fill_missing_fields_inside_defaults_too() {
    assert_eq!(
        check::<Proxy>(&json!({})).unwrap(),
        json!({ "endpoint": { "host": "proxy.internal", "port": 3128 } })
    );
    assert_eq!(
        check::<Proxy>(&json!({ "endpoint": { "host": "p" } })).unwrap(),
        json!({ "endpoint": { "host": "p", "port": 3128 } })
    );
}

#[test]
fn each_keyword_refuses_as_cluster_api_does() {
    let registry = |port: Value, host: &str| json!({ "host": host, "port": port });
    assert_eq!(
        refused::<Registry>(registry(json!(70000), "r")),
        r#"spec.topology.variables[registry].value.port: Invalid value: "{\"host\":\"r\",\"port\":70000}": port in body should be less than or equal to 65535"#
    );
    assert_eq!(
        refused::<Registry>(registry(json!(0), "r")),
        r#"spec.topology.variables[registry].value.port: Invalid value: "{\"host\":\"r\",\"port\":0}": port in body should be greater than or equal to 1"#
    );
    assert_eq!(
        refused::<Registry>(registry(json!("443"), "r")),
        r#"spec.topology.variables[registry].value.port: Invalid value: "{\"host\":\"r\",\"port\":\"443\"}": port in body must be of type integer: "string""#
    );
    assert_eq!(
        refused::<Registry>(registry(json!(1.5), "r")),
        r#"spec.topology.variables[registry].value.port: Invalid value: "{\"host\":\"r\",\"port\":1.5}": port in body must be of type integer: "number""#
    );
    // The length is counted in characters (twelve here, 24 bytes); the message says bytes.
    assert!(
        check::<Registry>(&json!({ "host": "éééééééééééé" }))
            .is_err_and(|e| e.errors().iter().all(|e| e.detail.contains("should match")))
    );
    assert_eq!(
        refused::<Registry>(json!({ "host": "a-very-long-host" })),
        "spec.topology.variables[registry].value.host: Too long: may not be more than 12 bytes"
    );
    assert_eq!(
        refused::<Registry>(json!({ "host": "" })),
        // Only the first of maxLength, minLength and pattern that fails, as kube-openapi's
        // string validator (and Cluster API in testenv/tests/capi_variables.rs) reports.
        "spec.topology.variables[registry].value.host: Invalid value: \"{\\\"host\\\":\\\"\\\",\\\"port\\\":443}\": host in body should be at least 1 chars long"
    );
    assert_eq!(
        refused::<Registry>(json!({ "port": 1 })),
        "spec.topology.variables[registry].value.host: Required value"
    );
    assert_eq!(
        refused::<Registry>(json!("r")),
        r#"spec.topology.variables[registry].value: Invalid value: "\"r\"": must be of type object: "string""#
    );

    assert_eq!(
        refused::<Mirrors>(json!([])),
        r#"spec.topology.variables[mirrors].value: Invalid value: "[]": should have at least 1 items"#
    );
    assert_eq!(
        refused::<Mirrors>(json!(["a", "b", "c"])),
        r#"spec.topology.variables[mirrors].value: Too many: "[\"a\",\"b\",\"c\"]": must have at most 2 items"#
    );
    assert_eq!(
        refused::<Mirrors>(json!(["a", "a"])),
        r#"spec.topology.variables[mirrors].value: Invalid value: "[\"a\",\"a\"]": shouldn't contain duplicates"#
    );
    // kube-openapi names an item of the root list `[1]`, and apiextensions appends that name
    // as a child, dot included.
    assert_eq!(
        refused::<Mirrors>(json!(["a", 1])),
        r#"spec.topology.variables[mirrors].value.[1]: Invalid value: "[\"a\",1]": [1] in body must be of type string: "integer""#
    );

    assert_eq!(
        refused::<Proxy>(json!({ "scheme": "ftp" })),
        r#"spec.topology.variables[proxy].value.scheme: Unsupported value: "{\"endpoint\":{\"host\":\"proxy.internal\",\"port\":3128},\"scheme\":\"ftp\"}": supported values: "http", "https""#
    );
    assert_eq!(
        refused::<Proxy>(
            json!({ "headers": { "a": "1", "b": "2" }, "endpoint": { "host": "p", "port": 1 } })
        ),
        r#"spec.topology.variables[proxy].value.headers: Too many: "{\"endpoint\":{\"host\":\"p\",\"port\":1},\"headers\":{\"a\":\"1\",\"b\":\"2\"}}": must have at most 1 item"#
    );
    assert_eq!(
        refused::<Proxy>(json!({ "endpoint": { "port": 1 } })),
        "spec.topology.variables[proxy].value.endpoint.host: Required value"
    );

    assert_eq!(
        refused::<Share>(json!(1)),
        r#"spec.topology.variables[share].value: Invalid value: "1": should be less than 1"#
    );
    assert_eq!(
        refused::<Share>(json!(0)),
        r#"spec.topology.variables[share].value: Invalid value: "0": should be greater than 0"#
    );
    assert_eq!(
        refused::<Dns>(json!("10.0.0")),
        r#"spec.topology.variables[dns].value: Invalid value: "\"10.0.0\"": must be of type ipv4: "10.0.0""#
    );
    assert_eq!(
        refused::<Surge>(json!(true)),
        // As Cluster API answered in testenv/tests/capi_variables.rs.
        "spec.topology.variables[surge].value: Invalid value: \"true\": must be of type integer,string: \"boolean\"\n\
         spec.topology.variables[surge].value: Invalid value: \"true\": \"\" must validate at least one schema (anyOf)\n\
         spec.topology.variables[surge].value: Invalid value: \"true\": must be of type integer: \"boolean\""
    );
}

#[test]
fn unknown_fields_are_refused_unless_preserved() {
    assert_eq!(
        refused::<Registry>(json!({ "host": "r", "user": "me" })),
        r#"spec.topology.variables[registry]: Invalid value: "{\"host\":\"r\",\"port\":443,\"user\":\"me\"}": failed validation: "user" field(s) are not specified in the variable schema of variable "registry""#
    );
    assert_eq!(
        refused::<Proxy>(json!({ "endpoint": { "host": "p", "port": 1, "tls": true } })),
        r#"spec.topology.variables[proxy]: Invalid value: "{\"endpoint\":{\"host\":\"p\",\"port\":1,\"tls\":true}}": failed validation: "endpoint.tls" field(s) are not specified in the variable schema of variable "proxy""#
    );
    let kept = json!({ "extra": { "mode": "fast", "workers": 4, "nested": { "x": 1 } } });
    let value = check::<Proxy>(&kept).unwrap();
    assert_eq!(value["extra"], kept["extra"]);
}

#[test]
fn the_display_aggregates_as_go_does() {
    let errors = check::<Registry>(&json!({ "host": "", "port": 0 })).unwrap_err();
    assert_eq!(errors.errors().len(), 2);
    assert_eq!(
        errors.to_string(),
        format!("[{}, {}]", errors.errors()[0], errors.errors()[1])
    );
    let one = check::<Registry>(&json!({})).unwrap_err();
    assert_eq!(
        one.to_string(),
        "spec.topology.variables[registry].value.host: Required value"
    );
    assert!(std::error::Error::source(&one).is_none());
}

#[test]
fn an_unset_variable_is_required_or_defaulted() {
    assert_eq!(
        check_unset::<Registry>().unwrap_err().to_string(),
        r#"spec.topology.variables: Required value: required variable "registry" must be set"#
    );
    assert_eq!(check_unset::<Proxy>(), Ok(None));
    assert_eq!(check_unset::<Mirrors>(), Ok(None));
}

#[test]
fn a_hand_written_schema_is_checked_the_same_way() {
    let definition = serde_json::from_value(json!({
        "name": "cpu",
        "required": true,
        "schema": { "openAPIV3Schema": { "type": "integer", "maximum": 10 } },
    }))
    .unwrap();
    assert_eq!(
        check_variable(&definition, &json!(99), None)
            .unwrap_err()
            .to_string(),
        r#"spec.topology.variables[cpu].value: Invalid value: "99": should be less than or equal to 10"#
    );
    assert_eq!(check_variable(&definition, &json!(3), None), Ok(json!(3)));

    // A top-level default is what a Cluster that leaves the variable out gets.
    let defaulted = serde_json::from_value(json!({
        "name": "cpu",
        "required": false,
        "schema": { "openAPIV3Schema": { "type": "integer", "default": 2 } },
    }))
    .unwrap();
    assert_eq!(
        capi_runtime::variable::check_variable_unset(&defaulted),
        Ok(Some(json!(2)))
    );
}

#[cfg(feature = "variable-cel")]
mod cel {
    use capi_runtime::variable::{check, check_update};
    use serde_json::json;

    use super::{Proxy, Registry, refused};

    #[test]
    fn rules_pass_and_fail_with_their_message() {
        assert!(check::<Registry>(&json!({ "host": "r" })).is_ok());
        assert_eq!(
            refused::<Registry>(json!({ "host": "localhost" })),
            r#"spec.topology.variables[registry].value: Invalid value: "{\"host\":\"localhost\",\"port\":443}": not the local host"#
        );
    }

    #[test]
    fn a_message_expression_a_reason_and_a_field_path() {
        assert_eq!(
            refused::<Proxy>(json!({ "endpoint": { "host": "p", "port": 443 } })),
            "spec.topology.variables[proxy].value.endpoint.port: Forbidden: port 443 is the registry port"
        );
    }

    #[test]
    fn a_transition_rule_runs_only_on_update() {
        let old = json!({ "host": "a", "port": 443 });
        assert!(check::<Registry>(&json!({ "host": "b" })).is_ok());
        assert!(check_update::<Registry>(&json!({ "host": "a" }), &old).is_ok());
        assert_eq!(
            check_update::<Registry>(&json!({ "host": "b" }), &old)
                .unwrap_err()
                .to_string(),
            r#"spec.topology.variables[registry].value: Invalid value: "{\"host\":\"b\",\"port\":443}": the host is immutable"#
        );
    }

    #[test]
    fn rules_run_only_on_a_value_that_fits_the_schema() {
        // The type error stops the check before the rule, as in Cluster API.
        assert_eq!(
            refused::<Registry>(json!({ "host": "localhost", "port": "x" })),
            r#"spec.topology.variables[registry].value.port: Invalid value: "{\"host\":\"localhost\",\"port\":\"x\"}": port in body must be of type integer: "string""#
        );
    }
}

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z0-9é.:-]{0,14}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("host".to_string()),
                    Just("port".to_string()),
                    Just("endpoint".to_string()),
                    Just("extra".to_string()),
                    "[a-z]{1,5}"
                ],
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// No value makes the check panic; a value it accepts is accepted again as it returned it
    /// (defaulting is done once), and fits the schema's type.
    #[test]
    fn any_value_is_checked_without_panicking(value in any_json()) {
        fn round<V: Variable>(value: &Value) -> Result<(), TestCaseError> {
            if let Ok(defaulted) = check::<V>(value) {
                prop_assert_eq!(check::<V>(&defaulted), Ok(defaulted.clone()));
            }
            Ok(())
        }
        round::<Registry>(&value)?;
        round::<Proxy>(&value)?;
        round::<Mirrors>(&value)?;
        round::<Share>(&value)?;
        round::<Dns>(&value)?;
        round::<Surge>(&value)?;
    }
}

/// The derived schemas hold what the tests above rely on.
#[test]
fn the_schemas_are_the_ones_checked() {
    let proxy = serde_json::to_value(schema_of::<Proxy>()).unwrap();
    assert_eq!(
        proxy["properties"]["endpoint"]["default"],
        json!({ "host": "proxy.internal" })
    );
    assert_eq!(
        proxy["properties"]["extra"]["x-kubernetes-preserve-unknown-fields"],
        true
    );
}
