//! The event log page of the desk (`/desk/e/{ev}/log`): each entry a sentence saying who did
//! what, when — names, not numbers or ids, no JSON outside the details toggle, never an ID
//! number or a phone — and the signatures of a slip as they were given.

use crate::common::TestServer;
use crate::desk::{
    create_kunshan, flash, id_number, login, pair_and_publish, register_men, with_accounts,
};
use arbiter_store::EventStore;

/// The log table of a page without the recorded entries behind each details toggle: what a
/// person reads.
fn sentences(page: &str) -> String {
    let start = page
        .find("<table class=\"grid log\">")
        .expect("the log table");
    let end = page[start..].find("</table>").expect("table end") + start;
    let mut t = page[start..end].to_string();
    while let Some(a) = t.find("<details>") {
        let b = t[a..].find("</details>").expect("details end") + a;
        t.replace_range(a..b + "</details>".len(), "");
    }
    t
}

#[test]
fn the_log_page_reads_as_sentences_with_names_and_no_json_or_id_number() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 11);
    // One entry with an ID number, a phone and the 社保号 (K5), none of register_men's.
    let id = id_number("19900101", 101);
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/s/men/entries"),
        &[
            ("name", "张三"),
            ("sex", "男"),
            ("unit", "天水市"),
            ("id_number", &id),
            ("phone", "13912345678"),
            ("social_security", &id),
            ("evidence", "social_security"),
            ("late_reason", "组委会同意补报"),
        ],
    ));
    assert!(ok, "{msg}");
    let arb = login(&s, "arb");
    pair_and_publish(&s, &arb, &ev);
    let results = format!("/desk/e/{ev}/s/men/results");
    for (board, key) in [
        ("1", "1"),
        ("2", "="),
        ("3", "0"),
        ("4", "1"),
        ("5", "1"),
        ("6", "f"),
    ] {
        let (ok, msg) = flash(&arb.post(&s, &results, &[("board", board), ("result", key)]));
        assert!(ok, "board {board}: {msg}");
    }
    let (ok, msg) = flash(&arb.post(&s, &format!("/desk/e/{ev}/s/men/confirm"), &[]));
    assert!(ok, "{msg}");
    let (ok, msg) = flash(&chief.post(
        &s,
        &format!("/desk/e/{ev}/s/men/correct"),
        &[
            ("round", "1"),
            ("board", "2"),
            ("result", "1-0"),
            ("reason", "记录员抄错"),
        ],
    ));
    assert!(ok, "{msg}");

    // Who played on each board, from the fold: the sentences name them.
    let state = s
        .store()
        .state(&arbiter_store::EventId(ev.clone()))
        .expect("state");
    let name = |p| state.player(p).expect("player").person.name.clone();
    let round = state
        .section("men")
        .and_then(|r| r.round(1))
        .expect("round 1");
    let board = |n: u32| round.board(n).expect("board");
    let (r1, b1) = (name(board(1).red), name(board(1).black));
    let (r2, b2) = (name(board(2).red), name(board(2).black));
    let r6 = name(board(6).red);

    let page = chief.get(&s, &format!("/desk/e/{ev}/log"));
    assert_eq!(page.status, 200);
    let html = page.text();
    let text = sentences(&html);
    for want in [
        "裁判长 chief 裁判".to_string(),
        "登记 张三 (天水市, 男子个人赛), 截止后补报, 理由: 组委会同意补报".to_string(),
        "编排 男子个人赛 第1轮 (6 台)".to_string(),
        "公布 男子个人赛 第1轮 对阵表".to_string(),
        "裁判 arb 裁判".to_string(),
        format!("录入 男子个人赛 第1轮 第1台: {r1} (红) 胜 {b1}"),
        format!("更正 男子个人赛 第1轮 第2台 和棋 → 红胜 ({r2} (红) 胜 {b2}), 理由: 记录员抄错"),
        // The forfeit's slip: the player present and the arbiter who confirmed it, by name.
        format!("确认 男子个人赛 第1轮 第6台 成绩单, 签字: {r6}、arb 裁判"),
        "完成 男子个人赛 第1轮 (成绩全部录入)".to_string(),
    ] {
        assert!(text.contains(&want), "missing 「{want}」 in:\n{text}");
    }
    // No JSON, no internal ids, no ID number or phone in what is read.
    for bad in [
        "{",
        "&#34;",
        "result_entered",
        "player_registered",
        "`",
        ">men<",
        " men ",
        "P1",
    ] {
        assert!(!text.contains(bad), "`{bad}` in:\n{text}");
    }
    // The ID number and the phone appear nowhere on the page, not even in the recorded
    // entries behind the details toggle (masked there).
    assert!(
        !html.contains(&id) && !html.contains("13912345678"),
        "{html}"
    );
    assert!(
        html.contains("<details>") && html.contains("&#34;type&#34;"),
        "{html}"
    );
    // In English.
    let en = sentences(&chief.get(&s, &format!("/desk/e/{ev}/log?lang=en")).text());
    assert!(
        en.contains("chief arbiter chief 裁判")
            && en.contains(&format!(
                "entered 男子个人赛 round 1 board 1: {r1} (red) beat {b1}"
            )),
        "{en}"
    );

    // The stored signatures are the real ones: the arbiter's display name, not a placeholder.
    let signed: Vec<Vec<String>> = s
        .store()
        .read(&arbiter_store::EventId(ev.clone()))
        .expect("log")
        .into_iter()
        .filter_map(|r| match r.entry {
            arbiter_core::LogEntry::ResultConfirmed { signed_by, .. } => Some(signed_by),
            _ => None,
        })
        .collect();
    assert_eq!(signed.len(), 6);
    assert!(
        signed.iter().all(|s| !s.iter().any(|n| n == "裁判员")),
        "{signed:?}"
    );
    assert!(
        signed.contains(&vec![r6.clone(), "arb 裁判".to_string()]),
        "{signed:?}"
    );
}
