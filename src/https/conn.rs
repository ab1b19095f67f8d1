//! Per-connection deadlines: how long a connection may sit idle, and how long a peer may take
//! to send a request's headers.
//!
//! hyper's own header timer starts whenever a connection waits for the next request, so it
//! cannot tell "slow headers" from "idle keep-alive"; and axum-server leaves it off. This module
//! keeps both apart. Every accepted socket is wrapped in [`Guarded`], every per-connection
//! service in [`Counted`]; the two share a [`ConnState`] that records the last byte moved,
//! whether bytes of a new request have arrived, and how many requests are being answered.
//! When the socket would block and a deadline has passed, the read or write fails with
//! `TimedOut` and hyper closes the connection:
//!
//! - nothing in flight and no byte for `idle`: the keep-alive connection is closed;
//! - nothing in flight, bytes received, but no complete request head after `header_read`
//!   (a peer trickling its headers byte by byte, or a TLS handshake that goes on and on);
//! - while a request is being answered, neither deadline applies (the body read and the
//!   handler have their own limits), except that a peer which stops reading our answer for
//!   `idle` is dropped.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// The two connection deadlines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadlines {
    pub(crate) idle: Duration,
    pub(crate) header_read: Duration,
}

/// What a connection's socket and its service share.
#[derive(Debug)]
pub(crate) struct ConnState {
    origin: Instant,
    /// Nanoseconds after `origin` of the last byte read or written.
    last_activity: AtomicU64,
    /// Nanoseconds after `origin` (plus one, so 0 means "none") of the first byte of a request
    /// head that has not been handed to the service yet.
    head_started: AtomicU64,
    in_flight: AtomicUsize,
}

impl ConnState {
    fn new() -> Arc<ConnState> {
        Arc::new(ConnState {
            origin: Instant::now(),
            last_activity: AtomicU64::new(0),
            head_started: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
        })
    }

    fn now(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn at(&self, nanos: u64) -> Instant {
        self.origin + Duration::from_nanos(nanos)
    }

    fn touch(&self) {
        self.last_activity.store(self.now(), Ordering::Relaxed);
    }

    /// When a blocked read or write must have made progress by, given what the connection is
    /// doing; `None` for a read while a request is being answered (the body read and the
    /// handler have deadlines of their own, and a peer may well be silent meanwhile).
    fn deadline(&self, deadlines: Deadlines, writing: bool) -> Option<Instant> {
        let idle_since = self.at(self.last_activity.load(Ordering::Relaxed));
        if writing {
            return Some(idle_since + deadlines.idle);
        }
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(match self.head_started.load(Ordering::Acquire) {
            0 => idle_since + deadlines.idle,
            started => self.at(started - 1) + deadlines.header_read,
        })
    }
}

/// The acceptor that wraps each connection (the inner acceptor of axum-server's TLS acceptor,
/// so the deadlines also bound the TLS handshake).
#[derive(Clone, Debug)]
pub(crate) struct GuardAcceptor {
    pub(crate) deadlines: Deadlines,
}

impl<S: Send + 'static> axum_server::accept::Accept<tokio::net::TcpStream, S> for GuardAcceptor {
    type Stream = Guarded<tokio::net::TcpStream>;
    type Service = Counted<S>;
    type Future = std::future::Ready<io::Result<(Self::Stream, Self::Service)>>;

    fn accept(&self, stream: tokio::net::TcpStream, service: S) -> Self::Future {
        let state = ConnState::new();
        let guarded = Guarded {
            inner: stream,
            state: state.clone(),
            deadlines: self.deadlines,
            timer: Box::pin(tokio::time::sleep(self.deadlines.idle)),
        };
        std::future::ready(Ok((
            guarded,
            Counted {
                inner: service,
                state,
            },
        )))
    }
}

/// A socket with the connection's deadlines.
#[derive(Debug)]
pub(crate) struct Guarded<I> {
    inner: I,
    state: Arc<ConnState>,
    deadlines: Deadlines,
    timer: Pin<Box<Sleep>>,
}

impl<I> Guarded<I> {
    /// Called when the socket would block: fails once the deadline has passed, and otherwise
    /// arms the timer so that the connection is polled again when it does.
    fn check(&mut self, cx: &mut Context<'_>, writing: bool) -> io::Result<()> {
        let Some(deadline) = self.state.deadline(self.deadlines, writing) else {
            return Ok(());
        };
        if Instant::now() >= deadline {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "connection deadline passed",
            ));
        }
        self.timer.as_mut().reset(deadline);
        // Registers the waker; the timer is in the future, so this is pending.
        let _ = self.timer.as_mut().poll(cx);
        Ok(())
    }
}

impl<I> Guarded<I> {
    /// Records a write's progress, or applies the deadline when the write would block.
    fn wrote(
        &mut self,
        cx: &mut Context<'_>,
        written: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match written {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.state.touch();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match self.check(cx, true) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Guarded<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    let state = &this.state;
                    state.touch();
                    if state.in_flight.load(Ordering::Acquire) == 0 {
                        let now = state.now().saturating_add(1);
                        let _ = state.head_started.compare_exchange(
                            0,
                            now,
                            Ordering::AcqRel,
                            Ordering::Relaxed,
                        );
                    }
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match this.check(cx, false) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Guarded<I> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.wrote(cx, written)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.wrote(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// A connection's service, counting the requests it is answering.
#[derive(Clone, Debug)]
pub(crate) struct Counted<S> {
    inner: S,
    state: Arc<ConnState>,
}

/// One request being answered; dropping it ends the count.
struct InFlight(Arc<ConnState>);

impl InFlight {
    fn enter(state: Arc<ConnState>) -> InFlight {
        state.in_flight.fetch_add(1, Ordering::AcqRel);
        // The head is complete: the header deadline no longer applies.
        state.head_started.store(0, Ordering::Release);
        state.touch();
        InFlight(state)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<S, R> tower::Service<R> for Counted<S>
where
    S: tower::Service<R>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<S::Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: R) -> Self::Future {
        let guard = InFlight::enter(self.state.clone());
        let future = self.inner.call(request);
        Box::pin(async move {
            let _guard = guard;
            future.await
        })
    }
}
