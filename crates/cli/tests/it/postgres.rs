//! PostgreSQL as an arbiter's association hosts it: `--db postgres://…` on the commands,
//! an event moved SQLite → PostgreSQL → SQLite unchanged, and two `arbiter serve` processes
//! on one database taking results at the same time. The database is a throw-away one
//! (`arbiter_store::pgtest`: `ARBITER_TEST_PG`, or a cluster of this test process).

use crate::common;

use common::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PW: &str = "correct horse battery 9";

#[test]
fn an_event_moves_sqlite_to_postgres_and_back_byte_for_byte() {
    let pg = arbiter_store::pgtest::test_db();
    let dir = tempfile::tempdir().expect("dir");
    let sim = simulate(dir.path(), "tianshui-2024");
    let first = ok(&["event", "export", "ev-00000001", "--db", &sim]);
    let file = dir.path().join("log.json");
    std::fs::write(&file, &first).expect("write");
    let id = ok(&[
        "event",
        "import",
        file.to_str().expect("p"),
        "--db",
        &pg.url,
    ]);
    assert_eq!(id.trim(), "ev-00000001");
    // The same log again is refused as a duplicate, on PostgreSQL too.
    let o = run(&[
        "event",
        "import",
        file.to_str().expect("p"),
        "--db",
        &pg.url,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("已有相同的赛事"));
    let via_pg = ok(&["event", "export", "ev-00000001", "--db", &pg.url]);
    assert_eq!(via_pg, first, "PostgreSQL exports what SQLite exported");
    let file2 = dir.path().join("log2.json");
    std::fs::write(&file2, &via_pg).expect("write");
    let back = dir.path().join("back.db").display().to_string();
    ok(&["event", "import", file2.to_str().expect("p"), "--db", &back]);
    let last = ok(&["event", "export", "ev-00000001", "--db", &back]);
    assert_eq!(
        last, first,
        "SQLite → PostgreSQL → SQLite is byte-identical"
    );
    // Read commands work on the URL as on a file.
    let list = ok(&["event", "list", "--db", &pg.url]);
    assert!(list.contains("ev-00000001"), "{list}");
    let o = run(&["event", "verify", &pg.url]);
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let pub_sqlite = ok(&[
        "event",
        "export",
        "ev-00000001",
        "--format",
        "json",
        "--db",
        &sim,
    ]);
    let pub_pg = ok(&[
        "event",
        "export",
        "ev-00000001",
        "--format",
        "json",
        "--db",
        &pg.url,
    ]);
    assert_eq!(pub_pg, pub_sqlite);
}

#[test]
fn a_bad_postgres_url_is_named_without_its_password() {
    let o = run(&[
        "event",
        "list",
        "--db",
        "postgres://arb:s3cret@127.0.0.1:1/none",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("无法打开数据库")
            && err.contains("arb:***@127.0.0.1:1")
            && !err.contains("s3cret"),
        "{err}"
    );
}

// ---- two servers --------------------------------------------------------------------------

/// A server process, killed when the test ends however it ends.
struct Server {
    _child: KillOnDrop,
    addr: String,
}

fn serve(db: &str) -> Server {
    let mut child = Command::new(BIN)
        .args(["serve", "--db", db, "--addr", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn serve");
    let addr = announced_address(&mut child, Duration::from_secs(60));
    Server {
        _child: KillOnDrop(child),
        addr: addr.expect("the server prints its address"),
    }
}

struct Response {
    status: u16,
    head: String,
    body: String,
}

impl Response {
    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
    fn cookie(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            if !k.eq_ignore_ascii_case("set-cookie") {
                return None;
            }
            let pair = v.trim().split(';').next()?;
            pair.starts_with(&format!("{name}="))
                .then(|| pair.to_string())
        })
    }
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

fn request(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if method == "POST" {
        req.push_str(&format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let raw = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    Response {
        status,
        head: head.to_string(),
        body,
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn input_value(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\""))?;
    let tag_start = html[..at].rfind('<')?;
    let tag_end = at + html[at..].find('>')?;
    let tag = &html[tag_start..tag_end];
    let v = tag.split("value=\"").nth(1)?;
    Some(v[..v.find('"')?].to_string())
}

/// A logged-in account on one server.
#[derive(Clone)]
struct Browser {
    addr: String,
    cookie: String,
    csrf: String,
}

impl Browser {
    fn login(server: &Server, login: &str) -> Browser {
        let addr = server.addr.clone();
        let page = request(&addr, "GET", "/login", &[], "");
        let token = input_value(&page.body, "csrf").expect("login csrf");
        let cookie = page.cookie("arbiter_login").expect("login cookie");
        let r = request(
            &addr,
            "POST",
            "/login",
            &[("Cookie", &cookie)],
            &form(&[("login", login), ("password", PW), ("csrf", &token)]),
        );
        assert_eq!(r.status, 303, "login {login}: {}", r.body);
        let session = r.cookie("arbiter_session").expect("session cookie");
        let desk = request(&addr, "GET", "/desk", &[("Cookie", &session)], "");
        let csrf = input_value(&desk.body, "csrf").expect("session csrf");
        Browser {
            addr,
            cookie: session,
            csrf,
        }
    }

    fn post(&self, path: &str, pairs: &[(&str, &str)], json: bool) -> Response {
        let mut p = pairs.to_vec();
        p.push(("csrf", &self.csrf));
        let mut h = vec![("Cookie", self.cookie.as_str())];
        if json {
            h.push(("Accept", "application/json"));
        }
        request(&self.addr, "POST", path, &h, &form(&p))
    }
}

fn flash_ok(r: &Response) -> bool {
    r.status == 303
        && r.header("location")
            .is_some_and(|l| l.contains("?ok=") || !l.contains("?err="))
}

/// Read server-sent events from `path` until one announces a `last_seq` above `after`, or
/// timeout; when it arrived.
fn sse_wait(addr: &str, path: &str, after: u64, timeout: Duration) -> Option<Instant> {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("write");
    let deadline = Instant::now() + timeout;
    s.set_read_timeout(Some(Duration::from_millis(100))).ok();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while Instant::now() < deadline {
        match s.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf);
                let moved = text.split("\"last_seq\":").skip(1).any(|t| {
                    let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
                    digits.parse::<u64>().is_ok_and(|n| n > after)
                });
                if moved {
                    return Some(Instant::now());
                }
            }
            Err(_) => continue,
        }
    }
    None
}

#[test]
fn two_servers_on_one_database_take_results_at_once_and_see_each_other() {
    let pg = arbiter_store::pgtest::test_db();
    for (login, role) in [
        ("chief", "chief_arbiter"),
        ("arb", "arbiter"),
        ("arb2", "arbiter"),
    ] {
        let mut c = Command::new(BIN)
            .args([
                "user", "add", "--db", &pg.url, "--login", login, "--role", role,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        writeln!(c.stdin.take().expect("stdin"), "{PW}").expect("pw");
        let o = c.wait_with_output().expect("user add");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let a = serve(&pg.url);
    let b = serve(&pg.url);

    // The chief arbiter sets the event up on server A.
    let chief = Browser::login(&a, "chief");
    let r = chief.post(
        "/desk/events",
        &[("preset", "kunshan-2026"), ("toml", "")],
        false,
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let ev = r
        .header("location")
        .and_then(|l| l.strip_prefix("/desk/e/").map(str::to_string))
        .expect("event page");
    // 14 players: 7 boards, six entered at once, the seventh watched from the other server.
    for i in 0..14 {
        let (name, unit) = (format!("棋手{i:02}"), format!("单位{}", i % 4));
        // Kunshan requires the ID number, phone and 社保号 of every entry (K5).
        let idn = id_number(&format!("320583198001{:02}001", i + 1));
        let phone = format!("139123400{i:02}");
        let r = chief.post(
            &format!("/desk/e/{ev}/s/men/entries"),
            &[
                ("name", &name),
                ("id_number", &idn),
                ("phone", &phone),
                ("social_security", &idn),
                ("unit", &unit),
                ("evidence", "social_security"),
                ("late_reason", "组委会同意补报"),
            ],
            false,
        );
        assert!(
            flash_ok(&r),
            "{name}: {} {:?}",
            r.status,
            r.header("location")
        );
    }
    let arb_a = Browser::login(&a, "arb");
    let r = arb_a.post(
        &format!("/desk/e/{ev}/s/men/pair"),
        &[("fix", ""), ("swap", "")],
        false,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = arb_a.post(&format!("/desk/e/{ev}/s/men/publish"), &[], false);
    assert!(flash_ok(&r), "{:?}", r.header("location"));

    // Two arbiters, one on each server, at the same time, three boards each.
    let arb_b = Browser::login(&b, "arb2");
    let path = format!("/desk/e/{ev}/s/men/results");
    let threads: Vec<_> = [
        (arb_a.clone(), [1u32, 3, 5], "1"),
        (arb_b.clone(), [2, 4, 6], "0"),
    ]
    .into_iter()
    .map(|(who, boards, key)| {
        let path = path.clone();
        std::thread::spawn(move || {
            for n in boards {
                let r = who.post(&path, &[("board", &n.to_string()), ("result", key)], true);
                assert_eq!(r.status, 200, "board {n}: {}", r.body);
                assert_eq!(r.json()["ok"], true, "board {n}: {}", r.body);
            }
        })
    })
    .collect();
    for t in threads {
        t.join().expect("arbiter thread");
    }
    let store = arbiter_store::open(&pg.url).expect("open");
    use arbiter_store::EventStore;
    let state = store
        .state(&arbiter_store::EventId(ev.clone()))
        .expect("state");
    let round = state
        .section("men")
        .and_then(|s| s.round(1))
        .expect("round 1");
    for board in round.boards.iter().filter(|b| b.board <= 6) {
        let want = if board.board % 2 == 1 {
            arbiter_types::GameResult::RedWin
        } else {
            arbiter_types::GameResult::BlackWin
        };
        assert_eq!(board.result, Some(want), "board {}", board.board);
    }

    // The same board from the other server: one conflict, showing what is stored.
    let r = arb_b.post(&path, &[("board", "1"), ("result", "0")], true);
    assert_eq!(r.status, 409, "{}", r.body);
    let j = r.json();
    assert_eq!(j["stored"], "1-0", "{j}");
    assert!(
        j["message"].as_str().unwrap_or("").contains("已有成绩 1-0"),
        "{j}"
    );

    // A phone on server B, listening, sees a result entered on server A within a second.
    let live = format!("/e/{ev}/live");
    let before = store
        .last_seq(&arbiter_store::EventId(ev.clone()))
        .expect("seq");
    let (addr_b, live2) = (b.addr.clone(), live.clone());
    let watcher =
        std::thread::spawn(move || sse_wait(&addr_b, &live2, before, Duration::from_secs(10)));
    std::thread::sleep(Duration::from_millis(500)); // the stream is open
    let r = arb_a.post(&path, &[("board", "7"), ("result", "1")], true);
    assert_eq!(r.status, 200, "{}", r.body);
    let entered = Instant::now();
    let seen = watcher
        .join()
        .expect("watcher")
        .expect("server B announced the change");
    let delay = seen.saturating_duration_since(entered);
    assert!(
        delay < Duration::from_secs(1),
        "server B saw the append after {delay:?}"
    );
    // And B's public round page shows it.
    let page = request(&b.addr, "GET", &format!("/e/{ev}/s/men/r/1"), &[], "");
    assert_eq!(page.status, 200);
    let board7 = store
        .state(&arbiter_store::EventId(ev.clone()))
        .expect("state")
        .section("men")
        .and_then(|s| s.round(1))
        .and_then(|r| r.boards.iter().find(|b| b.board == 7).cloned())
        .expect("board 7");
    assert_eq!(board7.result, Some(arbiter_types::GameResult::RedWin));
    let page_a = request(&a.addr, "GET", &format!("/e/{ev}/s/men/r/1"), &[], "");
    assert_eq!(page.body, page_a.body, "both servers show the same round");
    // 红胜 (red wins): boards 1, 3, 5 and 7.
    assert_eq!(page.body.matches("红胜").count(), 4, "{}", page.body);
}
