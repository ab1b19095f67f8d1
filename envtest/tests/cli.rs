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
fn versions_prints_the_pins_and_the_cache_directory() {
    let out = capi_envtest(&["versions"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let v = capi_envtest::versions();
    assert_eq!(
        text,
        format!(
            "kubernetes {}\netcd {}\ncluster-api {}\ndir /cache-home/capi-envtest/{}\n",
            v.kubernetes,
            v.etcd,
            v.cluster_api,
            v.key()
        )
    );
    let out = capi_envtest(&["versions", "--dir", "/elsewhere"]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .ends_with("dir /elsewhere\n")
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
