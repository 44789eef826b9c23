//! The login rate limit: failed logins are counted per login name and per client address;
//! after [`MAX_PER_LOGIN`] failures for one name (or [`MAX_PER_ADDR`] from one address)
//! within [`WINDOW`] seconds, further attempts wait — one minute, doubling with each further
//! failure, at most [`WINDOW`]. A successful login clears its name's count.

use arbiter_store::accounts::Failures;

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
}
