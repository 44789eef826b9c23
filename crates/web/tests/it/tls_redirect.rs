//! HTTPS kept: every answer over TLS (here, or at a trusted proxy that says so) carries
//! `Strict-Transport-Security`, so a browser that has been here once never asks in clear
//! again; plain HTTP sent to the TLS port (a typed `http://`) is answered `301` to the same
//! address over `https://` instead of nothing, and `--redirect-http` listens on a plain port
//! that sends every request to the TLS port.

use crate::common;

use crate::tls_proxy::{certificate, https};
use arbiter_web::headers::HSTS;
use arbiter_web::net::Limits;
use common::{request, TestServer};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Send `raw` in clear to `addr`; the whole answer, and the seconds until the server closed.
fn plain(addr: SocketAddr, raw: &str) -> (String, f64) {
    let mut c = TcpStream::connect(addr).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(20))).ok();
    let start = Instant::now();
    c.write_all(raw.as_bytes()).expect("write");
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    (
        String::from_utf8_lossy(&got).into_owned(),
        start.elapsed().as_secs_f64(),
    )
}

fn location(answer: &str) -> Option<&str> {
    answer.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("location").then(|| v.trim())
    })
}

#[test]
fn plain_http_on_the_tls_port_is_redirected_to_https() {
    let dir = tempfile::tempdir().expect("dir");
    let (tls, cert) = certificate(dir.path());
    let s = TestServer::start_full(|_| {}, Limits::default(), Some(tls));
    let port = s.addr.port();
    let (got, t) = plain(
        s.addr,
        &format!("GET /e/ev-00000001/s/men/standings?lang=en HTTP/1.1\r\nHost: localhost:{port}\r\nUser-Agent: phone\r\n\r\n"),
    );
    assert!(got.starts_with("HTTP/1.1 301"), "{got}");
    assert_eq!(
        location(&got),
        Some(format!("https://localhost:{port}/e/ev-00000001/s/men/standings?lang=en").as_str())
    );
    assert!(got.contains("HTTPS"), "{got}");
    // Answered and closed at once (not left to the header timeout).
    assert!(t < 2.0, "{t}");
    // No Host: no address to send it to.
    let (got, _) = plain(s.addr, "GET / HTTP/1.0\r\n\r\n");
    assert!(got.starts_with("HTTP/1.1 400"), "{got}");
    // A Host that would break the answer's lines is no address.
    let (got, _) = plain(
        s.addr,
        "GET / HTTP/1.1\r\nHost: evil\rSet-Cookie: x=1\r\n\r\n",
    );
    assert!(got.starts_with("HTTP/1.1 400"), "{got}");
    assert!(!got.contains("Set-Cookie"), "{got}");
    // TLS on the same port is served as before.
    let home = https(
        s.addr,
        &cert,
        "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert!(home.starts_with("HTTP/1.1 200"), "{home}");
}

#[test]
fn a_plain_port_redirects_every_request_to_the_tls_port() {
    let dir = tempfile::tempdir().expect("dir");
    let (tls, _) = certificate(dir.path());
    let s = TestServer::start_redirecting(Limits::default(), tls);
    let redirect = s.redirect.expect("redirect port");
    let (got, _) = plain(
        redirect,
        &format!(
            "GET /e/ev-00000001?lang=en HTTP/1.1\r\nHost: localhost:{}\r\n\r\n",
            redirect.port()
        ),
    );
    assert!(got.starts_with("HTTP/1.1 301"), "{got}");
    assert_eq!(
        location(&got),
        Some(format!("https://localhost:{}/e/ev-00000001?lang=en", s.addr.port()).as_str())
    );
    // An IPv6 host keeps its brackets.
    let (got, _) = plain(
        redirect,
        &format!("GET / HTTP/1.1\r\nHost: [::1]:{}\r\n\r\n", redirect.port()),
    );
    assert_eq!(
        location(&got),
        Some(format!("https://[::1]:{}/", s.addr.port()).as_str())
    );
}

fn hsts(answer: &str) -> Option<String> {
    answer.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("strict-transport-security")
            .then(|| v.trim().to_string())
    })
}

#[test]
fn answers_over_tls_carry_hsts_and_answers_in_clear_do_not() {
    let dir = tempfile::tempdir().expect("dir");
    let (tls, cert) = certificate(dir.path());
    let s = TestServer::start_full(|_| {}, Limits::default(), Some(tls));
    for path in ["/", "/login", "/assets/style.css", "/e/ev-00000009"] {
        let r = https(
            s.addr,
            &cert,
            &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
        );
        assert_eq!(hsts(&r).as_deref(), Some(HSTS), "{path}: {r}");
    }
    assert_eq!(HSTS, "max-age=31536000");

    // In clear: none (a browser would ignore it, and it must not promise what is not so).
    let s = TestServer::start_limited(
        |_| {},
        Limits {
            trusted_proxies: vec!["127.0.0.1".parse().expect("ip")],
            ..Limits::default()
        },
    );
    let r = s.get("/");
    assert!(r.header("strict-transport-security").is_none());
    // Behind the trusted proxy that terminated TLS: present.
    let r = s.get_with("/", &[("X-Forwarded-Proto", "https")]);
    assert_eq!(r.header("strict-transport-security"), Some(HSTS));
    // From anyone else the header is the client's word: ignored.
    let s = TestServer::start();
    let r = request(s.addr, "GET", "/", &[("X-Forwarded-Proto", "https")], None);
    assert!(r.header("strict-transport-security").is_none());
}
