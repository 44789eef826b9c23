//! A server on a machine without a CJK font: the desk's PDF download answers with a Chinese-
//! first page saying how to install one (503), not a 500 or a dropped connection; HTML still
//! prints. Its own test binary, not a module of `tests/it`: it points `ARBITER_FONT` at a
//! missing file for the whole process, where the other web tests print with the real font
//! (and the font found is cached per process).

mod common;

use arbiter_store::accounts::User;
use arbiter_store::{AccountStore, Role};
use common::TestServer;

fn cookie(r: &common::Response, name: &str) -> String {
    r.headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .find_map(|(_, v)| {
            let first = v.split(';').next()?;
            first
                .starts_with(&format!("{name}="))
                .then(|| first.to_string())
        })
        .expect("cookie")
}

#[test]
fn a_missing_cjk_font_is_a_clear_error_page() {
    // Before the server starts: no thread reads the environment yet.
    std::env::set_var(
        arbiter_documents::FONT_ENV,
        "/nonexistent/NotoSansCJK-Regular.ttc",
    );
    let mut id = None;
    let s = TestServer::start_with(|store| {
        store
            .add_user(&User {
                login: "arb".into(),
                display_name: "arb".into(),
                role: Role::Arbiter,
                password_hash: arbiter_web::auth::password::hash("correct horse 8").expect("hash"),
                created: "2026-09-26T08:00:00+08:00".into(),
            })
            .expect("user");
        id = Some(common::reference_event(
            store,
            "kunshan-2026.toml",
            1,
            Some(8),
        ));
    });
    let ev = id.expect("event").0;
    let page = s.get("/login");
    let html = page.text();
    let at = html.find("name=\"csrf\" value=\"").expect("csrf") + 19;
    let token = &html[at..at + html[at..].find('"').expect("end")];
    let r = s.post_form(
        "/login",
        &[("Cookie", &cookie(&page, "arbiter_login"))],
        &format!("login=arb&password=correct+horse+8&csrf={token}"),
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let session = cookie(&r, "arbiter_session");
    let get = |p: &str| s.get_with(p, &[("Cookie", &session)]);
    let r = get(&format!("/desk/e/{ev}/print?doc=pairings&format=pdf"));
    assert_eq!(r.status, 503, "{}", r.text());
    let text = r.text();
    assert!(text.starts_with("<!doctype html>"), "{text}");
    assert!(
        text.contains("无法生成 PDF") && text.contains("字体"),
        "{text}"
    );
    assert!(
        text.contains("/nonexistent/NotoSansCJK-Regular.ttc"),
        "{text}"
    );
    // The HTML copy and the Excel export need no font.
    assert_eq!(get(&format!("/desk/e/{ev}/print?doc=pairings")).status, 200);
    assert_eq!(get(&format!("/desk/e/{ev}/export.xlsx")).status, 200);
}
