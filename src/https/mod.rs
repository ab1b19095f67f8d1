//! The HTTPS host: what every service this crate serves needs besides its routes.
//!
//! The hook server ([`crate::server`]) and the ExtensionConfig webhooks are both HTTPS
//! services that Kubernetes components call. They share this host: serving certificates read
//! from files and reloaded when the files change, binding, the connection deadlines that keep a
//! slow or silent peer from holding a connection forever, an optional plain-HTTP listener for
//! probes and scrapers, and graceful shutdown. A service hands the host its routes; the host
//! knows nothing about hooks.
//!
//! # Deadlines
//!
//! | what | default | bound |
//! |---|---|---|
//! | TLS handshake | 10 s | from accept to an established TLS session |
//! | request head ([`Timeouts::header_read`]) | 32 s | from the first byte of a request to its complete head |
//! | idle connection ([`Timeouts::idle`]) | 90 s | a keep-alive connection with nothing in flight and no byte moving; also a peer that stops reading an answer |
//!
//! The header and idle defaults are the ones controller-runtime's webhook server (which
//! Cluster API's extension server is built on) gives Go's `http.Server`. Reading a request's
//! body is bounded by the service (the hook server's body timeout).

mod conn;
mod serve;
mod tls;

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

pub use crate::signal::shutdown_signal;
pub use crate::tls::TlsError;
pub use serve::RunningHost;
pub(crate) use serve::{PlainListener, PlainSocket};
pub use tls::TlsFiles;

/// Connection deadlines of a host; see the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timeouts {
    /// The longest a TLS handshake may take.
    pub tls_handshake: Duration,
    /// The longest a peer may take to send a request's head once it has started.
    pub header_read: Duration,
    /// How long a connection with nothing in flight may stay without traffic.
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            tls_handshake: Duration::from_secs(10),
            header_read: Duration::from_secs(32),
            idle: Duration::from_secs(90),
        }
    }
}

impl Timeouts {
    /// Sets the TLS handshake deadline.
    pub fn tls_handshake(mut self, deadline: Duration) -> Self {
        self.tls_handshake = deadline;
        self
    }

    /// Sets the request-head deadline.
    pub fn header_read(mut self, deadline: Duration) -> Self {
        self.header_read = deadline;
        self
    }

    /// Sets the idle-connection deadline.
    pub fn idle(mut self, deadline: Duration) -> Self {
        self.idle = deadline;
        self
    }

    fn deadlines(&self) -> conn::Deadlines {
        conn::Deadlines {
            idle: self.idle,
            header_read: self.header_read,
        }
    }
}

/// How a host listens; see [`RunningHost::start`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HostOptions {
    /// The HTTPS address (port 0 picks a free port).
    pub addr: SocketAddr,
    /// The certificate files.
    pub tls: TlsFiles,
    /// How often the certificate files are checked for changes.
    pub tls_reload_interval: Duration,
    /// How long a graceful shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
    /// The plain-HTTP address of the probe/metrics listener, if any.
    pub health_addr: Option<SocketAddr>,
    /// Connection deadlines (both listeners).
    pub timeouts: Timeouts,
}

impl HostOptions {
    /// Options for `addr` serving the certificate files `tls`, with the defaults of this crate's
    /// services: reload checks every 2 s, 10 s of shutdown grace, no health listener, default
    /// [`Timeouts`].
    pub fn new(addr: SocketAddr, tls: TlsFiles) -> Self {
        HostOptions {
            addr,
            tls,
            tls_reload_interval: Duration::from_secs(2),
            shutdown_grace: Duration::from_secs(10),
            health_addr: None,
            timeouts: Timeouts::default(),
        }
    }
}

/// Why a host could not start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// The serving certificate could not be loaded.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// A listening socket could not be opened.
    #[error("failed to listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The cause.
        source: io::Error,
    },
    /// A listener stopped with an I/O error.
    #[error("server failed")]
    Serve(#[source] io::Error),
}
