//! Starting and stopping the server on the shared HTTPS host.

use std::future::Future;
use std::net::SocketAddr;

use super::Server;
use super::error::ServerError;
use crate::https::RunningHost;

impl Server {
    /// Loads the serving certificate, binds the listener(s) and starts serving in background
    /// tasks. Returns once the sockets accept connections.
    pub async fn start(self) -> Result<RunningServer, ServerError> {
        let handlers = self.discovery.handlers.len();
        let host = RunningHost::start(self.host, self.router, self.ops).await?;
        tracing::info!(addr = %host.local_addr(), handlers, "extension server listening");
        Ok(RunningServer { host })
    }

    /// Starts the server and serves until `shutdown` completes, then shuts down gracefully.
    /// Pass [`shutdown_signal`](super::shutdown_signal) to stop on SIGTERM or Ctrl-C.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServerError> {
        let running = self.start().await?;
        Ok(running.host.run_until(shutdown).await?)
    }
}

/// A server that is serving. Dropping it leaves the server running in the background; call
/// [`shutdown`](RunningServer::shutdown) to stop it.
#[derive(Debug)]
pub struct RunningServer {
    host: RunningHost,
}

impl RunningServer {
    /// The address the HTTPS listener is bound to (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.host.local_addr()
    }

    /// The address of the plain-HTTP health listener, when one was configured.
    pub fn health_addr(&self) -> Option<SocketAddr> {
        self.host.health_addr()
    }

    /// Stops accepting connections, lets requests in flight finish (up to the grace period),
    /// and waits for the server to stop.
    pub async fn shutdown(self) -> Result<(), ServerError> {
        Ok(self.host.shutdown().await?)
    }
}
