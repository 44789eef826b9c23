//! Black-box tests of the accounts and the arbiters' desk: the real server on a random port
//! over a temp SQLite file, driven over HTTP like a browser without JavaScript (and, for the
//! result grid, like its script: `Accept: application/json`).

mod common;

use arbiter_store::accounts::User;
use arbiter_store::{AccountStore, EventId, EventStore, Role, SqliteStore};
use common::{Response, TestServer};

const PW: &str = "correct horse 8";

fn add_user(store: &SqliteStore, login: &str, role: Role) {
    store
        .add_user(&User {
            login: login.into(),
            display_name: format!("{login} 裁判"),
            role,
            password_hash: arbiter_web::auth::password::hash(PW).expect("hash"),
            created: "2026-09-26T08:00:00+08:00".into(),
        })
        .expect("add user");
}

/// One account per role: organiser `org`, chief arbiter `chief`, arbiters `arb` and `arb2`,
/// registration desk `desk`.
fn with_accounts(store: &SqliteStore) {
    add_user(store, "org", Role::Organiser);
    add_user(store, "chief", Role::ChiefArbiter);
    add_user(store, "arb", Role::Arbiter);
    add_user(store, "arb2", Role::Arbiter);
    add_user(store, "desk", Role::Desk);
}

/// `value="…"` of the first input named `name` in an HTML page.
fn input_value(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\" value=\""))?;
    let rest = &html[at + name.len() + 15..];
    Some(rest[..rest.find('"')?].to_string())
}

/// `name=value` of the cookie `name` set by a response.
fn set_cookie(r: &Response, name: &str) -> Option<String> {
    r.headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .find_map(|(_, v)| {
            let first = v.split(';').next()?;
            let (k, val) = first.split_once('=')?;
            (k == name && !val.is_empty()).then(|| first.to_string())
        })
}

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

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Try to log in; the response of `POST /login`.
fn try_login(s: &TestServer, login: &str, pw: &str) -> Response {
    let page = s.get("/login");
    assert_eq!(page.status, 200);
    let token = input_value(&page.text(), "csrf").expect("login form csrf");
    let cookie = set_cookie(&page, "arbiter_login").expect("login csrf cookie");
    s.post_form(
        "/login",
        &[("Cookie", &cookie)],
        &form(&[("login", login), ("password", pw), ("csrf", &token)]),
    )
}

/// A logged-in browser: its session cookie and the session's CSRF token.
struct Browser {
    cookie: String,
    csrf: String,
}

fn login(s: &TestServer, login: &str) -> Browser {
    let r = try_login(s, login, PW);
    assert_eq!(r.status, 303, "login {login}: {}", r.text());
    let cookie = set_cookie(&r, "arbiter_session").expect("session cookie");
    let setc = r
        .headers
        .iter()
        .find(|(k, v)| k == "set-cookie" && v.starts_with("arbiter_session="))
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    assert!(
        setc.contains("HttpOnly") && setc.contains("SameSite=Strict"),
        "{setc}"
    );
    let desk = s.get_with("/desk", &[("Cookie", &cookie)]);
    assert_eq!(desk.status, 200, "{}", desk.text());
    let csrf = input_value(&desk.text(), "csrf").expect("session csrf");
    Browser { cookie, csrf }
}

impl Browser {
    fn get(&self, s: &TestServer, path: &str) -> Response {
        s.get_with(path, &[("Cookie", &self.cookie)])
    }
    fn post(&self, s: &TestServer, path: &str, pairs: &[(&str, &str)]) -> Response {
        let mut p = pairs.to_vec();
        p.push(("csrf", &self.csrf));
        s.post_form(path, &[("Cookie", &self.cookie)], &form(&p))
    }
    fn post_json(&self, s: &TestServer, path: &str, pairs: &[(&str, &str)]) -> Response {
        let mut p = pairs.to_vec();
        p.push(("csrf", &self.csrf));
        s.post_form(
            path,
            &[("Cookie", &self.cookie), ("Accept", "application/json")],
            &form(&p),
        )
    }
}

/// The message a redirect after a form carries (`?ok=` / `?err=`), decoded.
fn flash(r: &Response) -> (bool, String) {
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let (_, q) = loc.split_once('?').unwrap_or((loc, ""));
    let (k, v) = q.split_once('=').unwrap_or(("", ""));
    let bytes = v.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            out.push(u8::from_str_radix(&v[i + 1..i + 3], 16).expect("hex"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    (k == "ok", String::from_utf8_lossy(&out).into_owned())
}

/// Create the Kunshan event through the desk; its id.
fn create_kunshan(s: &TestServer, chief: &Browser) -> String {
    let r = chief.post(
        s,
        "/desk/events",
        &[("preset", "kunshan-2026"), ("toml", "")],
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location").to_string();
    loc.strip_prefix("/desk/e/")
        .expect("event page")
        .to_string()
}

/// Register `n` men of different units (Kunshan: after the deadline, by the chief
/// arbiter's late-entry override).
fn register_men(s: &TestServer, chief: &Browser, ev: &str, n: usize) {
    for i in 0..n {
        let name = format!("棋手{i:02}");
        let unit = format!("单位{}", i % 4);
        let r = chief.post(
            s,
            &format!("/desk/e/{ev}/s/men/entries"),
            &[
                ("name", &name),
                ("sex", "男"),
                ("unit", &unit),
                ("evidence", "social_security"),
                ("late_reason", "组委会同意补报"),
            ],
        );
        let (ok, msg) = flash(&r);
        assert!(ok, "{name}: {msg}");
        assert!(msg.contains("已报名"), "{msg}");
    }
}

fn pair_and_publish(s: &TestServer, arb: &Browser, ev: &str) {
    let r = arb.post(
        s,
        &format!("/desk/e/{ev}/s/men/pair"),
        &[("fix", ""), ("swap", "")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.text();
    assert!(t.contains("已编排") && t.contains("编排说明"), "{t}");
    let (ok, msg) = flash(&arb.post(s, &format!("/desk/e/{ev}/s/men/publish"), &[]));
    assert!(ok, "{msg}");
}

#[test]
fn every_desk_route_refuses_no_session_wrong_role_and_missing_csrf() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    let fill = |p: &str| {
        p.replace("{ev}", &ev)
            .replace("{sec}", "men")
            .replace("{pid}", "1")
    };
    let browsers: Vec<(Role, Browser)> = [
        (Role::Organiser, "org"),
        (Role::ChiefArbiter, "chief"),
        (Role::Arbiter, "arb"),
        (Role::Desk, "desk"),
    ]
    .into_iter()
    .map(|(r, l)| (r, login(&s, l)))
    .collect();
    let mut checked = 0;
    for (method, path, allowed) in arbiter_web::desk::ROUTES {
        let path = fill(path);
        // No session.
        if *method == "GET" {
            let r = s.get(&path);
            assert_eq!(r.status, 303, "GET {path} without session");
            assert!(r
                .header("location")
                .unwrap_or("")
                .starts_with("/login?next="));
        } else {
            let r = s.post_form(&path, &[], "csrf=x");
            assert_eq!(r.status, 401, "POST {path} without session");
        }
        for (role, b) in &browsers {
            if *method == "GET" {
                let r = b.get(&s, &path);
                if allowed.contains(role) {
                    assert_eq!(r.status, 200, "GET {path} as {role}: {}", r.text());
                } else {
                    assert_eq!(r.status, 403, "GET {path} as {role}");
                }
                continue;
            }
            // Without a CSRF token, and with a wrong one: refused whatever the role.
            let r = s.post_form(&path, &[("Cookie", &b.cookie)], "reason=x");
            assert_eq!(r.status, 403, "POST {path} as {role} without CSRF");
            assert!(r.text().contains("CSRF"), "{}", r.text());
            let r = s.post_form(&path, &[("Cookie", &b.cookie)], "csrf=0000");
            assert_eq!(
                r.status, 403,
                "POST {path} as {role} with a wrong CSRF token"
            );
            if !allowed.contains(role) {
                let r = b.post(&s, &path, &[]);
                assert_eq!(r.status, 403, "POST {path} as {role}");
                assert!(r.text().contains("无权操作"), "{}", r.text());
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
    // A session of another browser's CSRF token does not pass.
    let (_, org) = &browsers[0];
    let r = s.post_form(
        "/desk/events",
        &[("Cookie", &org.cookie)],
        &form(&[("preset", "kunshan-2026"), ("csrf", &chief.csrf)]),
    );
    assert_eq!(r.status, 403);
    // Logged out: the session no longer works.
    let r = chief.post(&s, "/logout", &[]);
    assert_eq!(r.status, 303);
    assert_eq!(chief.get(&s, "/desk").status, 303);
}

#[test]
fn logins_are_rate_limited_per_name_and_checked() {
    let s = TestServer::start_with(with_accounts);
    assert_eq!(try_login(&s, "arb", "wrong password").status, 401);
    // The login form's own CSRF token is required.
    let r = s.post_form(
        "/login",
        &[],
        &form(&[("login", "arb"), ("password", PW), ("csrf", "x")]),
    );
    assert_eq!(r.status, 403);
    for _ in 0..4 {
        let r = try_login(&s, "arb", "wrong password");
        assert_eq!(r.status, 401);
        assert!(r.text().contains("登录名或密码错误"), "{}", r.text());
    }
    // Five failures: even the right password waits now, with the time to wait.
    let r = try_login(&s, "arb", PW);
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.text().contains("登录失败次数过多, 请 "), "{}", r.text());
    assert!(r.text().contains("秒后再试"), "{}", r.text());
    // Another account from the same address is not locked out by those five.
    assert_eq!(try_login(&s, "arb2", PW).status, 303);
    // Unknown names fail the same way as wrong passwords.
    assert_eq!(try_login(&s, "nobody", PW).status, 401);
}

#[test]
fn late_entry_override_is_the_chief_arbiters() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_kunshan(&s, &chief);
    let path = format!("/desk/e/{ev}/s/men/entries");
    let entry = [
        ("name", "张三"),
        ("sex", "男"),
        ("unit", "昆山一厂"),
        ("evidence", "social_security"),
    ];
    // After the deadline the desk's entry is refused by the regulation, in plain words.
    let (ok, msg) = flash(&desk.post(&s, &path, &entry));
    assert!(!ok && msg.contains("不符合报名条件"), "{msg}");
    let mut late = entry.to_vec();
    late.push(("late_reason", "报名表邮寄延误"));
    assert_eq!(desk.post(&s, &path, &late).status, 403);
    let (ok, msg) = flash(&chief.post(&s, &path, &late));
    assert!(ok && msg.contains("P1 张三"), "{msg}");
    let page = desk.get(&s, &path).text();
    assert!(
        page.contains("张三") && page.contains("未通过的报名"),
        "{page}"
    );
}

#[test]
fn two_arbiters_at_once_different_boards_land_the_same_board_shows_the_stored_value() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let a = login(&s, "arb");
    let b = login(&s, "arb2");
    pair_and_publish(&s, &a, &ev);
    let path = format!("/desk/e/{ev}/s/men/results");
    // Both at the same time, three boards each.
    let s = std::sync::Arc::new(s);
    let threads: Vec<_> = [(a, [1u32, 3, 5], "1"), (b, [2u32, 4, 6], "0")]
        .into_iter()
        .map(|(who, boards, key)| {
            let s = s.clone();
            let path = path.clone();
            std::thread::spawn(move || {
                for n in boards {
                    let r = who.post_json(&s, &path, &[("board", &n.to_string()), ("result", key)]);
                    assert_eq!(r.status, 200, "{}", r.text());
                    assert_eq!(r.json()["ok"], true);
                }
                who
            })
        })
        .collect();
    let mut who: Vec<Browser> = threads
        .into_iter()
        .map(|t| t.join().expect("thread"))
        .collect();
    let b = who.pop().expect("b");
    let a = who.pop().expect("a");
    let store = s.store();
    let state = store.state(&EventId(ev.clone())).expect("state");
    let round = state
        .section("men")
        .and_then(|x| x.round(1))
        .expect("round 1");
    for board in &round.boards {
        let want = match board.board {
            1 | 3 | 5 => Some(arbiter_types::GameResult::RedWin),
            _ => Some(arbiter_types::GameResult::BlackWin),
        };
        assert_eq!(board.result, want, "board {}", board.board);
    }
    // The same board again: the second arbiter is shown what is stored, nothing changes.
    let r = b.post_json(&s, &path, &[("board", "1"), ("result", "0")]);
    assert_eq!(r.status, 409, "{}", r.text());
    let j = r.json();
    assert_eq!(j["ok"], false);
    assert_eq!(j["stored"], "1-0");
    assert!(
        j["message"].as_str().unwrap_or("").contains("已有成绩 1-0"),
        "{j}"
    );
    assert_eq!(j["entered"], 6);
    // Every entry names the account that made it.
    let log = store.read(&EventId(ev.clone())).expect("log");
    let results: Vec<_> = log
        .iter()
        .filter(|r| r.entry.kind() == "result_entered")
        .collect();
    assert_eq!(results.len(), 6);
    for r in results {
        let arbiter_core::LogEntry::ResultEntered { board, .. } = &r.entry else {
            unreachable!()
        };
        let who = if board % 2 == 1 { "arb" } else { "arb2" };
        assert_eq!(r.actor, who, "board {board}");
    }
    drop(a);
}

#[test]
fn a_whole_round_through_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let arb = login(&s, "arb");
    pair_and_publish(&s, &arb, &ev);
    let grid = arb.get(&s, &format!("/desk/e/{ev}/s/men/results")).text();
    assert!(grid.contains("0 / 6"), "{grid}");
    assert!(grid.contains("/desk/assets/desk.js"));
    let path = format!("/desk/e/{ev}/s/men/results");
    // Plain forms (no script): red wins on boards 1–3, a draw on 4 (corrected below to a
    // red win), black wins on 5, black forfeits on 6.
    let keys = ["1", "1", "1", "=", "0", "f"];
    for (i, k) in keys.iter().enumerate() {
        let board = (i + 1).to_string();
        let (ok, msg) = flash(&arb.post(&s, &path, &[("board", &board), ("result", k)]));
        assert!(ok, "board {board}: {msg}");
    }
    let grid = arb.get(&s, &path).text();
    assert!(grid.contains("6 / 6"), "{grid}");
    let (ok, msg) = flash(&arb.post(&s, &format!("/desk/e/{ev}/s/men/confirm"), &[]));
    assert!(ok, "{msg}");
    // A confirmed result is corrected by the chief arbiter only, with a reason.
    let r = arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/correct"),
        &[
            ("round", "1"),
            ("board", "4"),
            ("result", "1-0"),
            ("reason", "x"),
        ],
    );
    assert_eq!(r.status, 403);
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/s/men/correct"),
        &[
            ("round", "1"),
            ("board", "4"),
            ("result", "1-0"),
            ("reason", "记录员抄错"),
        ],
    ));
    assert!(ok, "{msg}");
    // The standings from the log equal what was entered: after the correction every red
    // player of boards 1–4 and 6 has 2 points (胜2), black of board 5 has 2, the rest 0.
    let store = s.store();
    let state = store.state(&EventId(ev.clone())).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let sec = reg.section("men").expect("men");
    let table =
        arbiter_director::standings::individual(sec, &state, "men", None).expect("standings");
    assert_eq!(table.rounds, 1);
    let rec = state.section("men").expect("men");
    let round = rec.round(1).expect("round");
    let mut winners: Vec<u32> = round
        .boards
        .iter()
        .map(|b| if b.board == 5 { b.black } else { b.red })
        .map(|p| rec.pairing_no(p).expect("number").get())
        .collect();
    winners.sort();
    let mut top: Vec<u32> = table.rows.iter().take(6).map(|r| r.no.get()).collect();
    top.sort();
    assert_eq!(top, winners);
    assert_eq!(table.rows.len(), 12);
    for row in &table.rows {
        let want = if winners.contains(&row.no.get()) {
            "2"
        } else {
            "0"
        };
        assert_eq!(row.points.to_string(), want, "{row:?}");
    }
    // The grid links to the public standings, which show the same table.
    assert!(grid.contains(&format!("/e/{ev}/s/men/standings")), "{grid}");
    let public = s.get(&format!("/e/{ev}/s/men/standings"));
    assert_eq!(public.status, 200);
    assert!(public.text().contains("棋手00"), "{}", public.text());
    // The log page names who did what.
    let log = chief.get(&s, &format!("/desk/e/{ev}/log")).text();
    assert!(
        log.contains("result_corrected") && log.contains("chief"),
        "{log}"
    );
    assert!(
        log.contains("result_entered") && log.contains(">arb<"),
        "{log}"
    );
}

/// `serve --demo`'s account: a chief arbiter `demo` with a fresh random password that logs in
/// to the desk; two demo databases never share a password.
#[test]
fn the_demo_account_logs_in_to_the_desk() {
    let mut password = String::new();
    let s = TestServer::start_with(|store| {
        let (login, pw) = arbiter_web::demo::demo_account(store).expect("demo account");
        assert_eq!(login, "demo");
        let user = store.user("demo").expect("read").expect("stored");
        assert_eq!(user.role, Role::ChiefArbiter);
        password = pw;
    });
    assert_eq!(password.len(), 12);
    assert_eq!(try_login(&s, "demo", "not the password").status, 401);
    assert_eq!(try_login(&s, "demo", &password).status, 303);
    let other = SqliteStore::open_in_memory().expect("store");
    let (_, again) = arbiter_web::demo::demo_account(&other).expect("second demo account");
    assert_ne!(again, password);
}
