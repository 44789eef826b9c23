//! A small pool of threads of its own for heavy work (PDF documents, workbooks): at most as
//! many jobs run at once as it has threads, a bounded number wait their turn, and the rest are
//! refused at once — a busy server answers `503`, never runs out of memory.
//!
//! The jobs run on the pool's own threads, not on the runtime's pool of blocking threads:
//! each of those would keep the memory its job allocated in its allocator's arena (32 parallel
//! PDFs left 780 MiB resident); here the next job on a thread reuses it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// A job for a thread of its own.
pub(crate) type Job = Box<dyn FnOnce() + Send>;

/// `n` threads named `name-N` running the jobs sent to the returned channel, one at a time
/// each, until the channel is dropped.
pub(crate) fn workers(name: &str, n: usize) -> std::sync::mpsc::Sender<Job> {
    let (tx, rx) = std::sync::mpsc::channel::<Job>();
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..n.max(1) {
        let rx = rx.clone();
        // Without a thread the jobs wait and are refused: never a panic.
        let _ = std::thread::Builder::new()
            .name(format!("{name}-{i}"))
            .spawn(move || loop {
                let job = match rx.lock() {
                    Ok(r) => r.recv(),
                    Err(_) => return,
                };
                match job {
                    Ok(job) => job(),
                    // The pool is gone.
                    Err(_) => return,
                }
            });
    }
    tx
}

/// Documents (PDF, workbooks) made at once by a server.
pub const DOCUMENT_THREADS: usize = 2;
/// Documents that may wait for their turn; more at once are answered `503` at once.
pub const DOCUMENT_QUEUE: usize = 16;
/// How long a document waits for its turn before the answer is `503`.
pub const DOCUMENT_WAIT: Duration = Duration::from_secs(30);

/// Why a job did not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    /// As many jobs already wait as the queue holds.
    QueueFull,
    /// No thread became free within the wait.
    Timeout,
    /// The pool has no thread (it could not start one) or the job was lost.
    Gone,
}

pub struct Pool {
    slots: Arc<Semaphore>,
    jobs: Mutex<std::sync::mpsc::Sender<Job>>,
    /// Jobs waiting for a thread now, and the most that may.
    waiting: AtomicUsize,
    queue: usize,
    running: Arc<AtomicUsize>,
    peak: AtomicUsize,
}

impl Pool {
    /// `threads` named `name-N`, and at most `queue` jobs waiting.
    pub fn new(name: &str, threads: usize, queue: usize) -> Pool {
        let threads = threads.max(1);
        let jobs = workers(name, threads);
        Pool {
            slots: Arc::new(Semaphore::new(threads)),
            jobs: Mutex::new(jobs),
            waiting: AtomicUsize::new(0),
            queue,
            running: Arc::new(AtomicUsize::new(0)),
            peak: AtomicUsize::new(0),
        }
    }

    /// The most jobs that ever ran at once (for tests and benchmarks).
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Run `f` on one of the pool's threads once one is free (waiting at most `wait`).
    pub async fn run<T: Send + 'static>(
        &self,
        wait: Duration,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Busy> {
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.queue {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(Busy::QueueFull);
        }
        let permit = tokio::time::timeout(wait, self.slots.clone().acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let permit = match permit {
            Ok(Ok(p)) => p,
            Ok(Err(_)) => return Err(Busy::Gone),
            Err(_) => return Err(Busy::Timeout),
        };
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let jobs = self.jobs.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let running = self.running.clone();
        let job: Job = Box::new(move || {
            let out = f();
            running.fetch_sub(1, Ordering::SeqCst);
            drop(permit);
            let _ = tx.send(out);
        });
        match jobs.send(job) {
            Ok(()) => rx.await.map_err(|_| Busy::Gone),
            Err(_) => {
                // The job (and its permit) came back unrun.
                self.running.fetch_sub(1, Ordering::SeqCst);
                Err(Busy::Gone)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_threads_run_and_the_queue_is_bounded() {
        let pool = Arc::new(Pool::new("test", 2, 3));
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let p = pool.clone();
                tokio::spawn(async move {
                    p.run(Duration::from_secs(5), move || {
                        std::thread::sleep(Duration::from_millis(100));
                        i
                    })
                    .await
                })
            })
            .collect();
        let mut ran = 0;
        let mut refused = 0;
        for h in handles {
            match h.await.unwrap() {
                Ok(_) => ran += 1,
                Err(Busy::QueueFull) => refused += 1,
                Err(e) => panic!("{e:?}"),
            }
        }
        assert_eq!(pool.peak(), 2);
        // Two running and three waiting at most: of eight sent at once, at least three are
        // refused (one more while a first job is between its count and its thread).
        assert!(
            (4..=5).contains(&ran) && ran + refused == 8,
            "{ran} ran, {refused} refused"
        );
        // A short wait behind long jobs is a timeout.
        let p = pool.clone();
        let long = tokio::spawn(async move {
            p.run(Duration::from_secs(5), || {
                std::thread::sleep(Duration::from_millis(400))
            })
            .await
        });
        let p = pool.clone();
        let long2 = tokio::spawn(async move {
            p.run(Duration::from_secs(5), || {
                std::thread::sleep(Duration::from_millis(400))
            })
            .await
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let r = pool.run(Duration::from_millis(50), || ()).await;
        assert_eq!(r, Err(Busy::Timeout));
        assert!(long.await.unwrap().is_ok() && long2.await.unwrap().is_ok());
    }
}
