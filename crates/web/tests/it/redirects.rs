//! Issue 24, item 5: no redirect to another site through `/lang?back=` or the login's
//! `next=`, whatever the path hides (a tab, CR/LF, a backslash, two slashes).

use crate::common;

use arbiter_store::accounts::User;
use arbiter_store::{AccountStore, Role};
use common::TestServer;

const PW: &str = "correct horse 8";

#[test]
fn lang_back_goes_only_to_a_local_path_and_control_characters_are_400() {
    let s = TestServer::start();
    for (back, want) in [
        ("/%09/evil.example", None),
        ("/%0d%0aSet-Cookie:%20x=1", None),
        ("/%0a/evil.example", None),
        ("//evil.example", Some("/")),
        ("/%5Cevil.example", Some("/")),
        ("/%5C/evil.example", Some("/")),
        ("https://evil.example", Some("/")),
        ("/e/ev-1", Some("/e/ev-1")),
    ] {
        let r = s.get(&format!("/lang?to=en&back={back}"));
        match want {
            None => assert_eq!(r.status, 400, "{back}: {:?}", r.header("location")),
            Some(w) => {
                assert_eq!(r.status, 303, "{back}");
                assert_eq!(r.header("location"), Some(w), "{back}");
            }
        }
    }
}

#[test]
fn the_logins_next_goes_only_to_a_local_path() {
    let s = TestServer::start_with(|st| {
        st.add_user(&User {
            login: "arb".into(),
            display_name: "裁判".into(),
            role: Role::Arbiter,
            password_hash: arbiter_web::auth::password::hash(PW).expect("hash"),
            created: "2026-09-26T08:00:00+08:00".into(),
        })
        .expect("user");
    });
    let form = s.get("/login?next=/%09/evil.example");
    assert_eq!(form.status, 200);
    assert!(!form.text().contains("evil.example"), "{}", form.text());
    for next in ["/%09/evil.example", "//evil.example", "/%5Cevil.example"] {
        let r = s.post_form(
            "/login",
            &[("Cookie", "arbiter_login=t")],
            &format!("login=arb&password=correct+horse+8&csrf=t&next={next}"),
        );
        assert_eq!(r.status, 303, "{}", r.text());
        assert_eq!(r.header("location"), Some("/desk"), "{next}");
    }
    let r = s.post_form(
        "/login",
        &[("Cookie", "arbiter_login=t")],
        "login=arb&password=correct+horse+8&csrf=t&next=/desk/e/ev-1",
    );
    assert_eq!(r.header("location"), Some("/desk/e/ev-1"));
}
