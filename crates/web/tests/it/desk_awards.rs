//! The organiser's awards at the desk (S10, 苏州 规程: 「设最佳组织奖、最佳赛风赛纪奖各一个，各
//! 奖励500元」): listed with who has them on `/desk/e/{ev}/awards`, given and taken back by the
//! organiser or the chief arbiter through the same operation as `arbiter award`, refusals in
//! the desk's words.

use crate::common::TestServer;
use crate::desk::{entries_of, flash, login, register_men, with_accounts, Browser};

/// The Kunshan regulation with the Suzhou regulation's two organiser's awards.
fn create_with_awards(s: &TestServer, chief: &Browser) -> String {
    let src = format!(
        "{}\n[[special_awards]]\nname = \"最佳组织奖\"\namount_yuan = 500\n\
         [[special_awards]]\nname = \"最佳赛风赛纪奖\"\namount_yuan = 500\n",
        include_str!("../../../../regulations/kunshan-2026.toml")
    );
    let r = chief.post(s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}

#[test]
fn the_organisers_awards_are_given_and_taken_back_at_the_desk() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_with_awards(&s, &chief);
    register_men(&s, &chief, &ev, 4);
    let here = format!("/desk/e/{ev}/awards");
    // The event page links to the awards.
    let event = chief.get(&s, &format!("/desk/e/{ev}")).text();
    assert!(event.contains(&format!("href=\"{here}\"")), "{event}");

    // The registration desk sees the awards, not the form; posting is not its to do.
    let desk = login(&s, "desk");
    let page = desk.get(&s, &here).text();
    assert!(
        page.contains("<td>最佳组织奖</td><td>1</td><td>500元</td><td>尚未授予</td>"),
        "{page}"
    );
    assert!(!page.contains("id=\"give-award\""), "{page}");
    let r = desk.post(&s, &here, &[("award", "最佳组织奖"), ("to", "单位0")]);
    assert_eq!(r.status, 403, "{}", r.text());

    // The organiser: refusals in the desk's words, nothing written.
    let org = login(&s, "org");
    let page = org.get(&s, &here).text();
    assert!(page.contains("id=\"give-award\""), "{page}");
    let give = |who: &Browser, award: &str, to: &str, action: &str| {
        flash(&who.post(
            &s,
            &here,
            &[
                ("award", award),
                ("to", to),
                ("reason", "组委会评定"),
                ("do", action),
            ],
        ))
    };
    let (ok, msg) = give(&org, "最佳组织奖", "火星象棋协会", "give");
    assert!(!ok, "{msg}");
    assert!(
        msg.contains("「火星象棋协会」不是本赛事的参赛单位、队伍或棋手")
            && msg.contains("「获奖者」栏"),
        "{msg}"
    );
    let (ok, msg) = give(&org, "最佳组织奖", "单位0\n单位1", "give");
    assert!(
        !ok && msg.contains("「最佳组织奖」规程设 1 个, 不能授予 2 个获奖者"),
        "{msg}"
    );
    let (ok, msg) = give(&org, "最佳赛风赛纪奖", "", "give");
    assert!(!ok && msg.contains("获奖者"), "{msg}");
    let (ok, msg) = give(&org, "最佳赛风赛纪奖", "", "withdraw");
    assert!(!ok && msg.contains("「最佳赛风赛纪奖」尚未授予"), "{msg}");
    assert!(entries_of(&s, &ev, "special_award_given").is_empty());

    // Given: listed with who has it, recorded as the organiser's.
    let (ok, msg) = give(&org, "最佳组织奖", "单位0", "give");
    assert!(ok && msg.contains("已授予 单位0「最佳组织奖」"), "{msg}");
    let page = desk.get(&s, &here).text();
    assert!(
        page.contains("<td>最佳组织奖</td><td>1</td><td>500元</td><td>单位0</td>"),
        "{page}"
    );
    let given = entries_of(&s, &ev, "special_award_given");
    assert_eq!(given.len(), 1);
    assert_eq!(given[0].0, "org");
    // The chief arbiter takes it back.
    let (ok, msg) = give(&chief, "最佳组织奖", "", "withdraw");
    assert!(ok && msg.contains("已收回「最佳组织奖」"), "{msg}");
    let page = desk.get(&s, &here).text();
    assert!(page.contains("<td>500元</td><td>尚未授予</td>"), "{page}");
}
