//! Issue 42: the login limit against many addresses (and IPv6 clients by their /64), the
//! online entry form's limit likewise, huge login names that filled the disk, and the entry
//! status page's referrer policy. Each test makes the attack against a started server and
//! measures the bound.

use crate::common;
use crate::desk::{create_open_kunshan, id_number, login, set_cookie, submit_online};

use arbiter_store::{AccountStore, Role, SqliteStore};
use arbiter_web::auth::limit;
use arbiter_web::net::Limits;
use common::{request_from, Response, TestServer};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::{Duration, Instant};

use crate::common::desk::{add_user as account, PW};

fn with_chief(store: &SqliteStore) {
    account(store, "chief", Role::ChiefArbiter);
}

/// `application/x-www-form-urlencoded` of one value.
fn enc(s: &str) -> String {
    let mut o = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                o.push(b as char)
            }
            _ => o.push_str(&format!("%{b:02X}")),
        }
    }
    o
}

/// `POST /login` from `from` (the login form's CSRF cookie and field set alike), with
/// `extra` headers (cookies).
fn post_login(
    addr: std::net::SocketAddr,
    from: IpAddr,
    extra: &[(&str, &str)],
    login: &str,
    password: &str,
) -> Response {
    let body = format!("login={}&password={}&csrf=t", enc(login), enc(password));
    let mut cookies = vec!["arbiter_login=t".to_string()];
    let mut headers: Vec<(&str, &str)> =
        vec![("Content-Type", "application/x-www-form-urlencoded")];
    for (k, v) in extra {
        if k.eq_ignore_ascii_case("cookie") {
            cookies.push(v.to_string());
        } else {
            headers.push((k, v));
        }
    }
    let cookie = cookies.join("; ");
    headers.push(("Cookie", &cookie));
    request_from(
        from,
        addr,
        "POST",
        "/login",
        &headers,
        Some(body.as_bytes()),
    )
}

fn v4(a: u8, b: u8, c: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, a, b, c))
}

/// The seconds to wait in a `429` answer (「请 N 秒后再试」).
fn wait_of(r: &Response) -> i64 {
    let t = r.text();
    let at = t.find("请 ").expect("a wait") + "请 ".len();
    t[at..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no seconds in {t}"))
}

/// The database's size on disk: the file and its write-ahead log.
fn db_bytes(s: &TestServer) -> u64 {
    let wal = s.db.with_extension("db-wal");
    [s.db.clone(), wal]
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum()
}

#[test]
fn two_hundred_addresses_guessing_one_name_get_a_bounded_number_of_checks() {
    let s = TestServer::start_with(with_chief);
    let addr = s.addr;
    // Before the attack the chief arbiter logged in once at the desk's laptop: that browser
    // keeps the device cookie.
    let r = post_login(addr, v4(0, 0, 2), &[], "chief", PW);
    assert_eq!(r.status, 303, "{}", r.text());
    let device = set_cookie(&r, limit::DEVICE_COOKIE).expect("device cookie");
    let before = s.app.login_gate.checked();
    let started = Instant::now();
    // 200 addresses, one wrong guess each, all at once.
    let guesses: Vec<_> = (0..200u8)
        .map(|i| {
            std::thread::spawn(move || {
                post_login(addr, v4(1, i, 1), &[], "chief", &format!("guess {i} xyz")).status
            })
        })
        .collect();
    let statuses: Vec<u16> = guesses
        .into_iter()
        .map(|t| t.join().expect("guess"))
        .collect();
    // And 200 more from other addresses, one after another.
    let mut waits = Vec::new();
    let mut later = Vec::new();
    for i in 0..200u8 {
        let r = post_login(addr, v4(2, i, 1), &[], "chief", &format!("later {i} xyz"));
        if r.status == 429 {
            waits.push(wait_of(&r));
        }
        later.push(r.status);
    }
    let elapsed = started.elapsed().as_secs() as i64;
    let checks = (s.app.login_gate.checked() - before) as i64;
    let wrong = statuses
        .iter()
        .chain(&later)
        .filter(|&&st| st == 401)
        .count() as i64;
    let refused = statuses
        .iter()
        .chain(&later)
        .filter(|&&st| st == 429)
        .count();
    eprintln!(
        "400 guesses from 400 addresses in {elapsed} s: {checks} password checks, {wrong} \
         answered 401, {refused} answered 429 (longest wait {:?} s)",
        waits.iter().max()
    );
    assert!(
        statuses
            .iter()
            .chain(&later)
            .all(|&st| st == 401 || st == 429),
        "{statuses:?} {later:?}"
    );
    // The bound: NAME_FREE checks, then one per NAME_SPACING seconds.
    let bound = i64::from(limit::NAME_FREE) + 1 + elapsed / limit::NAME_SPACING;
    assert!(checks <= bound, "{checks} checks > {bound}");
    assert_eq!(checks, wrong, "every check answered, no other");
    assert!(
        waits.iter().all(|&w| 0 < w && w <= limit::NAME_SPACING),
        "{waits:?}"
    );
    // The rightful user at a machine never used: waits at most the spacing for a turn.
    let r = post_login(addr, v4(0, 0, 3), &[], "chief", PW);
    if r.status == 429 {
        let w = wait_of(&r);
        assert!(w <= limit::NAME_SPACING, "{w}");
    } else {
        assert_eq!(r.status, 303, "{}", r.text());
    }
    // At the laptop used before (even moved to another network): in at once.
    let r = post_login(addr, v4(0, 0, 4), &[("Cookie", &device)], "chief", PW);
    assert_eq!(r.status, 303, "{}", r.text());
    // The device cookie is no key for guessing: after five wrong guesses with it, it counts
    // like any other browser.
    for i in 0..limit::MAX_PER_LOGIN {
        let r = post_login(
            addr,
            v4(0, 0, 5),
            &[("Cookie", &device)],
            "chief",
            &format!("x{i}"),
        );
        assert_eq!(r.status, 401, "{}", r.text());
    }
    let r = post_login(
        addr,
        v4(0, 0, 6),
        &[("Cookie", &device)],
        "chief",
        "one more",
    );
    assert_eq!(r.status, 429, "{}", r.text());
}

/// A server behind a trusted reverse proxy at 127.0.0.1: the client address is the proxy's
/// `X-Forwarded-For`, so the test can be any IPv6 client.
fn behind_proxy(fill: impl FnOnce(&SqliteStore)) -> TestServer {
    TestServer::start_limited(
        fill,
        Limits {
            trusted_proxies: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
            ..Limits::default()
        },
    )
}

#[test]
fn an_ipv6_client_is_one_client_for_its_whole_64() {
    let s = behind_proxy(|st| {
        for i in 0..30 {
            account(st, &format!("user{i}"), Role::Arbiter);
        }
    });
    let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let before = s.app.login_gate.checked();
    // 30 names, each guessed once, from 30 addresses of one /64.
    let mut statuses = Vec::new();
    for i in 0..30u16 {
        let from = Ipv6Addr::new(0x2001, 0xdb8, 1, 2, i, 0x1234, i, 1).to_string();
        let r = post_login(
            s.addr,
            local,
            &[("X-Forwarded-For", &from)],
            &format!("user{i}"),
            "wrong password",
        );
        statuses.push(r.status);
    }
    let checked = s.app.login_gate.checked() - before;
    eprintln!("30 guesses from 30 addresses of one /64: {checked} password checks");
    let max = limit::MAX_PER_ADDR as usize;
    assert_eq!(checked, max, "{statuses:?}");
    assert!(statuses[..max].iter().all(|&st| st == 401), "{statuses:?}");
    assert!(statuses[max..].iter().all(|&st| st == 429), "{statuses:?}");
    // The next /64 is another client.
    let r = post_login(
        s.addr,
        local,
        &[("X-Forwarded-For", "2001:db8:1:3::1")],
        "user29",
        PW,
    );
    assert_eq!(r.status, 303, "{}", r.text());
}

/// One entry of the men's section from the online form, as a phone sends it after loading the
/// form at 127.0.0.1: the POST comes from `from` (or `forwarded`, behind the proxy).
fn submit_from(
    s: &TestServer,
    ev: &str,
    from: IpAddr,
    forwarded: Option<&str>,
    seq: u32,
) -> Response {
    let page = s.get(&format!("/e/{ev}/entry"));
    assert_eq!(page.status, 200, "{}", page.text());
    let t = page.text();
    let at = t.find("name=\"csrf\" value=\"").expect("csrf") + 19;
    let token = &t[at..at + t[at..].find('"').expect("end")];
    let cookie = set_cookie(&page, "arbiter_entry").expect("entry cookie");
    let id = id_number("19900101", seq);
    let body = [
        ("section", "men".to_string()),
        ("name", "张伟".to_string()),
        ("sex", "男".to_string()),
        ("id_number", id.clone()),
        ("phone", "13912345678".to_string()),
        ("social_security", format!("KS{}", &id[6..14])),
        ("unit", "昆山一厂".to_string()),
        ("csrf", token.to_string()),
    ]
    .iter()
    .map(|(k, v)| format!("{k}={}", enc(v)))
    .collect::<Vec<_>>()
    .join("&");
    let mut headers = vec![
        ("Cookie", cookie.as_str()),
        ("Content-Type", "application/x-www-form-urlencoded"),
    ];
    if let Some(f) = forwarded {
        headers.push(("X-Forwarded-For", f));
    }
    request_from(
        from,
        s.addr,
        "POST",
        &format!("/e/{ev}/entry"),
        &headers,
        Some(body.as_bytes()),
    )
}

fn with_accounts(st: &SqliteStore) {
    account(st, "chief", Role::ChiefArbiter);
}

#[test]
fn the_entry_form_counts_an_ipv6_64_as_one_address_and_bounds_all_addresses_together() {
    let s = behind_proxy(with_accounts);
    let chief = login_from_desk(&s);
    let ev = create_open_kunshan(&s, &chief);
    let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
    // Twelve submissions from twelve addresses of one /64: the eleventh waits.
    let mut v6 = Vec::new();
    for i in 0..12u16 {
        let from = Ipv6Addr::new(0x2001, 0xdb8, 7, 7, i, 0, 0, 1).to_string();
        v6.push(submit_from(&s, &ev, local, Some(&from), 100 + u32::from(i)).status);
    }
    eprintln!("12 entries from one /64: {v6:?}");
    let max = arbiter_web::online::MAX_PER_ADDR as usize;
    assert!(v6[..max].iter().all(|&st| st != 429), "{v6:?}");
    assert!(v6[max..].iter().all(|&st| st == 429), "{v6:?}");
    // Forty submissions from forty IPv4 addresses within one minute: at most MAX_PER_MINUTE
    // are taken (counting those of the /64 above, if in the same minute).
    let second = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    };
    if second() % 60 > 40 {
        std::thread::sleep(Duration::from_secs(61 - second() % 60));
    }
    let minute = second() / 60;
    let mut v4s = Vec::new();
    for i in 0..40u8 {
        let from = Ipv4Addr::new(10, 9, 8, i).to_string();
        v4s.push(submit_from(&s, &ev, local, Some(&from), 200 + u32::from(i)).status);
    }
    let same_minute = second() / 60 == minute;
    let taken = v4s.iter().filter(|&&st| st != 429).count();
    eprintln!("40 entries from 40 addresses (one minute: {same_minute}): {taken} taken");
    let per_minute = arbiter_web::online::MAX_PER_MINUTE as usize;
    if same_minute {
        assert!(taken <= per_minute, "{v4s:?}");
        assert!(v4s[per_minute..].iter().all(|&st| st == 429), "{v4s:?}");
    } else {
        assert!(taken <= 2 * per_minute, "{v4s:?}");
    }
    let r = submit_from(&s, &ev, local, Some("10.9.9.9"), 300);
    if same_minute && second() / 60 == minute {
        assert_eq!(r.status, 429);
        assert!(r.text().contains("提交次数过多"), "{}", r.text());
    }
}

/// The chief arbiter's desk session (through the proxy, from 127.0.0.1).
fn login_from_desk(s: &TestServer) -> crate::desk::Browser {
    login(s, "chief")
}

/// `POST /login` with the name `login` from `from`, tolerating a server that answers and
/// closes before the body is all sent: the status, or 0 if none could be read.
fn post_huge(s: &TestServer, from: IpAddr, login: &str) -> u16 {
    use std::io::{Read, Write};
    let body = format!("login={login}&password=wrong+password&csrf=t");
    let mut c = common::connect_from(from, s.addr);
    c.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let head = format!(
        "POST /login HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nCookie: arbiter_login=t\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        s.addr,
        body.len()
    );
    let _ = c.write_all(head.as_bytes());
    let _ = c.write_all(body.as_bytes());
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    String::from_utf8_lossy(&out)
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[test]
fn huge_login_names_do_not_fill_the_disk_and_old_failures_are_purged() {
    let s = TestServer::start_with(with_chief);
    let before = db_bytes(&s);
    let checks = s.app.login_gate.checked();
    // 40 failed logins with names of 1.5 MB, from 40 addresses.
    let huge = "n".repeat(1_500_000);
    let mut statuses = Vec::new();
    for i in 0..40u8 {
        statuses.push(post_huge(&s, v4(3, i, 1), &huge));
    }
    // And 40 with names just over the limit (a small body): refused as wrong, nothing kept.
    let long = "n".repeat(limit::MAX_LOGIN_CHARS + 1);
    for i in 0..40u8 {
        let r = post_login(s.addr, v4(4, i, 1), &[], &long, "wrong password");
        assert_eq!(r.status, 401, "{}", r.text());
        assert!(r.text().contains("登录名或密码错误"), "{}", r.text());
        assert!(!r.text().contains(&long), "the name is not repeated whole");
        statuses.push(r.status);
    }
    let after = db_bytes(&s);
    eprintln!(
        "80 logins with over-long names: database {before} → {after} bytes, {} password \
         checks, answers {:?}",
        s.app.login_gate.checked() - checks,
        {
            let mut u = statuses.clone();
            u.dedup();
            u
        }
    );
    // Refused for its size (or the connection cut before the whole body was sent).
    assert!(
        statuses[..40].iter().all(|&st| st == 413 || st == 0),
        "{statuses:?}"
    );
    assert_eq!(s.app.login_gate.checked(), checks, "no password checked");
    assert!(after <= before + 64 * 1024, "{before} → {after}");
    let store = s.store();
    assert_eq!(
        store
            .failures(&limit::login_key(&long), 0, i64::MAX / 4)
            .ok(),
        Some(None)
    );
    assert_eq!(
        store
            .failures(&limit::addr_key(&v4(4, 0, 1)), 0, i64::MAX / 4)
            .ok(),
        Some(None)
    );
    // Failure rows older than the window are gone at the next failure.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    for i in 0..500 {
        store
            .record_failure(
                &format!("addr:10.{i}.0.1"),
                now - limit::WINDOW - 5,
                limit::WINDOW,
            )
            .expect("old row");
    }
    store
        .record_failure("addr:recent", now - 5, limit::WINDOW)
        .expect("recent row");
    let r = post_login(s.addr, v4(5, 0, 1), &[], "chief", "wrong password");
    assert_eq!(r.status, 401);
    let all = |k: &str| store.failures(k, now, i64::MAX / 4).expect("read");
    let left = (0..500)
        .filter(|i| all(&format!("addr:10.{i}.0.1")).is_some())
        .count();
    eprintln!("500 failure rows older than the window: {left} left after one failed login");
    assert_eq!(left, 0);
    assert!(all("addr:recent").is_some(), "a recent row stays");
    assert!(all(&limit::addr_key(&v4(5, 0, 1))).is_some());
}

#[test]
fn the_entry_status_page_sends_no_referrer() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_open_kunshan(&s, &chief);
    let id = id_number("19900101", 7);
    let r = submit_online(
        &s,
        &ev,
        &[
            ("section", "men"),
            ("name", "张伟"),
            ("sex", "男"),
            ("id_number", &id),
            ("phone", "13912345678"),
            ("social_security", &format!("KS{}", &id[6..14])),
            ("unit", "昆山一厂"),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.text();
    let prefix = format!("/e/{ev}/entry/status/");
    let at = t.find(&prefix).expect("status link");
    let link: String = t[at..]
        .chars()
        .take_while(|c| *c != '"' && *c != '<')
        .collect();
    let page = s.get(&link);
    assert_eq!(page.status, 200, "{link}");
    let policy = page.header("referrer-policy");
    eprintln!("{link}: Referrer-Policy {policy:?}");
    assert_eq!(policy, Some("no-referrer"));
    assert_eq!(r.header("referrer-policy"), Some("no-referrer"));
    // Other pages keep the server's own policy.
    assert_eq!(s.get("/").header("referrer-policy"), Some("same-origin"));
}
