//! Attacks whose bound is the server process's memory (issue 42): the page cache against
//! distinct URLs, entry-form uploads, PDF documents at once. Their own test binary, not
//! modules of `tests/it`: the resident size measured is the process's, and the other tests'
//! servers would move it; for the same reason the tests here run one at a time
//! ([`one_at_a_time`]).

#[path = "../common/mod.rs"]
mod common;

mod documents;
mod page_cache;
mod uploads;

/// Hold this while a test runs: the process's memory is measured by one test at a time.
pub fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

/// The process's resident set now (VmRSS) and its peak (VmHWM), in MiB.
pub fn rss_mib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .expect("status field")
            / 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}
