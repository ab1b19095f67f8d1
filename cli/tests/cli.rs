//! The `runtime-openapi-gen` binary: arguments, outputs, errors, and that failures write
//! nothing.

use std::path::Path;
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runtime-openapi-gen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn writes_yaml_by_default_with_only_a_version() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["--version", "v9.9.9"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(files(tmp.path()), ["runtime-sdk-openapi.yaml"]);
    let text = std::fs::read_to_string(tmp.path().join("runtime-sdk-openapi.yaml")).unwrap();
    assert!(text.contains("version: v9.9.9"));
    assert!(text.contains("/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery:"));
    // The same document as the checked-in one, apart from the version.
    let golden = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden/sdk/runtime-sdk-openapi.yaml"),
    )
    .unwrap();
    let version = golden
        .lines()
        .find(|l| l.starts_with("  version: "))
        .unwrap();
    assert_eq!(text.replace("  version: v9.9.9", version), golden);
}

#[test]
fn writes_json_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        tmp.path(),
        &["--version", "book", "--output-file", "sub.json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("sub.json")).unwrap())
            .unwrap();
    assert_eq!(doc["info"]["version"], "book");
    assert_eq!(doc["openapi"], "3.0.0");
    assert_eq!(doc["paths"].as_object().unwrap().len(), 17);
}

#[test]
fn missing_version_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [&[][..], &["--version", ""][..]] {
        let out = run(tmp.path(), args);
        assert!(!out.status.success());
        assert_eq!(
            stderr(&out),
            "error: --version is required (it becomes info.version)\n"
        );
        assert!(files(tmp.path()).is_empty());
    }
}

#[test]
fn wrong_extension_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["--version", "v1", "--output-file", "doc.txt"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out),
        "error: doc.txt: the output file must end in .yaml or .json\n"
    );
    assert!(files(tmp.path()).is_empty());
}

#[test]
fn unwritable_path_is_a_one_line_error_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        tmp.path(),
        &["--version", "v1", "--output-file", "missing/dir/doc.yaml"],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.starts_with("error: cannot write missing/dir/doc.yaml: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(files(tmp.path()).is_empty());
}

#[test]
fn a_failed_write_keeps_the_previous_file() {
    let tmp = tempfile::tempdir().unwrap();
    // A directory where the output file should be: the rename fails, nothing is left behind.
    std::fs::create_dir(tmp.path().join("doc.yaml")).unwrap();
    std::fs::write(tmp.path().join("doc.yaml/keep"), "x").unwrap();
    let out = run(
        tmp.path(),
        &["--version", "v1", "--output-file", "doc.yaml"],
    );
    assert!(!out.status.success());
    assert_eq!(files(tmp.path()), ["doc.yaml"]);
    assert_eq!(files(&tmp.path().join("doc.yaml")), ["keep"]);
}

#[test]
fn check_passes_when_fresh_and_prints_a_diff_when_stale() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(
        run(
            tmp.path(),
            &["--version", "v1", "--output-file", "doc.yaml"]
        )
        .status
        .success()
    );
    let before = std::fs::read_to_string(tmp.path().join("doc.yaml")).unwrap();
    let fresh = run(tmp.path(), &["--version", "v1", "--check", "doc.yaml"]);
    assert!(fresh.status.success(), "{}", stderr(&fresh));
    let stale = run(tmp.path(), &["--version", "v2", "--check", "doc.yaml"]);
    assert!(!stale.status.success());
    let err = stderr(&stale);
    assert!(err.contains("doc.yaml is stale"), "{err}");
    assert!(
        err.contains("-  version: v1") && err.contains("+  version: v2"),
        "{err}"
    );
    // --check writes nothing.
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("doc.yaml")).unwrap(),
        before
    );
    assert_eq!(files(tmp.path()), ["doc.yaml"]);
}

#[test]
fn errors_in_input_are_reported_as_path_line_col() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("hooks")).unwrap();
    std::fs::write(
        src.join("hooks/mod.rs"),
        "use capi_runtime::Schema;\n\n#[derive(Schema)]\n#[schema(package = \"x.io/v1\")]\npub struct Bad {\n    pub size: usize,\n    #[schema(requried)]\n    pub name: String,\n}\n",
    )
    .unwrap();
    let out = run(tmp.path(), &["--version", "v1", "--input", "src"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("src/hooks/mod.rs:6:15: unsupported field type `usize`"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("src/hooks/mod.rs:7:14: unknown schema attribute `requried`"),
        "{err}"
    );
    assert!(!tmp.path().join("runtime-sdk-openapi.yaml").exists());
}

#[test]
fn input_crates_can_use_the_sdk_types() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("hooks")).unwrap();
    std::fs::write(
        src.join("hooks/mod.rs"),
        r#"use capi_runtime::api::core::v1beta2::Cluster;
use capi_runtime::hooks::v1alpha1::ResponseStatus;
use capi_runtime::{Hook, Schema};

/// Says hello.
#[derive(Hook)]
#[hook(group = "hello.example.com", version = "v1", request = HelloRequest, response = HelloResponse)]
pub struct Hello;

/// Request.
#[derive(Schema)]
#[schema(package = "example.com/hello/v1", request)]
pub struct HelloRequest {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub cluster: Cluster,
}

/// Response.
#[derive(Schema)]
#[schema(package = "example.com/hello/v1", response)]
pub struct HelloResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub status: ResponseStatus,
    pub message: String,
}
"#,
    )
    .unwrap();
    let out = run(
        tmp.path(),
        &[
            "--version",
            "v1",
            "--input",
            "src",
            "--output-file",
            "hello.json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("hello.json")).unwrap())
            .unwrap();
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    assert_eq!(paths, ["/hello.example.com/v1/hello/{name}"]);
    assert!(
        doc["components"]["schemas"]["sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster"]
            .is_object()
    );
}

#[test]
fn crd_gen_writes_the_extensionconfig_crd_and_checks_it() {
    let tmp = tempfile::tempdir().unwrap();
    let crd_gen = env!("CARGO_BIN_EXE_runtime-crd-gen");
    let out = Command::new(crd_gen)
        .args(["--output-dir", "."])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let name = "runtime.cluster.x-k8s.io_extensionconfigs.yaml";
    assert_eq!(files(tmp.path()), [name]);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../golden/sdk/crd")
        .join(name);
    assert_eq!(
        std::fs::read_to_string(tmp.path().join(name)).unwrap(),
        std::fs::read_to_string(golden).unwrap()
    );
    let fresh = Command::new(crd_gen)
        .args(["--check", "."])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(fresh.status.success(), "{}", stderr(&fresh));
    std::fs::write(tmp.path().join(name), "---\n").unwrap();
    let stale = Command::new(crd_gen)
        .args(["--check", "."])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(!stale.status.success());
    assert!(
        stderr(&stale).contains("is stale; regenerate it with runtime-crd-gen"),
        "{}",
        stderr(&stale)
    );
    let bad = Command::new(crd_gen)
        .args(["--output-dir", "missing/dir"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).starts_with("error: cannot write missing/dir/"),
        "{}",
        stderr(&bad)
    );
}
