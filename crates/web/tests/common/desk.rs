//! Accounts and a logged-in browser for the desk's tests: one account per role, the login
//! form (its CSRF cookie and token), form posts and multipart uploads with the session's
//! token, and an event created from a regulation moved to 2099.

use super::{request, Response, TestServer};
use arbiter_store::accounts::User;
use arbiter_store::{AccountStore, Role, SqliteStore};

pub const PW: &str = "correct horse 8";

pub fn add_user(store: &SqliteStore, login: &str, role: Role) {
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
pub fn with_accounts(store: &SqliteStore) {
    add_user(store, "org", Role::Organiser);
    add_user(store, "chief", Role::ChiefArbiter);
    add_user(store, "arb", Role::Arbiter);
    add_user(store, "arb2", Role::Arbiter);
    add_user(store, "desk", Role::Desk);
}

/// `value="…"` of the first input named `name` in an HTML page.
pub fn input_value(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\" value=\""))?;
    let rest = &html[at + name.len() + 15..];
    Some(rest[..rest.find('"')?].to_string())
}

/// `name=value` of the cookie `name` set by a response.
pub fn set_cookie(r: &Response, name: &str) -> Option<String> {
    r.headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .find_map(|(_, v)| {
            let first = v.split(';').next()?;
            let (k, val) = first.split_once('=')?;
            (k == name && !val.is_empty()).then(|| first.to_string())
        })
}

pub fn enc(s: &str) -> String {
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

pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Try to log in; the response of `POST /login`.
pub fn try_login(s: &TestServer, login: &str, pw: &str) -> Response {
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
pub struct Browser {
    pub cookie: String,
    pub csrf: String,
}

pub fn login(s: &TestServer, login: &str) -> Browser {
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
    pub fn get(&self, s: &TestServer, path: &str) -> Response {
        s.get_with(path, &[("Cookie", &self.cookie)])
    }
    pub fn post(&self, s: &TestServer, path: &str, pairs: &[(&str, &str)]) -> Response {
        let mut p = pairs.to_vec();
        p.push(("csrf", &self.csrf));
        s.post_form(path, &[("Cookie", &self.cookie)], &form(&p))
    }
    pub fn post_json(&self, s: &TestServer, path: &str, pairs: &[(&str, &str)]) -> Response {
        let mut p = pairs.to_vec();
        p.push(("csrf", &self.csrf));
        s.post_form(
            path,
            &[("Cookie", &self.cookie), ("Accept", "application/json")],
            &form(&p),
        )
    }
}

/// A multipart upload from a logged-in browser (as the import form posts it).
pub fn upload(
    s: &TestServer,
    b: &Browser,
    path: &str,
    fields: &[(&str, &str)],
    file: (&str, &[u8]),
) -> Response {
    upload_at(s.addr, b, path, fields, file)
}

/// [`upload`] to the server at `addr` (from another thread than the server's owner).
pub fn upload_at(
    addr: std::net::SocketAddr,
    b: &Browser,
    path: &str,
    fields: &[(&str, &str)],
    file: (&str, &[u8]),
) -> Response {
    let boundary = "----arbiter-test-boundary-7d3f";
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{}\"\r\nContent-Type: application/octet-stream\r\n\r\n",
            file.0
        )
        .as_bytes(),
    );
    body.extend(file.1);
    body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
    let ctype = format!("multipart/form-data; boundary={boundary}");
    request(
        addr,
        "POST",
        path,
        &[("Cookie", &b.cookie), ("Content-Type", &ctype)],
        Some(&body),
    )
}

/// Create an event from the Kunshan regulation moved to 2099 (entries are still open on any
/// test date); its id.
pub fn create_open_kunshan(s: &TestServer, chief: &Browser) -> String {
    let src = include_str!("../../../../regulations/kunshan-2026.toml")
        .replace("start = 2026-09-26", "start = 2099-09-26")
        .replace("end = 2026-09-27", "end = 2099-09-27")
        .replace(
            "deadline = 2026-09-15T00:00:00",
            "deadline = 2099-09-15T00:00:00",
        );
    let r = chief.post(s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}
