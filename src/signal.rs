//! Knowing when to stop: the signal every long-running program of this crate's users waits for.
//!
//! An extension (feature `server`) and a controller that only calls extensions (feature
//! `client`) both run until Kubernetes stops their pod. [`shutdown_signal`] is the future they
//! hand to `Server::run`, `RunningHost::run_until` or a controller's `run`; it lives here, below
//! both halves of the crate, so a client-only program has it too. `server::shutdown_signal`
//! and `https::shutdown_signal` re-export it.

/// Completes on SIGTERM (how Kubernetes stops a pod) or Ctrl-C, whichever comes first.
///
/// Called inside a Tokio runtime, it listens from the call on, before the future is first
/// polled: a signal that arrives while a server is still starting (or between its "listening"
/// log line and its first poll of this future) stops it gracefully instead of ending the
/// process by the signal's default action. Called outside a runtime, it listens from its first
/// poll.
///
/// When a signal cannot be listened for (no signal driver, an exhausted descriptor table), that
/// signal is logged as a warning and never fires; the other one still does.
pub fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let early = tokio::runtime::Handle::try_current()
        .is_ok()
        .then(unix::listen);
    async move {
        #[cfg(unix)]
        {
            let (terminate, interrupt) = early.unwrap_or_else(unix::listen);
            tokio::select! {
                () = unix::recv(terminate) => {},
                () = unix::recv(interrupt) => {},
            }
        }
        #[cfg(not(unix))]
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
        tracing::info!("shutdown signal received");
    }
}

#[cfg(unix)]
mod unix {
    use tokio::signal::unix::{Signal, SignalKind, signal};

    /// Listeners for SIGTERM and SIGINT (Ctrl-C), installed now; `None` where one cannot be.
    pub(super) fn listen() -> (Option<Signal>, Option<Signal>) {
        let listen = |kind: SignalKind, name: &str| match signal(kind) {
            Ok(signal) => Some(signal),
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for {name}");
                None
            }
        };
        (
            listen(SignalKind::terminate(), "SIGTERM"),
            listen(SignalKind::interrupt(), "Ctrl-C"),
        )
    }

    /// The next delivery of `signal`; never, without a listener.
    pub(super) async fn recv(signal: Option<Signal>) {
        match signal {
            Some(mut signal) => {
                signal.recv().await;
            }
            None => std::future::pending().await,
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::time::Duration;

    /// A SIGTERM sent to the process after the future is made, before it is first polled,
    /// completes it: the listener was installed by the call (tokio keeps the handler for the
    /// life of the process, so the test binary is not stopped by the signal). One test only:
    /// a second one's signal would reach this one's future.
    #[tokio::test]
    async fn a_sigterm_before_the_first_poll_completes_the_future() {
        let signal = super::shutdown_signal();
        let status = std::process::Command::new("kill")
            .args(["-TERM", &std::process::id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
        tokio::time::timeout(Duration::from_secs(60), signal)
            .await
            .expect("SIGTERM did not complete shutdown_signal");
    }
}
