//! The login rate limit: failed logins are counted per login name, per client address and
//! per pair of the two; after [`MAX_PER_LOGIN`] failures for one name (or [`MAX_PER_ADDR`]
//! from one address) within [`WINDOW`] seconds, further attempts wait — one minute, doubling
//! with each further failure, at most [`WINDOW`]. The name's limit holds only for the
//! addresses that have failed for that name: five wrong guesses from one machine do not lock
//! the chief arbiter out of the desk at another. A successful login clears the pair's count.
//!
//! An attempt is reserved before its password is checked ([`Gate::reserve`]): parallel
//! attempts count as failures until they are known, so forty guesses sent at once are not
//! all checked. The [`Gate`] also bounds how many argon2 checks (19 MiB each) run at once:
//! memory stays bounded whatever arrives.

use arbiter_store::accounts::Failures;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub const MAX_PER_LOGIN: u32 = 5;
pub const MAX_PER_ADDR: u32 = 20;
/// Failures older than this (seconds) are forgotten.
pub const WINDOW: i64 = 15 * 60;

/// Key of a login name's counter.
pub fn login_key(login: &str) -> String {
    format!("login:{login}")
}

/// Key of a client address's counter.
pub fn addr_key(addr: &std::net::IpAddr) -> String {
    format!("addr:{addr}")
}

/// Key of the counter of one login name from one client address.
pub fn pair_key(addr: &std::net::IpAddr, login: &str) -> String {
    format!("pair:{addr}|{login}")
}

/// How long an attempt waits for a free password check before the answer is 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(10);

type Job = Box<dyn FnOnce() + Send>;

/// Password checks at once and the attempts in flight (see the module's doc).
///
/// The checks run on the gate's own threads, as many as checks allowed at once: the 19 MiB
/// a check allocates is reused by the next check on that thread. (On the runtime's pool of
/// blocking threads each new thread kept its own 19 MiB in its allocator's arena: 200
/// logins left 2.8 GB resident, capped at two at once or not.)
pub struct Gate {
    checks: Arc<Semaphore>,
    jobs: Mutex<std::sync::mpsc::Sender<Job>>,
    /// Attempts reserved and not yet decided, per counter key.
    pending: Mutex<HashMap<String, u32>>,
    running: AtomicUsize,
    peak: AtomicUsize,
}

impl Default for Gate {
    /// As many password checks at once as the machine has cores.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Gate::new(cores)
    }
}

impl Gate {
    pub fn new(checks: usize) -> Gate {
        let checks = checks.max(1);
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..checks {
            let rx = rx.clone();
            // Without a thread the checks wait for a slot and answer 503: never a panic.
            let _ = std::thread::Builder::new()
                .name(format!("password-check-{i}"))
                .spawn(move || loop {
                    let job = match rx.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job(),
                        // The gate is gone.
                        Err(_) => return,
                    }
                });
        }
        Gate {
            checks: Arc::new(Semaphore::new(checks)),
            jobs: Mutex::new(tx),
            pending: Mutex::new(HashMap::new()),
            running: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// The most password checks that ever ran at once (for tests and benchmarks).
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Wait up to `wait` for a free password check.
    pub async fn check_slot(self: &Arc<Self>, wait: Duration) -> Option<CheckSlot> {
        let permit = tokio::time::timeout(wait, self.checks.clone().acquire_owned())
            .await
            .ok()?
            .ok()?;
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        Some(CheckSlot {
            gate: self.clone(),
            _permit: permit,
        })
    }

    /// The wait before an attempt for `login` from `addr`, given the stored failures under
    /// the three keys; with none, the attempt is reserved under the three keys (released by
    /// dropping the [`Reservation`]). Call it with the stored counts just read, under the same
    /// store call, so no two attempts decide on the same count.
    pub fn reserve(
        self: &Arc<Self>,
        keys: [String; 3],
        stored: [Option<Failures>; 3],
        now: i64,
    ) -> Result<Reservation, i64> {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        let with_pending = |i: usize| -> Option<Failures> {
            let p = pending.get(&keys[i]).copied().unwrap_or(0);
            match (stored[i], p) {
                (s, 0) => s,
                (None, p) => Some(Failures {
                    count: p,
                    last: now,
                }),
                (Some(s), p) => Some(Failures {
                    count: s.count + p,
                    last: now,
                }),
            }
        };
        let (lf, af, pf) = (with_pending(0), with_pending(1), with_pending(2));
        let pair_failed = pf.is_some_and(|f| f.count > 0);
        let account = if pair_failed {
            wait(lf, MAX_PER_LOGIN, now)
        } else {
            None
        };
        if let Some(w) = account.max(wait(af, MAX_PER_ADDR, now)) {
            return Err(w);
        }
        for k in &keys {
            *pending.entry(k.clone()).or_insert(0) += 1;
        }
        Ok(Reservation {
            gate: self.clone(),
            keys,
        })
    }
}

/// One password check running; the slot is free again when this is dropped.
pub struct CheckSlot {
    gate: Arc<Gate>,
    _permit: OwnedSemaphorePermit,
}

impl CheckSlot {
    /// Run `f` (a password check) on one of the gate's threads; `None` if it could not run.
    pub async fn run<T: Send + 'static>(self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let jobs = self
            .gate
            .jobs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let job: Job = Box::new(move || {
            let out = f();
            drop(self);
            let _ = tx.send(out);
        });
        jobs.send(job).ok()?;
        rx.await.ok()
    }
}

impl Drop for CheckSlot {
    fn drop(&mut self) {
        self.gate.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An attempt counted as pending under its keys until dropped (after its outcome is stored).
pub struct Reservation {
    gate: Arc<Gate>,
    keys: [String; 3],
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut pending = self.gate.pending.lock().unwrap_or_else(|p| p.into_inner());
        for k in &self.keys {
            if let Some(n) = pending.get_mut(k) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    pending.remove(k);
                }
            }
        }
    }
}

/// Seconds to wait before the next attempt, if any, given the failures under one key and
/// the number allowed.
pub fn wait(f: Option<Failures>, max: u32, now: i64) -> Option<i64> {
    let f = f?;
    if f.count < max {
        return None;
    }
    let doublings = (f.count - max).min(10);
    let lock = (60i64 << doublings).min(WINDOW);
    let left = f.last + lock - now;
    (left > 0).then_some(left)
}

/// The message shown while waiting, Chinese first.
pub fn message(secs: i64) -> String {
    format!("登录失败次数过多, 请 {secs} 秒后再试 (too many failed logins; try again in {secs} s)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(count: u32, last: i64) -> Option<Failures> {
        Some(Failures { count, last })
    }

    #[test]
    fn waits_start_at_the_limit_and_double() {
        assert_eq!(wait(None, 5, 100), None);
        assert_eq!(wait(f(4, 100), 5, 100), None);
        assert_eq!(wait(f(5, 100), 5, 100), Some(60));
        assert_eq!(wait(f(5, 100), 5, 150), Some(10));
        assert_eq!(wait(f(5, 100), 5, 160), None);
        assert_eq!(wait(f(6, 100), 5, 100), Some(120));
        assert_eq!(wait(f(60, 100), 5, 100), Some(WINDOW));
        assert!(message(42).contains("请 42 秒后再试"));
    }

    #[test]
    fn parallel_attempts_are_reserved_and_the_name_limit_holds_per_address() {
        let g = Arc::new(Gate::new(2));
        let a: std::net::IpAddr = "10.0.0.9".parse().unwrap();
        let b: std::net::IpAddr = "10.0.0.7".parse().unwrap();
        let keys = |ip| [login_key("chief"), addr_key(&ip), pair_key(&ip, "chief")];
        let held: Vec<Reservation> = (0..MAX_PER_LOGIN)
            .map(|_| g.reserve(keys(a), [None; 3], 100).ok().unwrap())
            .collect();
        // Five in flight from `a`: the sixth waits before anything is known.
        assert!(g.reserve(keys(a), [None; 3], 100).is_err());
        // Another address that has not failed still gets its attempt.
        let other = g.reserve(keys(b), [None; 3], 100);
        assert!(other.is_ok());
        drop(other);
        drop(held);
        assert!(g.pending.lock().unwrap().is_empty());
        // Stored failures: the name is locked for `a`, not for `b`.
        let five = Some(Failures {
            count: 5,
            last: 100,
        });
        let a_failed = Some(Failures {
            count: 5,
            last: 100,
        });
        assert!(g.reserve(keys(a), [five, a_failed, a_failed], 100).is_err());
        assert!(g.reserve(keys(b), [five, None, None], 100).is_ok());
    }
}
