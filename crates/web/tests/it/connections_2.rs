//! An `X-Forwarded-For` whose last entry is no address (`unknown`) counts as the trusted
//! proxy's own request: the client cannot choose its address by writing one before it.

use crate::common;

use arbiter_web::net::Limits;
use common::TestServer;
use std::net::{IpAddr, Ipv4Addr};

fn ip(net: u8, host: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, net, host))
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
