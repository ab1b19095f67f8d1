//! Calling many handlers: one after the other, or several at a time with the same outcome.
//!
//! Both modes return the results in index order when every call succeeds, and otherwise the
//! error of the *lowest* failing index, which is what the sequential mode returns. The
//! concurrent mode starts at most `limit` calls at a time, in index order. When call `i`
//! fails it cancels (drops) the calls after `i` still in flight and starts no more of them,
//! but lets the calls before `i` finish, because one of those failing would be the error the
//! sequential mode reports. Calls after the failure may already have reached their
//! extensions; the sequential mode would not have made them.

use std::future::Future;
use std::num::NonZeroUsize;

use futures::StreamExt;
use futures::future::{AbortHandle, Abortable};
use futures::stream::FuturesUnordered;

/// Runs `call(0) .. call(n - 1)` one after the other, stopping at the first error.
pub(crate) async fn sequential<T, E, F, Fut>(n: usize, call: F) -> Result<Vec<T>, E>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut results = Vec::with_capacity(n);
    for i in 0..n {
        results.push(call(i).await?);
    }
    Ok(results)
}

/// Runs `call(0) .. call(n - 1)` with at most `limit` in flight; same result as
/// [`sequential`] when every call gives the same answer in both modes.
pub(crate) async fn concurrent<T, E, F, Fut>(
    n: usize,
    limit: NonZeroUsize,
    call: F,
) -> Result<Vec<T>, E>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut results: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let mut failure: Option<(usize, E)> = None;
    let mut in_flight = FuturesUnordered::new();
    // The abort handle of each call in flight, by index (no search when one finishes).
    let mut aborts: Vec<Option<AbortHandle>> = (0..n).map(|_| None).collect();
    let mut next = 0;
    loop {
        let stop = failure.as_ref().map_or(n, |(i, _)| *i);
        while in_flight.len() < limit.get() && next < stop {
            let (handle, registration) = AbortHandle::new_pair();
            let i = next;
            let call = Abortable::new(call(i), registration);
            in_flight.push(async move { (i, call.await) });
            aborts[i] = Some(handle);
            next += 1;
        }
        let Some((i, outcome)) = in_flight.next().await else {
            break;
        };
        aborts[i] = None;
        match outcome {
            // Cancelled because an earlier call failed.
            Err(_aborted) => {}
            Ok(Ok(value)) => results[i] = Some(value),
            Ok(Err(error)) => {
                if failure.as_ref().is_none_or(|(j, _)| i < *j) {
                    for handle in aborts[i + 1..].iter().flatten() {
                        handle.abort();
                    }
                    failure = Some((i, error));
                }
            }
        }
    }
    match failure {
        Some((_, error)) => Err(error),
        None => Ok(results.into_iter().flatten().collect()),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use proptest::prelude::*;

    use super::*;

    fn run<F: Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime")
            .block_on(f)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn concurrent_returns_what_sequential_returns(
            outcomes in prop::collection::vec((any::<bool>(), 0u64..4), 0..12),
            limit in 1usize..6,
        ) {
            let call = |i: usize| {
                let (ok, delay) = outcomes[i];
                async move {
                    tokio::time::sleep(Duration::from_millis(delay)).await;
                    if ok { Ok(i) } else { Err(i) }
                }
            };
            let seq = run(sequential(outcomes.len(), call));
            let conc = run(concurrent(outcomes.len(), NonZeroUsize::new(limit).unwrap(), call));
            prop_assert_eq!(seq, conc);
        }
    }

    #[test]
    fn a_failure_cancels_later_calls_and_waits_for_earlier_ones() {
        let finished = AtomicUsize::new(0);
        let started = AtomicUsize::new(0);
        let call = |i: usize| {
            let (finished, started) = (&finished, &started);
            async move {
                started.fetch_add(1, Ordering::SeqCst);
                // Call 1 fails at once; call 0 fails later and must be the one reported.
                let delay = match i {
                    0 => 20,
                    1 => 0,
                    _ => 10_000,
                };
                tokio::time::sleep(Duration::from_millis(delay)).await;
                finished.fetch_add(1, Ordering::SeqCst);
                if i <= 1 { Err(i) } else { Ok(i) }
            }
        };
        let result = run(concurrent(10, NonZeroUsize::new(4).unwrap(), call));
        assert_eq!(result, Err(0));
        assert_eq!(
            started.load(Ordering::SeqCst),
            4,
            "no call starts after a failure"
        );
        assert_eq!(
            finished.load(Ordering::SeqCst),
            2,
            "calls 2 and 3 were cancelled"
        );
    }
}
