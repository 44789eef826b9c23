//! Black-box tests of the accounts and the arbiters' desk: the real server on a random port
//! over a temp SQLite file, driven over HTTP like a browser without JavaScript (and, for the
//! result grid, like its script: `Accept: application/json`).

use crate::common;

use arbiter_store::{AccountStore, EventId, EventStore, Role, SqliteStore};
use common::{Response, TestServer};

pub(crate) use common::desk::{
    create_open_kunshan, form, input_value, login, set_cookie, try_login, upload, with_accounts,
    Browser, PW,
};

/// The message a redirect after a form carries (`?ok=` / `?err=`), decoded.
pub(crate) fn flash(r: &Response) -> (bool, String) {
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let (_, q) = loc.split_once('?').unwrap_or((loc, ""));
    let (k, code) = q.split_once('=').unwrap_or(("", ""));
    // A list's row the redirect returns to (`&row=1#p1`) follows the code.
    let code = code.split(['&', '#']).next().unwrap_or(code);
    // The link carries a code, never the message itself.
    assert!(
        code.len() == 20 && code.bytes().all(|b| b.is_ascii_hexdigit()),
        "{loc}"
    );
    let msg = arbiter_web::desk::flash_message(code).expect("a message given out");
    (k == "ok", msg)
}

/// Create the Kunshan event through the desk; its id.
pub(crate) fn create_kunshan(s: &TestServer, chief: &Browser) -> String {
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

/// Kunshan 2026 with its text changed by `edit` (posted as the regulation's text).
pub(crate) fn create_kunshan_with(
    s: &TestServer,
    chief: &Browser,
    edit: impl Fn(&str) -> String,
) -> String {
    let bundled = include_str!("../../../../regulations/kunshan-2026.toml");
    let src = edit(bundled);
    assert_ne!(src, bundled, "the edit changes the text");
    let r = chief.post(s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}

/// Kunshan with one deadline for every entry: 八(一)'s 15 September (the team forms') as
/// `[registration] deadline`, the way an event with one closing date writes it.
pub(crate) fn create_kunshan_one_deadline(s: &TestServer, chief: &Browser) -> String {
    create_kunshan_with(s, chief, |src| {
        src.replace(
            "team_deadline = 2026-09-15T00:00:00",
            "deadline = 2026-09-15T00:00:00",
        )
    })
}

/// Kunshan without the team forms' deadline (a test of the teams themselves, run after it).
pub(crate) fn create_kunshan_teams_open(s: &TestServer, chief: &Browser) -> String {
    create_kunshan_with(s, chief, |src| {
        src.replace("team_deadline = 2026-09-15T00:00:00", "")
    })
}

/// Register `n` men of different units (Kunshan: after the deadline, by the chief
/// arbiter's late-entry override).
pub(crate) fn register_men(s: &TestServer, chief: &Browser, ev: &str, n: usize) {
    for i in 0..n {
        let name = format!("棋手{i:02}");
        let unit = format!("单位{}", i % 4);
        // K5: 姓名、参赛组别、工作单位、身份证号、社保证号、联系方式.
        let id = id_number("19900101", 2 * i as u32 + 1);
        let phone = format!("139{:08}", i);
        let r = chief.post(
            s,
            &format!("/desk/e/{ev}/s/men/entries"),
            &[
                ("name", &name),
                ("sex", "男"),
                ("unit", &unit),
                ("id_number", &id),
                ("phone", &phone),
                ("social_security", &id),
                ("evidence", "social_security"),
                ("late_reason", "组委会同意补报"),
            ],
        );
        let (ok, msg) = flash(&r);
        assert!(ok, "{name}: {msg}");
        assert!(msg.contains("已报名"), "{msg}");
    }
}

pub(crate) fn pair_and_publish(s: &TestServer, arb: &Browser, ev: &str) {
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
    // P1, for the routes of one entry.
    register_men(&s, &chief, &ev, 1);
    let fill = |p: &str| {
        p.replace("{ev}", &ev)
            .replace("{sec}", "men")
            .replace("{pid}", "1")
            .replace("{sub}", "1")
            .replace("{seq}", "1")
            .replace("{file}", "checkin-men.csv")
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
                // A page that is one of the director's actions refuses in the director's
                // words: those the CLI prints for `--as` the same account.
                if path.ends_with("/pair") {
                    let words = arbiter_director::DirectorError::NotAllowed {
                        action: arbiter_director::permission::Action::PairRound,
                        role: *role,
                    }
                    .to_string();
                    assert!(r.text().contains(&words), "{}", r.text());
                }
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
    let ev = create_kunshan_one_deadline(&s, &chief);
    let path = format!("/desk/e/{ev}/s/men/entries");
    // K5: the ID number, phone and 社保号 Kunshan requires of every entry.
    let id = id_number("19900101", 1);
    let entry = [
        ("name", "张三"),
        ("sex", "男"),
        ("unit", "昆山一厂"),
        ("id_number", id.as_str()),
        ("phone", "13912345678"),
        ("social_security", id.as_str()),
        ("evidence", "social_security"),
    ];
    // After the deadline the desk's entry is refused by the regulation, in plain words: the
    // form again as typed, nothing recorded (refusing is the arbiter's decision).
    let r = desk.post(&s, &path, &entry);
    assert_eq!(r.status, 422, "{}", r.text());
    let page = r.text();
    assert!(
        page.contains("不符合报名条件") && page.contains("value=\"张三\""),
        "{page}"
    );
    assert!(!page.contains("未通过的报名"), "{page}");
    let mut late = entry.to_vec();
    late.push(("late_reason", "报名表邮寄延误"));
    // The director decides who enters late: a 403 in its words, no CLI flag.
    let r = desk.post(&s, &path, &late);
    assert_eq!(r.status, 403, "{}", r.text());
    let page = r.text();
    assert!(
        page.contains("截止后报名只能由裁判长进行, 当前身份是报名处"),
        "{page}"
    );
    assert!(
        !page.contains("--as") && !page.contains("`arbiter"),
        "{page}"
    );
    assert!(entries_of(&s, &ev, "player_registered").is_empty());
    let (ok, msg) = flash(&chief.post(&s, &path, &late));
    assert!(ok && msg.contains("P1 张三"), "{msg}");
    let page = desk.get(&s, &path).text();
    // The refused form was not recorded: only the arbiter's 拒绝 records a refusal.
    assert!(
        page.contains("张三") && !page.contains("未通过的报名"),
        "{page}"
    );
    assert!(entries_of(&s, &ev, "entry_refused").is_empty());
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
    assert!(grid.contains("第1轮 · <b>0/6</b>"), "{grid}");
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
    assert!(grid.contains("第1轮 · <b>6/6</b>"), "{grid}");
    // The director's refusals, as the desk shows them, speak of the desk: never of the
    // CLI's flags or commands.
    let no_cli = |msg: &str| {
        for cli in [
            "--reason", "--amount", "--fix", "--swap", "`arbiter", "`result", "`round",
        ] {
            assert!(!msg.contains(cli), "{cli} in: {msg}");
        }
    };
    // A board with a result, typed again without saying which result it replaces (two
    // arbiters on one board): a conflict naming what is stored, nothing changed.
    let (ok, msg) = flash(&arb.post(&s, &path, &[("board", "1"), ("result", "0")]));
    assert!(
        !ok && msg.contains("已有成绩 1-0") && msg.contains("尚未签字确认"),
        "{msg}"
    );
    no_cli(&msg);
    // Re-entered before confirmation, naming the stored result: replaced (in the finished
    // round, too), and back again.
    for (new, old) in [("0", "1-0"), ("1", "0-1")] {
        let (ok, msg) = flash(&arb.post(
            &s,
            &path,
            &[("board", "1"), ("result", new), ("replaces", old)],
        ));
        assert!(ok && msg.contains("第1台已改为"), "{msg}");
    }
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/s/men/correct"),
        &[
            ("round", "1"),
            ("board", "4"),
            ("result", "1-0"),
            ("reason", " "),
        ],
    ));
    assert!(
        !ok && msg.contains("更正成绩须说明理由") && msg.contains("「理由」栏"),
        "{msg}"
    );
    no_cli(&msg);
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
    // The log page names who did what (the sentences: `desk_log.rs`).
    let log = chief.get(&s, &format!("/desk/e/{ev}/log")).text();
    assert!(
        log.contains("裁判长 chief 裁判")
            && log.contains("更正 男子个人赛 第1轮 第4台 和棋 → 红胜"),
        "{log}"
    );
    assert!(
        log.contains("裁判 arb 裁判") && log.contains("录入 男子个人赛 第1轮 第1台"),
        "{log}"
    );
}

/// The round page offers what may be done now (the director's `command::rounds::available`):
/// before a result, undo but no next pairing (and why); once a board has a result, no undo;
/// with every result in, the next round's form; the registration desk sees none of it; closing
/// a round with boards still open is refused naming them.
#[test]
fn the_round_page_offers_only_what_may_be_done_now() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 4);
    let arb = login(&s, "arb");
    let page = format!("/desk/e/{ev}/s/men/round");
    let t = arb.get(&s, &page).text();
    assert!(
        t.contains("<h2>编排下一轮") && !t.contains("撤销本轮编排"),
        "{t}"
    );
    pair_and_publish(&s, &arb, &ev);
    let t = arb.get(&s, &page).text();
    assert!(
        t.contains("撤销本轮编排") && !t.contains("公布对阵表"),
        "{t}"
    );
    assert!(
        !t.contains("<h2>编排下一轮") && t.contains("轮成绩录完后才能编排下一轮; 尚缺第 1, 2 台"),
        "{t}"
    );
    let (ok, msg) = flash(&arb.post(&s, &format!("/desk/e/{ev}/s/men/complete"), &[]));
    assert!(!ok && msg.contains("1") && msg.contains("2"), "{msg}");
    let results = format!("/desk/e/{ev}/s/men/results");
    let (ok, msg) = flash(&arb.post(&s, &results, &[("board", "1"), ("result", "1")]));
    assert!(ok, "{msg}");
    let t = arb.get(&s, &page).text();
    assert!(
        !t.contains("撤销本轮编排") && t.contains("尚缺第 2 台"),
        "{t}"
    );
    let desk = login(&s, "desk");
    let t = desk.get(&s, &page).text();
    assert!(
        !t.contains("撤销本轮编排")
            && !t.contains("<h2>编排下一轮")
            && !t.contains("id=\"waiting\""),
        "{t}"
    );
    let (ok, msg) = flash(&arb.post(&s, &results, &[("board", "2"), ("result", "=")]));
    assert!(ok, "{msg}");
    let t = arb.get(&s, &page).text();
    assert!(
        t.contains("<h2>编排下一轮") && !t.contains("结束本轮"),
        "{t}"
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

/// A valid 18-digit ID number: born `yyyymmdd`, sequence `seq` (odd = man, even = woman).
pub(crate) fn id_number(born: &str, seq: u32) -> String {
    let body = format!("320583{born}{seq:03}");
    let sum: u64 = body
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| u64::from(c.to_digit(10).expect("digit")) * ((1u64 << (i + 1)) % 11))
        .sum();
    let v = (12 - sum % 11) % 11;
    let c = if v == 10 {
        'X'
    } else {
        char::from_digit(v as u32, 10).expect("digit")
    };
    format!("{body}{c}")
}

/// The log entries of an event of one type, with their actors.
pub(crate) fn entries_of(
    s: &TestServer,
    ev: &str,
    kind: &str,
) -> Vec<(String, arbiter_core::LogEntry)> {
    s.store()
        .read(&EventId(ev.to_string()))
        .expect("log")
        .into_iter()
        .filter(|r| r.entry.kind() == kind)
        .map(|r| (r.actor, r.entry))
        .collect()
}

#[test]
fn an_entry_is_edited_excused_and_withdrawn_at_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let desk = login(&s, "desk");
    let arb = login(&s, "arb");
    let p1 = format!("/desk/e/{ev}/p/1");
    // The registration list links to each entry's page.
    let list = desk.get(&s, &format!("/desk/e/{ev}/s/men/entries")).text();
    assert!(list.contains(&format!("href=\"{p1}\"")), "{list}");
    let page = desk.get(&s, &p1);
    assert_eq!(page.status, 200);
    assert!(page.text().contains("更正报名信息"), "{}", page.text());
    let en = desk.get(&s, &format!("{p1}?lang=en")).text();
    assert!(en.contains("Edit the entry"), "{en}");
    // Edits of P1 (a man, entered with his ID number as K5 requires).
    let edit = |who: &Browser, pairs: &[(&str, &str)]| who.post(&s, &format!("{p1}/edit"), pairs);
    // (He entered with his ID number, K5: a sex against it is refused as such.)
    let base = [
        ("name", "棋手00"),
        ("sex", "男"),
        ("birth", "1990-01-01"),
        ("unit", "单位0"),
    ];
    let her = id_number("19900101", 2);
    let mut contradicts = base.to_vec();
    contradicts[1] = ("sex", "女");
    contradicts.push(("reason", "报名表填错性别"));
    let (ok, msg) = flash(&edit(&desk, &contradicts));
    assert!(!ok && msg.contains("性别与身份证号不符"), "{msg}");
    // A woman's ID number and her sex: refused by the section's sex rule, in plain words.
    let mut with_id = contradicts.clone();
    with_id.push(("id_number", &her));
    let (ok, msg) = flash(&edit(&desk, &with_id));
    assert!(
        !ok && msg.contains("本组限男子") && msg.contains("参赛条件"),
        "{msg}"
    );
    // A reason is required.
    let (ok, msg) = flash(&edit(
        &desk,
        &[
            ("name", "棋手零零"),
            ("sex", "男"),
            ("birth", "1990-01-01"),
            ("reason", ""),
        ],
    ));
    assert!(!ok && msg.contains("理由"), "{msg}");
    // A man's ID number, a new unit and phone: corrected, by the desk's account.
    let his = id_number("19900101", 1);
    let (ok, msg) = flash(&edit(
        &desk,
        &[
            ("name", "棋手00"),
            ("sex", "男"),
            ("unit", "昆山一厂"),
            ("id_number", &his),
            ("birth", "1990-01-01"),
            ("phone", "13812345678"),
            ("reason", "补录身份证号和电话"),
        ],
    ));
    assert!(ok && msg.contains("已更正"), "{msg}");
    let fixes = entries_of(&s, &ev, "player_corrected");
    assert_eq!(fixes.len(), 1);
    assert_eq!(fixes[0].0, "desk");
    let state = s.store().state(&EventId(ev.clone())).expect("state");
    let rec = state.player(arbiter_core::PlayerId(1)).expect("P1");
    assert_eq!(rec.person.unit.as_deref(), Some("昆山一厂"));
    assert_eq!(
        rec.person.id_number.as_ref().map(|i| i.to_string()),
        Some(his.clone())
    );
    assert_eq!(
        rec.person.birth_date.map(|d| d.to_string()).as_deref(),
        Some("1990-01-01")
    );
    // The page shows them masked, never in full.
    let page = desk.get(&s, &p1).text();
    assert!(
        page.contains("昆山一厂") && page.contains("补录身份证号和电话"),
        "{page}"
    );
    assert!(
        !page.contains(&his) && !page.contains("13812345678"),
        "{page}"
    );
    assert!(page.contains("138****5678"), "{page}");
    // Withdrawals and absences are the arbiters'.
    assert_eq!(
        desk.post(
            &s,
            &format!("/desk/e/{ev}/p/3/withdraw"),
            &[("reason", "x")]
        )
        .status,
        403
    );
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/2/absent"),
        &[("round", "1"), ("reason", "家中有事")],
    ));
    assert!(ok && msg.contains("第1轮请假"), "{msg}");
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/2/absent"),
        &[("round", "一"), ("reason", "")],
    ));
    assert!(!ok && msg.contains("轮次"), "{msg}");
    let (ok, msg) = flash(&arb.post(&s, &format!("/desk/e/{ev}/p/3/withdraw"), &[("reason", "")]));
    assert!(!ok && msg.contains("理由"), "{msg}");
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/3/withdraw"),
        &[("reason", "身体不适")],
    ));
    assert!(ok && msg.contains("已退赛"), "{msg}");
    assert_eq!(entries_of(&s, &ev, "player_absent")[0].0, "arb");
    assert_eq!(entries_of(&s, &ev, "player_withdrawn")[0].0, "arb");
    let page = arb.get(&s, &format!("/desk/e/{ev}/p/3")).text();
    assert!(
        page.contains("已退赛") && page.contains("身体不适"),
        "{page}"
    );
    let page = arb.get(&s, &format!("/desk/e/{ev}/p/2")).text();
    assert!(page.contains("请假轮次") && page.contains("1"), "{page}");
    // Round 1: neither the excused nor the withdrawn player is paired.
    pair_and_publish(&s, &arb, &ev);
    let state = s.store().state(&EventId(ev.clone())).expect("state");
    let round = state
        .section("men")
        .and_then(|x| x.round(1))
        .expect("round 1");
    let paired: Vec<u32> = round
        .boards
        .iter()
        .flat_map(|b| [b.red.0, b.black.0])
        .chain(round.byes.iter().map(|p| p.0))
        .collect();
    assert_eq!(paired.len(), 10, "{paired:?}");
    assert!(!paired.contains(&2) && !paired.contains(&3), "{paired:?}");
    // Once round 1 is paired, an absence for it is refused with the director's reason.
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/4/absent"),
        &[("round", "1"), ("reason", "迟到")],
    ));
    assert!(!ok, "{msg}");
}

/// The online form as a phone would fill it: GET (cookie + token), then POST.
pub(crate) fn submit_online(s: &TestServer, ev: &str, pairs: &[(&str, &str)]) -> Response {
    let page = s.get(&format!("/e/{ev}/entry"));
    assert_eq!(page.status, 200, "{}", page.text());
    let token = input_value(&page.text(), "csrf").expect("entry form csrf");
    let cookie = set_cookie(&page, "arbiter_entry").expect("entry csrf cookie");
    let mut p = pairs.to_vec();
    p.push(("csrf", &token));
    s.post_form(&format!("/e/{ev}/entry"), &[("Cookie", &cookie)], &form(&p))
}

#[test]
fn the_online_entry_form_waits_for_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_open_kunshan(&s, &chief);
    let his = id_number("19900101", 1);
    let her = id_number("19920202", 2);
    let phone = "13912345678";
    let man = |name: &'static str, id: &str, ph: &str| -> Vec<(&'static str, String)> {
        vec![
            ("section", "men".into()),
            ("name", name.into()),
            ("sex", "男".into()),
            ("id_number", id.into()),
            ("phone", ph.into()),
            // K5: the 社保号 (not the ID number, which must appear once on the page).
            ("social_security", format!("KS{}", &id[6..14])),
            ("unit", "昆山一厂".into()),
        ]
    };
    let post = |v: &[(&'static str, String)]| {
        let pairs: Vec<(&str, &str)> = v.iter().map(|(k, x)| (*k, x.as_str())).collect();
        submit_online(&s, &ev, &pairs)
    };
    // No login; Chinese first, English on request.
    let page = s.get(&format!("/e/{ev}/entry"));
    assert!(page.text().contains("网上报名") && page.text().contains("身份证号"));
    let en = s.get(&format!("/e/{ev}/entry?lang=en")).text();
    assert!(
        en.contains("Online entry") && en.contains("ID number"),
        "{en}"
    );
    // Without the form's token (or its cookie): refused, nothing recorded.
    let r = s.post_form(
        &format!("/e/{ev}/entry"),
        &[],
        &form(&[("section", "men"), ("name", "张伟"), ("csrf", "x")]),
    );
    assert_eq!(r.status, 403);
    assert!(r.text().contains("CSRF"), "{}", r.text());
    // A woman in the men's section: the reason at once, nothing recorded, her ID and phone
    // not repeated.
    let r = post(&man("李梅", &her, "13700001111"));
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("性别与身份证号不符"), "{}", r.text());
    let mut woman = man("李梅", &her, "13700001111");
    woman[2] = ("sex", "女".into());
    let r = post(&woman);
    assert_eq!(r.status, 422, "{}", r.text());
    let t = r.text();
    assert!(
        t.contains("不符合报名条件") && t.contains("本组限男子"),
        "{t}"
    );
    // Her ID number and phone stay in her own form's fields (to correct), nowhere else.
    assert_eq!(t.matches(her.as_str()).count(), 1, "{t}");
    assert!(t.contains(&format!("value=\"{her}\"")), "{t}");
    assert_eq!(t.matches("13700001111").count(), 1, "{t}");
    assert!(t.contains("value=\"13700001111\""), "{t}");
    // Missing phone, bad ID number: clear reasons.
    let r = post(&man("张伟", &his, ""));
    assert!(
        r.status == 422 && r.text().contains("请填写手机号"),
        "{}",
        r.text()
    );
    let r = post(&man("张伟", "320583199001010000", phone));
    assert!(
        r.status == 422 && r.text().contains("身份证号"),
        "{}",
        r.text()
    );
    assert!(entries_of(&s, &ev, "entry_submitted").is_empty());
    // A valid entry: pending, recorded as `entry_submitted` by `online`.
    let r = post(&man("张伟", &his, phone));
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.text();
    assert!(
        t.contains("报名已提交") && t.contains("#1") && t.contains("等待"),
        "{t}"
    );
    assert!(!t.contains(&his) && !t.contains(phone), "{t}");
    let subs = entries_of(&s, &ev, "entry_submitted");
    assert_eq!(subs.len(), 1);
    assert_eq!(subs[0].0, "online");
    // The same ID number again while pending: recorded all the same, with the same answer
    // (issue 42: the form does not tell whether a number is entered, and a pending entry never
    // blocks another); the desk sees the two side by side.
    let r = post(&man("张伟", &his, phone));
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("报名已提交") && r.text().contains("#2"));
    // Nobody is registered yet; the desk sees the pending entries, masked.
    let state = s.store().state(&EventId(ev.clone())).expect("state");
    assert!(state.players.is_empty());
    assert_eq!(state.pending(Some("men")).len(), 2);
    let list_path = format!("/desk/e/{ev}/s/men/entries");
    let list = desk.get(&s, &list_path).text();
    assert!(
        list.contains("网上报名待审核") && list.contains("张伟"),
        "{list}"
    );
    assert!(list.contains("与待审报名身份证号相同: #1 张伟"), "{list}");
    assert!(
        list.contains("139****5678") && !list.contains(phone),
        "{list}"
    );
    assert!(!list.contains(&his), "{list}");
    // No public page or API answer holds his ID number or phone, even masked.
    let secrets = [
        his.clone(),
        his[..6].to_string() + "********" + &his[14..],
        phone.to_string(),
        "139****5678".to_string(),
    ];
    let public = [
        format!("/e/{ev}"),
        format!("/e/{ev}/entry"),
        format!("/e/{ev}/s/men"),
        format!("/e/{ev}/s/men/standings"),
        format!("/api/events/{ev}"),
        format!("/api/events/{ev}/sections/men/standings"),
        "/".to_string(),
    ];
    for p in &public {
        let t = s.get(p).text();
        for x in &secrets {
            assert!(!t.contains(x.as_str()), "{p} holds {x}");
        }
    }
    // Approval is the normal registration: the documents the section asks for (社保证明)
    // must have been seen.
    let approve = format!("/desk/e/{ev}/sub/1/approve");
    let (ok, msg) = flash(&desk.post(&s, &approve, &[("evidence", "")]));
    assert!(!ok && msg.contains("缺少证明材料"), "{msg}");
    assert_eq!(
        desk.post(
            &s,
            &approve,
            &[("evidence", "社保证明"), ("late_reason", "x")]
        )
        .status,
        403,
        "the late-entry override is the chief arbiter's"
    );
    let (ok, msg) = flash(&desk.post(&s, &approve, &[("evidence", "社保证明")]));
    assert!(
        ok && msg.contains("已批准") && msg.contains("P1 张伟"),
        "{msg}"
    );
    let (ok, msg) = flash(&desk.post(&s, &approve, &[("evidence", "社保证明")]));
    assert!(!ok && msg.contains("已处理"), "{msg}");
    let regs = entries_of(&s, &ev, "player_registered");
    assert_eq!(regs.len(), 1);
    assert_eq!(regs[0].0, "desk");
    let decided = entries_of(&s, &ev, "submission_decided");
    assert_eq!(decided.len(), 1);
    // The duplicate: the desk sees him registered; approving it is refused as a second
    // registration would be, and the desk refuses it.
    let list = desk.get(&s, &list_path).text();
    assert!(list.contains("身份证号已报名: P1 张伟"), "{list}");
    let (ok, msg) = flash(&desk.post(
        &s,
        &format!("/desk/e/{ev}/sub/2/approve"),
        &[("evidence", "社保证明")],
    ));
    assert!(!ok, "{msg}");
    let (ok, msg) = flash(&desk.post(
        &s,
        &format!("/desk/e/{ev}/sub/2/refuse"),
        &[("reason", "重复报名")],
    ));
    assert!(ok, "{msg}");
    // A third entry, refused by the desk with a reason.
    let r = post(&man("王强", &id_number("19850505", 3), "13600002222"));
    assert_eq!(r.status, 200, "{}", r.text());
    let refuse = format!("/desk/e/{ev}/sub/3/refuse");
    let (ok, msg) = flash(&desk.post(&s, &refuse, &[("reason", "")]));
    assert!(!ok && msg.contains("理由"), "{msg}");
    let (ok, msg) = flash(&desk.post(&s, &refuse, &[("reason", "非本单位职工")]));
    assert!(ok && msg.contains("已拒绝"), "{msg}");
    let state = s.store().state(&EventId(ev.clone())).expect("state");
    assert!(state.pending(None).is_empty());
    assert_eq!(
        state.submissions[&3].decision,
        Some(arbiter_core::Decision::Refused("非本单位职工".into()))
    );
    assert_eq!(state.players.len(), 1);
    // The event log page masks what the form gave.
    let log = chief.get(&s, &format!("/desk/e/{ev}/log")).text();
    assert!(
        log.contains("entry_submitted") && !log.contains(&his),
        "{log}"
    );
    // Too large a form, then too many submissions from one address.
    let big = "x".repeat(5000);
    let r = submit_online(&s, &ev, &[("section", "men"), ("name", &big)]);
    assert_eq!(r.status, 413, "{}", r.text());
    let mut limited = false;
    for i in 0..12 {
        let r = post(&man(
            "赵六",
            &id_number("19800101", 5 + 2 * i),
            "13500003333",
        ));
        if r.status == 429 {
            assert!(r.text().contains("提交次数过多"), "{}", r.text());
            limited = true;
            break;
        }
    }
    assert!(limited, "the form is rate-limited per address");
}

#[test]
fn the_online_form_says_closed_after_the_deadline() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    // Kunshan with one closing date for all entries: 2026-09-15.
    let ev = create_kunshan_one_deadline(&s, &chief);
    // Closed, said before anyone types: no form to fill.
    let page = s.get(&format!("/e/{ev}/entry"));
    assert_eq!(page.status, 200, "{}", page.text());
    let t = page.text();
    assert!(
        t.contains("报名已截止") && t.contains("2026-09-15 00:00"),
        "{t}"
    );
    assert!(!t.contains("id=\"entry-form\""), "{t}");
    assert!(input_value(&t, "csrf").is_none(), "{t}");
    // A form posted anyway (no token to be had): refused, nothing recorded.
    let r = s.post_form(
        &format!("/e/{ev}/entry"),
        &[],
        &form(&[("section", "men"), ("name", "张伟"), ("csrf", "x")]),
    );
    assert_eq!(r.status, 403);
    assert!(entries_of(&s, &ev, "entry_submitted").is_empty());
    // An unknown event: 404.
    assert_eq!(s.get("/e/ev-99999999/entry").status, 404);
}

#[test]
fn settings_change_and_the_chief_arbiters_rules_after_round_one() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let arb = login(&s, "arb");
    let desk = login(&s, "desk");
    let ev = create_kunshan(&s, &chief);
    let path = format!("/desk/e/{ev}/settings");
    let page = arb.get(&s, &path).text();
    assert!(
        page.contains("赛事设置") && page.contains("rounds.men"),
        "{page}"
    );
    // Before round 1 an arbiter changes the venue and the dates; the public home shows them.
    let (ok, msg) = flash(&arb.post(
        &s,
        &path,
        &[
            ("venue", "昆山市体育中心二楼"),
            ("start", "2026-10-10"),
            ("end", "2026-10-11"),
            ("reason", ""),
        ],
    ));
    assert!(ok && msg.contains("已更改"), "{msg}");
    let home = s.get(&format!("/e/{ev}")).text();
    assert!(
        home.contains("昆山市体育中心二楼") && home.contains("2026-10-10 — 2026-10-11"),
        "{home}"
    );
    // Nothing changed / bad values: clear refusals.
    let (ok, msg) = flash(&arb.post(&s, &path, &[("venue", "昆山市体育中心二楼")]));
    assert!(!ok && msg.contains("没有任何更改"), "{msg}");
    let (ok, msg) = flash(&arb.post(&s, &path, &[("start", "2026-10-12")]));
    assert!(!ok && msg.contains("晚于结束日期"), "{msg}");
    let (ok, msg) = flash(&arb.post(&s, &path, &[("rounds.men", "九")]));
    assert!(!ok && msg.contains("轮数"), "{msg}");
    // The desk may not change settings.
    assert_eq!(desk.post(&s, &path, &[("venue", "x")]).status, 403);
    // Round 1 paired: the arbiter is refused with a clear message, the chief needs a reason.
    register_men(&s, &chief, &ev, 12);
    pair_and_publish(&s, &arb, &ev);
    let r = arb.post(&s, &path, &[("rounds.men", "7"), ("reason", "时间不够")]);
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(
        r.text().contains("更改赛事设置只能由裁判长进行"),
        "{}",
        r.text()
    );
    let (ok, msg) = flash(&chief.post(&s, &path, &[("rounds.men", "7"), ("reason", "")]));
    assert!(!ok && msg.contains("理由"), "{msg}");
    let (ok, msg) = flash(&chief.post(&s, &path, &[("rounds.men", "0"), ("reason", "x")]));
    assert!(!ok && msg.contains("轮数不能设为 0"), "{msg}");
    let (ok, msg) = flash(&chief.post(
        &s,
        &path,
        &[
            ("rounds.men", "7"),
            ("name", "2026年昆山市职工象棋赛"),
            ("reason", "场馆时间缩短, 经组委会同意改为7轮"),
        ],
    ));
    assert!(ok, "{msg}");
    let changes = entries_of(&s, &ev, "settings_changed");
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[0].0, "arb");
    assert_eq!(changes[1].0, "chief");
    let state = s.store().state(&EventId(ev.clone())).expect("state");
    assert_eq!(state.name(), "2026年昆山市职工象棋赛");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    assert_eq!(reg.section("men").expect("men").format.rounds, Some(7));
    let page = chief.get(&s, &path).text();
    assert!(page.contains("只有裁判长"), "{page}");
    let home = s.get(&format!("/e/{ev}")).text();
    assert!(home.contains("2026年昆山市职工象棋赛"), "{home}");
    // A confirmed result: the arbiter can neither re-enter nor correct it; the chief corrects.
    let results = format!("/desk/e/{ev}/s/men/results");
    for b in 1..=6 {
        let (ok, msg) =
            flash(&arb.post(&s, &results, &[("board", &b.to_string()), ("result", "1")]));
        assert!(ok, "{msg}");
    }
    let (ok, msg) = flash(&arb.post(&s, &format!("/desk/e/{ev}/s/men/confirm"), &[]));
    assert!(ok, "{msg}");
    let (ok, msg) = flash(&arb.post(&s, &results, &[("board", "1"), ("result", "0")]));
    assert!(!ok && msg.contains("裁判长"), "{msg}");
    let correct = format!("/desk/e/{ev}/s/men/correct");
    let fix = [
        ("round", "1"),
        ("board", "1"),
        ("result", "0-1"),
        ("reason", "记录员抄错"),
    ];
    let r = arb.post(&s, &correct, &fix);
    assert_eq!(r.status, 403);
    assert!(
        r.text().contains("无权操作") && r.text().contains("裁判长"),
        "{}",
        r.text()
    );
    let (ok, msg) = flash(&chief.post(&s, &correct, &fix));
    assert!(ok, "{msg}");
    let fixes = entries_of(&s, &ev, "result_corrected");
    assert_eq!(fixes.len(), 1);
    assert_eq!(fixes[0].0, "chief");
}

#[test]
fn teams_with_leader_coach_and_roster_at_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let arb = login(&s, "arb");
    let ev = create_kunshan_teams_open(&s, &chief);
    // P1, P5, P9 of 单位0; P2 of 单位1.
    register_men(&s, &chief, &ev, 12);
    let path = format!("/desk/e/{ev}/teams");
    let page = desk.get(&s, &path).text();
    assert!(page.contains("报名队伍") && page.contains("甲组"), "{page}");
    let team = |members: &str, coach: &str| {
        vec![
            ("team", "单位0一队".to_string()),
            ("unit", "单位0".to_string()),
            ("division", "a".to_string()),
            ("members", members.to_string()),
            ("leader", "周领队".to_string()),
            ("coach", coach.to_string()),
        ]
    };
    let post = |who: &Browser, v: Vec<(&str, String)>| {
        let pairs: Vec<(&str, &str)> = v.iter().map(|(k, x)| (*k, x.as_str())).collect();
        who.post(&s, &path, &pairs)
    };
    // The regulation's rules, in plain words (K3: a coach; K2: one unit).
    let (ok, msg) = flash(&post(&desk, team("P1 P5 P9", "")));
    assert!(!ok && msg.contains("教练"), "{msg}");
    let (ok, msg) = flash(&post(&desk, team("P1 P5 P2", "吴教练")));
    assert!(!ok && msg.contains("跨单位"), "{msg}");
    let (ok, msg) = flash(&post(&desk, team("P1 P5 张三", "吴教练")));
    assert!(!ok && msg.contains("张三"), "{msg}");
    assert_eq!(post(&arb, team("P1 P5 P9", "吴教练")).status, 403);
    let (ok, msg) = flash(&post(&desk, team("P1 P5 P9", "吴教练")));
    assert!(ok && msg.contains("已报名"), "{msg}");
    let teams = entries_of(&s, &ev, "team_entered");
    assert_eq!(teams.len(), 1);
    assert_eq!(teams[0].0, "desk");
    let page = arb.get(&s, &path).text();
    for x in [
        "单位0一队",
        "周领队",
        "吴教练",
        "甲组",
        "P1 棋手00",
        "P5 棋手04",
        "P9 棋手08",
    ] {
        assert!(page.contains(x), "{x}: {page}");
    }
    let en = arb.get(&s, &format!("{path}?lang=en")).text();
    assert!(en.contains("Leader") && en.contains("Members"), "{en}");
}

/// The Kunshan event simulated (12 players a section) until the women's section reaches its
/// knockout stage, before any knockout game is recorded; its id.
pub(crate) fn to_knockout(store: &SqliteStore) -> EventId {
    use arbiter_core::LogEntry;
    let text = include_str!("../../../../regulations/kunshan-2026.toml");
    let reg = arbiter_regulation::parse(text, "kunshan-2026.toml").expect("regulation");
    let event = store.create_event(&reg.event.name).expect("event");
    let sizes = arbiter_simulate::Sizes {
        all: Some(12),
        ..Default::default()
    };
    let mut sim = arbiter_simulate::Simulator::new(reg, text, "kunshan-2026.toml", 1, &sizes);
    let mut state = arbiter_core::EventState::new();
    while let Some(batch) = sim.next_batch(&state).expect("batch") {
        let cut = batch
            .entries
            .iter()
            .position(|e| matches!(e, LogEntry::KnockoutGameRecorded { .. }))
            .unwrap_or(batch.entries.len());
        if cut > 0 {
            let expected = state.last_seq;
            store
                .append(
                    &event,
                    expected,
                    &batch.entries[..cut],
                    &batch.actor,
                    &batch.at,
                )
                .expect("append");
            for r in batch.recorded(expected).take(cut) {
                state.apply(&r).expect("fold");
            }
        }
        if cut < batch.entries.len() {
            break;
        }
    }
    event
}

#[test]
fn knockout_games_are_entered_at_the_desk() {
    let mut id = None;
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        id = Some(to_knockout(store));
    });
    let ev = id.expect("event").0;
    let arb = login(&s, "arb");
    let desk = login(&s, "desk");
    let path = format!("/desk/e/{ev}/s/women/knockout");
    let page = arb.get(&s, &path);
    assert_eq!(page.status, 200, "{}", page.text());
    let html = page.text();
    assert!(
        html.contains("待录入的对局") && html.contains("对阵图"),
        "{html}"
    );
    // The first game due: its board, match and game from the form.
    // The keyboard grid's form (board and one key, as the Swiss results) above the games.
    assert!(
        html.contains(r#"id="entry" data-post="1""#) && html.contains(r#"id="board""#),
        "{html}"
    );
    let at = html
        .find("<table class=\"grid sheet\" id=\"sheet\"")
        .expect("due games");
    let due = &html[at..];
    let board = due
        .split("data-board=\"")
        .nth(1)
        .and_then(|x| x.split('"').next())
        .expect("a due board")
        .to_string();
    let mid = input_value(due, "match_id").expect("match id");
    let game = input_value(due, "game").expect("game");
    assert_eq!(game, "0");
    let form = [
        ("board", board.as_str()),
        ("match_id", mid.as_str()),
        ("game", game.as_str()),
        ("result", "1-0"),
    ];
    assert_eq!(desk.post(&s, &path, &form).status, 403);
    // A board with no game due: the director's reason.
    let (ok, msg) = flash(&arb.post(&s, &path, &[("board", "99"), ("result", "1-0")]));
    assert!(!ok && msg.contains("没有待下的对局"), "{msg}");
    let (ok, msg) = flash(&arb.post(&s, &path, &form));
    assert!(ok && msg.contains(&format!("第{board}台")), "{msg}");
    let games = entries_of(&s, &ev, "knockout_game_recorded");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].0, "arb");
    let arbiter_core::LogEntry::KnockoutGameRecorded {
        match_id, game: g, ..
    } = &games[0].1
    else {
        unreachable!()
    };
    assert_eq!((match_id.as_str(), *g), (mid.as_str(), 0));
    // The same form again (the game is no longer due): refused, nothing recorded twice.
    let (ok, msg) = flash(&arb.post(&s, &path, &form));
    assert!(!ok, "{msg}");
    assert_eq!(entries_of(&s, &ev, "knockout_game_recorded").len(), 1);
    // The bracket now shows the game.
    let html = arb.get(&s, &path).text();
    assert!(html.contains("红胜"), "{html}");
    // The keyboard grid sends the board and the key only: the game due on that board is
    // the one recorded.
    let at = html.find("id=\"sheet\"").expect("due games");
    let next = html[at..]
        .split("data-board=\"")
        .nth(1)
        .and_then(|x| x.split('"').next())
        .expect("a due board")
        .to_string();
    let next_mid = input_value(&html[at..], "match_id").expect("match id");
    let (ok, msg) = flash(&arb.post(
        &s,
        &path,
        &[
            ("board", next.as_str()),
            ("result", "0-1"),
            ("fouls_red", "0"),
            ("fouls_black", "0"),
            ("replaces", ""),
        ],
    ));
    assert!(ok && msg.contains(&format!("第{next}台")), "{msg}");
    let games = entries_of(&s, &ev, "knockout_game_recorded");
    assert_eq!(games.len(), 2);
    let arbiter_core::LogEntry::KnockoutGameRecorded { match_id, .. } = &games[1].1 else {
        unreachable!()
    };
    assert_eq!(match_id, &next_mid);
    // A Swiss section says it has no knockout stage.
    let men = arb.get(&s, &format!("/desk/e/{ev}/s/men/knockout")).text();
    assert!(men.contains("没有淘汰赛阶段"), "{men}");
}

/// 昆山 五(一)12: 「运动员在比赛时接打手机或查看短信，一经发现后计犯规1次，第2次则判负。」 and
/// the rules' 「同一局棋中犯规三次判负」 (A11) apply to the women's knockout games at the desk:
/// the knockout form takes each colour's fouls and a phone foul; three fouls of red make the
/// game red's loss (a red win is refused with the rule), the first phone foul is a foul only.
#[test]
fn knockout_fouls_are_entered_at_the_desk_and_decide_the_game() {
    let mut id = None;
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        id = Some(to_knockout(store));
    });
    let ev = id.expect("event").0;
    let arb = login(&s, "arb");
    let path = format!("/desk/e/{ev}/s/women/knockout");
    let html = arb.get(&s, &path).text();
    assert!(
        html.contains("name=\"fouls_red\"") && html.contains("name=\"phone\""),
        "{html}"
    );
    let due_at = |html: &str, n: usize| -> (String, String, String) {
        let at = html
            .find("<table class=\"grid sheet\" id=\"sheet\"")
            .expect("due games");
        let row = html[at..]
            .split("<tr data-board=\"")
            .nth(n)
            .expect("a due row")
            .to_string();
        let board = row.split('"').next().expect("board").to_string();
        (
            board,
            input_value(&row, "match_id").expect("match id"),
            input_value(&row, "game").expect("game"),
        )
    };
    let (board, mid, game) = due_at(&html, 1);
    let form = |result: &'static str| {
        vec![
            ("board", board.clone()),
            ("match_id", mid.clone()),
            ("game", game.clone()),
            ("result", result.to_string()),
            ("fouls_red", "3".to_string()),
            ("phone", String::new()),
        ]
    };
    let post = |f: Vec<(&str, String)>| {
        let f: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
        flash(&arb.post(&s, &path, &f))
    };
    let (ok, msg) = post(form("1-0"));
    assert!(!ok && msg.contains("判负") && msg.contains("0-1"), "{msg}");
    assert!(entries_of(&s, &ev, "knockout_game_recorded").is_empty());
    let (ok, msg) = post(form("0-1"));
    assert!(ok, "{msg}");
    let games = entries_of(&s, &ev, "knockout_game_recorded");
    let arbiter_core::LogEntry::KnockoutGameRecorded { fouls, result, .. } = &games[0].1 else {
        unreachable!()
    };
    assert_eq!(*result, arbiter_types::GameResult::BlackWin);
    assert_eq!(fouls.len(), 3, "{fouls:?}");
    assert!(fouls.iter().all(|f| f.colour == arbiter_types::Colour::Red));
    // The next board: black's first phone foul is a foul, not yet a loss (K12: the 2nd).
    let html = arb.get(&s, &path).text();
    let (board2, mid2, game2) = due_at(&html, 1);
    let (ok, msg) = post(vec![
        ("board", board2),
        ("match_id", mid2),
        ("game", game2),
        ("result", "0-1".to_string()),
        ("phone", "black".to_string()),
    ]);
    assert!(ok, "{msg}");
    let games = entries_of(&s, &ev, "knockout_game_recorded");
    let arbiter_core::LogEntry::KnockoutGameRecorded { fouls, .. } = &games[1].1 else {
        unreachable!()
    };
    assert_eq!(fouls.len(), 1);
    assert_eq!(fouls[0].kind, arbiter_core::FoulKind::Phone);
    assert_eq!(fouls[0].colour, arbiter_types::Colour::Black);
}

/// The desk prints the same documents as `arbiter print`, as A4 HTML: the list of documents,
/// the pairing list of the round just paired (every player named, boards numbered), a refusal
/// for an unknown document, and no ID number on the check-in sheet.
#[test]
fn the_desk_prints_the_documents_of_an_event() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let arb = login(&s, "arb");
    pair_and_publish(&s, &arb, &ev);
    let event_page = arb.get(&s, &format!("/desk/e/{ev}")).text();
    assert!(
        event_page.contains(&format!("/desk/e/{ev}/print")),
        "{event_page}"
    );
    let list = arb.get(&s, &format!("/desk/e/{ev}/print"));
    assert_eq!(list.status, 200);
    let list = list.text();
    for doc in [
        "checkin",
        "pairings",
        "slips",
        "standings",
        "certificates",
        "table-cards",
        "name-cards",
        "wall-pairings",
        "prize-receipts",
        "cash",
        "programme",
        "results-book",
    ] {
        assert!(list.contains(&format!("doc={doc}")), "{doc}: {list}");
    }
    // The hall's papers and the programme from the same list (issue 47).
    let cards = arb
        .get(
            &s,
            &format!("/desk/e/{ev}/print?doc=table-cards&section=men&round=1"),
        )
        .text();
    assert!(
        cards.contains("class=\"tcard\"") && cards.contains("棋手00"),
        "{cards}"
    );
    let programme = arb.get(&s, &format!("/desk/e/{ev}/print?doc=programme"));
    assert_eq!(programme.status, 200, "{}", programme.text());
    let programme = programme.text();
    assert!(
        programme.contains("秩序册") && programme.contains("三、参赛名单"),
        "{programme}"
    );
    let r = arb.get(
        &s,
        &format!("/desk/e/{ev}/print?doc=pairings&section=men&round=1"),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert!(html.contains("@page"), "A4 print CSS");
    for i in 0..12 {
        let name = format!("棋手{i:02}");
        assert!(html.contains(&name), "{name} missing from the pairing list");
    }
    let bad = arb.get(&s, &format!("/desk/e/{ev}/print?doc=nonsense"));
    assert_eq!(bad.status, 400);
    let bad = arb.get(&s, &format!("/desk/e/{ev}/print?doc=pairings&round=x"));
    assert_eq!(bad.status, 400);
    let checkin = arb
        .get(&s, &format!("/desk/e/{ev}/print?doc=checkin"))
        .text();
    assert!(checkin.contains("棋手00"), "{checkin}");
    let no_session = s.get(&format!("/desk/e/{ev}/print?doc=pairings"));
    assert_ne!(no_session.status, 200);
}

#[test]
fn a_units_entry_form_is_checked_then_imported_at_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_open_kunshan(&s, &chief);
    let path = format!("/desk/e/{ev}/import");
    let page = desk.get(&s, &path);
    assert_eq!(page.status, 200);
    assert!(page.text().contains("multipart/form-data") && page.text().contains("预检"));
    // A unit's CSV as Chinese Excel saves it (GBK), under a title row; row 5 has an ID
    // number Excel turned into a number, row 6 an unknown section.
    let (a, b2, c) = (
        id_number("19900101", 11),
        id_number("19910202", 13),
        id_number("19920303", 15),
    );
    let csv = format!(
        "昆山一厂报名表,,,,,,,\n姓名,性别,身份证号,单位,组别,证明,手机号,社保号\n张一,男,{a},昆山一厂,men,social_security,13912340001,{a}\n李二,男,{b2},昆山一厂,men,social_security,13912340002,{b2}\n王三,男,6.20502E+17,昆山一厂,men,social_security,13912340003,KS0003\n赵四,男,{c},昆山一厂,青年组,social_security,13912340004,{c}\n"
    );
    let (gbk, _, _) = encoding_rs::GBK.encode(&csv);
    let before = s.store().read(&EventId(ev.clone())).expect("log").len();
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("section", ""), ("mode", "check")],
        ("昆山一厂.csv", &gbk),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.text();
    assert!(t.contains("预检") && t.contains("未写入任何数据"), "{t}");
    assert!(
        t.contains("可报名 2 行") && t.contains("有错误 2 行"),
        "{t}"
    );
    assert!(t.contains("Excel 把身份证号存成了数字"), "{t}");
    assert!(
        t.contains("<td>5</td>") && t.contains("C5"),
        "row 5, cell C5: {t}"
    );
    assert!(t.contains("<td>6</td>") && t.contains("青年组"), "{t}");
    assert_eq!(
        s.store().read(&EventId(ev.clone())).expect("log").len(),
        before,
        "a dry run writes nothing"
    );
    // Without the session's token: refused, nothing written.
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", "0000"), ("mode", "import")],
        ("昆山一厂.csv", &gbk),
    );
    assert_eq!(r.status, 403, "{}", r.text());
    // Imported: the two valid rows registered (by the desk account), the others listed.
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("section", ""), ("mode", "import")],
        ("昆山一厂.csv", &gbk),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.text();
    assert!(
        t.contains("已报名 2 人") && t.contains("有错误未导入 2 行"),
        "{t}"
    );
    let reg = entries_of(&s, &ev, "player_registered");
    let names: Vec<String> = reg
        .iter()
        .map(|(actor, e)| match e {
            arbiter_core::LogEntry::PlayerRegistered(p) => format!("{actor}:{}", p.person.name),
            _ => String::new(),
        })
        .collect();
    assert_eq!(names, vec!["desk:张一", "desk:李二"]);
    // The same file again: the two are already entered (the log's own rule), listed as such.
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("mode", "import")],
        ("昆山一厂.csv", &gbk),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(entries_of(&s, &ev, "player_registered").len(), 2);
    // A file that is not a roster at all: the reason, nothing written.
    let r = upload(
        &s,
        &desk,
        &path,
        &[("csrf", &desk.csrf), ("mode", "import")],
        ("坏.xlsx", b"PK\x03\x04 not really a zip"),
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("无法读取 xlsx 工作簿"), "{}", r.text());
}

/// An online entry recorded (`entry_submitted`, actor `online`) at `at`, as the public form
/// appends it; its number.
fn submitted_at(s: &TestServer, ev: &str, name: &str, id: &str, at: &str) -> u32 {
    let store = s.store();
    let event = EventId(ev.to_string());
    let state = store.state(&event).expect("state");
    let n = state.next_submission();
    let e = arbiter_core::LogEntry::EntrySubmitted {
        submission: n,
        section: "men".into(),
        person: arbiter_types::Person {
            name: name.into(),
            sex: None,
            birth_date: None,
            id_number: Some(arbiter_types::IdNumber::parse(id).expect("id")),
            phone: Some(arbiter_types::Phone::parse("13912345678").expect("phone")),
            // K5: Kunshan requires the 社保号; the ID number serves.
            social_security: Some(arbiter_types::SocialSecurityNo::parse(id).expect("社保号")),
            unit: Some("昆山一厂".into()),
            ..arbiter_types::Person::default()
        },
        flags: Vec::new(),
        evidence: Vec::new(),
        status_key: None,
    };
    store
        .append(&event, state.last_seq, &[e], "online", at)
        .expect("append");
    n
}

#[test]
fn an_online_entry_submitted_on_time_is_approved_after_the_deadline_without_override() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    // Kunshan with one closing date (2026-09-15); the desk approves today, after it.
    let ev = create_kunshan_one_deadline(&s, &chief);
    let on_time = submitted_at(
        &s,
        &ev,
        "张伟",
        &id_number("19900101", 1),
        "2026-09-10T20:15:00+08:00",
    );
    let approve = |n: u32| format!("/desk/e/{ev}/sub/{n}/approve");
    let (ok, msg) = flash(&desk.post(&s, &approve(on_time), &[("evidence", "社保证明")]));
    assert!(ok && msg.contains("已批准"), "{msg}");
    let regs = entries_of(&s, &ev, "player_registered");
    assert_eq!(regs.len(), 1);
    assert_eq!(regs[0].0, "desk");
    match &regs[0].1 {
        arbiter_core::LogEntry::PlayerRegistered(r) => {
            assert_eq!(r.submission, Some(on_time));
            assert_eq!(r.late_reason, None, "no override was needed");
        }
        other => panic!("{other:?}"),
    }
    // A submission recorded after the deadline still needs the chief arbiter's override.
    let late = submitted_at(
        &s,
        &ev,
        "李强",
        &id_number("19910101", 3),
        "2026-09-16T08:00:00+08:00",
    );
    // The pending list shows when each entry was submitted.
    let list = desk.get(&s, &format!("/desk/e/{ev}/s/men/entries")).text();
    assert!(list.contains("2026-09-16 08:00"), "{list}");
    let (ok, msg) = flash(&desk.post(&s, &approve(late), &[("evidence", "社保证明")]));
    assert!(!ok && msg.contains("截止"), "{msg}");
    let (ok, msg) = flash(&chief.post(
        &s,
        &approve(late),
        &[("evidence", "社保证明"), ("late_reason", "组委会同意补报")],
    ));
    assert!(ok && msg.contains("已批准"), "{msg}");
    assert_eq!(entries_of(&s, &ev, "player_registered").len(), 2);
    let log = s.store().read(&EventId(ev.clone())).expect("log");
    assert!(arbiter_director::verify(&log, None).is_empty());
}

#[test]
fn a_team_roster_is_changed_at_the_desk_and_after_the_first_game_by_the_chief() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let arb = login(&s, "arb");
    let ev = create_kunshan_teams_open(&s, &chief);
    // P1, P5, P9, P13 of 单位0; P2 of 单位1.
    register_men(&s, &chief, &ev, 13);
    let path = format!("/desk/e/{ev}/teams");
    let (ok, msg) = flash(&desk.post(
        &s,
        &path,
        &[
            ("team", "单位0一队"),
            ("unit", "单位0"),
            ("division", "a"),
            ("members", "P1 P5 P9"),
            ("leader", "周领队"),
            ("coach", "吴教练"),
        ],
    ));
    assert!(ok, "{msg}");
    let page = desk.get(&s, &path).text();
    assert!(
        page.contains("更改队伍名单") && page.contains("change-roster"),
        "{page}"
    );
    let roster = format!("{path}/roster");
    let change = |who: &Browser, action: &str, player: &str, by: &str, reason: &str| {
        who.post(
            &s,
            &roster,
            &[
                ("team", "单位0一队"),
                ("action", action),
                ("player", player),
                ("by", by),
                ("reason", reason),
            ],
        )
    };
    let (ok, msg) = flash(&change(&desk, "add", "P13", "", ""));
    assert!(ok && msg.contains("名单已更改"), "{msg}");
    assert!(desk.get(&s, &path).text().contains("P13 棋手12"));
    let (ok, msg) = flash(&change(&desk, "add", "P2", "", ""));
    assert!(!ok && msg.contains("跨单位"), "{msg}");
    let (ok, msg) = flash(&change(&desk, "add", "张三", "", ""));
    assert!(!ok && msg.contains("张三"), "{msg}");
    let (ok, msg) = flash(&change(&desk, "remove", "P13", "", ""));
    assert!(ok, "{msg}");
    let (ok, msg) = flash(&change(&desk, "replace", "P9", "", ""));
    assert!(!ok && msg.contains("替换"), "{msg}");
    let (ok, msg) = flash(&change(&desk, "replace", "P9", "P13", ""));
    assert!(ok, "{msg}");
    assert_eq!(change(&arb, "remove", "P1", "", "").status, 403);
    // Round 1 paired: the team has played; only the chief arbiter, with a reason.
    pair_and_publish(&s, &arb, &ev);
    assert!(desk.get(&s, &path).text().contains("只有裁判长"));
    let r = change(&desk, "replace", "P13", "P9", "伤病");
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("只能由裁判长进行"), "{}", r.text());
    let (ok, msg) = flash(&change(&chief, "replace", "P13", "P9", ""));
    assert!(!ok && msg.contains("理由"), "{msg}");
    let (ok, msg) = flash(&change(
        &chief,
        "replace",
        "P13",
        "P9",
        "P13 因伤退出团体, 经裁判长批准",
    ));
    assert!(ok, "{msg}");
    let changes = entries_of(&s, &ev, "team_roster_changed");
    assert_eq!(changes.len(), 4);
    assert_eq!(changes[3].0, "chief");
    let state = s.store().state(&EventId(ev.clone())).expect("state");
    let team = &state.teams["单位0一队"];
    let mut members: Vec<u32> = team.members.iter().map(|p| p.0).collect();
    members.sort_unstable();
    assert_eq!(members, vec![1, 5, 9]);
    let p = |n: u32| state.player(arbiter_core::PlayerId(n)).expect("player");
    assert_eq!(p(9).team.as_deref(), Some("单位0一队"));
    assert_eq!(p(13).team, None);
}

#[test]
fn the_time_control_is_a_setting_and_printed_on_the_pairing_list() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let arb = login(&s, "arb");
    let ev = create_kunshan(&s, &chief);
    let path = format!("/desk/e/{ev}/settings");
    // The regulation's time control (K8: 25′+5″), shown and in the form.
    let page = arb.get(&s, &path).text();
    assert!(
        page.contains("比赛用时") && page.contains("每方25分钟，每步加5秒"),
        "{page}"
    );
    assert!(page.contains("name=\"time.men\" value=\"25+5\""), "{page}");
    let (ok, msg) = flash(&arb.post(&s, &path, &[("time.men", "六十分钟")]));
    assert!(!ok && msg.contains("比赛用时"), "{msg}");
    let (ok, msg) = flash(&arb.post(&s, &path, &[("time.men", "25+5")]));
    assert!(!ok && msg.contains("没有任何更改"), "{msg}");
    let (ok, msg) = flash(&arb.post(&s, &path, &[("time.men", "60分+30秒")]));
    assert!(ok, "{msg}");
    let page = arb.get(&s, &path).text();
    assert!(page.contains("每方60分钟，每步加30秒"), "{page}");
    match &entries_of(&s, &ev, "settings_changed")[0].1 {
        arbiter_core::LogEntry::SettingsChanged { time_controls, .. } => {
            let tc = time_controls["men"];
            assert_eq!((tc.minutes, tc.increment_seconds), (60, 30));
        }
        other => panic!("{other:?}"),
    }
    // After round 1 only the chief arbiter, with a reason; the pairing list prints it.
    register_men(&s, &chief, &ev, 12);
    pair_and_publish(&s, &arb, &ev);
    let r = arb.post(&s, &path, &[("time.men", "45+15"), ("reason", "x")]);
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("只能由裁判长进行"), "{}", r.text());
    let (ok, msg) = flash(&chief.post(
        &s,
        &path,
        &[("time.men", "45+15"), ("reason", "场馆时间缩短")],
    ));
    assert!(ok, "{msg}");
    let html = arb
        .get(
            &s,
            &format!("/desk/e/{ev}/print?doc=pairings&section=men&round=1"),
        )
        .text();
    assert!(
        html.contains("比赛用时") && html.contains("每方45分钟，每步加15秒"),
        "{html}"
    );
}

/// A cell of a re-read workbook as text (numbers as the JSON API writes them: `3`, `2.5`).
fn cell_text(d: &calamine::Data) -> String {
    match d {
        calamine::Data::Float(f) if f.fract() == 0.0 => format!("{}", *f as i64),
        calamine::Data::Int(i) => i.to_string(),
        other => other.to_string(),
    }
}

/// The text of a PDF, read back with poppler's `pdftotext`.
fn pdf_text(bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join("doc.pdf");
    std::fs::write(&p, bytes).expect("write pdf");
    let o = std::process::Command::new("pdftotext")
        .arg(&p)
        .arg("-")
        .output()
        .expect(
            "pdftotext 未安装: 需要 poppler-utils (apt-get install poppler-utils) — \
             pdftotext not found: the PDF tests need poppler-utils",
        );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The desk's downloads of a simulated event: the pairing list as a PDF attachment (named in
/// Chinese by RFC 5987) that poppler reads back with the event's and the players' names; the
/// standings in the Excel workbook equal to the JSON API's; a CSV per table; ID numbers only
/// in the organiser's copy, which no other role may ask for; nothing without a session.
#[test]
fn the_desk_downloads_pdf_xlsx_and_csv_with_personal_data_masked() {
    use calamine::Reader;
    let mut id = None;
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        id = Some(common::reference_event(
            store,
            "kunshan-2026.toml",
            3,
            Some(16),
        ));
    });
    let ev = id.expect("event").0;
    let state = {
        let store = s.store();
        arbiter_core::EventState::replay(&store.read(&EventId(ev.clone())).expect("log"))
            .expect("fold")
    };
    let arb = login(&s, "arb");
    let org = login(&s, "org");

    // The list links every download.
    let list = arb.get(&s, &format!("/desk/e/{ev}/print")).text();
    for link in [
        "doc=pairings&amp;format=pdf".to_string(),
        format!("/desk/e/{ev}/export.xlsx"),
        format!("/desk/e/{ev}/csv/standings-men.csv"),
    ] {
        assert!(list.contains(&link), "{link}: {list}");
    }
    assert!(
        !list.contains("organiser=1"),
        "only an organiser is offered the full copy"
    );
    assert!(org
        .get(&s, &format!("/desk/e/{ev}/print"))
        .text()
        .contains("export.xlsx?organiser=1"));

    // The pairing list of the last round paired as a PDF.
    let last = state.section("men").expect("men").last_round();
    assert!(last >= 1);
    let r = arb.get(
        &s,
        &format!("/desk/e/{ev}/print?doc=pairings&section=men&round={last}&format=pdf"),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/pdf"));
    let cd = r.header("content-disposition").unwrap_or("").to_string();
    assert!(
        cd.starts_with(&format!("attachment; filename=\"pairings-men-{last}.pdf\"")),
        "{cd}"
    );
    // 对阵表 and 第4轮, UTF-8 percent-encoded.
    assert!(
        cd.contains("filename*=UTF-8''") && cd.contains("%E5%AF%B9%E9%98%B5%E8%A1%A8"),
        "{cd}"
    );
    assert!(cd.contains(&format!("%E7%AC%AC{last}%E8%BD%AE")), "{cd}");
    assert!(r.body.starts_with(b"%PDF"), "not a PDF");
    let text = pdf_text(&r.body);
    assert!(text.contains(state.name()), "event name missing: {text}");
    let sheet =
        arbiter_director::api::rounds::sheet(&state, "men", Some(last)).expect("last round");
    let men = state.players("men");
    let first = &sheet.boards[0];
    for n in [&first.red.name, &first.black.name] {
        assert!(
            text.contains(n.as_str()),
            "{n} missing from the PDF: {text}"
        );
    }
    // An unknown round is the report's refusal, not a PDF.
    let bad = arb.get(
        &s,
        &format!("/desk/e/{ev}/print?doc=pairings&section=men&round=99&format=pdf"),
    );
    assert_eq!(bad.status, 400, "{}", bad.text());
    let bad = arb.get(&s, &format!("/desk/e/{ev}/print?doc=pairings&format=docx"));
    assert_eq!(bad.status, 400);

    // The standings in the workbook are those of the JSON API.
    let r = arb.get(&s, &format!("/desk/e/{ev}/export.xlsx"));
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r
        .header("content-type")
        .unwrap_or("")
        .contains("spreadsheetml"));
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(r.body.clone())).expect("xlsx");
    let range = book
        .worksheet_range("standings-men")
        .expect("standings sheet");
    let rows: Vec<Vec<String>> = range
        .rows()
        .map(|r| r.iter().map(cell_text).collect())
        .collect();
    assert_eq!(rows[1][..5], ["名次", "序号", "姓名", "单位", "积分"]);
    let api = s
        .get(&format!("/api/events/{ev}/sections/men/standings"))
        .json();
    let api_rows = api["standings"].as_array().expect("rows");
    assert_eq!(rows.len() - 2, api_rows.len());
    assert!(api_rows.len() >= 16);
    for (got, want) in rows[2..].iter().zip(api_rows) {
        assert_eq!(got[0], want["rank"].to_string());
        assert_eq!(got[1], want["no"].to_string());
        assert_eq!(got[2], want["name"].as_str().unwrap_or(""));
        assert_eq!(got[4], want["points"].to_string());
    }

    // ID numbers: masked for every role but the organiser's explicit copy.
    let ids: Vec<String> = men
        .iter()
        .filter_map(|p| p.person.id_number.as_ref().map(|i| i.as_str().to_string()))
        .collect();
    assert!(!ids.is_empty(), "the simulated players have ID numbers");
    let csv_path = format!("/desk/e/{ev}/csv/checkin-men.csv");
    for b in [&arb, &org] {
        for path in [
            format!("/desk/e/{ev}/export.xlsx"),
            csv_path.clone(),
            format!("/desk/e/{ev}/print?doc=checkin&section=men"),
        ] {
            let r = b.get(&s, &path);
            assert_eq!(r.status, 200, "{path}");
            let body = if path.contains("xlsx") {
                let mut book: calamine::Xlsx<_> =
                    calamine::open_workbook_from_rs(std::io::Cursor::new(r.body.clone()))
                        .expect("xlsx");
                let range = book.worksheet_range("checkin-men").expect("checkin sheet");
                range
                    .rows()
                    .flat_map(|r| r.iter().map(cell_text))
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                r.text()
            };
            assert!(body.contains(&men[0].person.name), "{path}: {body}");
            for id in &ids {
                assert!(!body.contains(id.as_str()), "{path}: unmasked {id}");
            }
        }
    }
    let csv = org.get(&s, &format!("{csv_path}?organiser=1"));
    assert_eq!(csv.status, 200);
    assert!(csv.body.starts_with(b"\xEF\xBB\xBF"), "CSV with a BOM");
    let full = csv.text();
    assert!(ids.iter().all(|id| full.contains(id.as_str())), "{full}");
    let xlsx = org.get(&s, &format!("/desk/e/{ev}/export.xlsx?organiser=1"));
    assert_eq!(xlsx.status, 200);
    let cd = xlsx.header("content-disposition").unwrap_or("");
    assert!(cd.contains("organiser"), "{cd}");
    // Every other role asking for the organiser's copy is refused.
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    for b in [&arb, &chief, &desk] {
        for path in [
            format!("/desk/e/{ev}/export.xlsx?organiser=1"),
            format!("{csv_path}?organiser=1"),
            format!("/desk/e/{ev}/print?doc=checkin&organiser=1"),
            format!("/desk/e/{ev}/print?doc=checkin&format=pdf&organiser=1"),
        ] {
            let r = b.get(&s, &path);
            assert_eq!(r.status, 403, "{path}");
            assert!(r.text().contains("组委会"), "{}", r.text());
            assert!(ids.iter().all(|id| !r.text().contains(id.as_str())));
        }
    }
    // An unknown table names the known ones.
    let r = arb.get(&s, &format!("/desk/e/{ev}/csv/nope.csv"));
    assert_eq!(r.status, 404);
    assert!(r.text().contains("standings-men.csv"), "{}", r.text());
    // Without a session: nothing.
    for path in [
        format!("/desk/e/{ev}/print?doc=pairings&format=pdf"),
        format!("/desk/e/{ev}/export.xlsx"),
        csv_path.clone(),
    ] {
        let r = s.get(&path);
        assert_eq!(r.status, 303, "{path}");
        assert!(!r.body.starts_with(b"%PDF") && !r.body.starts_with(b"PK"));
    }
}

/// Issue 24, items 4, 6 and 7: hostile text through the online form and the desk — a
/// formula name reaches the organiser's CSV neutralised; control characters, a bidi
/// override and 100,000 characters are refused, naming the field, with a short answer.
#[test]
fn hostile_text_is_refused_or_neutralised_through_the_online_form_and_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let org = login(&s, "org");
    let ev = create_open_kunshan(&s, &chief);
    let formula = "=cmd|' /C calc'!A0";
    let id = id_number("19900101", 1);
    let entry = |name: &str| {
        submit_online(
            &s,
            &ev,
            &[
                ("section", "men"),
                ("name", name),
                ("sex", "男"),
                ("id_number", &id),
                ("phone", "13912345678"),
                ("social_security", &id),
                ("unit", "昆山一厂"),
            ],
        )
    };
    // Refused at the online form, the field and the fault named, the text not echoed.
    for (name, why) in [
        ("张\u{1b}[2J三", "控制字符 U+001B"),
        ("张\0三", "控制字符 U+0000"),
        ("abc\u{202E}fed", "文字方向控制符 U+202E"),
    ] {
        let r = entry(name);
        assert_eq!(r.status, 422, "{name:?}: {}", r.text());
        assert!(r.text().contains(why), "{name:?}: {}", r.text());
    }
    let r = entry(&"长".repeat(101));
    assert!((400..500).contains(&r.status), "{}", r.status);
    assert!(entries_of(&s, &ev, "entry_submitted").is_empty());
    // A formula name is a name: accepted, approved, and harmless in the organiser's CSV.
    let r = entry(formula);
    assert_eq!(r.status, 200, "{}", r.text());
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/sub/1/approve"),
        &[("evidence", "社保证明")],
    ));
    assert!(ok, "{msg}");
    let csv = org.get(&s, &format!("/desk/e/{ev}/csv/checkin-men.csv?organiser=1"));
    assert_eq!(csv.status, 200);
    let text = csv.text();
    assert!(text.contains(&id), "the organiser's copy: {text}");
    assert!(text.contains(&format!("'{formula}")), "{text}");
    assert!(
        !text
            .split(['\n', ','])
            .any(|c| c.trim_start_matches('"').starts_with('=')),
        "{text}"
    );
    // The desk: 100,000 characters and control characters refused, with a short answer.
    let long = "长".repeat(100_000);
    for (field, value, why) in [
        ("name", long.as_str(), "姓名 (name) 过长: 100000 个字符"),
        (
            "name",
            "a\u{1b}]0;x\u{7}b",
            "姓名 (name) 第 2 个字符是控制字符",
        ),
        (
            "unit",
            "厂\u{202E}",
            "单位 (unit) 第 2 个字符是文字方向控制符",
        ),
    ] {
        let mut pairs = vec![
            ("name", "王五"),
            ("sex", "男"),
            ("unit", "昆山二厂"),
            ("id_number", id.as_str()),
            ("phone", "13912345678"),
            ("social_security", id.as_str()),
            ("evidence", "social_security"),
        ];
        for p in pairs.iter_mut() {
            if p.0 == field {
                p.1 = value;
            }
        }
        // The form again with the error, the offending text not repeated.
        let r = chief.post(&s, &format!("/desk/e/{ev}/s/men/entries"), &pairs);
        assert_eq!(r.status, 422, "{}", r.text());
        let page = r.text();
        assert!(page.len() < 50_000, "a short answer");
        assert!(page.contains(why), "{field}: {page}");
        assert!(
            !page.contains('\u{1b}') && !page.contains('\u{202E}'),
            "{page}"
        );
    }
    // The workbook still exports (no cell over Excel's limit got in).
    assert_eq!(
        org.get(&s, &format!("/desk/e/{ev}/export.xlsx")).status,
        200
    );
}

/// Issue 24, items 8 and 9: every desk answer is `no-store` (the organiser's printed page
/// with ID numbers too); every answer has `nosniff`, a CSP of the server's own scripts and
/// styles with `frame-ancestors 'none'`; a crafted `?ok=` link shows nothing.
#[test]
fn desk_answers_are_not_stored_and_every_answer_has_the_security_headers() {
    let mut id = None;
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        id = Some(common::reference_event(
            store,
            "kunshan-2026.toml",
            1,
            Some(8),
        ));
    });
    let ev = id.expect("event").0;
    let org = login(&s, "org");
    for path in [
        format!("/desk/e/{ev}/print?doc=checkin&organiser=1"),
        format!("/desk/e/{ev}/print"),
        format!("/desk/e/{ev}"),
        "/desk".to_string(),
        format!("/desk/e/{ev}/csv/checkin-men.csv?organiser=1"),
    ] {
        let r = org.get(&s, &path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("cache-control"), Some("no-store"), "{path}");
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
        let csp = r.header("content-security-policy").unwrap_or("");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("script-src 'unsafe"), "{path}: {csp}");
    }
    for path in ["/".to_string(), format!("/e/{ev}"), "/login".to_string()] {
        let r = s.get(&path);
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
        let csp = r.header("content-security-policy").unwrap_or("");
        assert!(
            csp.contains("script-src 'self'")
                && csp.contains("style-src 'self'")
                && csp.contains("frame-ancestors 'none'"),
            "{path}: {csp}"
        );
        // Every script and style is a file of the server's own.
        let t = r.text();
        assert!(
            !t.contains("<script>") && !t.contains(" style=\""),
            "{path}"
        );
    }
    let r = org.get(
        &s,
        &format!("/desk/e/{ev}?ok=%E8%AF%B7%E6%8A%8A%E5%AF%86%E7%A0%81%E5%8F%91%E7%BB%99"),
    );
    assert_eq!(r.status, 200);
    assert!(
        !r.text().contains("请把密码发给"),
        "a crafted message shown"
    );
}

/// 闭幕 and 重新开放 on the desk: the chief arbiter closes a finished event (an arbiter may not),
/// every page of it then says it is closed, a correction is refused in words that say to reopen
/// it, reopening needs a reason, and once reopened the banner is gone.
#[test]
fn the_chief_arbiter_closes_and_reopens_the_event_at_the_desk() {
    let mut ev = String::new();
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        let (_, text) = arbiter_web::demo::REFERENCE
            .iter()
            .find(|(f, _)| *f == "kunshan-2026.toml")
            .expect("bundled Kunshan");
        let how = arbiter_web::demo::PartWay {
            rounds: Some(u32::MAX),
            seed: 1,
            sizes: arbiter_simulate::Sizes {
                all: Some(12),
                ..Default::default()
            },
            results_left: 0,
        };
        ev = arbiter_web::demo::simulate_part_way(store, text, "kunshan-2026.toml", &how)
            .expect("simulated to the end")
            .0;
    });
    // The simulated event ends closed (the simulator's last step is 闭幕).
    let chief = login(&s, "chief");
    let arb = login(&s, "arb");
    let home = format!("/desk/e/{ev}");
    let closed_everywhere = |who: &common::desk::Browser| {
        for page in [
            home.clone(),
            format!("{home}/s/men/round"),
            format!("{home}/s/men/results"),
            format!("{home}/log"),
            format!("{home}/cash"),
            format!("{home}/import"),
            format!("{home}/print"),
        ] {
            let t = who.get(&s, &page).text();
            assert!(
                t.contains("id=\"event-closed\"") && t.contains("本赛事已闭幕"),
                "{page}: {t}"
            );
        }
    };
    closed_everywhere(&chief);
    let t = chief.get(&s, &home).text();
    assert!(
        t.contains("id=\"reopen-event\"") && !t.contains("id=\"close-event\""),
        "{t}"
    );
    assert!(!arb.get(&s, &home).text().contains("id=\"reopen-event\""));
    assert_eq!(
        arb.post(&s, &format!("{home}/reopen"), &[("reason", "x")])
            .status,
        403
    );
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("{home}/s/men/correct"),
        &[
            ("round", "1"),
            ("board", "1"),
            ("result", "0-1"),
            ("reason", "记录员抄错"),
        ],
    ));
    assert!(
        !ok && msg.contains("赛事已闭幕") && msg.contains("重新开启"),
        "{msg}"
    );
    let (ok, msg) = flash(&chief.post(&s, &format!("{home}/reopen"), &[("reason", " ")]));
    assert!(!ok && msg.contains("理由"), "{msg}");
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("{home}/reopen"),
        &[("reason", "第1轮记录有误")],
    ));
    assert!(ok && msg.contains("重新开放"), "{msg}");
    let t = chief.get(&s, &home).text();
    assert!(
        !t.contains("id=\"event-closed\"") && t.contains("id=\"close-event\""),
        "{t}"
    );
    assert!(!arb.get(&s, &home).text().contains("id=\"close-event\""));
    assert_eq!(arb.post(&s, &format!("{home}/close"), &[]).status, 403);
    let (ok, msg) = flash(&chief.post(&s, &format!("{home}/close"), &[]));
    assert!(ok && msg.contains("赛事已闭幕"), "{msg}");
    closed_everywhere(&chief);
}

/// Issue 45 item 10: on the sheet of an unpublished round the arbiter swaps two players.
/// 预览 shows the sheet after the swap and the checker's findings in words (no rule code)
/// and writes nothing; 确认调换 records the swap as one command (the pairing undone and
/// paired again with the two exchanged); a published round refuses the swap in words.
#[test]
fn a_swap_is_previewed_in_words_then_recorded() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 6);
    let arb = login(&s, "arb");
    let r = arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/pair"),
        &[("fix", ""), ("swap", "")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let round = format!("/desk/e/{ev}/s/men/round");
    let page = arb.get(&s, &round).text();
    assert!(page.contains(r#"id="swap-form""#), "{page}");
    // Player 1's board and a player of another board.
    let sheet = &page[page.find(r#"id="sheet""#).expect("sheet")..];
    let rows: Vec<Vec<u32>> = sheet
        .split("<tr data-board=\"")
        .skip(1)
        .map(|row| {
            row.split("<td>")
                .filter_map(|c| c.split(". ").next()?.trim().parse::<u32>().ok())
                .collect()
        })
        .collect();
    let mine = rows
        .iter()
        .find(|r| r.contains(&1))
        .expect("player 1 is paired")
        .clone();
    let other = rows
        .iter()
        .flatten()
        .copied()
        .find(|n| !mine.contains(n))
        .expect("a player of another board");
    let paired_before = entries_of(&s, &ev, "round_paired").len();
    let swap = format!("/desk/e/{ev}/s/men/swap");
    let (a, b) = ("1".to_string(), other.to_string());
    let preview = arb.post(&s, &swap, &[("a", a.as_str()), ("b", b.as_str())]);
    assert_eq!(preview.status, 200, "{}", preview.text());
    let t = preview.text();
    assert!(
        t.contains(r#"id="swap-preview""#) && t.contains(r#"id="swap-confirm""#),
        "{t}"
    );
    assert!(
        t.contains(r#"id="swap-clean""#) || t.contains("swap-warning"),
        "{t}"
    );
    for code in ["H1", "H2", "H3", "H4", "H5"] {
        assert!(!t.contains(&format!("{code}:")), "no rule code: {t}");
    }
    assert_eq!(
        entries_of(&s, &ev, "round_paired").len(),
        paired_before,
        "the preview writes nothing"
    );
    let done = arb.post(
        &s,
        &swap,
        &[("a", a.as_str()), ("b", b.as_str()), ("confirm", "1")],
    );
    let (ok, msg) = flash(&done);
    assert!(ok && msg.contains("已调换"), "{msg}");
    // The page it returns to says it in Chinese only (English on the English switch).
    let back = done.header("location").expect("location").to_string();
    let page = arb.get(&s, &back).text();
    assert!(page.contains("已调换"), "{page}");
    assert!(!page.contains("(players swapped)"), "Chinese only: {page}");
    let paired = entries_of(&s, &ev, "round_paired");
    assert_eq!(paired.len(), paired_before + 1, "paired again once");
    assert_eq!(
        entries_of(&s, &ev, "round_undone").len(),
        1,
        "the pairing undone once"
    );
    // Player 1 now sits where the other player sat.
    let arbiter_core::LogEntry::RoundPaired { boards, .. } = &paired[paired.len() - 1].1 else {
        unreachable!()
    };
    assert_eq!(boards.len(), rows.len());
    // Published: refused in words.
    let (ok, msg) = flash(&arb.post(&s, &format!("/desk/e/{ev}/s/men/publish"), &[]));
    assert!(ok, "{msg}");
    let (ok, msg) = flash(&arb.post(
        &s,
        &swap,
        &[("a", a.as_str()), ("b", b.as_str()), ("confirm", "1")],
    ));
    assert!(!ok && msg.contains("公布"), "{msg}");
}

/// 昆山 五(一) 「上届…甲组团体前八名、乙组团体前四名单位，本届自动划入甲组」 (the bundled file
/// leaves `units = []`): a new edition made at the desk takes last edition's placed units on its
/// dates page, and the settings page shows them (or, while empty, what that means) and takes
/// a change; each is one `settings_changed` entry.
#[test]
fn kunshan_last_editions_placed_units_are_filled_in_at_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    // The dates page of a new edition asks for them beside the notice.
    let r = chief.post(
        &s,
        "/desk/events",
        &[("preset", "kunshan-2026"), ("start", "2027-10-10")],
    );
    assert_eq!(r.status, 422, "{}", r.text());
    let page = r.text();
    assert!(
        page.contains("name=\"units.a\"") && page.contains("填写前没有队伍自动划入甲组"),
        "{page}"
    );
    let r = chief.post(
        &s,
        "/desk/events",
        &[
            ("preset", "kunshan-2026"),
            ("start", "2027-10-10"),
            ("end", "2027-10-11"),
            ("units.a", "昆山一厂\n昆山三厂"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let ev = r
        .header("location")
        .and_then(|l| l.strip_prefix("/desk/e/"))
        .expect("event page")
        .to_string();
    let set = entries_of(&s, &ev, "settings_changed");
    let arbiter_core::LogEntry::SettingsChanged { placed_units, .. } = &set[0].1 else {
        panic!("{set:?}")
    };
    assert_eq!(
        placed_units.get("a").map(Vec::as_slice),
        Some(&["昆山一厂".to_string(), "昆山三厂".to_string()][..])
    );
    let path = format!("/desk/e/{ev}/settings");
    let page = chief.get(&s, &path).text();
    assert!(
        page.contains("甲组 · 上届划入单位") && page.contains("昆山一厂、昆山三厂"),
        "{page}"
    );
    assert!(!page.contains("填写前没有队伍自动划入甲组"), "{page}");
    // Emptied again: the page says so and what it means.
    let (ok, msg) = flash(&chief.post(&s, &path, &[("units.a", "")]));
    assert!(ok, "{msg}");
    let page = chief.get(&s, &path).text();
    assert!(
        page.contains("未填写") && page.contains("填写前没有队伍自动划入甲组"),
        "{page}"
    );
    assert_eq!(entries_of(&s, &ev, "settings_changed").len(), 2);
}

/// A17 (取消比赛资格): once the chief arbiter disqualifies a player at the desk, the public
/// standings list him apart with no place — not in the ranked table, not silently gone — and
/// the reason stays on the desk (not on the public page).
#[test]
fn a_disqualified_player_is_listed_apart_on_the_public_standings() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let arb = login(&s, "arb");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    pair_and_publish(&s, &arb, &ev);
    let path = format!("/desk/e/{ev}/s/men/results");
    for board in 1..=6 {
        let r = arb.post_json(&s, &path, &[("board", &board.to_string()), ("result", "1")]);
        assert_eq!(r.json()["ok"], true, "{}", r.text());
    }
    let standings = format!("/e/{ev}/s/men/standings");
    let before = s.get(&standings).text();
    assert!(!before.contains("id=\"disqualified\""), "{before}");
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/p/1/disqualify"),
        &[("reason", "使用电子产品作弊")],
    ));
    assert!(ok, "{msg}");
    let page = s.get(&standings).text();
    let apart = page.find("id=\"disqualified\"").expect("listed apart");
    let (table, rest) = page.split_at(apart);
    assert!(
        rest.contains("棋手00") && rest.contains("不计名次"),
        "{rest}"
    );
    let ranked = table
        .find("class=\"standings\"")
        .map(|i| &table[i..])
        .expect("the ranked table");
    assert!(!ranked.contains("棋手00"), "{ranked}");
    assert!(!page.contains("使用电子产品作弊"), "{page}");
}
