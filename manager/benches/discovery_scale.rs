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

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::{ExtensionConfig, ExtensionConfigSpec};
use capi_runtime::hooks::v1alpha1::{
    BeforeClusterCreate, BeforeClusterCreateRequest, BeforeClusterCreateResponse,
};
use capi_runtime::k8s_openapi::ByteString;
use capi_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use capi_runtime::server::Server;
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

async fn allow(
    _: BeforeClusterCreateRequest,
) -> Result<BeforeClusterCreateResponse, std::convert::Infallible> {
    Ok(BeforeClusterCreateResponse::success())
}

fn discovered(c: &ExtensionConfig) -> bool {
    c.status
        .conditions
        .iter()
        .any(|x| x.type_ == "Discovered" && x.status == "True")
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    // `cargo bench` passes `--bench`; the numbers are the other arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let count: usize = args.first().map_or(Ok(100), |a| a.parse())?;
    let concurrencies: Vec<u16> = if args.len() > 1 {
        args[1..]
            .iter()
            .map(|a| a.parse())
            .collect::<Result<_, _>>()?
    } else {
        vec![1, 10]
    };
    let crd = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../golden/sdk/crd/runtime.cluster.x-k8s.io_extensionconfigs.yaml");
    let env = capi_runtime_testenv::Builder::new("discovery-scale")
        .crd(crd)
        .start()?;
    let kube = env.client().await?;

    // One CA, N extensions, each its own HTTPS server.
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params
        .distinguished_name
        .push(DnType::CommonName, "bench-ca");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca = CertifiedIssuer::self_signed(params, KeyPair::generate()?)?;
    let certs = tempfile::tempdir()?;
    let mut leaf = CertificateParams::new(vec!["127.0.0.1".to_string()])?;
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let key = KeyPair::generate()?;
    let cert = leaf.signed_by(&key, &ca)?;
    std::fs::write(certs.path().join("tls.crt"), cert.pem())?;
    std::fs::write(certs.path().join("tls.key"), key.serialize_pem())?;
    let mut urls = Vec::with_capacity(count);
    let mut servers = Vec::with_capacity(count);
    for _ in 0..count {
        let server = Server::builder()
            .host("127.0.0.1".parse()?)
            .port(0)
            .cert_dir(certs.path())
            .handle(BeforeClusterCreate, "first", allow)?
            .build()
            .start()
            .await?;
        urls.push(format!("https://127.0.0.1:{}", server.local_addr().port()));
        servers.push(server);
    }
    let manager_bin = env!("CARGO_BIN_EXE_capi-runtime-manager");
    let api: Api<ExtensionConfig> = Api::all(kube.clone());
    let http = reqwest::Client::new();
    let pem = Arc::new(ca.pem());

    println!(
        "| ExtensionConfigs | concurrency | create → all Discovered=True | manager RSS after |"
    );
    println!("|---|---|---|---|");
    for concurrency in concurrencies {
        let mut child = Command::new(manager_bin)
            .arg("--kubeconfig")
            .arg(env.kubeconfig_path())
            .args(["--feature-gates", "RuntimeSDK=true"])
            .args(["--webhook-host", "127.0.0.1", "--webhook-port", "0"])
            .arg("--webhook-cert-dir")
            .arg(certs.path())
            .args(["--diagnostics-address", "0", "--health-addr", "127.0.0.1:0"])
            .args(["--extensionconfig-concurrency", &concurrency.to_string()])
            .env("RUST_LOG", "warn,capi_runtime_manager=info")
            .stdout(Stdio::piped())
            .spawn()?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let probes = loop {
            let line = lines.next().ok_or("manager exited")??;
            if line.contains("serving probes")
                && let Some(a) = line
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("addr="))
            {
                break a.to_string();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        let ready_deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let ok = http
                .get(format!("http://{probes}/readyz"))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            if ok {
                break;
            }
            if Instant::now() > ready_deadline {
                return Err("the manager did not become ready".into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        let started = Instant::now();
        for (i, url) in urls.iter().enumerate() {
            let mut c = ExtensionConfig::new(
                format!("bench-c{concurrency}-{i}"),
                ExtensionConfigSpec::default(),
            );
            c.spec.client_config.url = url.clone();
            c.spec.client_config.ca_bundle = ByteString(pem.as_bytes().to_vec());
            c.spec.namespace_selector = Some(LabelSelector::default());
            api.create(&PostParams::default(), &c).await?;
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
        let _ = child.kill();
        let _ = child.wait();
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
    for s in servers {
        s.shutdown().await?;
    }
    Ok(())
}
