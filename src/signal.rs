//! Knowing when to stop: the signal every long-running program of this crate's users waits for.
//!
//! An extension (feature `server`) and a controller that only calls extensions (feature
//! `client`) both run until Kubernetes stops their pod. [`shutdown_signal`] is the future they
//! hand to `Server::run`, `RunningHost::run_until` or a controller's `run`; it lives here, below
//! both halves of the crate, so a client-only program has it too. `server::shutdown_signal`
//! and `https::shutdown_signal` re-export it.

/// Completes on SIGTERM (how Kubernetes stops a pod) or Ctrl-C, whichever comes first.
///
/// When a signal cannot be listened for (no signal driver, an exhausted descriptor table), that
/// signal is logged as a warning and never fires; the other one still does.
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

#[cfg(all(test, unix))]
mod tests {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll};
    use std::time::Duration;

    /// A SIGTERM sent to the process completes the future. The future is polled once first,
    /// which installs its handlers (tokio keeps them for the life of the process, so the test
    /// binary is not stopped by the signal).
    #[tokio::test]
    async fn sigterm_completes_the_future() {
        let mut signal = pin!(super::shutdown_signal());
        let waker = std::task::Waker::noop();
        assert_eq!(
            signal.as_mut().poll(&mut Context::from_waker(waker)),
            Poll::Pending,
            "completed before any signal"
        );
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
