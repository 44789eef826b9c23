//! `arbiter serve`: the real binary starts, serves the demo events, and refuses bad flags.

use crate::common;

use common::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

pub(crate) fn get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    out
}

#[test]
fn serve_demo_starts_with_the_four_reference_events() {
    let mut child = KillOnDrop(
        Command::new(BIN)
            .args(["serve", "--demo", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn"),
    );
    let addr = announced_address(&mut child.0, Duration::from_secs(120))
        .expect("the server prints its address");
    let home = get(&addr, "/");
    assert!(home.starts_with("HTTP/1.1 200"), "{home}");
    assert_eq!(home.matches("<li><a href=\"/e/ev-").count(), 4, "{home}");
    for name in ["昆山", "苏州", "九江", "天水"] {
        assert!(home.contains(name), "{name}: {home}");
    }
    let api = get(&addr, "/api/events/ev-00000001");
    assert!(api.contains("\"last_seq\""), "{api}");
}

#[test]
fn serve_refuses_an_address_in_use_and_demo_with_db() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().expect("addr").to_string();
    let dir = tempfile::tempdir().expect("dir");
    let o = Command::new(BIN)
        .args(["serve", "--addr", &addr, "--db"])
        .arg(dir.path().join("a.db"))
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("无法监听"), "{err}");
    let o = Command::new(BIN)
        .args(["serve", "--demo", "--db", "x.db"])
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2), "clap refuses --demo with --db");
}
