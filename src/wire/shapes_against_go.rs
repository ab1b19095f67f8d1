//! The shapes the crate's types record (`#[derive(Schema)]`, and the descriptions of the
//! k8s-openapi types in `codegen/external/`) against Cluster API's Go types: for every struct
//! type a hook message reaches, the fields Go holds by value (`go_values.rs`, written from Go
//! by `cargo xtask go-tables`) must be the ones the decoder takes as held by value, so that a
//! `null` leaves exactly those as they are.

use std::collections::{BTreeMap, BTreeSet};

use super::go_values::GO_VALUES;
use crate::schema::TypeInfo;
use crate::schema::shape::{Node, Shape};

/// Every struct type reachable from `info` through the shapes, by component name.
fn reach(info: &'static TypeInfo, out: &mut BTreeMap<String, &'static TypeInfo>) {
    let component = component(info);
    let nodes: Vec<&Node> = match info.shape() {
        Shape::Struct(shape) => {
            if out.insert(component, info).is_some() {
                return;
            }
            shape.fields.iter().map(|f| &f.node).collect()
        }
        Shape::Transparent(node) => vec![node],
        _ => return,
    };
    for mut node in nodes {
        while let Node::Option(inner) | Node::List(inner) | Node::Map(inner) = node {
            node = inner;
        }
        if let Some(child) = info.referenced(node) {
            reach(child, out);
        }
    }
}

fn component(info: &TypeInfo) -> String {
    let model: serde_json::Value = serde_json::from_str(info.model).unwrap();
    model["component"].as_str().unwrap().to_owned()
}

/// The struct types of every hook's request and response.
fn message_types() -> BTreeMap<String, &'static TypeInfo> {
    let mut catalog = crate::Catalog::new();
    crate::hooks::v1alpha1::add_to_catalog(&mut catalog).unwrap();
    let mut out = BTreeMap::new();
    for hook in catalog.hooks() {
        let info = (hook.info.expect("the SDK's hooks are described"))();
        reach((info.request)(), &mut out);
        reach((info.response)(), &mut out);
    }
    out
}

#[test]
fn fields_held_by_value_are_the_ones_go_holds_by_value() {
    let go: BTreeMap<String, (BTreeSet<&str>, BTreeSet<&str>)> = GO_VALUES
        .iter()
        .map(|(package, name, fields, values)| {
            let component = format!("{}.{name}", package.replace('/', "."));
            let set = |names: &[&'static str]| names.iter().copied().collect();
            (component, (set(fields), set(values)))
        })
        .collect();
    let types = message_types();
    assert!(
        types.len() > 50,
        "the hook messages reach {} types",
        types.len()
    );
    let mut differences = Vec::new();
    for (component, info) in &types {
        let Some((go_fields, go_values)) = go.get(component) else {
            differences.push(format!("{component}: no Go type of that name reached"));
            continue;
        };
        let Shape::Struct(shape) = info.shape() else {
            unreachable!()
        };
        for field in shape.fields {
            if !go_fields.contains(field.name) {
                continue;
            }
            let ours = field.held_by_value(info);
            let theirs = go_values.contains(field.name);
            if ours != theirs {
                differences.push(format!(
                    "{component}.{}: held by value here {ours}, in Go {theirs}",
                    field.name
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
