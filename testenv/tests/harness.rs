//! The harness itself: a real etcd and kube-apiserver start, serve, and leave nothing behind
//! when the environment is dropped or when the test process dies without dropping it.
//!
//! Each test here starts its own control plane; they take turns (one lock) so that start-up
//! on a small machine is not slowed by the others.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use capi_runtime::go::errors::chain;
use capi_runtime_testenv::{Assets, ClusterApiAssets, Error, TestEnv};
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::api::{Api, PostParams};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

/// The pids whose process group is `pgid`.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((_, after)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut f = after.split_whitespace();
        let state = f.next();
        let pgrp = f.nth(1).and_then(|s| s.parse::<u32>().ok());
        // A zombie is already dead; only its parent's wait is missing.
        if pgrp == Some(pgid) && state != Some("Z") {
            out.push(pid);
        }
    }
    out
}

/// Polls `done` every 50 ms until it holds or `limit` has passed.
fn eventually(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The environment's temporary directory (certificates, kubeconfig, etcd data).
fn run_dir_of(env: &TestEnv) -> PathBuf {
    env.kubeconfig_path().parent().unwrap().to_path_buf()
}

/// The supervisors of the environment's two servers (their pids are the process groups):
/// the ones whose command line names the run directory.
fn supervisors_of(run_dir: &Path) -> Vec<u32> {
    let needle = run_dir.display().to_string();
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline);
        // The supervisor leads its process group; its forked watcher has the same command
        // line but not the same pid.
        if cmdline.contains("\0capi-testenv-supervisor\0")
            && cmdline.contains(&needle)
            && group_members(pid).contains(&pid)
        {
            out.push(pid);
        }
    }
    out.sort();
    out
}

#[test]
fn starts_serves_and_stops_without_leftovers() {
    let _turn = turn();
    let env = TestEnv::builder("harness-lifecycle").start().unwrap();
    let (etcd_ready, apiserver_ready, all) = env.startup_times();
    let (etcd_rss, apiserver_rss) = env.rss_kib();
    eprintln!(
        "start-up: etcd healthy {etcd_ready:.2?}, kube-apiserver ready {apiserver_ready:.2?}, \
         total {all:.2?}; RSS etcd {} MiB, kube-apiserver {} MiB",
        etcd_rss / 1024,
        apiserver_rss / 1024
    );
    assert!(etcd_rss > 0 && apiserver_rss > 0);

    // The clients live on a runtime that ends before the environment does.
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            clients_work(&env).await;
            users_work(&env).await;
        });

    let run_dir = run_dir_of(&env);
    let supervisors = supervisors_of(&run_dir);
    assert_eq!(
        supervisors.len(),
        2,
        "one supervisor per server: {supervisors:?}"
    );
    for &s in &supervisors {
        assert!(group_members(s).len() >= 2, "supervisor {s} and its server");
    }
    let logs = env.log_dir().to_path_buf();

    let stopping = Instant::now();
    drop(env);
    eprintln!("stopped in {:.2?}", stopping.elapsed());
    // Its ports are not probed: with its processes gone nothing of it listens, and the OS may
    // already have given a port to another test's server.
    // Drop returns once the supervisor has exited and the rest of its group has been sent
    // SIGKILL; a process so signalled may still be on its way out for a moment on a busy
    // machine, so the group is given a few seconds to empty.
    for s in supervisors {
        assert!(
            eventually(Duration::from_secs(5), || group_members(s).is_empty()),
            "group {s} still has processes: {:?}",
            group_members(s)
        );
    }
    assert!(!run_dir.exists(), "{} is still there", run_dir.display());
    for log in ["etcd.log", "kube-apiserver.log"] {
        let len = std::fs::metadata(logs.join(log)).unwrap().len();
        assert!(len > 0, "{log} is empty");
    }
}

/// The admin client reaches the real API server of the pinned version, and the kubeconfig
/// file works on its own, as another process would read it.
async fn clients_work(env: &TestEnv) {
    let client = env.client().await.unwrap();
    let version = client.apiserver_version().await.unwrap();
    assert_eq!(version.major, "1");
    assert!(version.git_version.starts_with("v1.36."), "{version:?}");
    let ns: Namespace = serde_json::from_value(serde_json::json!({
        "metadata": { "name": env.unique_name("harness") }
    }))
    .unwrap();
    let created = Api::<Namespace>::all(client.clone())
        .create(&PostParams::default(), &ns)
        .await
        .unwrap();
    assert!(created.metadata.uid.is_some());

    let kc = kube::config::Kubeconfig::read_from(env.kubeconfig_path()).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kc, &Default::default())
        .await
        .unwrap();
    let other = kube::Client::try_from(config).unwrap();
    let names: Vec<String> = Api::<Namespace>::all(other)
        .list(&Default::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|n| n.metadata.name)
        .collect();
    assert!(
        names.contains(&created.metadata.name.clone().unwrap()),
        "{names:?}"
    );
    assert!(names.contains(&"default".to_string()), "{names:?}");
}

/// Whether `result` is the API server's 403 Forbidden naming `user`.
fn is_forbidden<T>(result: &Result<T, kube::Error>, user: &str) -> bool {
    matches!(result, Err(kube::Error::Api(s))
        if s.code == 403 && s.reason == "Forbidden" && s.message.contains(user))
}

/// A ServiceAccount user and a certificate user are who the API server says, have no right
/// until one is bound to them, and their kubeconfig files (in the environment's directory,
/// private) work on their own.
async fn users_work(env: &TestEnv) {
    let admin = env.client().await.unwrap();
    let ns = env.unique_name("users");
    let namespace: Namespace =
        serde_json::from_value(serde_json::json!({ "metadata": { "name": ns } })).unwrap();
    Api::<Namespace>::all(admin.clone())
        .create(&PostParams::default(), &namespace)
        .await
        .unwrap();

    let bot = env
        .service_account_user(&ns, "bot", Duration::from_secs(600))
        .await
        .unwrap();
    let bot_name = format!("system:serviceaccount:{ns}:bot");
    assert_eq!(bot.name(), bot_name);
    assert!(
        bot.groups()
            .contains(&format!("system:serviceaccounts:{ns}")),
        "{:?}",
        bot.groups()
    );
    assert!(bot.token().is_some_and(|t| !t.is_empty()));
    // Asking again for an existing ServiceAccount gives another token of the same user.
    let again = env
        .service_account_user(&ns, "bot", Duration::from_secs(600))
        .await
        .unwrap();
    assert_eq!(again.name(), bot_name);
    assert_ne!(again.kubeconfig_path(), bot.kubeconfig_path());

    let path = bot.kubeconfig_path();
    assert!(path.starts_with(run_dir_of(env)), "{}", path.display());
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    let kc = kube::config::Kubeconfig::read_from(path).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kc, &Default::default())
        .await
        .unwrap();
    let from_file = kube::Client::try_from(config).unwrap();
    let namespaces = |client: &kube::Client| Api::<Namespace>::all(client.clone());
    let listed = namespaces(&from_file).list(&Default::default()).await;
    assert!(is_forbidden(&listed, &bot_name), "{listed:?}");
    let listed = namespaces(&bot.client().await.unwrap())
        .list(&Default::default())
        .await;
    assert!(is_forbidden(&listed, &bot_name), "{listed:?}");

    // Bound to a role that lists namespaces, the same credentials may. (Not the built-in
    // `view`: it is an aggregated role, and no controller-manager aggregates it here.)
    let role: ClusterRole = serde_json::from_value(serde_json::json!({
        "metadata": { "name": ns },
        "rules": [{ "apiGroups": [""], "resources": ["namespaces"], "verbs": ["list"] }],
    }))
    .unwrap();
    Api::<ClusterRole>::all(admin.clone())
        .create(&PostParams::default(), &role)
        .await
        .unwrap();
    let binding: ClusterRoleBinding = serde_json::from_value(serde_json::json!({
        "metadata": { "name": ns },
        "roleRef": { "apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": ns },
        "subjects": [{ "kind": "ServiceAccount", "name": "bot", "namespace": ns }],
    }))
    .unwrap();
    Api::<ClusterRoleBinding>::all(admin.clone())
        .create(&PostParams::default(), &binding)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while namespaces(&from_file)
        .list(&Default::default())
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "the binding never took effect");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let alice = env.certificate_user("alice", Some("team-a")).await.unwrap();
    assert_eq!(alice.name(), "alice");
    assert!(
        alice.groups().iter().any(|g| g == "team-a")
            && alice.groups().iter().any(|g| g == "system:authenticated"),
        "{:?}",
        alice.groups()
    );
    assert_eq!(alice.token(), None);
    let listed = namespaces(&alice.client().await.unwrap())
        .list(&Default::default())
        .await;
    assert!(is_forbidden(&listed, "alice"), "{listed:?}");
}

/// Set in the child process of `a_test_process_that_dies_leaves_nothing_behind`.
const VICTIM: &str = "CAPI_TESTENV_VICTIM_REPORT";

/// Runs only as the child of the test below: starts an environment, reports where it is, and
/// dies without dropping it.
#[test]
#[ignore = "run by a_test_process_that_dies_leaves_nothing_behind"]
fn victim() {
    let Some(report) = std::env::var_os(VICTIM) else {
        return;
    };
    let env = TestEnv::builder("harness-victim").start().unwrap();
    let supervisors = supervisors_of(&run_dir_of(&env));
    let text = serde_json::json!({
        "run_dir": run_dir_of(&env),
        "supervisors": supervisors,
    });
    std::fs::write(report, text.to_string()).unwrap();
    std::process::abort();
}

#[test]
fn a_test_process_that_dies_leaves_nothing_behind() {
    let _turn = turn();
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("victim.json");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "victim",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(VICTIM, &report)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!status.success(), "the victim aborts");
    let text = std::fs::read_to_string(&report).expect("the victim started an environment");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let run_dir = PathBuf::from(v["run_dir"].as_str().unwrap());
    let supervisors: Vec<u32> = serde_json::from_value(v["supervisors"].clone()).unwrap();
    assert_eq!(supervisors.len(), 2, "{text}");
    // The supervisors saw their pipe close and stop the servers (SIGTERM, then SIGKILL after
    // 15 s); the janitor removes the files.
    let limit = Duration::from_secs(60);
    for s in &supervisors {
        assert!(
            eventually(limit, || group_members(*s).is_empty()),
            "process group {s} outlived the test process: {:?}",
            group_members(*s)
        );
    }
    assert!(
        eventually(limit, || !run_dir.exists()),
        "{} outlived the test process",
        run_dir.display()
    );
}

#[test]
fn a_server_that_fails_to_start_is_reported_with_its_log() {
    let _turn = turn();
    let err = TestEnv::builder("harness-bad-flag")
        .apiserver_arg("--no-such-flag=1")
        .start()
        .unwrap_err();
    let text = chain(&err).to_string();
    assert!(matches!(err, Error::Startup(_)), "{text}");
    assert!(text.contains("kube-apiserver exited"), "{text}");
    assert!(text.contains("unknown flag: --no-such-flag"), "{text}");
    assert!(text.contains("kube-apiserver.log"), "{text}");
}

#[test]
fn missing_binaries_are_named_with_the_way_to_get_them() {
    let empty = tempfile::tempdir().unwrap();
    let dir = empty.path().as_os_str().to_owned();
    let err = Assets::find_with(|v| (v == "KUBEBUILDER_ASSETS").then(|| dir.clone())).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("etcd not found at "), "{text}");
    assert!(text.contains("KUBEBUILDER_ASSETS"), "{text}");

    let err = Assets::find_with(|v| (v == "TEST_ASSET_ETCD").then(|| "/nonexistent/etcd".into()))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "TEST_ASSET_ETCD=/nonexistent/etcd is not an executable file"
    );

    // Without any variable (not even HOME), the built binaries are looked up under
    // target/testenv/bin; missing, the error names the command that makes them.
    match Assets::find_with(|_| None) {
        Ok(a) => assert!(a.kube_apiserver.ends_with("testenv/bin/kube-apiserver")),
        Err(e) => assert!(e.to_string().contains("capi-envtest"), "{e}"),
    }

    // Cluster API's manager: through CAPI_MANAGER, else beside the control plane's binaries.
    let err = ClusterApiAssets::find_with(|v| (v == "KUBEBUILDER_ASSETS").then(|| dir.clone()))
        .unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("core not found at "), "{text}");
    assert!(text.contains("capi-envtest --dir"), "{text}");
    let err =
        ClusterApiAssets::find_with(|v| (v == "CAPI_MANAGER").then(|| "/nonexistent/core".into()))
            .unwrap_err();
    assert_eq!(
        err.to_string(),
        "CAPI_MANAGER=/nonexistent/core is not an executable file"
    );

    // Cluster API's webhook configurations: through CAPI_WEBHOOKS, else beside the CRDs; an
    // empty or missing directory is named with the command that fills it.
    let no_webhooks = tempfile::tempdir().unwrap();
    let assets = ClusterApiAssets {
        manager: "/nonexistent/core".into(),
        crds: "/nonexistent/crds".into(),
        webhooks: no_webhooks.path().to_path_buf(),
    };
    let text = assets.webhook_files().unwrap_err().to_string();
    assert!(
        text.starts_with("Cluster API's webhook configurations not found at ")
            && text.contains("capi-envtest"),
        "{text}"
    );
}
