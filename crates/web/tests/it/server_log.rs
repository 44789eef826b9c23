//! The server's log (`arbiter_web::trace`): a request is logged with its method, route
//! pattern, status and duration; a write with the account's login, the operation, its
//! duration and the kind of its refusal; and the ID number and phone typed into a form
//! appear nowhere in it, whether the write was done or refused.
//!
//! The log is the process's: every server of this test binary writes into it once this test
//! has set it up, so the test looks only for what it alone does (its own account, its own
//! numbers).

use crate::common::desk::add_user;
use crate::common::TestServer;
use crate::desk::{create_open_kunshan, flash, id_number, login, submit_online, with_accounts};
use arbiter_store::Role;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// What the server logged, since this test set the log up.
fn captured() -> Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let to = buf.clone();
        let installed = arbiter_web::trace::init_to("info", move || Sink(to.clone()));
        assert!(installed, "the test binary's log was set before");
        buf
    })
    .clone()
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn requests_and_writes_are_logged_without_personal_data() {
    let log = captured();
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        add_user(store, "logtracer", Role::ChiefArbiter);
    });
    let me = login(&s, "logtracer");
    let ev = create_open_kunshan(&s, &me);
    let id = id_number("19630303", 63);
    let phone = "13963636363";
    let register = || {
        me.post(
            &s,
            &format!("/desk/e/{ev}/s/men/entries"),
            &[
                ("name", "钱六三"),
                ("sex", "男"),
                ("unit", "昆山六厂"),
                ("id_number", &id),
                ("phone", phone),
                ("social_security", "KS19630303"),
                ("evidence", "social_security"),
            ],
        )
    };
    // Done, then refused: the same person twice.
    let (ok, msg) = flash(&register());
    assert!(ok, "{msg}");
    let r = register();
    assert_eq!(r.status, 422, "{}", r.text());
    // The online form, refused: a woman's ID number in the men's section.
    let her = id_number("19640404", 64);
    let her_phone = "13964646464";
    let r = submit_online(
        &s,
        &ev,
        &[
            ("section", "men"),
            ("name", "孙六四"),
            ("sex", "女"),
            ("id_number", &her),
            ("phone", her_phone),
            ("social_security", "KS19640404"),
            ("unit", "昆山六厂"),
        ],
    );
    assert_eq!(r.status, 422, "{}", r.text());

    let text = String::from_utf8_lossy(&log.lock().unwrap_or_else(|e| e.into_inner())).to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mine = |needle: &str| -> Vec<&str> {
        lines
            .iter()
            .copied()
            .filter(|l| l.contains("actor=logtracer") && l.contains(needle))
            .collect()
    };
    // The writes: who, which operation, how long; what was appended or why not, by kind.
    let done = mine("outcome=\"done\"");
    assert!(
        done.iter().any(|l| l.contains("entries=player_registered")
            && l.contains("op=Register")
            && l.contains("duration_ms=")
            && l.contains("seq=")),
        "{text}"
    );
    let refused = mine("outcome=\"refused\"");
    assert!(
        refused
            .iter()
            .any(|l| l.contains("refusal=Refused/") && l.contains("duration_ms=")),
        "{text}"
    );
    // Each write is inside its request's span: method and route pattern.
    assert!(
        done.iter()
            .any(|l| l.contains("http{method=POST route=/desk/e/{ev}/s/{sec}/entries")),
        "{text}"
    );
    // The request itself: its status and duration once answered.
    assert!(
        lines.iter().any(
            |l| l.contains("method=POST route=/desk/e/{ev}/s/{sec}/entries")
                && l.contains("status=303")
                && l.contains("duration_ms=")
                && l.contains("请求 (request)")
        ),
        "{text}"
    );
    // The online form's refused write, as the form's actor.
    assert!(
        lines.iter().any(|l| l.contains("actor=online")
            && l.contains("route=/e/{ev}/entry")
            && l.contains("outcome=\"refused\"")),
        "{text}"
    );
    // Nothing personal: not the ID numbers, not the phones, not the names typed.
    for secret in [
        id.as_str(),
        phone,
        her.as_str(),
        her_phone,
        "钱六三",
        "孙六四",
    ] {
        assert!(!text.contains(secret), "{secret} in the log:\n{text}");
    }
}
