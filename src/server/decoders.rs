//! The server's decoding threads: where bodies of
//! [`Limits::offload_decode_bytes`](super::Limits::offload_decode_bytes) and more are decoded,
//! so that a long decoding does not hold up the other requests of the async worker that read
//! the body.
//!
//! A fixed set of threads, one per core, started on the first such body and ended when the
//! server is dropped, rather than tokio's blocking pool. Decoding is all CPU, so more threads
//! than cores would only hold more decoded requests in memory at once; and the pool, which
//! starts a new thread whenever none is idle at the moment of the call, grew to one thread per
//! request in flight under load even when only as many decoded at once as there are cores.
//! Each of those threads kept its own allocator arena with a decoded request's worth of memory
//! in it (`docs/benchmarks/history.md`, "Decoding threads of its own").

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::oneshot;

/// A piece of work for a decoding thread.
type Job = Box<dyn FnOnce() + Send>;

/// The decoding threads of one server; clones share them.
#[derive(Clone)]
pub(crate) struct Decoders {
    shared: Arc<Shared>,
}

struct Shared {
    /// How many threads to start.
    threads: usize,
    /// The queue the threads take jobs from, once they are started (`None`: none could be).
    queue: OnceLock<Option<Sender<Job>>>,
}

impl std::fmt::Debug for Decoders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoders")
            .field("threads", &self.shared.threads)
            .field("started", &self.shared.queue.get().is_some())
            .finish()
    }
}

/// Why a job did not give an answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DecoderError {
    /// No decoding thread could be started (the process is out of threads or memory).
    #[error("no decoding thread could be started")]
    Unavailable,
    /// The job panicked; the thread lives on.
    #[error("the decoding panicked")]
    Panicked,
}

impl Decoders {
    /// Decoding threads, `threads` of them (at least one), not started yet.
    pub(crate) fn new(threads: usize) -> Decoders {
        Decoders {
            shared: Arc::new(Shared {
                threads: threads.max(1),
                queue: OnceLock::new(),
            }),
        }
    }

    /// Runs `job` on the first decoding thread free, after the jobs queued before it, and
    /// returns its answer. A job whose caller stopped waiting (a deadline passed) before a
    /// thread took it up is skipped.
    pub(crate) async fn run<T, F>(&self, job: F) -> Result<T, DecoderError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let Some(queue) = self.shared.queue.get_or_init(|| start(self.shared.threads)) else {
            return Err(DecoderError::Unavailable);
        };
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            if answer.is_closed() {
                return;
            }
            // The codec does not panic on any input; should it, the request fails and the
            // thread goes on with the next job (the answer is dropped unsent).
            if let Ok(value) = std::panic::catch_unwind(AssertUnwindSafe(job)) {
                let _ = answer.send(value);
            }
        });
        // The threads end only when every sender is gone; a send fails only if all of them
        // died, which a caught panic does not make them do.
        queue.send(job).map_err(|_| DecoderError::Unavailable)?;
        answered.await.map_err(|_| DecoderError::Panicked)
    }
}

/// Starts up to `threads` threads taking jobs from one queue; `None` if not one could be
/// started. They end when the queue's sender is dropped, with the last clone of the server's
/// [`Decoders`].
fn start(threads: usize) -> Option<Sender<Job>> {
    let (sender, receiver) = channel::<Job>();
    let receiver = Arc::new(Mutex::new(receiver));
    let started = (0..threads)
        .filter(|i| {
            let receiver = receiver.clone();
            std::thread::Builder::new()
                .name(format!("capi-runtime-decode-{i}"))
                .spawn(move || work(&receiver))
                .is_ok()
        })
        .count();
    (started > 0).then_some(sender)
}

/// A decoding thread: takes the next job until the queue is closed.
fn work(receiver: &Mutex<Receiver<Job>>) {
    loop {
        // The lock is held only while waiting for one job; another thread waits for the next.
        let job = match receiver.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// A job holding a decoding thread until released: for tests of what waits for one.
#[cfg(test)]
pub(crate) struct Busy {
    release: std::sync::mpsc::Sender<()>,
    job: tokio::task::JoinHandle<Result<(), DecoderError>>,
}

#[cfg(test)]
impl Busy {
    /// Queues the job and returns once a thread of `decoders` runs it.
    pub(crate) async fn hold(decoders: &Decoders) -> Busy {
        let (release, released) = std::sync::mpsc::channel::<()>();
        let (started, running) = oneshot::channel::<()>();
        let decoders = decoders.clone();
        let job = tokio::spawn(async move {
            decoders
                .run(move || {
                    let _ = started.send(());
                    let _ = released.recv();
                })
                .await
        });
        running.await.expect("the job started");
        Busy { release, job }
    }

    /// Lets the thread go and waits for the job's end.
    pub(crate) async fn release(self) {
        self.release.send(()).expect("the job waits");
        self.job.await.unwrap().unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::time::Duration;

    #[tokio::test]
    async fn jobs_run_on_the_threads_it_started_and_no_more() {
        let decoders = Decoders::new(2);
        let mut jobs = Vec::new();
        for _ in 0..16 {
            let decoders = decoders.clone();
            jobs.push(tokio::spawn(async move {
                decoders
                    .run(|| {
                        std::thread::sleep(Duration::from_millis(2));
                        std::thread::current().name().map(str::to_string)
                    })
                    .await
            }));
        }
        let mut names = HashSet::new();
        for job in jobs {
            names.insert(job.await.unwrap().unwrap());
        }
        let expected: HashSet<_> = ["capi-runtime-decode-0", "capi-runtime-decode-1"]
            .map(|n| Some(n.to_string()))
            .into();
        assert!(names.is_subset(&expected), "{names:?}");
        assert!(!names.is_empty());
    }

    #[tokio::test]
    async fn a_panicking_job_fails_alone_and_the_thread_goes_on() {
        let decoders = Decoders::new(1);
        let failed = decoders.run(|| -> u32 { panic!("a decoder bug") }).await;
        assert!(matches!(failed, Err(DecoderError::Panicked)), "{failed:?}");
        assert_eq!(decoders.run(|| 7).await.unwrap(), 7);
    }

    #[tokio::test]
    async fn a_job_whose_caller_stopped_waiting_is_skipped() {
        let decoders = Decoders::new(1);
        let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
        // The one thread is busy, so the next job waits in the queue while its caller gives up.
        let busy = Busy::hold(&decoders).await;
        let ran_in_job = ran.clone();
        let waited = tokio::time::timeout(
            Duration::from_millis(20),
            decoders.run(move || ran_in_job.store(true, std::sync::atomic::Ordering::SeqCst)),
        )
        .await;
        assert!(waited.is_err(), "the queued job should still be waiting");
        busy.release().await;
        // Whatever runs next runs after the skipped job.
        decoders.run(|| ()).await.unwrap();
        assert!(!ran.load(std::sync::atomic::Ordering::SeqCst));
    }

    #[tokio::test]
    async fn the_threads_end_with_the_last_clone() {
        thread_local! {
            // Dropped when its thread ends, which disconnects the channel below.
            static ON_EXIT: std::cell::RefCell<Option<std::sync::mpsc::Sender<()>>> =
                const { std::cell::RefCell::new(None) };
        }
        let decoders = Decoders::new(1);
        let (on_exit, exited) = std::sync::mpsc::channel::<()>();
        decoders
            .run(move || ON_EXIT.with(|slot| *slot.borrow_mut() = Some(on_exit)))
            .await
            .unwrap();
        let clone = decoders.clone();
        drop(decoders);
        assert_eq!(
            exited.recv_timeout(Duration::from_millis(50)),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout),
            "a clone still holds the thread"
        );
        drop(clone);
        assert_eq!(
            exited.recv_timeout(Duration::from_secs(10)),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected),
            "the thread ends once the last clone is gone"
        );
    }
}
