//! The kube-runtime controller around [`Reconciler`]: the ExtensionConfig watch
//! ([`ConfigWatch`], with the watch-filter label, or one the caller made) and its reflector
//! cache, which reconciles read from (writes go to the API server); the [`WatchedConfigs`] and
//! the [`SecretIndex`] fed by the same watch (the first is the one path by which
//! registrations go away, the second maps a metadata-only Secret watch to the ExtensionConfigs
//! that name the Secret); periodic resync, per-object rate limiting, the error policy, and the
//! warm-up that runs next to it.
//!
//! The error policy reads [`Error::is_transient`] and [`Error::is_conflict`]:
//!
//! * a conflict (the object changed under a write) is retried after the shortest back-off,
//!   `1.005 s`, without counting as a failure: the next reconcile sees the object as it is;
//! * any other transient error (the API server, the extension, a registry not warmed up, a
//!   reconcile that ran out of time) is retried with Cluster API's back-off, `1 s + 5 ms·2^n`
//!   for the object's `n`-th consecutive failure, at most 1000 s;
//! * a permanent error (one that only a change of the ExtensionConfig or of its CA Secret
//!   fixes: a malformed annotation, a missing `ca.crt`, invalid handlers, a read-only check)
//!   is not retried on a timer: the change is watched and brings the next reconcile, as does
//!   the periodic resync (`sync_period`). Cluster API retries these with the back-off too,
//!   and gets the same answer each time.
//!
//! Each watch backs off its own errors (kube-runtime's default back-off, client-go's
//! reflector's: 0.8 s doubling to 30 s, with jitter), and nothing else does: kube-runtime's
//! `Controller` would also back off all its watches together after an error of any one of
//! them, so that a failing Secret watch held back ExtensionConfig events (and the reverse) for
//! as long as its own growing back-off. [`EachWatchAlone`] turns that shared back-off off.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use capi_runtime::api::runtime::v1beta2::ExtensionConfig;
use capi_runtime::go::errors::chain;
use capi_runtime::k8s_openapi::api::core::v1::Secret;
use futures::stream::BoxStream;
use futures::{Stream, StreamExt, future};
use kube::api::Api;
use kube::core::PartialObjectMeta;
use kube::runtime::controller::{Action, Config as ControllerConfig, Controller};
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::utils::Backoff;
use kube::runtime::watcher::{self, Event};
use kube::runtime::{WatchStreamExt, predicates};
use kube::{Resource, ResourceExt};

use crate::decide;
use crate::error::Error;
use crate::index::SecretIndex;
use crate::metrics::ControllerMetrics;
use crate::reconcile::{Outcome, Reconciler};
use crate::watched::WatchedConfigs;

/// The label that, with `--watch-filter`, limits which ExtensionConfigs are reconciled.
pub const WATCH_FILTER_LABEL: &str = "cluster.x-k8s.io/watch-filter";

/// How the controller runs; [`Options::default`] gives Cluster API's defaults.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Reconcile only ExtensionConfigs labelled `cluster.x-k8s.io/watch-filter=<value>` (in the
    /// watch [`run`] makes; [`run_watching`] runs on the caller's watch as it is).
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
    #[error(transparent)]
    WarmUp(Error),
}

/// The ExtensionConfig watch the controller runs on: a reflector's store, which reconciles
/// read from, and the stream of watch events that fills it, which the controller also feeds
/// to its [`WatchedConfigs`] and [`SecretIndex`].
pub struct ConfigWatch {
    store: Store<ExtensionConfig>,
    events: BoxStream<'static, Result<Event<ExtensionConfig>, watcher::Error>>,
}

impl std::fmt::Debug for ConfigWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConfigWatch").finish_non_exhaustive()
    }
}

impl ConfigWatch {
    /// The watch [`run`] makes: every ExtensionConfig (only those labelled
    /// `cluster.x-k8s.io/watch-filter=<value>` with a watch filter), with kube-runtime's
    /// default back-off, into a new store.
    pub fn new(kube: kube::Client, watch_filter: Option<&str>) -> Self {
        let api: Api<ExtensionConfig> = Api::all(kube);
        let mut wc = watcher::Config::default();
        if let Some(value) = watch_filter {
            wc = wc.labels(&format!("{WATCH_FILTER_LABEL}={value}"));
        }
        let (store, writer) = reflector::store();
        let events = reflector::reflector(writer, watcher::watcher(api, wc))
            .default_backoff()
            .boxed();
        ConfigWatch { store, events }
    }

    /// A watch over a reflector the caller made, to share it with other controllers:
    /// `events` must be the stream of a reflector whose writer fills `store`
    /// (`reflector::reflector(writer, watcher(..))`, or `watcher(..).reflect_shared(writer)`
    /// whose writer other controllers subscribe to). The controller polls `events`, so the
    /// store is filled as long as [`run_watching`] runs. Give the stream its own back-off
    /// (`.default_backoff()`): the controller adds none, so a stream without one would retry
    /// a failing watch at once, again and again.
    pub fn from_reflector(
        store: Store<ExtensionConfig>,
        events: impl Stream<Item = Result<Event<ExtensionConfig>, watcher::Error>> + Send + 'static,
    ) -> Self {
        ConfigWatch {
            store,
            events: events.boxed(),
        }
    }

    /// The store the watch fills, to read the same cache elsewhere.
    pub fn store(&self) -> Store<ExtensionConfig> {
        self.store.clone()
    }
}

/// The back-off over all the controller's watches together: none (always zero). Every watch
/// the controller runs backs off its own errors, so one watch's failures never hold back the
/// events of another.
#[derive(Clone, Copy, Debug, Default)]
struct EachWatchAlone;

impl Iterator for EachWatchAlone {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        Some(Duration::ZERO)
    }
}

impl Backoff for EachWatchAlone {
    fn reset(&mut self) {}
}

/// The kube-runtime controller over `configs`, before its other watches are added.
fn controller(
    configs: impl Stream<Item = Result<ExtensionConfig, watcher::Error>> + Send + 'static,
    store: Store<ExtensionConfig>,
    options: &Options,
) -> Controller<ExtensionConfig> {
    Controller::for_stream(configs, store)
        .with_config(ControllerConfig::default().concurrency(options.concurrency))
        .trigger_backoff(EachWatchAlone)
}

/// State shared by the workers.
struct Ctx {
    reconciler: Reconciler,
    /// The reflector's cache of ExtensionConfigs, which reconciles read from.
    store: Store<ExtensionConfig>,
    /// The watched ExtensionConfigs: rate limiting, failure counts, registrations.
    watched: WatchedConfigs,
    metrics: ControllerMetrics,
    options: Options,
}

async fn reconcile(object: Arc<ExtensionConfig>, ctx: Arc<Ctx>) -> Result<Action, Error> {
    let name = object.name_any();
    if let Some(wait) = ctx
        .watched
        .start(&name, Instant::now(), ctx.options.min_reconcile_interval)
    {
        return Ok(Action::requeue(wait));
    }
    // The latest the cache holds; gone means the watch deleted it, and with it its
    // registrations.
    let Some(config) = ctx.store.get(&ObjectRef::new(&name)) else {
        return Ok(Action::await_change());
    };
    let started = Instant::now();
    let result = match tokio::time::timeout(
        ctx.options.reconcile_timeout,
        ctx.reconciler.reconcile_watched(&config, &ctx.watched),
    )
    .await
    {
        Ok(r) => r,
        Err(_) => Err(Error::Timeout {
            name: name.clone(),
            after: ctx.options.reconcile_timeout,
        }),
    };
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(Outcome::Done) => {
            ctx.metrics.observe("success", seconds);
            ctx.watched.reset_failures(&name);
            Ok(Action::await_change())
        }
        Ok(Outcome::RequeueAfter(after)) => {
            ctx.metrics.observe("requeue_after", seconds);
            Ok(Action::requeue(after))
        }
        Err(e) => {
            ctx.metrics.observe("error", seconds);
            tracing::error!(
                controller = "extensionconfig",
                ExtensionConfig = %name,
                transient = e.is_transient(),
                error = %chain(&e),
                "Reconciler error"
            );
            Err(e)
        }
    }
}

/// When to try `name` again after `error` (see the module documentation): `None` waits for a
/// change. Counts the failure in `watched` when it grows the back-off.
fn retry_after(error: &Error, name: &str, watched: &WatchedConfigs) -> Option<Duration> {
    if error.is_conflict() {
        return Some(decide::backoff(0));
    }
    if !error.is_transient() {
        return None;
    }
    Some(decide::backoff(watched.record_failure(name)))
}

fn error_policy(object: Arc<ExtensionConfig>, error: &Error, ctx: Arc<Ctx>) -> Action {
    match retry_after(error, &object.name_any(), &ctx.watched) {
        Some(after) => Action::requeue(after),
        None => Action::await_change(),
    }
}

/// Runs the ExtensionConfig controller and the registry warm-up together until `shutdown`
/// completes (then returns `Ok`) or warm-up times out (then returns the error, whose chain is
/// Cluster API's message, and the controller stops).
///
/// This is the function to call from your own kube-runtime program: give it the
/// [`Reconciler`] (with the `kube::Client` it reads, watches and writes with, and the runtime
/// client whose registry it fills, the same one your controllers call extensions with), the
/// options and the metrics it records into. It watches ExtensionConfigs itself
/// ([`ConfigWatch::new`]); to share that watch with other controllers, make it with
/// [`run_watching`]. Call it once leader election made this process the leader, as warm-up
/// must run on the leader only; a read-only [`Reconciler`] may run on every replica.
pub async fn run(
    reconciler: Reconciler,
    options: Options,
    metrics: ControllerMetrics,
    shutdown: impl Future<Output = ()> + Send + Sync + 'static,
) -> Result<(), ControllerError> {
    let watch = ConfigWatch::new(reconciler.kube().clone(), options.watch_filter.as_deref());
    run_watching(watch, reconciler, options, metrics, shutdown).await
}

/// [`run`] on an ExtensionConfig watch the caller gives ([`ConfigWatch::from_reflector`]);
/// `options.watch_filter` is then the caller's to apply to that watch.
pub async fn run_watching(
    watch: ConfigWatch,
    reconciler: Reconciler,
    options: Options,
    metrics: ControllerMetrics,
    shutdown: impl Future<Output = ()> + Send + Sync + 'static,
) -> Result<(), ControllerError> {
    let ConfigWatch { store, events } = watch;
    let index = SecretIndex::new();
    let watched = WatchedConfigs::new();
    let (index_for_events, watched_for_events, runtime) =
        (index.clone(), watched.clone(), reconciler.runtime().clone());
    let configs = events
        .inspect(move |event| {
            if let Ok(event) = event {
                index_for_events.apply(event);
                watched_for_events.apply(event, &runtime);
            }
        })
        .applied_objects();
    let mut controller = controller(configs, store.clone(), &options);
    if !reconciler.is_read_only() {
        let kube = reconciler.kube().clone();
        let secrets: Api<PartialObjectMeta<Secret>> = match &options.secret_namespace {
            Some(ns) => Api::namespaced(kube, ns),
            None => Api::all(kube),
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
        store,
        watched: watched.clone(),
        metrics: metrics.clone(),
        options: options.clone(),
    });
    let running = controller
        .run(reconcile, error_policy, ctx)
        .for_each(|_| future::ready(()));
    let warm_up = async {
        reconciler
            .warm_up(options.warm_up_interval, options.warm_up_timeout)
            .await
            .map(|()| {
                // Warm-up loaded what its own list held; what the watch has seen go since
                // goes now.
                watched.sweep(reconciler.runtime());
                metrics.set_ready(true);
            })
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

#[cfg(test)]
mod tests {
    use capi_runtime::api::runtime::v1beta2::ExtensionConfigSpec;
    use capi_runtime::client::Client as RuntimeClient;

    use kube::core::Status;

    use super::*;
    use crate::error::{CaError, KubeError};

    fn api(code: u16) -> Error {
        Error::reconcile(Error::Patch {
            name: "a".into(),
            source: KubeError(kube::Error::Api(Box::new(
                Status::failure("answer", "").with_code(code),
            ))),
        })
    }

    #[test]
    fn conflicts_retry_soon_transient_errors_back_off_permanent_ones_wait() {
        let runtime = RuntimeClient::builder().build().unwrap();
        let watched = WatchedConfigs::new();
        let mut a = ExtensionConfig::new("a", ExtensionConfigSpec::default());
        a.metadata.uid = Some("ua".into());
        watched.apply(&Event::Init, &runtime);
        watched.apply(&Event::InitApply(a), &runtime);
        watched.apply(&Event::InitDone, &runtime);

        // Conflicts do not grow the back-off.
        for _ in 0..5 {
            assert_eq!(
                retry_after(&api(409), "a", &watched),
                Some(Duration::from_millis(1005))
            );
        }
        // Transient errors do: 1 s + 5 ms·2^n.
        let waits: Vec<_> = (0..4)
            .map(|_| retry_after(&api(503), "a", &watched).unwrap())
            .collect();
        assert_eq!(waits, [1005, 1010, 1020, 1040].map(Duration::from_millis));
        // Permanent ones wait for a change and leave the count alone.
        let permanent = Error::reconcile(CaError::NoCaEntry("ns/s".into()).into());
        assert_eq!(retry_after(&permanent, "a", &watched), None);
        assert_eq!(retry_after(&api(422), "a", &watched), None);
        assert_eq!(
            retry_after(&api(500), "a", &watched),
            Some(Duration::from_millis(1080))
        );
        // A success starts the count again.
        watched.reset_failures("a");
        assert_eq!(
            retry_after(&api(500), "a", &watched),
            Some(Duration::from_millis(1005))
        );
    }

    /// An error of one watch does not hold back the events of another: kube-runtime's
    /// controller would back off all its watches for 0.8 s and more after it (paused time:
    /// the clock only moves when every task waits, so the figure is exact).
    #[tokio::test(start_paused = true)]
    async fn one_watch_failing_holds_back_no_other() {
        let (store, mut writer) = reflector::store::<ExtensionConfig>();
        let (configs_tx, configs_rx) = futures::channel::mpsc::unbounded();
        let (secrets_tx, secrets_rx) = futures::channel::mpsc::unbounded();
        let (reconciled_tx, mut reconciled) = tokio::sync::mpsc::unbounded_channel();
        let failing_secrets = secrets_rx
            .map(|()| Err::<PartialObjectMeta<Secret>, _>(watcher::Error::NoResourceVersion));
        let running = controller(configs_rx, store, &Options::default())
            .watches_stream(failing_secrets, |_| None::<ObjectRef<ExtensionConfig>>)
            .run(
                move |object: Arc<ExtensionConfig>, _: Arc<()>| {
                    let _ = reconciled_tx.send((object.name_any(), tokio::time::Instant::now()));
                    future::ready(Ok::<_, Error>(Action::await_change()))
                },
                |_, _, _| Action::await_change(),
                Arc::new(()),
            )
            .for_each(|_| future::ready(()));
        let driving = tokio::spawn(running);

        secrets_tx.unbounded_send(()).unwrap();
        tokio::time::sleep(Duration::from_millis(10)).await;
        let mut a = ExtensionConfig::new("a", ExtensionConfigSpec::default());
        a.metadata.uid = Some("ua".into());
        a.metadata.resource_version = Some("1".into());
        for event in [Event::Init, Event::InitApply(a.clone()), Event::InitDone] {
            writer.apply_watcher_event(&event);
        }
        let sent = tokio::time::Instant::now();
        configs_tx.unbounded_send(Ok(a)).unwrap();
        let (name, at) = reconciled.recv().await.unwrap();
        assert_eq!(name, "a");
        let waited = at - sent;
        assert!(
            waited < Duration::from_millis(50),
            "the ExtensionConfig waited {waited:?} behind the Secret watch's error"
        );
        driving.abort();
    }
}
