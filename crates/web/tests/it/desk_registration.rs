//! The registration rules of the regulations at the desk, as an arbiter meets them: each
//! test quotes the regulation's own words (issue 27: registration).

use crate::common;
use crate::desk::{
    create_open_kunshan, entries_of, flash, id_number, login, submit_online, with_accounts, Browser,
};
use common::TestServer;

/// Tianshui 2024 through the desk (its preset); entries after its deadline are the chief
/// arbiter's late entries.
fn create_tianshui(s: &TestServer, chief: &Browser) -> String {
    let r = chief.post(
        s,
        "/desk/events",
        &[("preset", "tianshui-2024"), ("toml", "")],
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}

/// The desk's entry form in Tianshui's open section (late: the chief arbiter's), `extra`
/// fields added to a name, the insurance seen and a late reason.
fn enter(s: &TestServer, chief: &Browser, ev: &str, extra: &[(&str, &str)]) -> common::Response {
    let mut pairs = vec![
        ("evidence", "accident_insurance"),
        ("late_reason", "组委会同意补报"),
    ];
    pairs.extend_from_slice(extra);
    chief.post(s, &format!("/desk/e/{ev}/s/open/entries"), &pairs)
}

/// T7 "报名时需提供姓名、身份证号、手机号": the desk's form names the missing field and keeps
/// what was typed; a typed sex or birth date that contradicts the ID number, or an ID number
/// born after today, is refused with the reason (no longer the ID's sex kept silently).
#[test]
fn the_desk_asks_for_tianshuis_fields_and_refuses_impossible_facts() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_tianshui(&s, &chief);
    let his = id_number("19900101", 1);
    let r = enter(
        &s,
        &chief,
        &ev,
        &[("name", "张三"), ("phone", "13912340001")],
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text().contains("请填写身份证号") && r.text().contains("value=\"张三\""),
        "{}",
        r.text()
    );
    let r = enter(&s, &chief, &ev, &[("name", "张三"), ("id_number", &his)]);
    assert_eq!(r.status, 422);
    assert!(r.text().contains("请填写手机号"), "{}", r.text());
    let full = [
        ("name", "张三"),
        ("id_number", &his),
        ("phone", "13912340001"),
    ];
    let mut woman = full.to_vec();
    woman.push(("sex", "女"));
    let r = enter(&s, &chief, &ev, &woman);
    assert_eq!(r.status, 422);
    assert!(r.text().contains("性别与身份证号不符"), "{}", r.text());
    let mut born = full.to_vec();
    born.push(("birth", "1991-01-01"));
    let r = enter(&s, &chief, &ev, &born);
    assert_eq!(r.status, 422);
    assert!(r.text().contains("出生日期与身份证号不符"), "{}", r.text());
    let future = id_number("20990101", 3);
    let r = enter(
        &s,
        &chief,
        &ev,
        &[
            ("name", "李四"),
            ("id_number", &future),
            ("phone", "13912340002"),
        ],
    );
    assert_eq!(r.status, 422);
    assert!(r.text().contains("晚于报名日"), "{}", r.text());
    assert!(entries_of(&s, &ev, "player_registered").is_empty());
    let (ok, msg) = flash(&enter(&s, &chief, &ev, &full));
    assert!(ok && msg.contains("已报名"), "{msg}");
}

/// T7 "赛事服务费100元": 50 yuan leaves 50 owed, at the desk as at the CLI; a second payment
/// completes it. T7 "报到时现场填写个人安全承诺书": no check-in without the pledge, and the
/// check-in records it.
#[test]
fn a_part_paid_fee_and_the_pledge_at_check_in() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_tianshui(&s, &chief);
    let his = id_number("19900101", 1);
    let (ok, msg) = flash(&enter(
        &s,
        &chief,
        &ev,
        &[
            ("name", "张三"),
            ("id_number", &his),
            ("phone", "13912340001"),
        ],
    ));
    assert!(ok, "{msg}");
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/1/fee"), &[("amount", "50")]));
    assert!(ok && msg.contains("尚欠 50元"), "{msg}");
    let list = desk.get(&s, &format!("/desk/e/{ev}/s/open/entries")).text();
    assert!(list.contains("50元 (尚欠 50元)"), "{list}");
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/1/fee"), &[]));
    assert!(ok && msg.contains("已缴费"), "{msg}");
    let paid: Vec<u64> = entries_of(&s, &ev, "fee_paid")
        .into_iter()
        .filter_map(|(_, e)| match e {
            arbiter_core::LogEntry::FeePaid { amount_fen, .. } => Some(amount_fen),
            _ => None,
        })
        .collect();
    assert_eq!(paid, [5000, 5000]);
    // The list offers the pledge beside the check-in button.
    let list = desk.get(&s, &format!("/desk/e/{ev}/s/open/entries")).text();
    assert!(list.contains("已签个人安全承诺书"), "{list}");
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/1/checkin"), &[]));
    assert!(!ok && msg.contains("须签署《个人安全承诺书》"), "{msg}");
    assert!(entries_of(&s, &ev, "checked_in").is_empty());
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/1/checkin"), &[("pledge", "1")]));
    assert!(ok, "{msg}");
    match &entries_of(&s, &ev, "checked_in")[..] {
        [(_, arbiter_core::LogEntry::CheckedIn { pledge, .. })] => assert!(*pledge),
        other => panic!("{other:?}"),
    }
}

/// K5 "如实填报姓名、参赛组别、工作单位、身份证号、社保证号、联系方式": the online form asks
/// for the unit the regulation requires; a blank one is none.
#[test]
fn the_online_form_asks_for_kunshans_unit() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_open_kunshan(&s, &chief);
    let his = id_number("19900101", 1);
    let r = submit_online(
        &s,
        &ev,
        &[
            ("section", "men"),
            ("name", "张伟"),
            ("id_number", &his),
            ("phone", "13912345678"),
            ("unit", "   "),
        ],
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("请填写单位"), "{}", r.text());
    assert!(entries_of(&s, &ev, "entry_submitted").is_empty());
}

/// A regulation whose open section ranks two categories marked by flags (本地棋手, 元老).
const FLAGGED: &str = r#"
[event]
name = "标记测试赛"
start = 2030-10-01
end = 2030-10-02

[registration]
unit_kind = "club"
deadline = 2030-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }

[[sections.categories]]
id = "locals"
name = "本地组"
flag = "local"

[[sections.categories]]
id = "seniors"
name = "元老组"
flag = "senior"
"#;

/// The flags of `player_registered` and of the last `player_corrected` of P1.
fn flags_of(s: &TestServer, ev: &str) -> (Vec<String>, Option<Vec<String>>) {
    let reg = entries_of(s, ev, "player_registered")
        .into_iter()
        .find_map(|(_, e)| match e {
            arbiter_core::LogEntry::PlayerRegistered(p) => Some(p.flags),
            _ => None,
        })
        .unwrap_or_default();
    let corrected = entries_of(s, ev, "player_corrected")
        .into_iter()
        .filter_map(|(_, e)| match e {
            arbiter_core::LogEntry::PlayerCorrected { changes, .. } => {
                changes.into_iter().find_map(|c| match c {
                    arbiter_core::FieldChange::Flags(v) => Some(v),
                    _ => None,
                })
            }
            _ => None,
        })
        .next_back();
    (reg, corrected)
}

/// Issue 31: the desk's entry form and edit form offer a box for each category flag of the
/// section (本地棋手, 元老组); the box ticked is recorded; a flag the regulation does not name
/// is refused with the known ones, nothing recorded.
#[test]
fn the_desk_sets_and_edits_category_flags() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let r = chief.post(&s, "/desk/events", &[("preset", ""), ("toml", FLAGGED)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc
        .strip_prefix("/desk/e/")
        .and_then(|e| e.split('?').next())
        .expect("event page")
        .to_string();
    let list = format!("/desk/e/{ev}/s/open/entries");
    let page = chief.get(&s, &list).text();
    assert!(
        page.contains("name=\"flag.local\"") && page.contains("本地棋手"),
        "{page}"
    );
    assert!(
        page.contains("name=\"flag.senior\"") && page.contains("元老组"),
        "{page}"
    );
    let r = chief.post(
        &s,
        &list,
        &[("name", "张三"), ("unit", "甲单位"), ("flag.外地", "on")],
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text().contains("标记「外地」不是本规程的条件")
            && r.text().contains("「local」本地棋手、「senior」元老组"),
        "{}",
        r.text()
    );
    assert!(entries_of(&s, &ev, "player_registered").is_empty());
    let (ok, msg) = flash(&chief.post(
        &s,
        &list,
        &[("name", "张三"), ("unit", "甲单位"), ("flag.senior", "on")],
    ));
    assert!(ok && msg.contains("已报名"), "{msg}");
    assert_eq!(flags_of(&s, &ev).0, vec!["senior".to_string()]);
    // The edit form shows the boxes, the one held ticked; ticking the other replaces it.
    let edit = chief.get(&s, &format!("/desk/e/{ev}/p/1")).text();
    assert!(
        edit.contains("name=\"flag.senior\" checked") && edit.contains("name=\"flag.local\">"),
        "{edit}"
    );
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/p/1/edit"),
        &[
            ("name", "张三"),
            ("unit", "甲单位"),
            ("flags_shown", "1"),
            ("flag.local", "on"),
            ("reason", "本地户籍, 非元老"),
        ],
    ));
    assert!(ok && msg.contains("已更正"), "{msg}");
    assert_eq!(flags_of(&s, &ev).1, Some(vec!["local".to_string()]));
}

/// Issue 45 item 5: a player entered in the wrong section is moved before the draw (换组)
/// from his page — the same entry, his fee and check-in with him, no ghost entry owing a fee
/// on the old section's sheet; the new section's rules judge him (天水本地组 needs 本地棋手),
/// a reason is required, and once a section is drawn the move is refused and not offered.
#[test]
fn a_player_changes_section_before_the_draw_with_his_fee() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let arb = login(&s, "arb");
    let ev = create_tianshui(&s, &chief);
    for (i, (name, local)) in [("张三", false), ("李四", true), ("王五", false)]
        .into_iter()
        .enumerate()
    {
        let id = id_number("19900101", 2 * i as u32 + 1);
        let phone = format!("1391234000{i}");
        let mut form = vec![("name", name), ("id_number", &id), ("phone", &phone)];
        if local {
            form.push(("flag.local", "on"));
        }
        let (ok, msg) = flash(&enter(&s, &chief, &ev, &form));
        assert!(ok, "{name}: {msg}");
    }
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/2/fee"), &[]));
    assert!(ok, "{msg}");
    // The page offers the other section.
    let page = desk.get(&s, &format!("/desk/e/{ev}/p/2")).text();
    assert!(page.contains("id=\"change-section\""), "{page}");
    assert!(
        page.contains("<option value=\"local\">天水本地组</option>"),
        "{page}"
    );
    let move_to = |b: &Browser, pid: u32, reason: &str| {
        flash(&b.post(
            &s,
            &format!("/desk/e/{ev}/p/{pid}/section"),
            &[("section", "local"), ("reason", reason)],
        ))
    };
    // A reason is required; the new section's rules judge the entry.
    let (ok, msg) = move_to(&desk, 2, "");
    assert!(!ok && msg.contains("换组须说明理由"), "{msg}");
    assert!(!msg.contains("--reason"), "{msg}");
    let (ok, msg) = move_to(&desk, 1, "报错组别");
    assert!(!ok && msg.contains("不符合天水本地组的参赛条件"), "{msg}");
    let (ok, msg) = move_to(&desk, 2, "本地棋手报错组别");
    assert!(ok && msg.contains("已换组"), "{msg}");
    let moved = entries_of(&s, &ev, "player_section_changed");
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].0, "desk");
    // He is on the local section's list, paid; the open list has no trace of him.
    let local = desk
        .get(&s, &format!("/desk/e/{ev}/s/local/entries"))
        .text();
    assert!(local.contains("李四"), "{local}");
    assert!(!local.contains("尚欠"), "{local}");
    let open = desk.get(&s, &format!("/desk/e/{ev}/s/open/entries")).text();
    assert!(!open.contains("李四"), "{open}");
    let log = chief.get(&s, &format!("/desk/e/{ev}/log")).text();
    assert!(log.contains("李四 由公开组换至天水本地组"), "{log}");
    // After the open section's draw: not offered, and refused.
    for pid in [1, 3] {
        let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/{pid}/fee"), &[]));
        assert!(ok, "{msg}");
    }
    // Round 1's pairing draws the numbers.
    let r = arb.post(
        &s,
        &format!("/desk/e/{ev}/s/open/pair"),
        &[("fix", ""), ("swap", "")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let page = desk.get(&s, &format!("/desk/e/{ev}/p/3")).text();
    assert!(!page.contains("id=\"change-section\""), "{page}");
    let (ok, msg) = move_to(&desk, 3, "报错组别");
    assert!(!ok && msg.contains("已抽签"), "{msg}");
}

/// Issue 45 item 6: the list's fee form takes a part amount and the receipt number (as the
/// CLI's `fee --amount --receipt`), and 全选 pays (or checks in) every player of the section
/// still playing without ticking each row; those who owe nothing are left out.
#[test]
fn the_list_takes_a_part_fee_with_its_receipt_and_selects_all() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_tianshui(&s, &chief);
    for i in 0..4u32 {
        let id = id_number("19900101", 2 * i + 1);
        let phone = format!("1391234100{i}");
        let name = format!("棋手{i}");
        let (ok, msg) = flash(&enter(
            &s,
            &chief,
            &ev,
            &[("name", &name), ("id_number", &id), ("phone", &phone)],
        ));
        assert!(ok, "{msg}");
    }
    let list = desk.get(&s, &format!("/desk/e/{ev}/s/open/entries")).text();
    assert!(list.contains(r#"name="amount""#) && list.contains(r#"name="receipt""#));
    assert!(list.contains(r#"name="all""#), "{list}");
    // A part payment with its receipt from the row's form.
    let (ok, msg) = flash(&desk.post(
        &s,
        &format!("/desk/e/{ev}/p/1/fee"),
        &[("amount", "40"), ("receipt", "NO.0012")],
    ));
    assert!(ok && msg.contains("尚欠 60元"), "{msg}");
    let paid = entries_of(&s, &ev, "fee_paid");
    assert!(
        matches!(&paid[0].1, arbiter_core::LogEntry::FeePaid { amount_fen: 4000, receipt: Some(r), .. } if r == "NO.0012"),
        "{paid:?}"
    );
    // 全选 without a tick: everyone still owing pays the rest of his fee.
    let (ok, msg) = flash(&desk.post(
        &s,
        &format!("/desk/e/{ev}/s/open/many"),
        &[("do", "fee"), ("all", "1")],
    ));
    assert!(ok, "{msg}");
    let paid = entries_of(&s, &ev, "fee_paid");
    assert_eq!(paid.len(), 5, "{paid:?}");
    let list = desk.get(&s, &format!("/desk/e/{ev}/s/open/entries")).text();
    assert!(!list.contains("尚欠"), "{list}");
}

/// Issue 45 item 6: a 批量签到 refused (the pledge not ticked) brings the list back with every
/// tick the desk made still ticked and the refusal below the row it names; one partly done
/// leaves ticked only those it left out, each with why below his row.
#[test]
fn a_refused_bulk_check_in_keeps_the_ticks_and_says_why_at_the_row() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let ev = create_tianshui(&s, &chief);
    for i in 0..4u32 {
        let id = id_number("19900101", 2 * i + 1);
        let phone = format!("1391234100{i}");
        let name = format!("棋手{i}");
        let (ok, msg) = flash(&enter(
            &s,
            &chief,
            &ev,
            &[("name", &name), ("id_number", &id), ("phone", &phone)],
        ));
        assert!(ok, "{msg}");
    }
    let many = format!("/desk/e/{ev}/s/open/many");
    let tick = |p: &str| format!(r#"name="p" value="{p}" form="many" checked"#);
    // Players 2 and 3 ticked, the pledge box not: refused as a whole.
    let r = desk.post(&s, &many, &[("do", "checkin"), ("p", "2"), ("p", "3")]);
    let loc = r.header("location").expect("location").to_string();
    let (ok, msg) = flash(&r);
    assert!(!ok && msg.contains("须签署《个人安全承诺书》"), "{msg}");
    assert!(loc.ends_with("#p2"), "{loc}");
    assert!(entries_of(&s, &ev, "checked_in").is_empty());
    let list = desk.get(&s, &loc).text();
    assert!(
        list.contains(&tick("2")) && list.contains(&tick("3")),
        "{list}"
    );
    assert!(
        !list.contains(&tick("1")) && !list.contains(&tick("4")),
        "{list}"
    );
    let at_row = list
        .split("<tr id=\"p2\"")
        .nth(1)
        .and_then(|r| r.split("<tr id=\"p3\"").next())
        .unwrap_or("");
    assert!(at_row.contains("须签署《个人安全承诺书》"), "{at_row}");
    // 全选 refused the same way comes back with 全选 still ticked.
    let r = desk.post(&s, &many, &[("do", "checkin"), ("all", "1")]);
    let loc = r.header("location").expect("location").to_string();
    let list = desk.get(&s, &loc).text();
    assert!(list.contains(r#"name="all" value="1" checked"#), "{list}");
    // Player 1 checked in alone; then 1, 2 and 3 ticked with the pledge: 2 and 3 are checked
    // in, 1 is left out — still ticked, and why below his row.
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/1/checkin"), &[("pledge", "1")]));
    assert!(ok, "{msg}");
    let r = desk.post(
        &s,
        &many,
        &[
            ("do", "checkin"),
            ("pledge", "1"),
            ("p", "1"),
            ("p", "2"),
            ("p", "3"),
        ],
    );
    let loc = r.header("location").expect("location").to_string();
    let (ok, msg) = flash(&r);
    assert!(
        ok && msg.starts_with("2人已签到") && msg.contains("未处理 1人"),
        "{msg}"
    );
    assert_eq!(entries_of(&s, &ev, "checked_in").len(), 3);
    let list = desk.get(&s, &loc).text();
    assert!(list.contains(&tick("1")), "{list}");
    assert!(
        !list.contains(&tick("2")) && !list.contains(&tick("3")),
        "{list}"
    );
    let note = list
        .split("id=\"note1\"")
        .nth(1)
        .and_then(|r| r.split("</tr>").next())
        .unwrap_or("");
    assert!(note.contains("棋手0") && note.contains("已检录"), "{list}");
    assert!(!list.contains("id=\"note2\""), "{list}");
}

/// Issue 46 (1): where the regulation keeps a scale of grades and titles, the desk's entry
/// form has a 段位/称号 select with the section's rule beside it; a grade the section's rule
/// refuses is shown at the field, nothing recorded; a grade admitted is recorded by the
/// scale's name and can be corrected on the player's page.
#[test]
fn the_desk_enters_and_corrects_a_grade_by_the_sections_rule() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let toml = r#"[event]
name = "段位赛"
start = 2030-12-20
end = 2030-12-21

[grades]
scale = ["业余1段", "业余2段", "业余3段", "业余4段", "地方大师", "象棋大师"]

[[sections]]
id = "open"
name = "段位组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"

[sections.eligibility]
min_grade = "业余3段"
below_grade = "象棋大师"
"#;
    let r = chief.post(&s, "/desk/events", &[("preset", ""), ("toml", toml)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc
        .strip_prefix("/desk/e/")
        .and_then(|x| x.split('?').next())
        .expect("event page")
        .to_string();
    let list = format!("/desk/e/{ev}/s/open/entries");
    let page = chief.get(&s, &list).text();
    assert!(
        page.contains("段位/称号") && page.contains("须业余3段及以上; 未获得象棋大师以上称号"),
        "{page}"
    );
    let r = chief.post(&s, &list, &[("name", "赵六"), ("grade", "业余2段")]);
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text().contains("id=\"grade-error\"") && r.text().contains("低于本组要求的 业余3段"),
        "{}",
        r.text()
    );
    assert!(entries_of(&s, &ev, "player_registered").is_empty());
    let r = chief.post(&s, &list, &[("name", "赵六"), ("grade", "业余4段")]);
    assert_eq!(r.status, 303, "{}", r.text());
    let grade = entries_of(&s, &ev, "player_registered")
        .into_iter()
        .find_map(|(_, e)| match e {
            arbiter_core::LogEntry::PlayerRegistered(p) => p.grade,
            _ => None,
        });
    assert_eq!(grade.as_deref(), Some("业余4段"));
    let r = chief.post(
        &s,
        &format!("/desk/e/{ev}/p/1/edit"),
        &[
            ("name", "赵六"),
            ("grade", "地方大师"),
            ("reason", "证书核对"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let corrected = entries_of(&s, &ev, "player_corrected")
        .into_iter()
        .find_map(|(_, e)| match e {
            arbiter_core::LogEntry::PlayerCorrected { changes, .. } => Some(changes),
            _ => None,
        });
    assert_eq!(
        corrected,
        Some(vec![arbiter_core::FieldChange::Grade(Some(
            "地方大师".into()
        ))])
    );
    let page = chief.get(&s, &format!("/desk/e/{ev}/p/1")).text();
    assert!(page.contains("<td>地方大师</td>"), "{page}");
}

/// 越级 at the desk: 深圳 2007 (moved to 2099, entries open) with `[registration.play_up]`
/// asking for a coach's letter. The 男子9岁组 form says what playing up asks and offers the
/// condition; a boy whose own group is 男子7岁组 is refused beside the documents, naming his
/// own group, and is entered once the letter is ticked.
#[test]
fn the_desk_enters_a_child_playing_up_only_with_what_the_regulation_asks() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let src = include_str!("../../../../regulations/shenzhen-2007-juniors.toml")
        .replace("2007-07-", "2099-07-")
        .replacen(
            "[registration]\n",
            "[registration]\nplay_up = { flags = [\"coach_letter\"], label = \"须持教练推荐信\" }\n",
            1,
        );
    let r = chief.post(&s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc
        .strip_prefix("/desk/e/")
        .and_then(|e| e.split('?').next())
        .expect("event page")
        .to_string();
    let list = format!("/desk/e/{ev}/s/boys9/entries");
    let page = chief.get(&s, &list).text();
    assert!(page.contains("越级报名: 须持教练推荐信"), "{page}");
    assert!(page.contains("name=\"flag.coach_letter\""), "{page}");
    let seven = id_number("20000610", 21);
    let form = [
        ("name", "李小明"),
        ("id_number", seven.as_str()),
        ("evidence", "id_card"),
    ];
    let r = chief.post(&s, &list, &form);
    assert_eq!(r.status, 422, "{}", r.text());
    let text = r.text();
    assert!(
        text.contains("id=\"evidence-error\"")
            && text.contains(
                "本人年龄组为「男子7岁组」，报「男子9岁组」须满足规程的越级条件: 须持教练推荐信"
            ),
        "{text}"
    );
    assert!(entries_of(&s, &ev, "player_registered").is_empty());
    let mut ticked = form.to_vec();
    ticked.push(("flag.coach_letter", "on"));
    let r = chief.post(&s, &list, &ticked);
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(entries_of(&s, &ev, "player_registered").len(), 1);
}
