//! Issue 42, item 8: the online entry form answered a stranger whether an ID number was
//! registered or pending, and let him block someone's entry by submitting that number first.
//! Now every valid form gets the same answer (pending, for the desk), whatever the number;
//! the desk sees the duplicates beside each pending entry and decides.

use crate::common::TestServer;
use crate::desk::{create_open_kunshan, flash, id_number, login, submit_online, with_accounts};
use arbiter_store::EventStore;

fn man(name: &str, id: &str, phone: &str) -> Vec<(&'static str, String)> {
    vec![
        ("section", "men".into()),
        ("name", name.into()),
        ("sex", "男".into()),
        ("id_number", id.into()),
        ("phone", phone.into()),
        ("social_security", format!("KS{}", &id[6..14])),
        ("unit", "昆山一厂".into()),
    ]
}

/// The answer without what differs by design (the submission's number, the status token).
fn shape(t: &str) -> String {
    t.lines()
        .filter(|l| !l.contains("/entry/status/") && !l.contains('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_online_form_does_not_tell_whether_a_number_is_entered() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_open_kunshan(&s, &chief);
    let post = |v: Vec<(&'static str, String)>| {
        let pairs: Vec<(&str, &str)> = v.iter().map(|(k, x)| (*k, x.as_str())).collect();
        submit_online(&s, &ev, &pairs)
    };
    // A player registered at the desk.
    let victim = id_number("19800808", 11);
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/s/men/entries"),
        &[
            ("name", "赵刚"),
            ("sex", "男"),
            ("unit", "昆山二厂"),
            ("id_number", &victim),
            ("phone", "13911112222"),
            ("social_security", "KS19800808"),
            ("evidence", "social_security"),
        ],
    ));
    assert!(ok, "{msg}");

    // A stranger tries the registered number, and a number nobody has entered: the same
    // answer, nothing about the registration.
    let fresh = id_number("19810909", 15);
    let a = post(man("路人", &victim, "13700000001"));
    let b = post(man("路人", &fresh, "13700000001"));
    assert_eq!(
        (a.status, b.status),
        (200, 200),
        "{}\n{}",
        a.text(),
        b.text()
    );
    for r in [&a, &b] {
        let t = r.text();
        assert!(t.contains("报名已提交") && t.contains("等待"), "{t}");
        for tell in ["已报名", "已在", "重复", "已有", "already"] {
            assert!(!t.contains(tell), "{tell}: {t}");
        }
    }
    // Each answer repeats only its own form's fields; with those taken out they are the same.
    let strip = |t: String, id: &str| {
        let masked = arbiter_types::IdNumber::parse(id).expect("id").masked();
        shape(&t.replace(id, "ID").replace(&masked, "ID"))
    };
    assert_eq!(strip(a.text(), &victim), strip(b.text(), &fresh));

    // A stranger submits a colleague's number first; the colleague's own entry is still taken.
    let colleague = id_number("19820707", 13);
    let first = post(man("冒名", &colleague, "13700000002"));
    let own = post(man("钱明", &colleague, "13800000003"));
    assert_eq!((first.status, own.status), (200, 200), "{}", own.text());
    assert!(own.text().contains("报名已提交"), "{}", own.text());

    // The desk sees every duplicate and decides.
    let list = chief.get(&s, &format!("/desk/e/{ev}/s/men/entries")).text();
    assert!(list.contains("身份证号已报名: P1 赵刚"), "{list}");
    assert!(list.contains("与待审报名身份证号相同: #3 冒名"), "{list}");
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/sub/1/approve"),
        &[("evidence", "社保证明")],
    ));
    assert!(!ok, "the registered number is not registered twice: {msg}");
    let state = s
        .store()
        .state(&arbiter_store::EventId(ev.clone()))
        .expect("state");
    assert_eq!(state.players.len(), 1);
    assert_eq!(state.pending(Some("men")).len(), 4);
}
