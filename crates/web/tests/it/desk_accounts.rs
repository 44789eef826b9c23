//! Issue 45 item 2: the chief arbiter manages his event's accounts from the desk — creates an
//! arbiter's account limited to the event, resets its password, disables and enables it —
//! and no password is ever shown back but the one-time password, once.

use crate::common;
use crate::desk::{
    create_open_kunshan, flash, form, input_value, login, set_cookie, try_login, with_accounts,
};
use common::TestServer;

/// The one-time password on the answer to a create or reset form.
fn one_time(page: &str) -> String {
    let at = page
        .find("class=\"password\">")
        .expect("a one-time password shown");
    let rest = &page[at + "class=\"password\">".len()..];
    rest[..rest.find('<').expect("end")].to_string()
}

/// Log in with `pw`; the session's cookie (the login answers 303).
fn session(s: &TestServer, login: &str, pw: &str) -> String {
    let r = try_login(s, login, pw);
    assert_eq!(r.status, 303, "{}", r.text());
    set_cookie(&r, "arbiter_session").expect("session cookie")
}

#[test]
fn the_chief_arbiter_creates_resets_and_disables_an_arbiters_account_from_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_open_kunshan(&s, &chief);
    let other = create_open_kunshan(&s, &chief);
    let accounts = format!("/desk/e/{ev}/accounts");
    // Only the chief arbiter: the page is linked from the event, and refused to others.
    assert!(chief
        .get(&s, &format!("/desk/e/{ev}"))
        .text()
        .contains(&accounts));
    let arb = login(&s, "arb");
    assert_eq!(arb.get(&s, &accounts).status, 403);
    assert_eq!(
        arb.post(&s, &accounts, &[("login", "x"), ("role", "arbiter")])
            .status,
        403
    );
    // A new arbiter's account: a one-time password shown once, on this answer alone.
    let r = chief.post(
        &s,
        &accounts,
        &[("login", "wang"), ("name", "王裁判"), ("role", "arbiter")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let page = r.text();
    let pw = one_time(&page);
    assert!(page.contains("王裁判") && page.contains(&ev), "{page}");
    assert!(!chief.get(&s, &accounts).text().contains(&pw));
    // No chief arbiter from the desk.
    let r = chief.post(&s, &accounts, &[("login", "li"), ("role", "chief_arbiter")]);
    assert_eq!(r.status, 422);
    assert!(r.text().contains("不能在裁判台创建"), "{}", r.text());
    // 王裁判 logs in with it and must set his own password first.
    let cookie = session(&s, "wang", &pw);
    let desk = s.get_with("/desk", &[("Cookie", &cookie)]);
    assert_eq!(desk.status, 303);
    assert_eq!(desk.header("location"), Some("/desk/password"));
    let pwpage = s.get_with("/desk/password", &[("Cookie", &cookie)]).text();
    assert!(pwpage.contains("一次性密码"), "{pwpage}");
    let csrf = input_value(&pwpage, "csrf").expect("csrf");
    let mine = "mine is longer 9";
    let r = s.post_form(
        "/desk/password",
        &[("Cookie", &cookie)],
        &form(&[
            ("current", &pw),
            ("new", mine),
            ("again", mine),
            ("csrf", &csrf),
        ]),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    // The one-time password is spent; his own opens his event and no other.
    assert_eq!(try_login(&s, "wang", &pw).status, 401);
    let cookie = session(&s, "wang", mine);
    let list = s.get_with("/desk", &[("Cookie", &cookie)]).text();
    assert!(list.contains(&format!("/desk/e/{ev}\"")), "{list}");
    assert!(!list.contains(&format!("/desk/e/{other}\"")), "{list}");
    assert_eq!(
        s.get_with(&format!("/desk/e/{ev}"), &[("Cookie", &cookie)])
            .status,
        200
    );
    let r = s.get_with(&format!("/desk/e/{other}"), &[("Cookie", &cookie)]);
    assert_eq!(r.status, 403);
    assert!(r.text().contains("指定的赛事"), "{}", r.text());
    // A reset: the old password no longer opens, the new one-time one does, once changed.
    let r = chief.post(&s, &format!("{accounts}/reset"), &[("login", "wang")]);
    assert_eq!(r.status, 200, "{}", r.text());
    let pw2 = one_time(&r.text());
    assert_ne!(pw2, pw);
    assert_eq!(
        s.get_with("/desk", &[("Cookie", &cookie)]).status,
        303,
        "his sessions ended"
    );
    assert_eq!(try_login(&s, "wang", mine).status, 401);
    let cookie = session(&s, "wang", &pw2);
    // Disabled: his session ends and he cannot log in; enabled again, he can.
    let (ok, msg) = flash(&chief.post(&s, &format!("{accounts}/disable"), &[("login", "wang")]));
    assert!(ok && msg.contains("已停用"), "{msg}");
    let r = s.get_with("/desk/password", &[("Cookie", &cookie)]);
    assert_eq!(r.status, 303);
    assert!(r.header("location").unwrap_or("").starts_with("/login"));
    let r = try_login(&s, "wang", &pw2);
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("账户已停用"), "{}", r.text());
    let (ok, _) = flash(&chief.post(&s, &format!("{accounts}/enable"), &[("login", "wang")]));
    assert!(ok);
    let c = session(&s, "wang", &pw2);
    assert_eq!(s.get_with("/desk/password", &[("Cookie", &c)]).status, 200);
    // Not his own account, nor another chief arbiter's.
    let (ok, msg) = flash(&chief.post(&s, &format!("{accounts}/disable"), &[("login", "chief")]));
    assert!(!ok && msg.contains("自己的账户"), "{msg}");
}
