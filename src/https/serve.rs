//! Listening: binding the sockets, serving TLS, and shutting down gracefully.

use std::future::Future;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum_server::Handle;
use axum_server::tls_rustls::{RustlsAcceptor, RustlsConfig};
use tokio::task::JoinHandle;

use super::conn::GuardAcceptor;
use super::{HostError, HostOptions, Timeouts, tls};

/// A host that is serving. Dropping it leaves the listeners running in the background; call
/// [`shutdown`](RunningHost::shutdown) to stop them.
#[derive(Debug)]
pub struct RunningHost {
    local_addr: SocketAddr,
    handle: Handle<SocketAddr>,
    serve: JoinHandle<std::io::Result<()>>,
    watcher: JoinHandle<()>,
    health: Option<PlainListener>,
    grace: Duration,
}

/// A plain-HTTP socket, bound and not yet serving: binding first lets a caller open every
/// socket it needs before it starts any of them.
#[derive(Debug)]
pub(crate) struct PlainSocket {
    listener: TcpListener,
    addr: SocketAddr,
}

impl PlainSocket {
    /// Binds `addr` (port 0 picks a free port).
    pub(crate) fn bind(addr: SocketAddr) -> Result<PlainSocket, HostError> {
        let listener = bind(addr)?;
        let addr = listener
            .local_addr()
            .map_err(|source| HostError::Bind { addr, source })?;
        Ok(PlainSocket { listener, addr })
    }

    /// Serves `router` on the socket in a background task, under the connection deadlines of
    /// `timeouts` (the TLS handshake deadline does not apply).
    pub(crate) fn serve(
        self,
        router: Router,
        timeouts: &Timeouts,
    ) -> Result<PlainListener, HostError> {
        let guard = GuardAcceptor {
            deadlines: timeouts.deadlines(),
        };
        self.serve_guarded(router, guard)
    }

    fn serve_guarded(
        self,
        router: Router,
        guard: GuardAcceptor,
    ) -> Result<PlainListener, HostError> {
        let PlainSocket { listener, addr } = self;
        let handle = Handle::new();
        let server = axum_server::from_tcp(listener)
            .map_err(|source| HostError::Bind { addr, source })?
            .acceptor(guard)
            .handle(handle.clone());
        let task = tokio::spawn(async move { server.serve(router.into_make_service()).await });
        Ok(PlainListener { addr, handle, task })
    }
}

/// A plain-HTTP listener that is serving.
#[derive(Debug)]
pub(crate) struct PlainListener {
    addr: SocketAddr,
    handle: Handle<SocketAddr>,
    task: JoinHandle<std::io::Result<()>>,
}

impl PlainListener {
    /// The bound address.
    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting, lets requests in flight finish for up to `grace`, and waits for the
    /// listener to stop.
    pub(crate) async fn shutdown(self, grace: Duration) -> Result<(), HostError> {
        self.handle.graceful_shutdown(Some(grace));
        flatten(self.task.await)
    }

    /// Stops at once, without waiting.
    pub(crate) fn stop(self) {
        self.handle.shutdown();
    }
}

impl RunningHost {
    /// Loads the serving certificate, binds the listener(s) and starts serving `app` over HTTPS
    /// (and `ops` over plain HTTP at the health address, when one is set) in background tasks.
    /// Returns once the sockets accept connections.
    pub async fn start(
        options: HostOptions,
        app: Router,
        ops: Router,
    ) -> Result<RunningHost, HostError> {
        let files = options.tls.clone();
        let (config, snapshot) = tokio::task::spawn_blocking(move || files.load())
            .await
            .map_err(|e| HostError::Serve(std::io::Error::other(e)))??;
        let config = RustlsConfig::from_config(Arc::new(config));
        let listener = bind(options.addr)?;
        let local_addr = listener.local_addr().map_err(|source| HostError::Bind {
            addr: options.addr,
            source,
        })?;
        let guard = GuardAcceptor {
            deadlines: options.timeouts.deadlines(),
        };
        let acceptor = RustlsAcceptor::new(config.clone())
            .handshake_timeout(options.timeouts.tls_handshake)
            .acceptor(guard.clone());
        let handle = Handle::new();
        let server = axum_server::from_tcp(listener)
            .map_err(|source| HostError::Bind {
                addr: local_addr,
                source,
            })?
            .acceptor(acceptor)
            .handle(handle.clone());
        let serve = tokio::spawn(async move { server.serve(app.into_make_service()).await });
        let watcher = tokio::spawn(tls::watch(
            options.tls.clone(),
            config,
            snapshot,
            options.tls_reload_interval,
        ));
        let health = match options.health_addr {
            None => None,
            Some(addr) => Some(PlainSocket::bind(addr)?.serve_guarded(ops, guard)?),
        };
        Ok(RunningHost {
            local_addr,
            handle,
            serve,
            watcher,
            health,
            grace: options.shutdown_grace,
        })
    }

    /// The address the HTTPS listener is bound to (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The address of the plain-HTTP health listener, when one was configured.
    pub fn health_addr(&self) -> Option<SocketAddr> {
        self.health.as_ref().map(|h| h.addr)
    }

    /// Stops accepting connections, lets requests in flight finish (up to the grace period),
    /// and waits for the listeners to stop.
    pub async fn shutdown(self) -> Result<(), HostError> {
        self.handle.graceful_shutdown(Some(self.grace));
        self.watcher.abort();
        if let Some(health) = self.health {
            health.shutdown(self.grace).await?;
        }
        flatten(self.serve.await)
    }

    /// Serves until `shutdown` completes, then shuts down gracefully; returns early with the
    /// error if the HTTPS listener stops on its own.
    pub async fn run_until(mut self, shutdown: impl Future<Output = ()>) -> Result<(), HostError> {
        let stopped = tokio::select! {
            () = shutdown => None,
            result = &mut self.serve => Some(result),
        };
        match stopped {
            None => self.shutdown().await,
            Some(result) => {
                self.watcher.abort();
                if let Some(health) = self.health {
                    health.stop();
                }
                flatten(result)
            }
        }
    }
}

fn bind(addr: SocketAddr) -> Result<TcpListener, HostError> {
    let listener = TcpListener::bind(addr).map_err(|source| HostError::Bind { addr, source })?;
    listener
        .set_nonblocking(true)
        .map_err(|source| HostError::Bind { addr, source })?;
    Ok(listener)
}

fn flatten(result: Result<std::io::Result<()>, tokio::task::JoinError>) -> Result<(), HostError> {
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(HostError::Serve(e)),
        Err(e) => Err(HostError::Serve(std::io::Error::other(e))),
    }
}
