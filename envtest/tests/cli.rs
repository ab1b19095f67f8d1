//! The `capi-envtest` command's arguments and output (no build: those cases need Go and
//! minutes; `cargo xtask testenv` runs the same library code on every test run).

use std::process::Command;

fn capi_envtest(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_capi-envtest"))
        .args(args)
        .env("XDG_CACHE_HOME", "/cache-home")
        .output()
        .expect("the command runs")
}

#[test]
fn versions_prints_the_pins_each_supported_version_and_the_cache_directory() {
    let out = capi_envtest(&["versions"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let v = capi_envtest::versions();
    let mut expected = format!(
        "kubernetes {}\netcd {}\ncluster-api {}\n",
        v.kubernetes, v.etcd, v.cluster_api
    );
    for version in capi_envtest::CLUSTER_API_VERSIONS {
        let key = capi_envtest::versions_for(version).unwrap().key();
        let default = if *version == capi_envtest::DEFAULT_CLUSTER_API_VERSION {
            " (default)"
        } else {
            ""
        };
        // Nothing is built under /cache-home.
        expected.push_str(&format!(
            "supported {version} missing /cache-home/capi-envtest/{key}{default}\n"
        ));
    }
    expected.push_str(&format!("dir /cache-home/capi-envtest/{}\n", v.key()));
    assert_eq!(text, expected);
    let out = capi_envtest(&["versions", "--dir", "/elsewhere"]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .ends_with("dir /elsewhere\n")
    );
    // Another version: its pins and its own directory.
    let out = capi_envtest(&["versions", "--capi-version", "v1.12.5"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let old = capi_envtest::versions_for("v1.12.5").unwrap();
    assert!(text.contains("\ncluster-api v1.12.5\n"), "{text}");
    assert!(
        text.ends_with(&format!("dir /cache-home/capi-envtest/{}\n", old.key())),
        "{text}"
    );
}

#[test]
fn an_unsupported_version_is_refused_with_the_supported_ones() {
    let out = capi_envtest(&["--capi-version", "v1.11.0", "-p", "path"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "capi-envtest: Cluster API v1.11.0 is not one capi-envtest builds (it builds {})\n",
            capi_envtest::CLUSTER_API_VERSIONS.join(", ")
        )
    );
}

#[test]
fn bad_arguments_fail_with_the_usage() {
    let out = capi_envtest(&["--frobnicate"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("capi-envtest: unknown argument \"--frobnicate\""),
        "{err}"
    );
    assert!(err.contains("usage: capi-envtest"), "{err}");

    let out = capi_envtest(&["-p", "yaml"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "capi-envtest: -p \"yaml\": expected env or path\n"
    );
}
