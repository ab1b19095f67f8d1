//! Every field Cluster API's Go types hold as a pointer to a scalar (`*int32`, `*bool`,
//! `*string`, `*FailurePolicy`, ...) keeps an explicit zero through this crate's types.
//!
//! A Go pointer has a state a plain field has not: set to the zero value (`"replicas": 0`,
//! `"failureMessage": ""`), which `json.Marshal` writes even with `omitempty`, unlike a nil
//! pointer. The `go-rules` oracle walks each hook's request and response types by reflection
//! (`WirePointerZeros`) and gives one body per such field, reached through the first path it
//! finds, with that pointer at its zero value. Each body is decoded by `capi_runtime::wire`
//! and encoded again; Go's `json.Marshal` of what it reads from that must be byte for byte
//! Go's `json.Marshal` of what it reads from the body itself. A Rust field that is not an
//! `Option` drops the zero on the way back and the two differ.
//!
//! `go_wire.rs` finds the same class among many others, but only for the fields its seeds
//! happen to set to zero; this test covers every such field of the type graph.

use std::collections::BTreeSet;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use capi_runtime_oracle::go_rules;
use serde_json::{Value, json};

#[path = "support/hook_messages.rs"]
mod hook_messages;

use hook_messages::{HOOKS, Side, Verdict, round_trip_named as rust};

/// One body of the oracle: a message with one pointer at its zero value.
struct Case {
    hook: &'static str,
    side: Side,
    field: String,
    path: String,
    body: String,
}

fn oracle(cases: &[(&str, Value)]) -> Vec<Value> {
    go_rules(cases).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_go_pointer_to_a_scalar_keeps_its_zero() {
    let asked: Vec<(&str, Value)> = HOOKS
        .iter()
        .flat_map(|hook| {
            Side::BOTH.map(|side| {
                (
                    "WirePointerZeros",
                    json!({"hook": hook, "side": side.name()}),
                )
            })
        })
        .collect();
    let mut cases = Vec::new();
    for ((_, input), answer) in asked.iter().zip(oracle(&asked)) {
        assert!(answer["err"].is_null(), "{input}: {}", answer["err"]);
        let hook = HOOKS
            .iter()
            .find(|h| **h == input["hook"])
            .expect("a hook asked for");
        let side = *Side::BOTH
            .iter()
            .find(|s| s.name() == input["side"])
            .expect("a side asked for");
        for entry in answer["out"].as_array().expect("a list of bodies") {
            let text = |key: &str| entry[key].as_str().expect("a string").to_owned();
            cases.push(Case {
                hook,
                side,
                field: text("field"),
                path: text("path"),
                body: text("body"),
            });
        }
    }

    let ours: Vec<Verdict> = cases
        .iter()
        .map(|c| rust(c.hook, c.side, c.body.as_bytes()))
        .collect();
    // Go reads the body, and what Rust wrote back from it.
    let decode = |c: &Case, body: &[u8]| {
        (
            "WireDecode",
            json!({"hook": c.hook, "side": c.side.name(), "body": BASE64.encode(body)}),
        )
    };
    let mut reads = Vec::new();
    for (c, ours) in cases.iter().zip(&ours) {
        reads.push(decode(c, c.body.as_bytes()));
        if let Ok(back) = ours {
            reads.push(decode(c, back));
        }
    }
    let mut answers = oracle(&reads).into_iter();
    let mut read = || {
        let answer = answers.next().expect("one answer per read");
        match answer["err"].as_str() {
            Some(err) => Err(err.to_owned()),
            None => Ok(answer["out"]
                .as_str()
                .expect("a marshalled message")
                .to_owned()),
        }
    };

    let mut fields = BTreeSet::new();
    let mut differences = Vec::new();
    for (c, ours) in cases.iter().zip(&ours) {
        fields.insert(c.field.as_str());
        let go = read();
        let problem = match (go, ours) {
            (Err(e), _) => Some(format!("Go refuses its own body: {e}")),
            (Ok(_), Err(e)) => Some(format!("rust refuses: {e}")),
            (Ok(go), Ok(_)) => match read() {
                Err(e) => Some(format!("Go refuses what rust writes: {e}")),
                Ok(again) if again != go => Some(format!("go:   {go}\n    rust: {again}")),
                Ok(_) => None,
            },
        };
        if let Some(problem) = problem {
            differences.push(format!(
                "{} {} {} ({}):\n    {problem}",
                c.hook,
                c.side.name(),
                c.path,
                c.field
            ));
        }
    }
    println!(
        "{} bodies over {} hook messages, {} distinct pointer fields",
        cases.len(),
        HOOKS.len() * Side::BOTH.len(),
        fields.len()
    );
    for field in &fields {
        println!("  {field}");
    }
    // The oracle finds the fields: an empty walk would prove nothing.
    for expected in [
        "sigs.k8s.io/cluster-api/api/core/v1beta2.UnhealthyMachineCondition.timeoutSeconds",
        "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1.ExtensionHandler.failurePolicy",
    ] {
        assert!(fields.contains(expected), "the walk misses {expected}");
    }
    assert!(
        differences.is_empty(),
        "{} of {} bodies lose a zero or differ from Go:\n{}",
        differences.len(),
        cases.len(),
        differences.join("\n")
    );
}
