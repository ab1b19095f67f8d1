//! Every diagnostic `#[derive(Schema)]`, `#[derive(Hook)]` and `#[derive(Variable)]` can emit, as a compile-fail
//! case with its expected compiler output in `ui/<case>.stderr`.
//!
//! After an intended change of a message, re-bless with `TRYBUILD=overwrite cargo test -p
//! capi-runtime-derive --test ui` and review the `.stderr` diff. The rules that need several
//! types at once (duplicate hooks or component names, unresolved paths, a hook message without
//! its role, list-map keys that are not properties) are checked by the CLI only; their cases
//! are in `testdata/err/`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
