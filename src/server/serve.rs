//! Starting and stopping the server: the HTTPS hook port on the shared host, and the optional
//! plain-HTTP metrics listener beside it.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use super::Server;
use super::error::ServerError;
use crate::https::{PlainListener, PlainSocket, RunningHost};

impl Server {
    /// Loads the serving certificate, binds the listener(s) and starts serving in background
    /// tasks. Returns once the sockets accept connections.
    pub async fn start(self) -> Result<RunningServer, ServerError> {
        let handlers = self.discovery.handlers.len();
        let grace = self.host.shutdown_grace;
        let timeouts = self.host.timeouts;
        // Bound before anything serves, so a taken metrics port leaves nothing running.
        let metrics_socket = self.metrics_addr.map(PlainSocket::bind).transpose()?;
        let host = RunningHost::start(self.host, self.router, self.health).await?;
        let metrics = match metrics_socket {
            None => None,
            Some(socket) => match socket.serve(self.metrics, &timeouts) {
                Ok(listener) => Some(listener),
                Err(error) => {
                    if let Err(stopped) = host.shutdown().await {
                        tracing::warn!(error = %stopped, "stopping the hook port after the metrics listener failed");
                    }
                    return Err(error.into());
                }
            },
        };
        tracing::info!(addr = %host.local_addr(), handlers, "extension server listening");
        if let Some(addr) = host.health_addr() {
            tracing::info!(%addr, "health listener serving /healthz and /readyz");
        }
        if let Some(metrics) = &metrics {
            tracing::info!(addr = %metrics.addr(), "metrics listener serving /metrics");
        }
        Ok(RunningServer {
            host,
            metrics,
            grace,
        })
    }

    /// Starts the server and serves until `shutdown` completes, then shuts down gracefully.
    /// Pass [`shutdown_signal`](super::shutdown_signal) to stop on SIGTERM or Ctrl-C.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServerError> {
        let RunningServer {
            host,
            metrics,
            grace,
        } = self.start().await?;
        let served = host.run_until(shutdown).await;
        match (served, metrics) {
            (Ok(()), Some(metrics)) => Ok(metrics.shutdown(grace).await?),
            (Ok(()), None) => Ok(()),
            (Err(error), metrics) => {
                if let Some(metrics) = metrics {
                    metrics.stop();
                }
                Err(error.into())
            }
        }
    }
}

/// A server that is serving. Dropping it leaves the server running in the background; call
/// [`shutdown`](RunningServer::shutdown) to stop it.
#[derive(Debug)]
pub struct RunningServer {
    host: RunningHost,
    metrics: Option<PlainListener>,
    grace: Duration,
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

    /// The address of the plain-HTTP metrics listener, when one was configured (with the real
    /// port when 0 was asked for).
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().map(PlainListener::addr)
    }

    /// Stops accepting connections, lets requests in flight finish (up to the grace period),
    /// and waits for the server to stop.
    pub async fn shutdown(self) -> Result<(), ServerError> {
        let metrics = async {
            match self.metrics {
                Some(metrics) => metrics.shutdown(self.grace).await,
                None => Ok(()),
            }
        };
        let (host, metrics) = tokio::join!(self.host.shutdown(), metrics);
        host?;
        Ok(metrics?)
    }
}
