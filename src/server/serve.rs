//! Listening: binding the sockets, serving TLS, and shutting down gracefully.

use std::future::Future;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use axum_server::Handle;
use axum_server::tls_rustls::RustlsConfig;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::error::ServerError;
use super::{Server, router, tls};

impl Server {
    /// Loads the serving certificate, binds the listener(s) and starts serving in background
    /// tasks. Returns once the sockets accept connections.
    pub async fn start(self) -> Result<RunningServer, ServerError> {
        let (config, snapshot) = self.settings.tls.load()?;
        let config = RustlsConfig::from_config(Arc::new(config));
        let listener = bind(self.settings.addr)?;
        let local_addr = listener.local_addr().map_err(|source| ServerError::Bind {
            addr: self.settings.addr,
            source,
        })?;
        let handle = Handle::new();
        let server = axum_server::from_tcp_rustls(listener, config.clone())
            .map_err(|source| ServerError::Bind {
                addr: local_addr,
                source,
            })?
            .handle(handle.clone());
        let router = self.router.clone();
        let serve = tokio::spawn(async move { server.serve(router.into_make_service()).await });
        let watcher = tokio::spawn(tls::watch(
            self.settings.tls.clone(),
            config,
            snapshot,
            self.settings.tls_reload_interval,
        ));
        let health = match self.settings.health_addr {
            None => None,
            Some(addr) => Some(start_health(addr, self.metrics.clone()).await?),
        };
        tracing::info!(
            addr = %local_addr,
            handlers = self.discovery.handlers.len(),
            "extension server listening"
        );
        Ok(RunningServer {
            local_addr,
            handle,
            serve,
            watcher,
            health,
            grace: self.settings.shutdown_grace,
        })
    }

    /// Starts the server and serves until `shutdown` completes, then shuts down gracefully.
    /// Pass [`shutdown_signal`] to stop on SIGTERM or Ctrl-C.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServerError> {
        let mut running = self.start().await?;
        let stopped = tokio::select! {
            () = shutdown => None,
            result = &mut running.serve => Some(result),
        };
        match stopped {
            None => running.shutdown().await,
            // The listener died on its own; stop the rest and report why.
            Some(result) => {
                running.watcher.abort();
                if let Some(health) = running.health {
                    let _ = health.stop.send(());
                }
                flatten(result)
            }
        }
    }
}

fn bind(addr: SocketAddr) -> Result<TcpListener, ServerError> {
    let listener = TcpListener::bind(addr).map_err(|source| ServerError::Bind { addr, source })?;
    listener
        .set_nonblocking(true)
        .map_err(|source| ServerError::Bind { addr, source })?;
    Ok(listener)
}

struct Health {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

async fn start_health(
    addr: SocketAddr,
    metrics: Arc<super::metrics::ServerMetrics>,
) -> Result<Health, ServerError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServerError::Bind { addr, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| ServerError::Bind { addr, source })?;
    let (stop, stopped) = oneshot::channel::<()>();
    let app = router::ops_router(metrics);
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Health { addr, stop, task })
}

/// A server that is serving. Dropping it leaves the server running in the background; call
/// [`shutdown`](RunningServer::shutdown) to stop it.
#[derive(Debug)]
pub struct RunningServer {
    local_addr: SocketAddr,
    handle: Handle<SocketAddr>,
    serve: JoinHandle<std::io::Result<()>>,
    watcher: JoinHandle<()>,
    health: Option<Health>,
    grace: Duration,
}

impl std::fmt::Debug for Health {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Health").field("addr", &self.addr).finish()
    }
}

impl RunningServer {
    /// The address the HTTPS listener is bound to (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The address of the plain-HTTP health listener, when one was configured.
    pub fn health_addr(&self) -> Option<SocketAddr> {
        self.health.as_ref().map(|h| h.addr)
    }

    /// Stops accepting connections, lets requests in flight finish (up to the grace period),
    /// and waits for the server to stop.
    pub async fn shutdown(self) -> Result<(), ServerError> {
        self.handle.graceful_shutdown(Some(self.grace));
        self.watcher.abort();
        if let Some(health) = self.health {
            let _ = health.stop.send(());
            flatten(health.task.await)?;
        }
        flatten(self.serve.await)
    }
}

fn flatten(result: Result<std::io::Result<()>, tokio::task::JoinError>) -> Result<(), ServerError> {
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(ServerError::Serve(e)),
        Err(e) => Err(ServerError::Serve(std::io::Error::other(e))),
    }
}

/// Completes on SIGTERM (how Kubernetes stops a pod) or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received");
}
