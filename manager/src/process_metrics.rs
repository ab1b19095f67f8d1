//! What the manager's process reports about itself on `/metrics`, read at each scrape: its
//! resident memory and open file descriptors under the names of Prometheus's process collector
//! (which Cluster API's manager exposes through client_golang), and the tasks alive on its
//! async runtime. A leak of memory, connections or tasks shows as one of these growing.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::gauge::ConstGauge;

/// Reads the process's figures on every scrape; register it with
/// `Registry::register_collector`.
#[derive(Debug)]
pub struct ProcessCollector {
    runtime: tokio::runtime::Handle,
}

impl ProcessCollector {
    /// A collector reporting the tasks of `runtime` beside the process's own figures.
    pub fn new(runtime: tokio::runtime::Handle) -> Self {
        ProcessCollector { runtime }
    }
}

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let mut gauge = |name: &str, help: &str, value: i64| {
            let gauge = ConstGauge::new(value);
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)
        };
        gauge(
            "tokio_alive_tasks",
            "Tasks alive on the manager's async runtime",
            saturating(self.runtime.metrics().num_alive_tasks()),
        )?;
        if let Some(bytes) = resident_bytes() {
            gauge(
                "process_resident_memory_bytes",
                "Resident memory size in bytes",
                saturating(bytes),
            )?;
        }
        if let Some(fds) = open_fds() {
            gauge(
                "process_open_fds",
                "Number of open file descriptors",
                saturating(fds),
            )?;
        }
        Ok(())
    }
}

fn saturating(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// `VmRSS` of `/proc/self/status`, in bytes; `None` where there is no procfs.
fn resident_bytes() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// The entries of `/proc/self/fd`, less the one the listing itself holds open.
fn open_fds() -> Option<usize> {
    let entries = std::fs::read_dir("/proc/self/fd").ok()?.count();
    Some(entries.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use prometheus_client::registry::Registry;

    #[tokio::test]
    async fn a_scrape_reports_tasks_memory_and_descriptors() {
        let mut registry = Registry::default();
        registry.register_collector(Box::new(ProcessCollector::new(
            tokio::runtime::Handle::current(),
        )));
        let value = |text: &str, name: &str| -> i64 {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{name} ")))
                .unwrap_or_else(|| panic!("no {name} in {text}"))
                .parse()
                .unwrap()
        };
        let scrape = |registry: &Registry| {
            let mut text = String::new();
            prometheus_client::encoding::text::encode(&mut text, registry).unwrap();
            text
        };
        let before = scrape(&registry);
        // Other tests of this binary may open or close a few files meanwhile: 100 more open
        // files must show as about 100 more descriptors.
        let files: Vec<_> = (0..100)
            .map(|_| std::fs::File::open("/proc/self/status").unwrap())
            .collect();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let _ = stopped.await;
        });
        let during = scrape(&registry);
        assert_eq!(
            value(&during, "tokio_alive_tasks"),
            value(&before, "tokio_alive_tasks") + 1
        );
        let opened = value(&during, "process_open_fds") - value(&before, "process_open_fds");
        assert!((84..=116).contains(&opened), "{opened} more descriptors");
        assert!(value(&during, "process_resident_memory_bytes") > 1 << 20);
        drop(files);
        stop.send(()).unwrap();
        task.await.unwrap();
    }
}
