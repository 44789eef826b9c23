//! Issue 24, item 10: HTTPS with rustls (`--tls-cert`, `--tls-key`) and `Secure` cookies;
//! behind a reverse proxy the client's address is read from `X-Forwarded-For` only when the
//! proxy is trusted (`--trusted-proxy`).

use crate::common;

use arbiter_store::accounts::User;
use arbiter_store::{AccountStore, Role, SqliteStore};
use arbiter_web::net::{Limits, Tls};
use common::{Response, TestServer};
use std::io::{Read, Write};
use std::sync::Arc;

pub(crate) const PW: &str = "correct horse 8";

pub(crate) fn with_arb(store: &SqliteStore) {
    store
        .add_user(&User {
            login: "arb".into(),
            display_name: "裁判".into(),
            role: Role::Arbiter,
            password_hash: arbiter_web::auth::password::hash(PW).expect("hash"),
            created: "2026-09-26T08:00:00+08:00".into(),
        })
        .expect("user");
}

/// A self-signed certificate for `localhost`, written as PEM files; the certificate (DER).
pub(crate) fn certificate(dir: &std::path::Path) -> (Tls, Vec<u8>) {
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).expect("cert");
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert, ck.cert.pem()).expect("write cert");
    std::fs::write(&key, ck.key_pair.serialize_pem()).expect("write key");
    let tls = Tls::from_pem_files(&cert, &key).expect("tls");
    (tls, ck.cert.der().to_vec())
}

/// One request over TLS, trusting only `cert`; the raw response.
pub(crate) fn https(addr: std::net::SocketAddr, cert: &[u8], request: &str) -> String {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from(cert.to_vec()))
        .expect("root");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("localhost").expect("name");
    let mut conn = rustls::ClientConnection::new(Arc::new(config), name).expect("client");
    let mut sock = std::net::TcpStream::connect(addr).expect("connect");
    sock.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .ok();
    let mut tls = rustls::Stream::new(&mut conn, &mut sock);
    tls.write_all(request.as_bytes()).expect("write");
    let mut out = Vec::new();
    let _ = tls.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn https_serves_pages_and_the_session_cookie_is_secure() {
    let dir = tempfile::tempdir().expect("dir");
    let (tls, cert) = certificate(dir.path());
    let s = TestServer::start_full(with_arb, Limits::default(), Some(tls));
    let home = https(
        s.addr,
        &cert,
        "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert!(home.starts_with("HTTP/1.1 200"), "{home}");
    let body = "login=arb&password=correct+horse+8&csrf=t";
    let login = https(
        s.addr,
        &cert,
        &format!(
            "POST /login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nCookie: arbiter_login=t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(login.starts_with("HTTP/1.1 303"), "{login}");
    let session = login
        .lines()
        .find(|l| {
            l.to_ascii_lowercase()
                .starts_with("set-cookie: arbiter_session=")
        })
        .expect("session cookie");
    assert!(
        session.contains("; Secure") && session.contains("HttpOnly"),
        "{session}"
    );
    // Plain HTTP to the TLS port gets nothing.
    let mut plain = std::net::TcpStream::connect(s.addr).expect("connect");
    plain
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .ok();
    plain
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    let mut got = Vec::new();
    let _ = plain.read_to_end(&mut got);
    assert!(!got.starts_with(b"HTTP/1.1 200"));
}

#[test]
fn http_cookies_are_not_marked_secure() {
    let s = TestServer::start_with(with_arb);
    let r = s.get("/login");
    let c = r.header("set-cookie").unwrap_or("");
    assert!(!c.contains("Secure"), "{c}");
}

fn login_via(s: &TestServer, forwarded_for: &str, password: &str) -> Response {
    s.post_form(
        "/login",
        &[
            ("Cookie", "arbiter_login=t"),
            ("X-Forwarded-For", forwarded_for),
            ("X-Forwarded-Proto", "https"),
        ],
        &format!("login=arb&password={}&csrf=t", password.replace(' ', "+")),
    )
}

#[test]
fn forwarded_addresses_count_only_from_a_trusted_proxy() {
    // Behind a trusted proxy (here: 127.0.0.1), each forwarded client is its own address.
    let s = TestServer::start_limited(
        with_arb,
        Limits {
            trusted_proxies: vec!["127.0.0.1".parse().expect("ip")],
            ..Limits::default()
        },
    );
    for _ in 0..5 {
        assert_eq!(login_via(&s, "10.0.0.1", "wrong guess").status, 401);
    }
    assert_eq!(login_via(&s, "10.0.0.1", PW).status, 429);
    let r = login_via(&s, "198.51.100.7, 10.0.0.2", PW);
    assert_eq!(r.status, 303, "{}", r.text());
    // The proxy said https: the cookie is Secure.
    assert!(r.headers.iter().any(|(k, v)| k == "set-cookie"
        && v.starts_with("arbiter_session=")
        && v.contains("Secure")));

    // Without --trusted-proxy the header is the client's own word: ignored.
    let s = TestServer::start_with(with_arb);
    for _ in 0..5 {
        assert_eq!(login_via(&s, "10.0.0.1", "wrong guess").status, 401);
    }
    let r = login_via(&s, "10.0.0.2", PW);
    assert_eq!(r.status, 429, "a forged X-Forwarded-For was believed");
    assert!(!r.headers.iter().any(|(_, v)| v.contains("Secure")));
}
