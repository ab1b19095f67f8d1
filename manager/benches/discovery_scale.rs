//! Benchmark (run by hand, see BENCHMARKS.md): the time from creating N ExtensionConfigs, each
//! naming its own HTTPS extension on loopback, to all of them `Discovered=True`, with the
//! `capi-runtime-manager` binary at a given `--extensionconfig-concurrency`, on a real etcd +
//! kube-apiserver; and the manager's RSS afterwards.
//!
//! ```sh
//! cargo bench -p capi-runtime-manager --bench discovery_scale          # [-- COUNT CONCURRENCY...]
//! ```
//!
//! (default: 100 ExtensionConfigs, concurrency 1 then 10; the manager is the release build
//! cargo makes for the benchmark.)

mod support;

use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use support::{Extensions, discovered, rss_kib};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let _ = capi_runtime::tls::crypto_provider()
        .as_ref()
        .clone()
        .install_default();
    // `cargo bench` passes `--bench`; the numbers are the other arguments.
    let args = support::args();
    let count: usize = args.first().map_or(Ok(100), |a| a.parse())?;
    let concurrencies: Vec<u16> = if args.len() > 1 {
        args[1..]
            .iter()
            .map(|a| a.parse())
            .collect::<Result<_, _>>()?
    } else {
        vec![1, 10]
    };
    let env = capi_runtime_testenv::Builder::new("discovery-scale")
        .crd(support::crd())
        .start()?;
    let kube = env.client().await?;
    let extensions = Extensions::start(count).await?;
    let api: Api<ExtensionConfig> = Api::all(kube.clone());
    let http = reqwest::Client::new();

    println!(
        "| ExtensionConfigs | concurrency | create → all Discovered=True | manager RSS after |"
    );
    println!("|---|---|---|---|");
    for concurrency in concurrencies {
        let child = support::start_ours(&env, &extensions, concurrency, &http).await?;

        let started = Instant::now();
        for (i, url) in extensions.urls.iter().enumerate() {
            api.create(
                &PostParams::default(),
                &extensions.config(format!("bench-c{concurrency}-{i}"), url),
            )
            .await?;
        }
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            let list = api.list(&ListParams::default()).await?;
            if list.items.len() == count && list.items.iter().all(discovered) {
                break;
            }
            if Instant::now() > deadline {
                return Err("not all ExtensionConfigs were discovered within 10 min".into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let elapsed = started.elapsed();
        let rss = rss_kib(child.id());
        println!(
            "| {count} | {concurrency} | {:.2} s | {:.1} MiB |",
            elapsed.as_secs_f64(),
            rss as f64 / 1024.0
        );
        drop(child);
        api.delete_collection(&DeleteParams::default(), &ListParams::default())
            .await?;
        let gone_deadline = Instant::now() + Duration::from_secs(60);
        while !api.list(&ListParams::default()).await?.items.is_empty() {
            if Instant::now() > gone_deadline {
                return Err("ExtensionConfigs were not deleted".into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    extensions.stop().await
}
