//! Issue 24, item 2: the login rate limit under parallel guesses, and the lock-out of
//! another person's account.

use crate::common;

use arbiter_store::accounts::User;
use arbiter_store::{AccountStore, Role, SqliteStore};
use common::{request_from, Response, TestServer};
use std::net::{IpAddr, Ipv4Addr};

const PW: &str = "correct horse 8";

fn with_chief(store: &SqliteStore) {
    store
        .add_user(&User {
            login: "chief".into(),
            display_name: "裁判长".into(),
            role: Role::ChiefArbiter,
            password_hash: arbiter_web::auth::password::hash(PW).expect("hash"),
            created: "2026-09-26T08:00:00+08:00".into(),
        })
        .expect("add user");
}

fn login_from(s: &TestServer, from: [u8; 4], password: &str) -> Response {
    let body = format!("login=chief&password={}&csrf=t", password.replace(' ', "+"));
    request_from(
        IpAddr::V4(Ipv4Addr::from(from)),
        s.addr,
        "POST",
        "/login",
        &[
            ("Cookie", "arbiter_login=t"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        Some(body.as_bytes()),
    )
}

#[test]
fn forty_parallel_guesses_are_not_all_checked_and_the_right_one_sent_last_waits() {
    let s = TestServer::start_with(with_chief);
    let addr = s.addr;
    let guesses: Vec<_> = (0..40)
        .map(|i| {
            std::thread::spawn(move || {
                let body = format!("login=chief&password=guess{i}xyz&csrf=t");
                request_from(
                    IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1)),
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
    std::thread::sleep(std::time::Duration::from_millis(100));
    let right = login_from(&s, [127, 0, 0, 1], PW);
    let statuses: Vec<u16> = guesses.into_iter().map(|t| t.join().unwrap()).collect();
    let checked = statuses.iter().filter(|&&st| st == 401).count();
    assert!(checked <= 5, "{checked} guesses checked: {statuses:?}");
    assert!(
        statuses.iter().all(|&st| st == 401 || st == 429),
        "{statuses:?}"
    );
    // The right password from the guessing address is not even checked now.
    let again = login_from(&s, [127, 0, 0, 1], PW);
    assert_eq!(again.status, 429, "{}", again.text());
    assert_ne!(right.status, 303, "the right guess sent last logged in");
}

#[test]
fn five_bad_guesses_elsewhere_do_not_lock_the_chief_arbiter_out() {
    let s = TestServer::start_with(with_chief);
    for i in 0..6 {
        let r = login_from(&s, [127, 0, 0, 66], &format!("wrong guess {i}"));
        assert!(r.status == 401 || r.status == 429, "{}", r.status);
    }
    assert_eq!(login_from(&s, [127, 0, 0, 66], PW).status, 429);
    // The chief arbiter, at the desk's own machine, still gets in.
    let r = login_from(&s, [127, 0, 0, 2], PW);
    assert_eq!(r.status, 303, "{}", r.text());
    // One mistake at the desk's machine while the name is locked: that address now waits.
    assert_eq!(login_from(&s, [127, 0, 0, 3], "typo typo").status, 401);
    assert_eq!(login_from(&s, [127, 0, 0, 3], PW).status, 429);
}
