//! The kube-runtime controller around [`Reconciler`]: the ExtensionConfig watch (with the
//! watch-filter label) and its reflector cache, which reconciles read from (writes go to the
//! API server); a metadata-only Secret watch mapped to the ExtensionConfigs that name the
//! Secret through a [`SecretIndex`] kept in step with the ExtensionConfig watch; periodic
//! resync, per-object rate limiting and error back-off, and the warm-up that runs next to it.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::go::errors::chain;
use capi_runtime::k8s_openapi::api::core::v1::Secret;
use futures::{StreamExt, future};
use kube::api::Api;
use kube::core::PartialObjectMeta;
use kube::runtime::controller::{Action, Config as ControllerConfig, Controller};
use kube::runtime::reflector::{self, Store};
use kube::runtime::watcher::{self, Event};
use kube::runtime::{WatchStreamExt, predicates};
use kube::{Resource, ResourceExt};

use crate::decide;
use crate::index::SecretIndex;
use crate::metrics::ControllerMetrics;
use crate::reconcile::{Outcome, ReconcileError, Reconciler};

/// The label that, with `--watch-filter`, limits which ExtensionConfigs are reconciled.
pub const WATCH_FILTER_LABEL: &str = "cluster.x-k8s.io/watch-filter";

/// How the controller runs; [`Options::default`] gives Cluster API's defaults.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Reconcile only ExtensionConfigs labelled `cluster.x-k8s.io/watch-filter=<value>`.
    pub watch_filter: Option<String>,
    /// How many ExtensionConfigs are reconciled at once (default 10).
    pub concurrency: u16,
    /// Reconcile every ExtensionConfig this often even without events (default 10 min).
    pub sync_period: Option<Duration>,
    /// Watch Secrets only in this namespace (default: all namespaces).
    pub secret_namespace: Option<String>,
    /// Pause between warm-up passes (default 2 s).
    pub warm_up_interval: Duration,
    /// How long warm-up may take before the controller fails (default 60 s).
    pub warm_up_timeout: Duration,
    /// The longest one reconcile may take (default 1 min).
    pub reconcile_timeout: Duration,
    /// The shortest time between two reconciles of one object (default 1 s).
    pub min_reconcile_interval: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            watch_filter: None,
            concurrency: 10,
            sync_period: Some(Duration::from_secs(600)),
            secret_namespace: None,
            warm_up_interval: Duration::from_secs(2),
            warm_up_timeout: Duration::from_secs(60),
            reconcile_timeout: Duration::from_secs(60),
            min_reconcile_interval: Duration::from_secs(1),
        }
    }
}

impl Options {
    /// Sets the watch filter.
    pub fn watch_filter(mut self, value: impl Into<String>) -> Self {
        self.watch_filter = Some(value.into());
        self
    }

    /// Sets the number of concurrent reconciles (0 is taken as 1).
    pub fn concurrency(mut self, n: u16) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Sets the resync period (`None`: no resync).
    pub fn sync_period(mut self, period: Option<Duration>) -> Self {
        self.sync_period = period;
        self
    }

    /// Watches Secrets in one namespace only.
    pub fn secret_namespace(mut self, namespace: impl Into<String>) -> Self {
        self.secret_namespace = Some(namespace.into());
        self
    }

    /// Sets the warm-up interval and timeout.
    pub fn warm_up(mut self, interval: Duration, timeout: Duration) -> Self {
        self.warm_up_interval = interval;
        self.warm_up_timeout = timeout;
        self
    }

    /// Sets the shortest time between two reconciles of one object.
    pub fn min_reconcile_interval(mut self, interval: Duration) -> Self {
        self.min_reconcile_interval = interval;
        self
    }
}

/// Why the controller stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ControllerError {
    /// Warm-up did not succeed in time (the process should exit).
    #[error("{0}")]
    WarmUp(ReconcileError),
}

/// State shared by the workers: the reconciler, failure counts for back-off, the time of the
/// last reconcile of each object for rate limiting.
struct Ctx {
    reconciler: Reconciler,
    /// The reflector's cache of ExtensionConfigs, which reconciles read from.
    store: Store<ExtensionConfig>,
    metrics: ControllerMetrics,
    failures: Mutex<HashMap<String, u32>>,
    last_started: Mutex<HashMap<String, Instant>>,
    options: Options,
}

async fn reconcile(object: Arc<ExtensionConfig>, ctx: Arc<Ctx>) -> Result<Action, ReconcileError> {
    let name = object.name_any();
    {
        let mut last = ctx
            .last_started
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if let Some(at) = last.get(&name) {
            let since = now.duration_since(*at);
            if since < ctx.options.min_reconcile_interval {
                return Ok(Action::requeue(ctx.options.min_reconcile_interval - since));
            }
        }
        last.insert(name.clone(), now);
    }
    let started = Instant::now();
    let result = match tokio::time::timeout(
        ctx.options.reconcile_timeout,
        ctx.reconciler.reconcile_cached(&name, &ctx.store),
    )
    .await
    {
        Ok(r) => r,
        Err(_) => Err(ReconcileError(format!(
            "reconcile of ExtensionConfig {name} did not finish within {}",
            decide::go_duration(ctx.options.reconcile_timeout)
        ))),
    };
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(Outcome::Done) => {
            ctx.metrics.observe("success", seconds);
            ctx.failures
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&name);
            Ok(Action::await_change())
        }
        Ok(Outcome::RequeueAfter(after)) => {
            ctx.metrics.observe("requeue_after", seconds);
            Ok(Action::requeue(after))
        }
        Err(e) => {
            ctx.metrics.observe("error", seconds);
            tracing::error!(controller = "extensionconfig", ExtensionConfig = %name, error = %e, "Reconciler error");
            Err(e)
        }
    }
}

fn error_policy(object: Arc<ExtensionConfig>, _error: &ReconcileError, ctx: Arc<Ctx>) -> Action {
    let mut failures = ctx.failures.lock().unwrap_or_else(PoisonError::into_inner);
    let n = failures.entry(object.name_any()).or_insert(0);
    let wait = decide::backoff(*n);
    *n = n.saturating_add(1);
    Action::requeue(wait)
}

/// Removes the registrations of ExtensionConfigs that are no longer in the store (deleted while
/// the watch was listing: before its first list completed, or while it re-listed), logging each
/// as a Delete event is logged.
fn unregister_missing(reconciler: &Reconciler, store: &Store<ExtensionConfig>) {
    if !reconciler.runtime().is_ready() {
        return;
    }
    let present: HashSet<String> = store.state().iter().map(|c| c.name_any()).collect();
    let registered: HashSet<String> = reconciler
        .runtime()
        .registry()
        .snapshot()
        .iter()
        .map(|r| r.extension_config_name.clone())
        .collect();
    for gone in registered.difference(&present) {
        // The same line as for a Delete event: deleted while the watch was (re-)listing is
        // still a deletion (controller-runtime's informer reports it as one to Cluster API).
        tracing::info!(ExtensionConfig = %gone, "Unregistering ExtensionConfig information from registry");
        let mut empty = ExtensionConfig::default();
        empty.metadata.name = Some(gone.clone());
        if let Err(e) = reconciler.runtime().unregister(&empty) {
            tracing::error!(ExtensionConfig = %gone, error = %chain(&e), "failed to unregister ExtensionConfig");
        }
    }
}

/// Runs the ExtensionConfig controller and the registry warm-up together until `shutdown`
/// completes (then returns `Ok`) or warm-up times out (then returns the error, with Cluster
/// API's message, and the controller stops).
///
/// This is the function to call from your own kube-runtime program: give it the `kube::Client`
/// it should use, the runtime client whose registry it fills (the same one your controllers
/// call extensions with), the options and the metrics it records into. Call it once leader
/// election made this process the leader, as warm-up must run on the leader only; a read-only
/// [`Reconciler`] may run on every replica.
pub async fn run(
    kube: kube::Client,
    reconciler: Reconciler,
    options: Options,
    metrics: ControllerMetrics,
    shutdown: impl Future<Output = ()> + Send + Sync + 'static,
) -> Result<(), ControllerError> {
    let api: Api<ExtensionConfig> = Api::all(kube.clone());
    let mut wc = watcher::Config::default();
    if let Some(value) = &options.watch_filter {
        wc = wc.labels(&format!("{WATCH_FILTER_LABEL}={value}"));
    }
    let (reader, writer) = reflector::store();
    let index = SecretIndex::new();
    let on_events = reconciler.clone();
    let store_for_events = reader.clone();
    let index_for_events = index.clone();
    let configs = reflector::reflector(writer, watcher::watcher(api, wc))
        .default_backoff()
        .inspect(move |event| {
            let Ok(event) = event else { return };
            index_for_events.apply(event);
            match event {
                Event::Delete(config) if on_events.runtime().is_ready() => {
                    let name = config.name_any();
                    tracing::info!(ExtensionConfig = %name, "Unregistering ExtensionConfig information from registry");
                    if let Err(e) = on_events.runtime().unregister(config) {
                        tracing::error!(ExtensionConfig = %name, error = %chain(&e), "failed to unregister ExtensionConfig");
                    }
                }
                Event::InitDone => unregister_missing(&on_events, &store_for_events),
                _ => {}
            }
        })
        .touched_objects();
    let mut controller = Controller::for_stream(configs, reader.clone())
        .with_config(ControllerConfig::default().concurrency(options.concurrency));
    if !reconciler.is_read_only() {
        let secrets: Api<PartialObjectMeta<Secret>> = match &options.secret_namespace {
            Some(ns) => Api::namespaced(kube.clone(), ns),
            None => Api::all(kube.clone()),
        };
        let secret_events = watcher::watcher(secrets, watcher::Config::default())
            .default_backoff()
            .touched_objects()
            .predicate_filter(predicates::resource_version, Default::default());
        controller = controller.watches_stream(secret_events, move |secret| {
            let ns = secret.meta().namespace.as_deref().unwrap_or_default();
            let name = secret.meta().name.as_deref().unwrap_or_default();
            index.lookup(ns, name)
        });
    }
    if let Some(period) = options.sync_period {
        let ticks = futures::stream::unfold(
            tokio::time::interval_at(tokio::time::Instant::now() + period, period),
            |mut interval| async move {
                interval.tick().await;
                Some(((), interval))
            },
        );
        controller = controller.reconcile_all_on(ticks);
    }
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let controller = controller.graceful_shutdown_on(async move {
        let _ = stop_rx.await;
    });
    let ctx = Arc::new(Ctx {
        reconciler: reconciler.clone(),
        store: reader.clone(),
        metrics: metrics.clone(),
        failures: Mutex::new(HashMap::new()),
        last_started: Mutex::new(HashMap::new()),
        options: options.clone(),
    });
    let running = controller
        .run(reconcile, error_policy, ctx)
        .for_each(|_| future::ready(()));
    let warm_up = async {
        reconciler
            .warm_up(options.warm_up_interval, options.warm_up_timeout)
            .await
            .map(|()| metrics.set_ready(true))
    };
    tokio::pin!(running);
    tokio::pin!(warm_up);
    tokio::pin!(shutdown);
    let mut warmed = false;
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            () = &mut running => return Ok(()),
            result = &mut warm_up, if !warmed => match result {
                Ok(()) => warmed = true,
                Err(e) => {
                    let _ = stop_tx.send(());
                    running.await;
                    return Err(ControllerError::WarmUp(e));
                }
            },
        }
    }
    let _ = stop_tx.send(());
    running.await;
    Ok(())
}
