//! Issue 24, item 1: a flood of parallel `POST /login` from many addresses, no account
//! needed. Every password check is argon2id over 19 MiB; unbounded, 100 at once took the
//! server to 2 GB resident. The checks at once are capped at the cores: the process's peak
//! resident memory stays bounded whatever arrives. (Its own test binary, not a module of
//! `tests/it`: the peak is the process's, and the other tests' servers and threads would
//! raise it before, or during, the flood.)

mod common;

use common::{request_from, TestServer};
use std::net::{IpAddr, Ipv4Addr};

/// The process's peak resident set (VmHWM), in MiB.
fn peak_rss_mib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmHWM");
    kb / 1024
}

fn flood(s: &TestServer, n: u8) -> Vec<u16> {
    let addr = s.addr;
    let threads: Vec<_> = (0..n)
        .map(|i| {
            std::thread::spawn(move || {
                // A distinct address and name each: the rate limit does not stop them.
                let from = IpAddr::V4(Ipv4Addr::new(127, 0, 1, i + 1));
                let body = format!("login=nobody{i}&password=guess{i}guess&csrf=t");
                request_from(
                    from,
                    addr,
                    "POST",
                    "/login",
                    &[
                        ("Cookie", "arbiter_login=t"),
                        ("Content-Type", "application/x-www-form-urlencoded"),
                    ],
                    Some(body.as_bytes()),
                )
                .status
            })
        })
        .collect();
    threads
        .into_iter()
        .map(|t| t.join().expect("client thread"))
        .collect()
}

#[test]
fn a_login_flood_keeps_memory_bounded() {
    let s = TestServer::start();
    // Warm: one check, so the baseline holds one argon2 block.
    assert_eq!(flood(&s, 1), vec![401]);
    let before = peak_rss_mib();
    let statuses = flood(&s, 200);
    let after = peak_rss_mib();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    eprintln!(
        "200 parallel logins: peak RSS {before} MiB → {after} MiB; at most {} checks at once",
        s.app.login_gate.peak()
    );
    assert!(
        statuses.iter().all(|&st| st == 401 || st == 503),
        "{statuses:?}"
    );
    assert!(statuses.contains(&401));
    assert!(
        s.app.login_gate.peak() <= cores,
        "{}",
        s.app.login_gate.peak()
    );
    // Unbounded, 200 checks at 19 MiB each were 2.8 GB; capped, and on the gate's own
    // threads, one block per core; the rest (~400 MiB) is the 200 client threads and the
    // server's blocking threads.
    assert!(
        after - before < 1024,
        "peak RSS grew from {before} MiB to {after} MiB"
    );
}
