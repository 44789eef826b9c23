//! Issue 24, item 3: slow and idle clients on the venue network. Idle sockets and headers
//! sent a byte at a time are cut after the header timeout; one address cannot hold more
//! than its share of connections while everyone else is still answered; live streams (long
//! on purpose) outlive the timeout but are bounded in number.

use crate::common;

use arbiter_web::net::Limits;
use common::{connect_from, reference_event, request_from, TestServer};
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

fn short() -> Limits {
    Limits {
        header_timeout: Duration::from_secs(1),
        ..Limits::default()
    }
}

/// Seconds until the server closes `s` (reading, sending nothing more), at most `within`.
fn closed_after(s: &mut TcpStream, within: Duration) -> Option<f64> {
    let start = Instant::now();
    s.set_read_timeout(Some(within)).ok();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Some(start.elapsed().as_secs_f64()),
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some(start.elapsed().as_secs_f64())
            }
            Err(_) => return None,
        }
    }
}

fn local(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

#[test]
fn an_idle_socket_is_closed_after_the_header_timeout() {
    let s = TestServer::start_limited(|_| {}, short());
    let mut idle = TcpStream::connect(s.addr).expect("connect");
    let t = closed_after(&mut idle, Duration::from_secs(10)).expect("closed");
    assert!(t < 3.0, "{t}");
}

#[test]
fn headers_sent_a_byte_at_a_time_are_cut() {
    let s = TestServer::start_limited(|_| {}, short());
    let mut slow = TcpStream::connect(s.addr).expect("connect");
    let start = Instant::now();
    let req = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let mut cut = false;
    for b in req.iter() {
        if slow.write_all(&[*b]).is_err() {
            cut = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(150));
        if start.elapsed() > Duration::from_secs(4) {
            break;
        }
    }
    // Some of the bytes may have gone into the socket's buffer: the server's close shows on
    // reading.
    let closed = cut || closed_after(&mut slow, Duration::from_millis(500)).is_some();
    assert!(
        closed,
        "a header trickling for {:?} was not cut",
        start.elapsed()
    );
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_kept_alive_connection_that_sends_nothing_more_is_closed() {
    let s = TestServer::start_limited(|_| {}, short());
    let mut c = TcpStream::connect(s.addr).expect("connect");
    c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    let t = closed_after(&mut c, Duration::from_secs(10)).expect("closed");
    assert!(t < 3.0, "{t}");
}

#[test]
fn three_hundred_idle_sockets_from_one_address_do_not_stop_the_others() {
    let s = TestServer::start_limited(
        |_| {},
        Limits {
            header_timeout: Duration::from_secs(60),
            ..Limits::default()
        },
    );
    let attacker = local(1);
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..300 {
        let mut c = connect_from(attacker, s.addr);
        c.set_read_timeout(Some(Duration::from_millis(20))).ok();
        let mut b = [0u8; 12];
        match c.read(&mut b) {
            Ok(n) if n > 0 => {
                assert!(b.starts_with(b"HTTP/1.1 503"), "{:?}", &b[..n]);
                refused += 1;
            }
            _ => held.push(c),
        }
    }
    // A refusal written after its socket's 20 ms read gave up (a loaded machine) is counted
    // as what it is, not as a held connection.
    held.retain_mut(|c| {
        c.set_read_timeout(Some(Duration::from_millis(50))).ok();
        let mut b = [0u8; 12];
        match c.read(&mut b) {
            Ok(n) if n > 0 => {
                assert!(b.starts_with(b"HTTP/1.1 503"), "{:?}", &b[..n]);
                refused += 1;
                false
            }
            _ => true,
        }
    });
    assert_eq!(held.len(), Limits::default().max_per_address, "{refused}");
    // Another machine is answered at once while those are held.
    let start = Instant::now();
    let r = request_from(local(2), s.addr, "GET", "/", &[], None);
    assert_eq!(r.status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    drop(held);
}

/// Open a live stream by hand: the connection and its status.
fn open_live(s: &TestServer, event: &str) -> (TcpStream, u16) {
    let mut c = TcpStream::connect(s.addr).expect("connect");
    c.write_all(format!("GET /e/{event}/live HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .expect("write");
    c.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let mut head = [0u8; 12];
    c.read_exact(&mut head).expect("status line");
    let status = String::from_utf8_lossy(&head[9..12]).parse().unwrap_or(0);
    (c, status)
}

#[test]
fn live_streams_outlive_the_header_timeout_and_are_bounded() {
    let mut id = None;
    let s = TestServer::start_limited(
        |st| id = Some(reference_event(st, "kunshan-2026.toml", 1, Some(8))),
        Limits {
            max_live_streams: 2,
            ..short()
        },
    );
    let id = id.expect("event");
    let (mut a, sa) = open_live(&s, &id.0);
    let (b, sb) = open_live(&s, &id.0);
    assert_eq!((sa, sb), (200, 200));
    let third = s.get(&format!("/e/{}/live", id.0));
    assert_eq!(third.status, 503, "{}", third.text());
    // Past the header timeout the stream is still open.
    std::thread::sleep(Duration::from_millis(2500));
    a.set_read_timeout(Some(Duration::from_millis(300))).ok();
    let mut buf = [0u8; 4096];
    loop {
        match a.read(&mut buf) {
            Ok(0) => panic!("the live stream was closed by the header timeout"),
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    // A closed stream frees its slot.
    drop(b);
    assert!(common::wait_until(5, || open_live(&s, &id.0).1 == 200));
}
