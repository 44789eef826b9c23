//! Issue 24, item 3, against the real binary: under an open-file limit of 256, 300 idle
//! sockets from one machine on the venue network no longer stop the server answering the
//! others. The server's connections are capped per address and in all below the limit.

use crate::common;

use common::*;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn connect_from(from: IpAddr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let sock = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    sock.bind(&SocketAddr::new(from, 0).into())?;
    sock.connect_timeout(&addr.into(), Duration::from_secs(5))?;
    Ok(sock.into())
}

fn get_from(from: IpAddr, addr: SocketAddr, path: &str) -> String {
    let mut s = connect_from(from, addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// `arbiter serve` under `ulimit -n 256`, on a fresh database; its address.
fn serve_limited(dir: &std::path::Path) -> (KillOnDrop, SocketAddr) {
    let db = dir.join("arbiter.db");
    let mut child = KillOnDrop(
        Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -n 256 && exec '{BIN}' serve --addr 127.0.0.1:0 --db '{}'",
                db.display()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn"),
    );
    let addr =
        announced_address(&mut child.0, Duration::from_secs(60)).and_then(|a| a.parse().ok());
    (child, addr.expect("the server prints its address"))
}

#[test]
fn three_hundred_idle_sockets_under_a_256_file_limit_do_not_stop_the_server() {
    let dir = tempfile::tempdir().expect("dir");
    let (_server, addr) = serve_limited(dir.path());
    let attacker = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));
    let mut idle = Vec::new();
    for _ in 0..300 {
        if let Ok(c) = connect_from(attacker, addr) {
            idle.push(c);
        }
    }
    // Another machine is answered while the 300 are open.
    let start = Instant::now();
    let page = get_from(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), addr, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // And many machines at once fill at most the cap below the file limit: the rest are
    // told to come back, and the server still runs.
    let mut crowd = Vec::new();
    for i in 0..250u32 {
        let from = IpAddr::V4(Ipv4Addr::new(
            127,
            0,
            3 + (i / 200) as u8,
            (i % 200) as u8 + 1,
        ));
        if let Ok(c) = connect_from(from, addr) {
            crowd.push(c);
        }
    }
    drop(idle);
    drop(crowd);
    // The server frees a place when it sees a closed socket, which takes a moment after the
    // client closes it: until then it answers "busy" (503) and never stops; then it serves.
    let deadline = Instant::now() + Duration::from_secs(30);
    let page = loop {
        let page = get_from(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 9)), addr, "/");
        if !page.starts_with("HTTP/1.1 503") || Instant::now() > deadline {
            break page;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
}
