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
        include_str!("data/outside_hook.rs"),
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

#[test]
fn crd_gen_reads_an_input_crate_that_embeds_sdk_types() {
    let tmp = tempfile::tempdir().unwrap();
    let api = tmp.path().join("src/api");
    std::fs::create_dir_all(&api).unwrap();
    std::fs::write(
        api.join("mod.rs"),
        r#"use capi_runtime::Schema;
use capi_runtime::api::core::v1beta2::APIEndpoint;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;

/// A gizmo.
#[derive(Schema)]
#[schema(package = "example.com/gizmos/v1")]
#[crd(group = "gizmos.example.com", version = "v1", plural = "gizmos", scope = "Cluster", storage)]
#[serde(rename_all = "camelCase")]
pub struct Gizmo {
    /// The version.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The kind.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Metadata.
    pub metadata: metav1::ObjectMeta,
    /// Where it answers.
    pub endpoint: APIEndpoint,
}
"#,
    )
    .unwrap();
    let out = run_bin(
        CRD_GEN,
        tmp.path(),
        &["--input", "src", "--output-dir", "."],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // The input's CRD only: the SDK's own (ExtensionConfig) is not the input's.
    let name = "gizmos.example.com_gizmos.yaml";
    assert_eq!(files(tmp.path()), [name, "src"]);
    let crd = std::fs::read_to_string(tmp.path().join(name)).unwrap();
    assert!(
        crd.contains("Host name or IP address of the endpoint."),
        "the SDK's APIEndpoint is written in place:\n{crd}"
    );
}

/// Runs `bin` in `dir`; a run that does not end within a minute is killed and fails the test
/// (a hang is the defect some of these tests look for; the deadline is not synchronisation).
/// Its output is read while it runs, so a long diff cannot fill the pipe and stall it.
fn run_bin(bin: &str, dir: &Path, args: &[&str]) -> Output {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            pipe.read_to_end(&mut buf).expect("pipe is readable");
            buf
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{bin} {args:?} did not finish within a minute");
        }
        std::thread::park_timeout(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

const OPENAPI_GEN: &str = env!("CARGO_BIN_EXE_runtime-openapi-gen");
const CRD_GEN: &str = env!("CARGO_BIN_EXE_runtime-crd-gen");

/// A crate `src/` with one hook (`Hello`) in `hooks/mod.rs`.
fn hello_crate(src: &Path) {
    std::fs::create_dir_all(src.join("hooks")).unwrap();
    std::fs::write(
        src.join("hooks/mod.rs"),
        r#"use capi_runtime::hooks::v1alpha1::ResponseStatus;
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
}

/// Asserts a failed run printed exactly one line starting with `prefix` and wrote nothing.
fn one_line_failure(out: &Output, dir: &Path, prefix: &str) -> String {
    let err = stderr(out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.starts_with(prefix),
        "expected `{prefix}...`, got: {err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.join("runtime-sdk-openapi.yaml").exists());
    err
}

#[test]
fn input_that_is_missing_a_file_or_without_hooks_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let args = |input: &'static str| ["--version", "v1", "--input", input];
    let out = run_bin(OPENAPI_GEN, dir, &args("nowhere"));
    one_line_failure(&out, dir, "error: --input nowhere: no such directory");

    std::fs::write(dir.join("lib.rs"), "pub struct A;\n").unwrap();
    let out = run_bin(OPENAPI_GEN, dir, &args("lib.rs"));
    one_line_failure(
        &out,
        dir,
        "error: --input lib.rs: not a directory (give the crate's src/ directory)",
    );

    // A directory without hooks/ or api/, and one whose hooks/ defines no hook.
    std::fs::create_dir(dir.join("empty")).unwrap();
    let out = run_bin(OPENAPI_GEN, dir, &args("empty"));
    one_line_failure(&out, dir, "error: --input empty: no hook found");
    std::fs::create_dir_all(dir.join("plain/hooks")).unwrap();
    std::fs::write(
        dir.join("plain/hooks/mod.rs"),
        "use capi_runtime::Schema;\n\n#[derive(Schema)]\n#[schema(package = \"x.io/v1\")]\npub struct Thing {\n    pub name: String,\n}\n",
    )
    .unwrap();
    let out = run_bin(OPENAPI_GEN, dir, &args("plain"));
    one_line_failure(&out, dir, "error: --input plain: no hook found");

    // The CRD generator names the missing input, not the missing #[crd].
    let out = run_bin(CRD_GEN, dir, &["--input", "nowhere", "--output-dir", "."]);
    one_line_failure(&out, dir, "error: --input nowhere: no such directory");
}

#[cfg(unix)]
#[test]
fn symlinked_directories_are_read_once_and_loops_are_errors() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // hooks/ is a link to a directory elsewhere, and a link under api/ reaches it again: it
    // is read once, so the hook is generated once.
    hello_crate(&dir.join("shared"));
    std::fs::create_dir_all(dir.join("src/api")).unwrap();
    symlink(dir.join("shared/hooks"), dir.join("src/hooks")).unwrap();
    symlink("../../shared/hooks", dir.join("src/api/again")).unwrap();
    let out = run_bin(
        OPENAPI_GEN,
        dir,
        &[
            "--version",
            "v1",
            "--input",
            "src",
            "--output-file",
            "a.json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a.json")).unwrap()).unwrap();
    assert_eq!(doc["paths"].as_object().unwrap().len(), 1);

    // One loop (a link to the crate root) and two loops: one error line each, no hang.
    let looped = dir.join("looped");
    hello_crate(&looped);
    symlink("..", looped.join("hooks/up")).unwrap();
    let out = run_bin(OPENAPI_GEN, dir, &["--version", "v1", "--input", "looped"]);
    let err = one_line_failure(&out, dir, "error: looped/hooks/up: symlink loop");
    assert!(err.contains("back to looped"), "{err}");
    symlink(".", looped.join("hooks/here")).unwrap();
    let out = run_bin(OPENAPI_GEN, dir, &["--version", "v1", "--input", "looped"]);
    let err = stderr(&out);
    assert!(!out.status.success());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("error: looped/hooks/here: symlink loop"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("error: looped/hooks/up: symlink loop"),
        "{err}"
    );
}

#[test]
fn check_of_an_unreadable_file_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("adir.yaml")).unwrap();
    std::fs::write(dir.join("latin1.yaml"), b"caf\xe9\n").unwrap();
    let mut cases = vec![
        ("missing.yaml", "No such file or directory"),
        ("adir.yaml", "is a directory"),
        ("latin1.yaml", "not UTF-8"),
    ];
    #[cfg(unix)]
    {
        let made = Command::new("mkfifo")
            .arg(dir.join("fifo.yaml"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        cases.push(("fifo.yaml", "not a regular file"));
    }
    for (name, reason) in cases {
        let out = run_bin(OPENAPI_GEN, dir, &["--version", "v1", "--check", name]);
        let err = stderr(&out);
        assert!(!out.status.success(), "{name}: {err}");
        assert!(
            err.starts_with(&format!("error: cannot read {name}: ")) && err.contains(reason),
            "{name}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
    }
    // The CRD generator's check reads its manifests the same way.
    let out = run_bin(CRD_GEN, dir, &["--check", "adir.yaml"]);
    let err = stderr(&out);
    assert!(!out.status.success());
    assert!(
        err.starts_with(
            "error: cannot read adir.yaml/runtime.cluster.x-k8s.io_extensionconfigs.yaml: "
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[cfg(unix)]
#[test]
fn writes_go_through_symlinks_and_keep_permissions() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("real")).unwrap();
    std::fs::write(dir.join("real/doc.yaml"), "old\n").unwrap();
    std::fs::set_permissions(
        dir.join("real/doc.yaml"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    symlink("real/doc.yaml", dir.join("doc.yaml")).unwrap();
    let out = run_bin(
        OPENAPI_GEN,
        dir,
        &["--version", "v1", "--output-file", "doc.yaml"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let link = std::fs::symlink_metadata(dir.join("doc.yaml")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let text = std::fs::read_to_string(dir.join("real/doc.yaml")).unwrap();
    assert!(text.contains("version: v1"), "{text}");
    let mode = std::fs::metadata(dir.join("real/doc.yaml"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o640);
    assert_eq!(files(dir), ["doc.yaml", "real"]);
    assert_eq!(files(&dir.join("real")), ["doc.yaml"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_later_run_removes_its_own_stale_temporaries_only() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Process ids are always below pid_max, so this one belongs to no process: a temporary
    // left by a killed run. The test's own id is alive: a run in progress, kept.
    let pid_max = std::fs::read_to_string("/proc/sys/kernel/pid_max").unwrap();
    let dead = format!(".doc.yaml.tmp-{}", pid_max.trim());
    let alive = format!(".doc.yaml.tmp-{}", std::process::id());
    let other = ".notes.yaml.tmp-1".to_string();
    for name in [&dead, &alive, &other] {
        std::fs::write(dir.join(name), "partial").unwrap();
    }
    let out = run_bin(
        OPENAPI_GEN,
        dir,
        &["--version", "v1", "--output-file", "doc.yaml"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut expected = vec![alive, other, "doc.yaml".to_string()];
    expected.sort();
    assert_eq!(files(dir), expected);
}

#[test]
fn error_locations_of_an_absolute_input_are_paths_that_exist() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = "use capi_runtime::Schema;\n\n#[derive(Schema)]\n#[schema(package = \"x.io/v1\")]\npub struct Bad {\n    pub size: usize,\n}\n";
    let src = tmp.path().join("work/src");
    std::fs::create_dir_all(src.join("hooks")).unwrap();
    std::fs::write(src.join("hooks/mod.rs"), bad).unwrap();
    let src = src.canonicalize().unwrap();
    let input = src.to_str().unwrap();
    // Under the working directory: relative to it.
    let work = tmp.path().join("work");
    let out = run_bin(OPENAPI_GEN, &work, &["--version", "v1", "--input", input]);
    let err = stderr(&out);
    assert!(!out.status.success());
    assert!(
        err.starts_with("src/hooks/mod.rs:6:15: unsupported field type `usize`"),
        "{err}"
    );
    assert!(work.join("src/hooks/mod.rs").exists());
    // Elsewhere: absolute.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let out = run_bin(OPENAPI_GEN, &other, &["--version", "v1", "--input", input]);
    let err = stderr(&out);
    assert!(!out.status.success());
    let shown = format!("{}/hooks/mod.rs", src.display());
    assert!(
        err.starts_with(&format!("{shown}:6:15: unsupported field type `usize`")),
        "{err}"
    );
    assert!(Path::new(&shown).exists());
}
