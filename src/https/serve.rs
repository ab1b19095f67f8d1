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
use super::{HostError, HostOptions, tls};

/// A host that is serving. Dropping it leaves the listeners running in the background; call
/// [`shutdown`](RunningHost::shutdown) to stop them.
#[derive(Debug)]
pub struct RunningHost {
    local_addr: SocketAddr,
    handle: Handle<SocketAddr>,
    serve: JoinHandle<std::io::Result<()>>,
    watcher: JoinHandle<()>,
    health: Option<Listener>,
    grace: Duration,
}

#[derive(Debug)]
struct Listener {
    addr: SocketAddr,
    handle: Handle<SocketAddr>,
    task: JoinHandle<std::io::Result<()>>,
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
            Some(addr) => Some(start_plain(addr, ops, guard)?),
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
            health.handle.graceful_shutdown(Some(self.grace));
            flatten(health.task.await)?;
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
                    health.handle.shutdown();
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

fn start_plain(addr: SocketAddr, ops: Router, guard: GuardAcceptor) -> Result<Listener, HostError> {
    let listener = bind(addr)?;
    let addr = listener
        .local_addr()
        .map_err(|source| HostError::Bind { addr, source })?;
    let handle = Handle::new();
    let server = axum_server::from_tcp(listener)
        .map_err(|source| HostError::Bind { addr, source })?
        .acceptor(guard)
        .handle(handle.clone());
    let task = tokio::spawn(async move { server.serve(ops.into_make_service()).await });
    Ok(Listener { addr, handle, task })
}

fn flatten(result: Result<std::io::Result<()>, tokio::task::JoinError>) -> Result<(), HostError> {
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(HostError::Serve(e)),
        Err(e) => Err(HostError::Serve(std::io::Error::other(e))),
    }
}
