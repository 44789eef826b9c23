//! Issue 45 item 2 in headless Chromium: the chief arbiter creates an arbiter's account on
//! his event's accounts page, reads the one-time password off the page, and the arbiter, in
//! a browser of his own, logs in with it and is sent to set his own password first.

use crate::browser::{
    add_user, body_text, click, fill, log_in, path_of, run, text, wait_js, Driver, ONE_AT_A_TIME,
};
use crate::common::TestServer;
use arbiter_store::Role;

#[test]
fn the_chief_arbiter_gives_an_arbiter_an_account_and_a_one_time_password() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(|store| add_user(store, "chief", Role::ChiefArbiter));
    let base = format!("http://{}", srv.addr);
    let http = crate::common::desk::login(&srv, "chief");
    let ev = crate::common::desk::create_open_kunshan(&srv, &http);
    run(async {
        let c = driver.browser(375, 900).await;
        log_in(&c, &base, "chief").await;
        c.goto(&format!("{base}/desk/e/{ev}")).await.expect("event");
        click(&c, &format!("a[href='/desk/e/{ev}/accounts']")).await;
        assert!(wait_js(&c, 10, "document.querySelector('#new-account')").await);
        fill(&c, "#new-account input[name=login]", "wang").await;
        fill(&c, "#new-account input[name=name]", "王裁判").await;
        click(&c, "#new-account button[type=submit]").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('#one-time code.password')").await,
            "no one-time password: {}",
            body_text(&c).await
        );
        let pw = text(&c, "#one-time code.password").await;
        assert_eq!(pw.len(), 19, "{pw}");
        assert!(text(&c, "#accounts").await.contains("王裁判"));
        c.close().await.expect("close");

        let w = driver.browser(375, 900).await;
        w.goto(&format!("{base}/login")).await.expect("login page");
        fill(&w, "form.login input[name=login]", "wang").await;
        fill(&w, "form.login input[name=password]", &pw).await;
        click(&w, "form.login button[type=submit]").await;
        assert!(
            wait_js(&w, 10, "location.pathname === '/desk/password'").await,
            "not sent to set a password: {}",
            body_text(&w).await
        );
        assert!(body_text(&w).await.contains("一次性密码"));
        fill(&w, "#password input[name=current]", &pw).await;
        fill(&w, "#password input[name=new]", "hall-9 autumn 2026").await;
        fill(&w, "#password input[name=again]", "hall-9 autumn 2026").await;
        click(&w, "#password button[type=submit]").await;
        assert!(
            wait_js(&w, 10, "location.pathname === '/login'").await,
            "not sent to log in again: {}",
            body_text(&w).await
        );
        fill(&w, "form.login input[name=login]", "wang").await;
        fill(&w, "form.login input[name=password]", "hall-9 autumn 2026").await;
        click(&w, "form.login button[type=submit]").await;
        assert!(
            wait_js(&w, 10, "location.pathname === '/desk'").await,
            "{}",
            body_text(&w).await
        );
        assert_eq!(path_of(&w).await, "/desk");
        // His event is on his desk.
        assert!(
            wait_js(
                &w,
                5,
                &format!("document.querySelector(\"a[href='/desk/e/{ev}']\")")
            )
            .await,
            "{}",
            body_text(&w).await
        );
        w.close().await.expect("close");
    });
}
