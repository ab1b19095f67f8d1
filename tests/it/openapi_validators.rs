//! The generated OpenAPI document passes the external validators: openapi-spec-validator
//! (PyPI) and `redocly lint` (npm, configured by `redocly.yaml`). Both run on the checked-in
//! document and on one generated now in JSON, and both must reject a broken document, so a
//! validator that accepts everything would be noticed.

use crate::support;

use std::path::Path;

use capi_runtime_codegen::{OpenApiOpt, emit, source};
use support::tools;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn generated_json(dir: &Path) -> std::path::PathBuf {
    let sources = source::read_crate_dir(
        &root().join("src"),
        capi_runtime_codegen::CRATE_LAYOUT,
        "src/",
        "crate",
    )
    .unwrap();
    let model = capi_runtime_codegen::load(&sources).unwrap_or_else(|f| panic!("{}", f.render()));
    let doc = emit::openapi::document(&model, &OpenApiOpt::with_version("v0.0.0-test"));
    let path = dir.join("runtime-sdk-openapi.json");
    std::fs::write(&path, capi_runtime_codegen::to_json(&doc)).unwrap();
    path
}

/// A copy of the checked-in document with a `default` outside its enum (the upstream defect
/// this project fixes) and a dangling reference.
fn broken(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(root().join("golden/sdk/runtime-sdk-openapi.yaml")).unwrap();
    let mut doc: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let schemas = doc["components"]["schemas"].as_object_mut().unwrap();
    let response = schemas
        .get_mut("sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1.BeforeClusterCreateResponse")
        .unwrap();
    response["properties"]["status"]["default"] = serde_json::json!("");
    response["properties"]["extra"] = serde_json::json!({"$ref": "#/components/schemas/Nowhere"});
    let path = dir.join("broken.json");
    std::fs::write(&path, capi_runtime_codegen::to_json(&doc)).unwrap();
    path
}

#[test]
#[cfg_attr(
    not(feature = "external-tests"),
    ignore = "needs the validators `cargo xtask test` installs (feature external-tests)"
)]
fn openapi_spec_validator_accepts_the_document() {
    let tmp = tempfile::tempdir().unwrap();
    for file in [
        root().join("golden/sdk/runtime-sdk-openapi.yaml"),
        generated_json(tmp.path()),
    ] {
        let (ok, out) = tools::run("venv/bin/openapi-spec-validator", &[file.to_str().unwrap()]);
        assert!(ok && out.contains("OK"), "{}:\n{out}", file.display());
    }
    let (ok, out) = tools::run(
        "venv/bin/openapi-spec-validator",
        &[broken(tmp.path()).to_str().unwrap()],
    );
    assert!(!ok, "the validator accepted a broken document:\n{out}");
}

#[test]
#[cfg_attr(
    not(feature = "external-tests"),
    ignore = "needs the validators `cargo xtask test` installs (feature external-tests)"
)]
fn redocly_lint_is_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let config = root().join("redocly.yaml");
    for file in [
        root().join("golden/sdk/runtime-sdk-openapi.yaml"),
        generated_json(tmp.path()),
    ] {
        let (ok, out) = tools::run(
            "node/node_modules/.bin/redocly",
            &[
                "lint",
                "--config",
                config.to_str().unwrap(),
                file.to_str().unwrap(),
            ],
        );
        assert!(
            ok && out.contains("Your API description is valid"),
            "{}:\n{out}",
            file.display()
        );
        // redocly ends with "You have N warnings." when any rule warns.
        assert!(
            !out.contains("You have"),
            "redocly reports warnings for {}:\n{out}",
            file.display()
        );
    }
    let (ok, out) = tools::run(
        "node/node_modules/.bin/redocly",
        &[
            "lint",
            "--config",
            config.to_str().unwrap(),
            broken(tmp.path()).to_str().unwrap(),
        ],
    );
    assert!(!ok, "redocly accepted a broken document:\n{out}");
}
