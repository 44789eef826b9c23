//! 「对分组可作适当调整」 at the desk (issue 46): a section below the regulation's minimum
//! before its draw is shown to the chief arbiter with the 并入 form, and merged into another
//! as one recorded decision.

use crate::common;
use crate::desk::{entries_of, flash, id_number, login, with_accounts, Browser};
use common::TestServer;

/// 深圳 2007 (its age-and-sex groups) with a minimum of 6 per group written.
fn create_shenzhen(s: &TestServer, chief: &Browser) -> String {
    let src = include_str!("../../../../regulations/shenzhen-2007-juniors.toml").replacen(
        "[registration]\n",
        "[registration]\nmin_per_section = 6\n",
        1,
    );
    let r = chief.post(s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}

/// A boy born on `born` entered into `sec` (after the deadline: the chief arbiter's).
fn enter_boy(s: &TestServer, chief: &Browser, ev: &str, sec: &str, born: &str, seq: u32) {
    let name = format!("小明{seq}");
    let r = chief.post(
        s,
        &format!("/desk/e/{ev}/s/{sec}/entries"),
        &[
            ("name", name.as_str()),
            ("id_number", &id_number(born, 2 * seq + 1)),
            ("evidence", "id_card"),
            ("late_reason", "组委会同意补报"),
        ],
    );
    let (ok, msg) = flash(&r);
    assert!(ok && msg.contains("已报名"), "{msg}");
}

/// Players of a section as its entries page lists them (their names).
fn names_on(s: &TestServer, b: &Browser, ev: &str, sec: &str) -> Vec<String> {
    let t = b.get(s, &format!("/desk/e/{ev}/s/{sec}/entries")).text();
    (1..=9)
        .map(|i| format!("小明{i}"))
        .filter(|n| t.contains(&format!(">{n}</a>")))
        .collect()
}

/// 男子6岁组 with two boys is below the minimum of 6: the chief arbiter sees the warning and
/// the 并入 form, the desk account (which may not merge) the warning alone. Without a reason the
/// merge is refused in words, the section chosen kept; with one, both boys are in 男子7岁组,
/// the log has one `sections_merged`, and the warning is gone; merging 男子6岁组 again is
/// refused in words.
#[test]
fn the_chief_arbiter_merges_a_section_too_small_at_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_shenzhen(&s, &chief);
    enter_boy(&s, &chief, &ev, "boys6", "20010305", 1);
    enter_boy(&s, &chief, &ev, "boys6", "20010611", 2);
    enter_boy(&s, &chief, &ev, "boys7", "20000202", 3);
    let page = format!("/desk/e/{ev}/s/boys6/entries");
    const WARNING: &str = "报名 2 人，少于规程规定的每组最少 6 人：可并入其他组别";

    let t = chief.get(&s, &page).text();
    assert!(t.contains(WARNING), "{t}");
    assert!(
        t.contains(&format!("action=\"/desk/e/{ev}/s/boys6/merge\"")),
        "{t}"
    );
    assert!(
        t.contains("<option value=\"boys7\">男子7岁组</option>"),
        "{t}"
    );
    assert!(
        !t.contains("<option value=\"boys6\">"),
        "not into itself: {t}"
    );
    assert!(t.contains(">并入</button>"), "{t}");
    // The desk account sees the warning, for the chief arbiter to decide, but no form.
    let t = desk.get(&s, &page).text();
    assert!(
        t.contains("报名 2 人，少于规程规定的每组最少 6 人：可否并入其他组别由裁判长决定"),
        "{t}"
    );
    assert!(!t.contains("/merge\""), "{t}");
    // The desk account may not post it either.
    let r = desk.post(
        &s,
        &format!("/desk/e/{ev}/s/boys6/merge"),
        &[("into", "boys7"), ("reason", "人数不足")],
    );
    assert_eq!(r.status, 403, "{}", r.text());

    // No reason: refused in words, the section chosen kept, nothing recorded.
    let r = chief.post(
        &s,
        &format!("/desk/e/{ev}/s/boys6/merge"),
        &[("into", "boys7"), ("reason", " ")],
    );
    assert_eq!(r.status, 422, "{}", r.text());
    let t = r.text();
    assert!(t.contains("合并组别须说明理由"), "{t}");
    assert!(!t.contains("--reason"), "{t}");
    assert!(t.contains("<option value=\"boys7\" selected>"), "{t}");
    assert!(entries_of(&s, &ev, "sections_merged").is_empty());

    const WHY: &str = "九: 对分组可作适当调整 (男子6岁组仅2人)";
    let r = chief.post(
        &s,
        &format!("/desk/e/{ev}/s/boys6/merge"),
        &[("into", "boys7"), ("reason", WHY)],
    );
    let (ok, msg) = flash(&r);
    assert!(ok && msg.contains("已将男子6岁组并入男子7岁组"), "{msg}");
    assert!(
        r.header("location")
            .is_some_and(|l| l.starts_with(&format!("/desk/e/{ev}/s/boys7/entries"))),
        "the desk goes on to the section merged into"
    );
    assert_eq!(
        names_on(&s, &chief, &ev, "boys7"),
        ["小明1", "小明2", "小明3"]
    );
    assert!(names_on(&s, &chief, &ev, "boys6").is_empty());
    let merged = entries_of(&s, &ev, "sections_merged");
    assert_eq!(merged.len(), 1);
    assert!(
        matches!(&merged[0].1, arbiter_core::LogEntry::SectionsMerged { from, into, reason }
            if from == "boys6" && into == "boys7" && reason == WHY),
        "{merged:?}"
    );
    let t = chief.get(&s, &page).text();
    assert!(
        !t.contains("少于规程规定的每组最少") && !t.contains("/merge\""),
        "{t}"
    );

    // Merged already: refused in words, on the page, and still one decision in the log.
    let r = chief.post(
        &s,
        &format!("/desk/e/{ev}/s/boys6/merge"),
        &[("into", "boys8"), ("reason", WHY)],
    );
    assert_eq!(r.status, 422, "{}", r.text());
    let t = r.text();
    assert!(t.contains("男子6岁组已并入男子7岁组"), "{t}");
    assert_eq!(entries_of(&s, &ev, "sections_merged").len(), 1);
}
