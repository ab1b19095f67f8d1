//! Benchmark (run by hand, see BENCHMARKS.md): `capi-runtime-manager` beside Cluster API's own
//! core manager (v1.14.2, `target/testenv/bin/core`, RuntimeSDK gate on), one after the other on
//! the same control plane (etcd + kube-apiserver with Cluster API's core CRDs), against the
//! same HTTPS extensions on loopback, at the same `--extensionconfig-concurrency`.
//!
//! For each manager and round: the manager is started and waited for (ready), N
//! ExtensionConfigs are created (one per extension) and the time until all are
//! `Discovered=True` (for their current generation, handlers listed) is taken; after a quiet
//! pause, every config's `spec.settings` is changed (a spec change: a new generation, an update
//! event, and both managers discover again on every reconcile of a config that is not paused)
//! and the time until all are `Discovered=True` for the new generation is taken. CPU seconds
//! (utime + stime of `/proc/<pid>/stat`) are read per phase, each phase counted until the
//! manager has been quiet for a while (it includes the reconciles that its own status writes
//! bring); peak RSS is `VmHWM` when the manager is stopped. The order of the two managers
//! alternates between rounds, and ratios are of figures taken in the same round.
//!
//! ```sh
//! cargo bench -p capi-runtime-manager --bench versus_capi    # [-- COUNT CONCURRENCY ROUNDS]
//! ```
//!
//! (default: 100 ExtensionConfigs, concurrency 10, 2 rounds.) Cluster API's manager is
//! `$CAPI_CORE`, else `core` in `$KUBEBUILDER_ASSETS`, else `target/testenv/bin/core`; its
//! CRDs come from Go's module cache (`$GOMODCACHE/sigs.k8s.io/cluster-api@v1.14.2`). Ours is
//! the one `cargo bench` builds, or `$CAPI_RUNTIME_MANAGER` (an earlier build, for a before and
//! after taken side by side).

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use serde_json::json;
use support::{BoxError, Extensions, ManagerProcess};

/// Cluster API's module whose CRDs are installed and whose core manager is run.
const CAPI_MODULE: &str = "sigs.k8s.io/cluster-api@v1.14.2";

/// How long a manager must have used no CPU for a phase to count as over.
const QUIET: Duration = Duration::from_secs(3);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Which {
    ClusterApi,
    Ours,
}

impl Which {
    fn name(self) -> &'static str {
        match self {
            Which::ClusterApi => "Cluster API",
            Which::Ours => "capi-runtime-manager",
        }
    }

    fn short(self) -> &'static str {
        match self {
            Which::ClusterApi => "capi",
            Which::Ours => "ours",
        }
    }
}

/// One manager's figures in one round.
#[derive(Clone, Copy, Debug)]
struct Figures {
    create_secs: f64,
    create_cpu: f64,
    rediscover_secs: f64,
    rediscover_cpu: f64,
    peak_rss_kib: u64,
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    raise_open_file_limit()?;
    let args = support::args();
    let count: usize = args.first().map_or(Ok(100), |a| a.parse())?;
    let concurrency: u16 = args.get(1).map_or(Ok(10), |a| a.parse())?;
    let rounds: usize = args.get(2).map_or(Ok(2), |a| a.parse())?;

    let core = capi_core()?;
    let module = capi_module()?;
    let env = capi_crds(&module)?
        .into_iter()
        .fold(
            capi_runtime_testenv::Builder::new("versus-capi"),
            |b, crd| b.crd(crd),
        )
        .start()?;
    let kube = env.client().await?;
    let extensions = Extensions::start(count).await?;
    let api: Api<ExtensionConfig> = Api::all(kube.clone());
    let http = reqwest::Client::new();
    let logs = tempfile::tempdir()?;

    eprintln!(
        "{count} ExtensionConfigs, --extensionconfig-concurrency={concurrency}, {rounds} rounds; load average {}",
        load_average()
    );
    let mut results: Vec<(Which, Figures)> = Vec::new();
    for round in 0..rounds {
        let order = if round % 2 == 0 {
            [Which::ClusterApi, Which::Ours]
        } else {
            [Which::Ours, Which::ClusterApi]
        };
        for which in order {
            let manager = match which {
                Which::ClusterApi => {
                    start_capi(
                        &core,
                        env.kubeconfig_path(),
                        extensions.cert_dir(),
                        concurrency,
                        &logs.path().join(format!("core-{round}.log")),
                        &http,
                    )
                    .await?
                }
                Which::Ours => support::start_ours(&env, &extensions, concurrency, &http).await?,
            };
            let prefix = format!("r{round}-{}", which.short());
            let figures = measure(&api, &extensions, &manager, &prefix).await?;
            eprintln!(
                "round {round} {:<22} load {}: create {:.2} s, {:.2} CPU s; re-discover {:.2} s, {:.2} CPU s; peak RSS {:.1} MiB",
                which.name(),
                load_average(),
                figures.create_secs,
                figures.create_cpu,
                figures.rediscover_secs,
                figures.rediscover_cpu,
                figures.peak_rss_kib as f64 / 1024.0,
            );
            results.push((which, figures));
            drop(manager);
            clean(&api).await?;
        }
    }

    println!(
        "\n| round | manager | create → all Discovered=True | CPU s | settings change → all re-discovered | CPU s | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (i, (which, f)) in results.iter().enumerate() {
        println!(
            "| {} | {} | {:.2} s | {:.2} | {:.2} s | {:.2} | {:.1} MiB |",
            i / 2 + 1,
            which.name(),
            f.create_secs,
            f.create_cpu,
            f.rediscover_secs,
            f.rediscover_cpu,
            f.peak_rss_kib as f64 / 1024.0
        );
    }
    println!(
        "\nours ÷ Cluster API's, per round: | round | time to Discovered | CPU s (create) | time to re-discovered | CPU s (re-discover) | peak RSS |"
    );
    println!("|---|---|---|---|---|---|");
    for (round, pair) in results.chunks(2).enumerate() {
        let pick = |w: Which| pair.iter().find(|(x, _)| *x == w).map(|(_, f)| *f);
        if let (Some(o), Some(c)) = (pick(Which::Ours), pick(Which::ClusterApi)) {
            println!(
                "| {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
                round + 1,
                o.create_secs / c.create_secs,
                o.create_cpu / c.create_cpu,
                o.rediscover_secs / c.rediscover_secs,
                o.rediscover_cpu / c.rediscover_cpu,
                o.peak_rss_kib as f64 / c.peak_rss_kib as f64
            );
        }
    }
    extensions.stop().await
}

/// Creates the configs, waits for discovery, changes them and waits for re-discovery, reading
/// the manager's CPU time around each phase.
async fn measure(
    api: &Api<ExtensionConfig>,
    extensions: &Extensions,
    manager: &ManagerProcess,
    prefix: &str,
) -> Result<Figures, BoxError> {
    let pid = manager.id();
    // Start-up done: let the manager settle before the first reading.
    wait_quiet(pid).await?;
    let cpu0 = cpu_seconds(pid)?;
    let started = Instant::now();
    let names: Vec<String> = (0..extensions.urls.len())
        .map(|i| format!("{prefix}-{i}"))
        .collect();
    let mut creating = tokio::task::JoinSet::new();
    for (chunk, urls) in names
        .chunks(names.len().div_ceil(16))
        .zip(extensions.urls.chunks(names.len().div_ceil(16)))
    {
        let api = api.clone();
        let configs: Vec<ExtensionConfig> = chunk
            .iter()
            .zip(urls)
            .map(|(name, url)| extensions.config(name.clone(), url))
            .collect();
        creating.spawn(async move {
            for c in configs {
                api.create(&PostParams::default(), &c).await?;
            }
            Ok::<_, kube::Error>(())
        });
    }
    while let Some(done) = creating.join_next().await {
        done??;
    }
    wait_all_discovered(api, manager, names.len()).await?;
    let create_secs = started.elapsed().as_secs_f64();
    wait_quiet(pid).await?;
    let create_cpu = cpu_seconds(pid)? - cpu0;

    // A spec change: a new generation, which both managers discover again for.
    let cpu1 = cpu_seconds(pid)?;
    let started = Instant::now();
    let mut patching = tokio::task::JoinSet::new();
    for chunk in names.chunks(names.len().div_ceil(16)) {
        let api = api.clone();
        let chunk = chunk.to_vec();
        let prefix = prefix.to_string();
        patching.spawn(async move {
            for name in chunk {
                api.patch(
                    &name,
                    &PatchParams::default(),
                    &Patch::Merge(json!({ "spec": { "settings": { "bench": prefix } } })),
                )
                .await?;
            }
            Ok::<_, kube::Error>(())
        });
    }
    while let Some(done) = patching.join_next().await {
        done??;
    }
    wait_all_discovered(api, manager, names.len()).await?;
    let rediscover_secs = started.elapsed().as_secs_f64();
    wait_quiet(pid).await?;
    let rediscover_cpu = cpu_seconds(pid)? - cpu1;
    Ok(Figures {
        create_secs,
        create_cpu,
        rediscover_secs,
        rediscover_cpu,
        peak_rss_kib: status_kib(pid, "VmHWM:"),
    })
}

/// Whether `c` is `Discovered=True` for its current generation, with handlers listed.
fn discovered_now(c: &ExtensionConfig) -> bool {
    !c.status.handlers.is_empty()
        && c.status.conditions.iter().any(|x| {
            x.type_ == "Discovered"
                && x.status == "True"
                && x.observed_generation == c.metadata.generation
        })
}

/// Polls until `count` configs exist and all are discovered for their current generation
/// (10 min at most, failing early when the manager exits).
async fn wait_all_discovered(
    api: &Api<ExtensionConfig>,
    manager: &ManagerProcess,
    count: usize,
) -> Result<(), BoxError> {
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let list = api.list(&ListParams::default()).await?;
        if list.items.len() == count && list.items.iter().all(discovered_now) {
            return Ok(());
        }
        // A process that exited (a zombie until reaped) has no VmRSS line.
        if status_kib(manager.id(), "VmRSS:") == 0 {
            return Err("the manager exited".into());
        }
        if Instant::now() > deadline {
            let left = list.items.iter().filter(|c| !discovered_now(c)).count();
            return Err(format!("{left} ExtensionConfigs not discovered within 10 min").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until `pid` has used less than 10 ms of CPU in [`QUIET`] (at most 2 min).
async fn wait_quiet(pid: u32) -> Result<(), BoxError> {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut last = cpu_seconds(pid)?;
    loop {
        tokio::time::sleep(QUIET).await;
        let now = cpu_seconds(pid)?;
        if now - last < 0.01 || Instant::now() > deadline {
            return Ok(());
        }
        last = now;
    }
}

/// Deletes every ExtensionConfig and waits until they are gone.
async fn clean(api: &Api<ExtensionConfig>) -> Result<(), BoxError> {
    api.delete_collection(&DeleteParams::default(), &ListParams::default())
        .await?;
    let deadline = Instant::now() + Duration::from_secs(120);
    while !api.list(&ListParams::default()).await?.items.is_empty() {
        if Instant::now() > deadline {
            return Err("ExtensionConfigs were not deleted".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Starts Cluster API's core manager (RuntimeSDK gate on) on loopback ports and waits until
/// its `/readyz` answers; its log goes to `log`.
async fn start_capi(
    core: &Path,
    kubeconfig: &Path,
    cert_dir: &Path,
    concurrency: u16,
    log: &Path,
    http: &reqwest::Client,
) -> Result<ManagerProcess, BoxError> {
    let health = capi_runtime_testenv::free_port()?;
    let webhook = capi_runtime_testenv::free_port()?;
    let diagnostics = capi_runtime_testenv::free_port()?;
    let child = Command::new(core)
        .arg(format!("--kubeconfig={}", kubeconfig.display()))
        .arg("--leader-elect=false")
        .arg(format!("--webhook-port={webhook}"))
        .arg(format!("--webhook-cert-dir={}", cert_dir.display()))
        .arg(format!("--health-addr=127.0.0.1:{health}"))
        .arg(format!("--diagnostics-address=127.0.0.1:{diagnostics}"))
        .arg("--insecure-diagnostics")
        .arg("--feature-gates=RuntimeSDK=true")
        .arg(format!("--extensionconfig-concurrency={concurrency}"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log)?)
        .spawn()?;
    let child = ManagerProcess::new(child);
    support::wait_ready(http, &format!("127.0.0.1:{health}"))
        .await
        .map_err(|e| format!("{e} (Cluster API's manager; log {})", log.display()))?;
    Ok(child)
}

/// Cluster API's core manager binary: `CAPI_CORE`, else where the testing crate finds it
/// (`CAPI_MANAGER`, `KUBEBUILDER_ASSETS`, `target/testenv/bin/`, `capi-envtest`'s cache).
fn capi_core() -> Result<PathBuf, BoxError> {
    if let Some(p) = std::env::var_os("CAPI_CORE") {
        return Ok(p.into());
    }
    Ok(capi_runtime_testenv::ClusterApiAssets::find()?.manager)
}

/// Cluster API's module in Go's module cache.
fn capi_module() -> Result<PathBuf, BoxError> {
    let cache = match std::env::var_os("GOMODCACHE") {
        Some(c) => PathBuf::from(c),
        None => {
            let out = Command::new("go").args(["env", "GOMODCACHE"]).output()?;
            PathBuf::from(String::from_utf8(out.stdout)?.trim())
        }
    };
    let dir = cache.join(CAPI_MODULE);
    if !dir.is_dir() {
        return Err(format!("{} not found (run `cargo xtask testenv`)", dir.display()).into());
    }
    Ok(dir)
}

/// Cluster API's core CRDs, which its manager needs to start.
fn capi_crds(module: &Path) -> Result<Vec<PathBuf>, BoxError> {
    let mut crds: Vec<PathBuf> = std::fs::read_dir(module.join("core/config/crd/bases"))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    crds.retain(|p| p.extension().is_some_and(|x| x == "yaml"));
    crds.sort();
    Ok(crds)
}

/// utime + stime of `pid`, in seconds.
fn cpu_seconds(pid: u32) -> Result<f64, BoxError> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The fields after the command name (which may hold spaces) start with the state (3rd).
    let rest = stat.rsplit_once(')').ok_or("no ')' in /proc/<pid>/stat")?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11).ok_or("short stat")?.parse()?;
    let stime: u64 = fields.get(12).ok_or("short stat")?.parse()?;
    let ticks = rustix::param::clock_ticks_per_second();
    Ok((utime + stime) as f64 / ticks.max(1) as f64)
}

/// A `kB` line of `/proc/<pid>/status` (0 when it cannot be read).
fn status_kib(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The 1-minute load average.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_default()
}

/// Raises this process's soft open-file limit to its hard limit: 1,000 extensions serve from
/// here, and the managers (which inherit the limit) hold a connection to each.
fn raise_open_file_limit() -> Result<(), BoxError> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    setrlimit(Resource::Nofile, limit)?;
    Ok(())
}
