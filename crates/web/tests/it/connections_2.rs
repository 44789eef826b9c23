//! Attacks on `arbiter serve` by many addresses at once: connections and live streams are
//! capped per client address, per client network (/24) and in all, with a reserve for the
//! clients that hold few; behind a trusted proxy the forwarded client is counted, its
//! requests in flight and its live streams; a stream ends after its lifetime or when idle;
//! an `X-Forwarded-For` whose last entry is no address counts as the proxy's own.
//!
//! Each test performs the attack with small caps (so that it is quick) and states the bound
//! the caps give; under the defaults the same figures scale (see docs/web-desk.md).

use crate::common;

use arbiter_web::net::{Caps, Limits, FEW_CONNECTIONS, FEW_STREAMS};
use common::{connect_from, reference_event, request_from, TestServer};
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

fn ip(net: u8, host: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, net, host))
}

/// Open `n` connections from `from` and say which the server kept (sent nothing on) and
/// how many it refused (answered `503` at once).
fn hold(s: &TestServer, from: IpAddr, n: usize) -> (Vec<TcpStream>, usize) {
    let conns: Vec<TcpStream> = (0..n).map(|_| connect_from(from, s.addr)).collect();
    // Let the server accept them all before looking.
    std::thread::sleep(Duration::from_millis(300));
    let mut held = Vec::new();
    let mut refused = 0;
    for mut c in conns {
        c.set_nonblocking(true).expect("nonblocking");
        let mut b = [0u8; 12];
        match c.read(&mut b) {
            Ok(k) if k > 0 => {
                assert!(b.starts_with(b"HTTP/1.1 503"), "{:?}", &b[..k]);
                refused += 1;
            }
            Ok(_) => refused += 1,
            Err(_) => {
                c.set_nonblocking(false).expect("blocking");
                held.push(c);
            }
        }
    }
    (held, refused)
}

/// A page asked for from `from` is answered `200` within two seconds.
fn answered(s: &TestServer, from: IpAddr) {
    let start = Instant::now();
    let r = request_from(from, s.addr, "GET", "/", &[], None);
    assert_eq!(r.status, 200, "from {from}: {}", r.text());
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

/// Sixty-four addresses of one /24, four connections each (256, twice the total of 128):
/// before, they took every connection and a bystander got `503`. Now their network holds at
/// most its cap of the general pool (32) and a quarter of the reserve (16 / 4 = 4): 36.
#[test]
fn sixty_four_addresses_of_one_network_do_not_take_every_connection() {
    let limits = Limits {
        header_timeout: Duration::from_secs(60),
        max_connections: 128,
        max_per_address: 4,
        max_per_network: 32,
        ..Limits::default()
    };
    let caps = limits.connection_caps(128);
    assert_eq!(
        (caps.reserve(), caps.network_cap(), caps.network_reserve()),
        (16, 32, 4)
    );
    let s = TestServer::start_limited(|_| {}, limits);
    let mut held = Vec::new();
    let mut refused = 0;
    for host in 1..=64 {
        let (h, r) = hold(&s, ip(1, host), 4);
        held.extend(h);
        refused += r;
    }
    assert_eq!(held.len(), 32 + 4, "{refused} refused");
    assert_eq!(refused, 256 - 36);
    // Other machines (other networks) are answered at once, one after another.
    for net in 2..=9 {
        answered(&s, ip(net, 7));
    }
    drop(held);
}

/// Two heavy clients of two networks take the whole general pool (56 of 64): a client that
/// holds few, of any other network, still gets in from the reserve (8), and one address
/// cannot take the reserve (it holds more than FEW_CONNECTIONS).
#[test]
fn heavy_clients_leave_the_reserve_to_the_clients_that_hold_few() {
    let limits = Limits {
        header_timeout: Duration::from_secs(60),
        max_connections: 64,
        max_per_address: 40,
        max_per_network: 32,
        ..Limits::default()
    };
    let caps = limits.connection_caps(64);
    assert_eq!(
        (caps.general(), caps.reserve(), caps.few),
        (56, 8, FEW_CONNECTIONS)
    );
    let s = TestServer::start_limited(|_| {}, limits);
    let (a, ra) = hold(&s, ip(1, 1), 40);
    let (b, rb) = hold(&s, ip(2, 1), 40);
    // The first network stops at its cap (32), the second where the general pool ends.
    assert_eq!((a.len(), ra), (32, 8));
    assert_eq!((b.len(), rb), (24, 16));
    // Before, the per-address cap alone let these two hold all 64.
    for net in 3..=10 {
        answered(&s, ip(net, 1));
    }
    // A third heavy client gets only what a light one may: a quarter of the reserve.
    let (c, _) = hold(&s, ip(11, 1), 10);
    assert_eq!(c.len(), 2);
    answered(&s, ip(12, 1));
    drop((a, b, c));
}

/// A live stream opened from `from` with extra `headers`: the connection and its status.
fn open_live(s: &TestServer, from: IpAddr, event: &str, headers: &str) -> (TcpStream, u16) {
    let mut c = connect_from(from, s.addr);
    c.write_all(format!("GET /e/{event}/live HTTP/1.1\r\nHost: x\r\n{headers}\r\n").as_bytes())
        .expect("write");
    c.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let mut head = [0u8; 12];
    c.read_exact(&mut head).expect("status line");
    let status = String::from_utf8_lossy(&head[9..12]).parse().unwrap_or(0);
    (c, status)
}

/// Open `n` streams; keep the ones answered `200`; count the `503`s.
fn streams(
    s: &TestServer,
    from: IpAddr,
    event: &str,
    headers: &str,
    n: usize,
) -> (Vec<TcpStream>, usize) {
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..n {
        match open_live(s, from, event, headers) {
            (c, 200) => held.push(c),
            (_, 503) => refused += 1,
            (_, other) => panic!("live stream answered {other}"),
        }
    }
    (held, refused)
}

fn live_limits() -> Limits {
    Limits {
        max_live_streams: 64,
        max_live_per_address: 4,
        max_live_per_network: 16,
        ..Limits::default()
    }
}

fn with_event() -> (TestServer, String, Limits) {
    let limits = live_limits();
    with_event_under(limits)
}

fn with_event_under(limits: Limits) -> (TestServer, String, Limits) {
    let mut id = None;
    let s = TestServer::start_limited(
        |st| id = Some(reference_event(st, "kunshan-2026.toml", 1, Some(8))),
        limits.clone(),
    );
    (s, id.expect("event").0, limits)
}

/// Thirty-two addresses of one /24 each asking for four streams (128, twice the total of
/// 64): before, they held all 64 and no other phone got live updates. Now their network
/// holds its cap (16) and a quarter of the reserve (8 / 4 = 2); one address holds at most
/// 4; another phone gets its stream.
#[test]
fn thirty_two_addresses_holding_streams_leave_streams_for_the_other_phones() {
    let (s, ev, limits) = with_event();
    let caps: Caps = limits.live_caps();
    assert_eq!(
        (caps.network_cap(), caps.network_reserve(), caps.few),
        (16, 2, FEW_STREAMS)
    );
    let mut held = Vec::new();
    let mut refused = 0;
    for host in 1..=32 {
        let (h, r) = streams(&s, ip(1, host), &ev, "", 4);
        held.extend(h);
        refused += r;
    }
    assert_eq!(held.len(), 16 + 2, "{refused} refused");
    // One address alone: its cap.
    let (one, r) = streams(&s, ip(3, 1), &ev, "", 10);
    assert_eq!((one.len(), r), (4, 6));
    // Other phones, of other networks, get their streams.
    for net in 4..=8 {
        let (phone, status) = open_live(&s, ip(net, 20), &ev, "");
        assert_eq!(status, 200, "phone of 127.0.{net}.0/24");
        drop(phone);
    }
    drop((held, one));
}

/// Behind a trusted proxy every stream arrives from the proxy's address, which the
/// connection caps exempt: before, one forwarded client held 200 streams. Now the forwarded
/// client is counted: 4 of its 20, its /24 18 (16 + 2) of 64; another client gets its
/// stream.
#[test]
fn behind_a_trusted_proxy_one_forwarded_client_cannot_hold_more_streams_than_its_cap() {
    let (s, ev, _) = with_event_under(Limits {
        trusted_proxies: vec![ip(0, 1)],
        ..live_limits()
    });
    let proxy = ip(0, 1);
    let (one, r) = streams(&s, proxy, &ev, "X-Forwarded-For: 203.0.113.5\r\n", 20);
    assert_eq!((one.len(), r), (4, 16));
    let mut net = Vec::new();
    for host in 1..=32 {
        let h = format!("X-Forwarded-For: 198.18.0.9, 203.0.113.{host}\r\n");
        net.extend(streams(&s, proxy, &ev, &h, 2).0);
    }
    // 203.0.113.5's 4 count in its network's 18.
    assert_eq!(net.len() + one.len(), 16 + 2);
    for other in ["192.0.2.77", "198.51.100.9", "2001:db8::1"] {
        let (c, status) = open_live(&s, proxy, &ev, &format!("X-Forwarded-For: {other}\r\n"));
        assert_eq!(status, 200, "{other}");
        drop(c);
    }
    drop((one, net));
}

/// Behind a trusted proxy the connections are the proxy's (exempt from the per-address
/// cap): a forwarded client sending requests whose bodies never come held as many as the
/// proxy would open. Now it holds its per-address cap (4) in flight; the rest are answered
/// `503` at once, and another forwarded client is served.
#[test]
fn behind_a_trusted_proxy_one_forwarded_client_cannot_hold_more_requests_than_its_cap() {
    let s = TestServer::start_limited(
        |_| {},
        Limits {
            header_timeout: Duration::from_secs(60),
            body_timeout: Duration::from_secs(60),
            max_per_address: 4,
            trusted_proxies: vec![ip(0, 1)],
            ..Limits::default()
        },
    );
    let mut conns = Vec::new();
    for _ in 0..12 {
        let mut c = connect_from(ip(0, 1), s.addr);
        c.write_all(
            b"POST /login HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.5\r\nCookie: arbiter_login=t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nlogin=",
        )
        .expect("write");
        conns.push(c);
        // In order: the first four are in flight before the fifth arrives.
        std::thread::sleep(Duration::from_millis(30));
    }
    std::thread::sleep(Duration::from_millis(300));
    let mut waiting = 0;
    let mut refused = 0;
    for c in &mut conns {
        c.set_nonblocking(true).expect("nonblocking");
        let mut b = [0u8; 12];
        match c.read(&mut b) {
            Ok(k) if k > 0 => {
                assert!(b.starts_with(b"HTTP/1.1 503"), "{:?}", &b[..k]);
                refused += 1;
            }
            _ => waiting += 1,
        }
    }
    assert_eq!((waiting, refused), (4, 8));
    let r = request_from(
        ip(0, 1),
        s.addr,
        "GET",
        "/",
        &[("X-Forwarded-For", "198.51.100.9")],
        None,
    );
    assert_eq!(r.status, 200);
    drop(conns);
}

/// Read a live stream until the server ends it (the last chunk, or the connection closed);
/// the seconds that took, at most `within`, and what was read.
fn ended_after(c: &mut TcpStream, within: Duration) -> (Option<f64>, String) {
    let start = Instant::now();
    c.set_read_timeout(Some(Duration::from_millis(100))).ok();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while start.elapsed() < within {
        match c.read(&mut buf) {
            Ok(0) => return (Some(start.elapsed().as_secs_f64()), text(&got)),
            Ok(k) => {
                got.extend_from_slice(&buf[..k]);
                if got.ends_with(b"\r\n0\r\n\r\n") || got == b"0\r\n\r\n" {
                    return (Some(start.elapsed().as_secs_f64()), text(&got));
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return (Some(start.elapsed().as_secs_f64()), text(&got)),
        }
    }
    (None, text(&got))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A stream ends after its lifetime (1.5 s here, 30 min by default) though its event keeps
/// it busy; its first message tells the browser to come back after 2–12 s.
#[test]
fn a_live_stream_ends_after_its_lifetime() {
    let (s, ev, _) = with_event_under(Limits {
        live_lifetime: Duration::from_millis(1500),
        ..Limits::default()
    });
    let (mut c, status) = open_live(&s, ip(0, 1), &ev, "");
    assert_eq!(status, 200);
    let (t, got) = ended_after(&mut c, Duration::from_secs(10));
    let t = t.expect("the stream ended");
    assert!((1.3..4.0).contains(&t), "{t}");
    let retry: u64 = got
        .lines()
        .find_map(|l| l.strip_prefix("retry:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("retry field");
    assert!((2000..=12000).contains(&retry), "{retry}");
    // The slot is free again: the browser's next stream is served.
    assert_eq!(open_live(&s, ip(0, 1), &ev, "").1, 200);
}

/// A stream whose event does not change ends when idle (2 s here, 10 min by default); a
/// change sent starts the idle time again.
#[test]
fn a_live_stream_without_changes_ends_when_idle() {
    let mut id = None;
    let s = TestServer::start_limited(
        |st| id = Some(reference_event(st, "kunshan-2026.toml", 2, Some(30))),
        Limits {
            live_idle: Duration::from_secs(2),
            ..Limits::default()
        },
    );
    let id = id.expect("event");
    let (mut quiet, _) = open_live(&s, ip(0, 1), &id.0, "");
    let (t, _) = ended_after(&mut quiet, Duration::from_secs(10));
    let t = t.expect("the idle stream ended");
    assert!((1.8..4.5).contains(&t), "{t}");

    let (mut busy, _) = open_live(&s, ip(0, 1), &id.0, "");
    let opened = Instant::now();
    std::thread::sleep(Duration::from_millis(1000));
    let (_, seq) = crate::live::enter_missing(&s.store(), &id);
    let changed = Instant::now();
    let (t, got) = ended_after(&mut busy, Duration::from_secs(10));
    assert!(t.is_some(), "{got}");
    // The change arrived, and the stream ended idle counted from it, past the first idle
    // time.
    assert!(got.contains(&format!("id: {seq}")), "{got}");
    let (since_open, since_change) = (
        opened.elapsed().as_secs_f64(),
        changed.elapsed().as_secs_f64(),
    );
    assert!(since_open > 2.8, "{since_open}");
    assert!((1.8..4.5).contains(&since_change), "{since_change}");
}

fn login_via(s: &TestServer, forwarded_for: &str, password: &str) -> u16 {
    s.post_form(
        "/login",
        &[
            ("Cookie", "arbiter_login=t"),
            ("X-Forwarded-For", forwarded_for),
        ],
        &format!("login=arb&password={}&csrf=t", password.replace(' ', "+")),
    )
    .status
}

/// Behind a trusted proxy that writes `unknown` (or anything not an address) as the last
/// `X-Forwarded-For` entry, the client's own entry before it was believed: a new address per
/// guess, and the login's per-address limit never applied. Now such a request counts as
/// the proxy's own: the sixth attempt is refused. A last entry `address:port` is that
/// address (the port dropped).
#[test]
fn an_unparsable_last_forwarded_entry_counts_as_the_proxy() {
    let s = TestServer::start_limited(
        crate::tls_proxy::with_arb,
        Limits {
            trusted_proxies: vec![ip(0, 1)],
            ..Limits::default()
        },
    );
    let pw = crate::tls_proxy::PW;
    for i in 0..5 {
        let f = format!("10.0.0.{i}, unknown");
        assert_eq!(login_via(&s, &f, "wrong guess"), 401);
    }
    assert_eq!(login_via(&s, "10.0.0.99, unknown", pw), 429);
    assert_eq!(login_via(&s, "10.0.0.98,", pw), 429, "an empty last entry");
    // ip:port is the ip: five ports of one address are one client …
    let s = TestServer::start_limited(
        crate::tls_proxy::with_arb,
        Limits {
            trusted_proxies: vec![ip(0, 1)],
            ..Limits::default()
        },
    );
    for i in 0..5 {
        let f = format!("10.0.1.{i}, 10.4.4.4:{}", 51234 + i);
        assert_eq!(login_via(&s, &f, "wrong guess"), 401);
    }
    assert_eq!(login_via(&s, "10.0.1.99, 10.4.4.4:6000", pw), 429);
    // … and another address with a port is another client.
    assert_eq!(login_via(&s, "10.4.4.4, [2001:db8::7]:443", pw), 303);
}
