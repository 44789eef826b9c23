//! The login rate limit. Failed logins are counted per login name, per client address (an
//! IPv6 client by its /64: one machine holds a whole /64), per pair of the two and, for a
//! browser that has logged in as that name before, per device cookie. Within [`WINDOW`]
//! seconds:
//!
//! - **per address**: after [`MAX_PER_ADDR`] failures from one address (any names), its
//!   attempts wait — one minute, doubling with each further failure, at most [`WINDOW`];
//! - **per name, for the addresses that failed for it**: after [`MAX_PER_LOGIN`] failures for
//!   the name (from anywhere), an address that has itself failed for the name waits as above;
//! - **per name, for every address**: after [`NAME_FREE`] failures for the name from anywhere,
//!   the name gets one password check per [`NAME_SPACING`] seconds, whoever asks: every other
//!   attempt is answered with the seconds left (at most [`NAME_SPACING`]) and not checked.
//!   Guesses spread over many addresses get [`NAME_FREE`] checks, then one per
//!   [`NAME_SPACING`] seconds ([`max_checks_per_window`]); the rightful user at a new machine
//!   waits at most [`NAME_SPACING`] seconds for a turn;
//! - **a trusted browser** (cookie `arbiter_device`, given at a successful login, valid
//!   [`DEVICE_TTL`] seconds and only for that name until its password changes: [`device_mac`])
//!   is not held by the name's or the address's counts, only by its own: after
//!   [`MAX_PER_LOGIN`] failures with the cookie within the window it is held as any other
//!   browser. So a guessing attack on the name does not keep its owner out at a browser used
//!   before.
//!
//! A successful login clears the pair's count. Failure rows older than [`WINDOW`] are purged
//! (`AccountStore::purge_failures`) at every failure. A login name longer than
//! [`MAX_LOGIN_CHARS`] is refused before anything is stored or checked.
//!
//! An attempt is reserved before its password is checked ([`Gate::reserve`]): parallel
//! attempts count as failures until they are known, so forty guesses sent at once are not
//! all checked. The [`Gate`] also bounds how many argon2 checks (19 MiB each) run at once:
//! memory stays bounded whatever arrives.

use crate::pool::Job;
use arbiter_store::accounts::Failures;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Failures for a name after which an address that failed for it waits.
pub const MAX_PER_LOGIN: u32 = 5;
/// Failures from one address (any names) after which it waits.
pub const MAX_PER_ADDR: u32 = 20;
/// Failures for a name from anywhere after which the name gets one check per
/// [`NAME_SPACING`] seconds.
pub const NAME_FREE: u32 = 10;
/// Seconds between two password checks of a name past [`NAME_FREE`] failures: the longest
/// the rightful user waits for a turn.
pub const NAME_SPACING: i64 = 30;
/// Failures older than this (seconds) are forgotten.
pub const WINDOW: i64 = 15 * 60;
/// Longest login name (characters), as `arbiter_store::accounts::check_login` allows: a
/// longer one is refused before anything is stored or checked.
pub const MAX_LOGIN_CHARS: usize = 64;
/// How long a device cookie is good for (seconds): 90 days.
pub const DEVICE_TTL: i64 = 90 * 24 * 3600;
/// The device cookie's name.
pub const DEVICE_COOKIE: &str = "arbiter_device";

/// The most password checks one name can get within [`WINDOW`] from browsers without its
/// device cookie, however many addresses send them: [`NAME_FREE`], then one per
/// [`NAME_SPACING`] seconds.
pub const fn max_checks_per_window() -> i64 {
    NAME_FREE as i64 + WINDOW / NAME_SPACING
}

/// The network a client address is counted as: an IPv4 address itself (also when written
/// as IPv4-mapped IPv6), an IPv6 address by its /64.
pub fn client_net(addr: &IpAddr) -> String {
    match addr {
        IpAddr::V4(a) => a.to_string(),
        IpAddr::V6(a) => match a.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = a.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Key of a login name's counter.
pub fn login_key(login: &str) -> String {
    format!("login:{login}")
}

/// Key of a client address's counter.
pub fn addr_key(addr: &IpAddr) -> String {
    format!("addr:{}", client_net(addr))
}

/// Key of the counter of one login name from one client address.
pub fn pair_key(addr: &IpAddr, login: &str) -> String {
    format!("pair:{}|{login}", client_net(addr))
}

/// Key of a device cookie's counter.
pub fn device_key(mac: &str) -> String {
    format!("device:{}", &mac[..mac.len().min(32)])
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// HMAC-SHA-256 (RFC 2104) of `msg` under `key`.
fn hmac_sha256(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |x: u8| k.map(|b| b ^ x);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(msg)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// The device cookie's signature for `login`, issued at `issued`: an HMAC keyed by the
/// account's stored password hash (secret to the server, fresh with each new password), so
/// the cookie needs no table and a new password voids every cookie of the account.
pub fn device_mac(password_hash: &str, login: &str, issued: i64) -> String {
    hex(&hmac_sha256(
        password_hash.as_bytes(),
        format!("arbiter device\n{login}\n{issued}").as_bytes(),
    ))
}

/// The value of a new device cookie: `{issued}.{mac}`.
pub fn device_cookie(password_hash: &str, login: &str, now: i64) -> String {
    format!("{now}.{}", device_mac(password_hash, login, now))
}

/// The signature of a device cookie `value` if it is good for `login` at `now`.
pub fn device_check(value: &str, password_hash: &str, login: &str, now: i64) -> Option<String> {
    let (issued, mac) = value.split_once('.')?;
    let issued: i64 = issued.parse().ok()?;
    if issued > now || now - issued > DEVICE_TTL {
        return None;
    }
    let want = device_mac(password_hash, login, issued);
    super::token::ct_eq(mac, &want).then_some(want)
}

/// How long an attempt waits for a free password check before the answer is 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(10);

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
    checked: AtomicUsize,
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
        let tx = crate::pool::workers("password-check", checks);
        Gate {
            checks: Arc::new(Semaphore::new(checks)),
            jobs: Mutex::new(tx),
            pending: Mutex::new(HashMap::new()),
            running: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            checked: AtomicUsize::new(0),
        }
    }

    /// The most password checks that ever ran at once (for tests and benchmarks).
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// How many password checks have run (for tests and benchmarks).
    pub fn checked(&self) -> usize {
        self.checked.load(Ordering::Relaxed)
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

    /// The wait before an attempt, given the stored failures under its keys (an
    /// [`Attempt`]); with none, the attempt is reserved under every key (released by dropping
    /// the [`Reservation`]). Call it with the stored counts just read, under the same store
    /// call, so no two attempts decide on the same count.
    pub fn reserve(self: &Arc<Self>, a: Attempt, now: i64) -> Result<Reservation, i64> {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        let with_pending = |key: &str, stored: Option<Failures>| -> Option<Failures> {
            let p = pending.get(key).copied().unwrap_or(0);
            match (stored, p) {
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
        let lf = with_pending(&a.login.0, a.login.1);
        let af = with_pending(&a.addr.0, a.addr.1);
        let pf = with_pending(&a.pair.0, a.pair.1);
        let df = a.device.as_ref().map(|(k, f)| with_pending(k, *f));
        let left = match df {
            // A trusted browser: only its own count holds it.
            Some(df) if wait(df, MAX_PER_LOGIN, now).is_none() => None,
            _ => {
                let pair_failed = pf.is_some_and(|f| f.count > 0);
                let account = if pair_failed {
                    wait(lf, MAX_PER_LOGIN, now)
                } else {
                    None
                };
                account
                    .max(name_wait(lf, now))
                    .max(wait(af, MAX_PER_ADDR, now))
            }
        };
        if let Some(w) = left {
            return Err(w);
        }
        let keys = a.keys();
        for k in &keys {
            *pending.entry(k.clone()).or_insert(0) += 1;
        }
        Ok(Reservation {
            gate: self.clone(),
            keys,
        })
    }
}

/// The counter keys of one login attempt and the failures stored under them.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub login: (String, Option<Failures>),
    pub addr: (String, Option<Failures>),
    pub pair: (String, Option<Failures>),
    /// With a good device cookie for the name: its counter.
    pub device: Option<(String, Option<Failures>)>,
}

impl Attempt {
    /// The keys of an attempt for `login` from `addr` (with the device cookie's signature,
    /// if good), failures not yet read.
    pub fn new(login: &str, addr: &IpAddr, device: Option<&str>) -> Attempt {
        Attempt {
            login: (login_key(login), None),
            addr: (addr_key(addr), None),
            pair: (pair_key(addr, login), None),
            device: device.map(|mac| (device_key(mac), None)),
        }
    }

    /// Every key a failure of this attempt is counted under.
    pub fn keys(&self) -> Vec<String> {
        let mut k = vec![
            self.login.0.clone(),
            self.addr.0.clone(),
            self.pair.0.clone(),
        ];
        if let Some((d, _)) = &self.device {
            k.push(d.clone());
        }
        k
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
            self.gate.checked.fetch_add(1, Ordering::SeqCst);
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
    keys: Vec<String>,
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

/// Seconds before the name's next check when it is past [`NAME_FREE`] failures from
/// anywhere: one check per [`NAME_SPACING`] seconds.
pub fn name_wait(f: Option<Failures>, now: i64) -> Option<i64> {
    let f = f?;
    if f.count < NAME_FREE {
        return None;
    }
    let left = f.last + NAME_SPACING - now;
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

    fn attempt(
        ip: &str,
        stored: [Option<Failures>; 3],
        device: Option<Option<Failures>>,
    ) -> Attempt {
        let ip: IpAddr = ip.parse().unwrap();
        let mut a = Attempt::new("chief", &ip, device.map(|_| "ab".repeat(32)).as_deref());
        a.login.1 = stored[0];
        a.addr.1 = stored[1];
        a.pair.1 = stored[2];
        if let (Some(d), Some(f)) = (a.device.as_mut(), device) {
            d.1 = f;
        }
        a
    }

    #[test]
    fn parallel_attempts_are_reserved_and_the_name_limit_holds_per_address() {
        let g = Arc::new(Gate::new(2));
        let a = "10.0.0.9";
        let held: Vec<Reservation> = (0..MAX_PER_LOGIN)
            .map(|_| g.reserve(attempt(a, [None; 3], None), 100).ok().unwrap())
            .collect();
        // Five in flight from `a`: the sixth waits before anything is known.
        assert!(g.reserve(attempt(a, [None; 3], None), 100).is_err());
        // Another address that has not failed still gets its attempt.
        let other = g.reserve(attempt("10.0.0.7", [None; 3], None), 100);
        assert!(other.is_ok());
        drop(other);
        drop(held);
        assert!(g.pending.lock().unwrap().is_empty());
        // Stored failures: the name is locked for `a`, not for `b`.
        let five = f(5, 100);
        assert!(g
            .reserve(attempt(a, [five, five, five], None), 100)
            .is_err());
        assert!(g
            .reserve(attempt("10.0.0.7", [five, None, None], None), 100)
            .is_ok());
    }

    #[test]
    fn past_its_free_failures_a_name_gets_one_check_per_spacing_from_anywhere() {
        let g = Arc::new(Gate::new(2));
        let many = f(NAME_FREE, 100);
        // A fresh address: it waits for the name's next turn, at most the spacing.
        assert_eq!(
            g.reserve(attempt("10.0.0.1", [many, None, None], None), 100)
                .err(),
            Some(NAME_SPACING)
        );
        assert_eq!(
            g.reserve(attempt("10.0.0.2", [many, None, None], None), 120)
                .err(),
            Some(NAME_SPACING - 20)
        );
        // The turn comes: one attempt is reserved, and the next one waits for it.
        let turn = g.reserve(attempt("10.0.0.3", [many, None, None], None), 130);
        assert!(turn.is_ok());
        assert!(g
            .reserve(attempt("10.0.0.4", [many, None, None], None), 130)
            .is_err());
        drop(turn);
        // One below the bound: no wait.
        let fewer = f(NAME_FREE - 1, 100);
        assert!(g
            .reserve(attempt("10.0.0.5", [fewer, None, None], None), 100)
            .is_ok());
        assert_eq!(max_checks_per_window(), 40);
    }

    #[test]
    fn a_trusted_browser_is_held_only_by_its_own_count() {
        let g = Arc::new(Gate::new(2));
        let locked = f(50, 100);
        // Name and address counts over every limit: a good device cookie still gets in.
        let r = g.reserve(
            attempt("10.0.0.1", [locked, locked, locked], Some(None)),
            100,
        );
        assert!(r.is_ok());
        drop(r);
        // After its own failures the cookie counts for nothing: the browser is held as any
        // other (a name past its free failures waits for its turn).
        let spent = Some(f(MAX_PER_LOGIN, 100));
        assert!(g
            .reserve(attempt("10.0.0.1", [locked, None, None], spent), 100)
            .is_err());
        let r = g.reserve(attempt("10.0.0.1", [None, None, None], spent), 100);
        assert!(r.is_ok());
    }

    #[test]
    fn device_cookies_are_bound_to_the_name_the_password_and_the_time() {
        let c = device_cookie("$argon2id$one", "chief", 1000);
        assert!(device_check(&c, "$argon2id$one", "chief", 1000 + DEVICE_TTL).is_some());
        assert!(device_check(&c, "$argon2id$one", "chief", 1001 + DEVICE_TTL).is_none());
        assert!(device_check(&c, "$argon2id$two", "chief", 1000).is_none());
        assert!(device_check(&c, "$argon2id$one", "arb", 1000).is_none());
        assert!(device_check(&c, "$argon2id$one", "chief", 999).is_none());
        assert!(device_check("1000.00", "$argon2id$one", "chief", 1000).is_none());
        assert!(device_check("x", "$argon2id$one", "chief", 1000).is_none());
        // RFC 4231, test case 2.
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn ipv6_clients_count_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:1:2:3".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(addr_key(&a), addr_key(&b));
        assert_eq!(addr_key(&a), "addr:2001:db8:1:2::/64");
        assert_ne!(addr_key(&a), addr_key(&c));
        assert_eq!(pair_key(&a, "chief"), pair_key(&b, "chief"));
        let mapped: IpAddr = "::ffff:10.0.0.9".parse().unwrap();
        assert_eq!(addr_key(&mapped), "addr:10.0.0.9");
    }
}
