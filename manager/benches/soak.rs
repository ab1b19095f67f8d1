//! Soak (run by hand, see RELIABILITY.md; not a test): the `capi-runtime-manager` binary on a
//! real etcd + kube-apiserver while ExtensionConfigs are created, moved to another extension
//! and deleted in a loop, for a bounded time, against HTTPS extensions on loopback. Every few
//! seconds it samples what the manager reports about itself on `/metrics` (resident memory,
//! open file descriptors, tokio tasks alive) and, per minute, prints the highest of each; at
//! the end it compares the last minute with the second (the first is warm-up). A leak shows as
//! a ratio that keeps growing with the soak's length.
//!
//! ```sh
//! cargo bench -p capi-runtime-manager --bench soak      # [-- MINUTES CONFIGS EXTENSIONS]
//! ```
//!
//! (default: 10 minutes, 1,000 ExtensionConfigs, 100 extensions; the manager is the release
//! build cargo makes for the benchmark, with `--extensionconfig-concurrency 10`.)

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use support::{BoxError, Extensions, discovered, rss_kib};

/// Requests to the API server in flight at once while the loop writes.
const IN_FLIGHT: usize = 16;
/// How often the manager is sampled.
const SAMPLE_EVERY: Duration = Duration::from_secs(5);

/// One sample of the manager's own figures, `at` from the start of the soak.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    at: Duration,
    rss_kib: u64,
    fds: u64,
    tasks: u64,
}

/// The value of the unlabelled metric `name` in a scrape.
fn metric(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
}

/// Runs `op` over `0..count`, at most [`IN_FLIGHT`] at once.
async fn each<F, Fut>(count: usize, op: F) -> Result<(), BoxError>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<(), kube::Error>> + Send + 'static,
{
    let mut running = tokio::task::JoinSet::new();
    for i in 0..count {
        if running.len() >= IN_FLIGHT
            && let Some(done) = running.join_next().await
        {
            done??;
        }
        running.spawn(op(i));
    }
    while let Some(done) = running.join_next().await {
        done??;
    }
    Ok(())
}

/// Polls until `done` holds for the list of ExtensionConfigs, for at most `limit`.
async fn wait_for(
    api: &Api<ExtensionConfig>,
    limit: Duration,
    what: &str,
    done: impl Fn(&[ExtensionConfig]) -> bool,
) -> Result<Duration, BoxError> {
    let started = Instant::now();
    loop {
        if done(&api.list(&ListParams::default()).await?.items) {
            return Ok(started.elapsed());
        }
        if started.elapsed() > limit {
            return Err(format!("{what}: not within {limit:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    let args = support::args();
    let minutes: u64 = args.first().map_or(Ok(10), |a| a.parse())?;
    let configs: usize = args.get(1).map_or(Ok(1000), |a| a.parse())?;
    let count: usize = args.get(2).map_or(Ok(100), |a| a.parse())?;
    let env = capi_runtime_testenv::Builder::new("soak")
        .crd(support::crd())
        .start()?;
    let kube = env.client().await?;
    let extensions = Arc::new(Extensions::start(count).await?);
    let api: Api<ExtensionConfig> = Api::all(kube.clone());
    let http = reqwest::Client::new();
    let (child, addrs) = support::start_manager(
        env.kubeconfig_path(),
        extensions.cert_dir(),
        &[
            "--diagnostics-address",
            "127.0.0.1:0",
            "--insecure-diagnostics",
        ],
        &["serving probes", "serving diagnostics over plain HTTP"],
    )?;
    let (probes, diagnostics) = (addrs[0].clone(), addrs[1].clone());
    support::wait_ready(&http, &probes).await?;

    // The sampler: the manager's own figures, and VmRSS read from outside as a check.
    let started = Instant::now();
    let samples = Arc::new(Mutex::new(Vec::<Sample>::new()));
    let sampler = {
        let (samples, http, pid) = (samples.clone(), http.clone(), child.id());
        let url = format!("http://{diagnostics}/metrics");
        tokio::spawn(async move {
            loop {
                if let Ok(r) = http.get(&url).send().await
                    && let Ok(text) = r.text().await
                {
                    let outside = rss_kib(pid);
                    let inside = metric(&text, "process_resident_memory_bytes").unwrap_or(0) / 1024;
                    samples.lock().unwrap().push(Sample {
                        at: started.elapsed(),
                        rss_kib: inside.max(outside),
                        fds: metric(&text, "process_open_fds").unwrap_or(0),
                        tasks: metric(&text, "tokio_alive_tasks").unwrap_or(0),
                    });
                }
                tokio::time::sleep(SAMPLE_EVERY).await;
            }
        })
    };

    // The loop: create every ExtensionConfig and wait until all are discovered, move each to
    // the next extension, delete them all and wait until they are gone.
    let soak = Duration::from_secs(minutes * 60);
    let mut rounds = 0usize;
    let mut discovery_times = Vec::new();
    while started.elapsed() < soak {
        let round = rounds;
        each(configs, |i| {
            let (api, extensions) = (api.clone(), extensions.clone());
            async move {
                let url = &extensions.urls[(i + round) % extensions.urls.len()];
                let c = extensions.config(format!("soak-{i}"), url);
                api.create(&PostParams::default(), &c).await.map(drop)
            }
        })
        .await?;
        let discovered_in = wait_for(&api, Duration::from_secs(600), "all discovered", |l| {
            l.len() == configs && l.iter().all(discovered)
        })
        .await?;
        discovery_times.push(discovered_in);
        each(configs, |i| {
            let (api, extensions) = (api.clone(), extensions.clone());
            async move {
                let url = &extensions.urls[(i + round + 1) % extensions.urls.len()];
                let patch = serde_json::json!({"spec": {"clientConfig": {"url": url}}});
                api.patch(
                    &format!("soak-{i}"),
                    &PatchParams::default(),
                    &Patch::Merge(patch),
                )
                .await
                .map(drop)
            }
        })
        .await?;
        api.delete_collection(&DeleteParams::default(), &ListParams::default())
            .await?;
        wait_for(
            &api,
            Duration::from_secs(300),
            "all deleted",
            <[_]>::is_empty,
        )
        .await?;
        rounds += 1;
        eprintln!(
            "round {rounds} done at {:.0} s (all {configs} discovered {discovered_in:.1?} after \
             their creation)",
            started.elapsed().as_secs_f64()
        );
    }
    sampler.abort();
    let samples = samples.lock().unwrap().clone();
    drop(child);
    if let Ok(extensions) = Arc::try_unwrap(extensions) {
        extensions.stop().await?;
    }

    println!(
        "{rounds} rounds of {configs} ExtensionConfigs created, moved and deleted against {count} \
         extensions in {:.1} min; all discovered after creation in {:.1?} (first) to {:.1?} \
         (last)",
        started.elapsed().as_secs_f64() / 60.0,
        discovery_times.first().copied().unwrap_or_default(),
        discovery_times.last().copied().unwrap_or_default(),
    );
    println!("| minute | samples | RSS max (MiB) | open fds max | tokio tasks max |");
    println!("|---|---|---|---|---|");
    let minute = |m: u64| -> Vec<Sample> {
        samples
            .iter()
            .filter(|s| s.at.as_secs() / 60 == m)
            .copied()
            .collect()
    };
    let max = |of: &[Sample], f: fn(&Sample) -> u64| of.iter().map(f).max().unwrap_or(0);
    let last_minute = samples.last().map_or(0, |s| s.at.as_secs() / 60);
    for m in 0..=last_minute {
        let of = minute(m);
        println!(
            "| {} | {} | {:.1} | {} | {} |",
            m + 1,
            of.len(),
            max(&of, |s| s.rss_kib) as f64 / 1024.0,
            max(&of, |s| s.fds),
            max(&of, |s| s.tasks)
        );
    }
    let (second, last) = (minute(1.min(last_minute)), minute(last_minute));
    for (name, f) in [
        ("RSS", (|s: &Sample| s.rss_kib) as fn(&Sample) -> u64),
        ("open fds", |s| s.fds),
        ("tokio tasks", |s| s.tasks),
    ] {
        println!(
            "{name}: highest in the last minute / highest in the second: {} / {} = {:.2}",
            max(&last, f),
            max(&second, f),
            max(&last, f) as f64 / max(&second, f).max(1) as f64
        );
    }
    Ok(())
}
