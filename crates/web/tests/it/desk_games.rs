//! The rules of a game at the desk (issue 27, "Games"), each through its form as an arbiter
//! uses it, on the Kunshan regulation with the other regulations' rules added:
//! - T6 (天水 二(四)): 「前10台…由获胜方录谱，和棋由黑方录谱…拒不录谱，每次记犯规一次」 —
//!   the boards that must record on the round page, a missing record flagged and confirmed or
//!   dismissed, a refusal to record recorded as that foul;
//! - S6 (苏州 四4): 「开赛后发现红黑颠倒，不予纠正」 — a board entered as played;
//! - S7 (苏州 四5): 「无故缺席按退赛处理」 — an absence without leave withdraws;
//! - S11 (苏州 四9/11): 「负方签名，和棋双方签名…赢棋签了名，按输棋处理」 and 「递交仲裁，并交纳
//!   500元申述费，胜述退还，如不胜述则不退还」 — who signed, a protest and its deposit.

use crate::common::TestServer;
use crate::desk::{
    entries_of, flash, login, pair_and_publish, register_men, with_accounts, Browser,
};
use arbiter_core::LogEntry;
use arbiter_store::EventStore;

fn create(s: &TestServer, chief: &Browser) -> String {
    let src = include_str!("../../../../regulations/kunshan-2026.toml")
        .replacen(
            "[event]\n",
            "[event]\nprotest_deposit_yuan = 500\nresult_signing = \"loser_signs\"\n",
            1,
        )
        .replacen(
            "[sections.discipline]\n",
            "[sections.discipline]\nabsence_without_leave_withdraws = true\n",
            1,
        )
        .replacen(
            "[sections.records]\n",
            "[sections.records]\nboards = 2\nfrom_round = 1\nmin_moves_before_draw = 25\n\
             violation_is_foul = true\nrecorder = \"winner\"\ndraw_recorder = \"black\"\n\
             short_draw_foul = \"recorder\"\n",
            1,
        );
    let r = chief.post(s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}

/// An event of 12 men, round 1 paired and published; the server, the event, the arbiter.
fn round_one() -> (TestServer, String, Browser) {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let arb = login(&s, "arb");
    pair_and_publish(&s, &arb, &ev);
    (s, ev, arb)
}

fn enter(s: &TestServer, arb: &Browser, ev: &str, board: &str, result: &str) {
    let (ok, msg) = flash(&arb.post(
        s,
        &format!("/desk/e/{ev}/s/men/results"),
        &[("round", "1"), ("board", board), ("result", result)],
    ));
    assert!(ok, "{msg}");
}

#[test]
fn t6_the_boards_that_record_are_shown_and_a_missing_record_is_confirmed_or_dismissed() {
    let (s, ev, arb) = round_one();
    let round = arb.get(&s, &format!("/desk/e/{ev}/s/men/round")).text();
    assert!(
        round.contains("第1–2台须录谱, 获胜方录谱，和棋由黑方录谱"),
        "{round}"
    );
    enter(&s, &arb, &ev, "1", "1-0");
    enter(&s, &arb, &ev, "2", "=");
    let page = arb.get(&s, &format!("/desk/e/{ev}/s/men/results")).text();
    assert!(page.contains("第1轮第1台 未录谱"), "{page}");
    assert!(page.contains("第1轮第2台 未录谱"), "{page}");
    let path = format!("/desk/e/{ev}/s/men/flag");
    let decide = |board: &str, action: &str| {
        flash(&arb.post(
            &s,
            &path,
            &[
                ("round", "1"),
                ("board", board),
                ("kind", "records"),
                ("do", action),
                ("reason", "赛后核对"),
            ],
        ))
    };
    let (ok, msg) = decide("1", "confirm");
    assert!(
        ok && msg.contains("记录 序号 1 棋手09 犯规 (不记录着法, 男子个人赛 第1轮 第1台)"),
        "{msg}"
    );
    let (ok, msg) = decide("2", "dismiss");
    assert!(
        ok && msg.contains("撤销 男子个人赛 第1轮 第2台 的犯规提示"),
        "{msg}"
    );
    // Nothing left to decide on either board: the director says so.
    let (ok, msg) = decide("2", "confirm");
    assert!(!ok, "{msg}");
    let fouls = entries_of(&s, &ev, "foul_recorded");
    assert_eq!(fouls.len(), 1, "{fouls:?}");
    let decided = entries_of(&s, &ev, "foul_flag_decided");
    assert_eq!(decided.len(), 2, "{decided:?}");
    let page = arb.get(&s, &format!("/desk/e/{ev}/s/men/results")).text();
    assert!(!page.contains("未录谱 (本台须录谱"), "{page}");
}

/// Issue 45 item 9: the pending flags are decided in bulk (ticked rows, one button per
/// decision, or 全选), and a single decision brings the page back where the arbiter was —
/// the row of the next flag — instead of its top.
#[test]
fn t6_flags_are_decided_in_bulk_and_one_decision_stays_in_place() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let src = include_str!("../../../../regulations/kunshan-2026.toml").replacen(
        "[sections.records]\n",
        "[sections.records]\nboards = 6\nfrom_round = 1\nviolation_is_foul = true\n\
         recorder = \"winner\"\ndraw_recorder = \"black\"\n",
        1,
    );
    let r = chief.post(&s, "/desk/events", &[("preset", ""), ("toml", &src)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let ev = r
        .header("location")
        .and_then(|l| l.strip_prefix("/desk/e/"))
        .and_then(|l| l.split('?').next())
        .expect("event page")
        .to_string();
    register_men(&s, &chief, &ev, 12);
    let arb = login(&s, "arb");
    pair_and_publish(&s, &arb, &ev);
    for b in 1..=6 {
        enter(&s, &arb, &ev, &b.to_string(), "1-0");
    }
    let results = format!("/desk/e/{ev}/s/men/results");
    let page = arb.get(&s, &results).text();
    for b in 1..=6 {
        assert!(
            page.contains(&format!("id=\"flag-1-{b}-records\"")),
            "{page}"
        );
        assert!(
            page.contains(&format!(
                "name=\"f\" value=\"1.{b}.records\" form=\"flags\""
            )),
            "{page}"
        );
    }
    assert!(
        page.contains("批量确认犯规") && page.contains("批量撤销提示"),
        "{page}"
    );
    // One decision: back at the row of the flag after it, not at the top.
    let r = arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/flag"),
        &[
            ("round", "1"),
            ("board", "2"),
            ("kind", "records"),
            ("do", "dismiss"),
            ("reason", "赛后补录"),
            ("next", "flag-1-3-records"),
        ],
    );
    let loc = r.header("location").expect("location").to_string();
    assert!(loc.ends_with("#flag-1-3-records"), "{loc}");
    let (ok, msg) = flash(&r);
    assert!(ok && msg.contains("第1轮 第2台"), "{msg}");
    // The page offers that anchor on the row it came from: board 3's form says board 4.
    let page = arb.get(&s, &results).text();
    assert!(!page.contains("id=\"flag-1-2-records\""), "{page}");
    assert!(
        page.contains("name=\"board\" value=\"3\"><input type=\"hidden\" name=\"kind\" value=\"records\"><input type=\"hidden\" name=\"next\" value=\"flag-1-4-records\""),
        "{page}"
    );
    // A link's made-up anchor is not followed: the list's title instead.
    let r = arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/flag"),
        &[
            ("round", "1"),
            ("board", "2"),
            ("kind", "records"),
            ("do", "confirm"),
            ("next", "x\"><script>"),
        ],
    );
    let loc = r.header("location").expect("location").to_string();
    assert!(
        loc.ends_with("#flag-1-2-records"),
        "refused: at its own row: {loc}"
    );
    // Bulk: boards 1 and 3 ticked, confirmed with one button and one reason.
    let r = arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/flags"),
        &[
            ("f", "1.1.records"),
            ("f", "1.3.records"),
            ("reason", "赛后核对"),
            ("do", "confirm"),
        ],
    );
    let loc = r.header("location").expect("location").to_string();
    assert!(loc.ends_with("#flags-title"), "{loc}");
    let (ok, msg) = flash(&r);
    assert!(ok && msg.starts_with("2条提示已确认"), "{msg}");
    let fouls = entries_of(&s, &ev, "foul_recorded");
    assert_eq!(fouls.len(), 2, "{fouls:?}");
    // A flag decided already, ticked again, is refused in words; the others are decided.
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/flags"),
        &[
            ("f", "1.1.records"),
            ("f", "1.4.records"),
            ("do", "dismiss"),
        ],
    ));
    assert!(
        ok && msg.contains("1条提示已撤销") && msg.contains("未处理 1条"),
        "{msg}"
    );
    assert!(msg.contains("第1轮第1台"), "{msg}");
    // 全选 dismisses every flag still waiting (boards 5 and 6).
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/flags"),
        &[("all", "1"), ("do", "dismiss")],
    ));
    assert!(ok && msg.starts_with("2条提示已撤销"), "{msg}");
    let decided = entries_of(&s, &ev, "foul_flag_decided");
    assert_eq!(decided.len(), 6, "{decided:?}");
    let page = arb.get(&s, &results).text();
    assert!(!page.contains("id=\"flags\""), "{page}");
    // Nothing chosen: said so, nothing written.
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/flags"),
        &[("do", "confirm")],
    ));
    assert!(!ok && msg.contains("请先勾选"), "{msg}");
}

/// Issue 45 item 8: the grid records a foul of each kind the core knows, per game, and the
/// regulation's consequence follows — K12 「接打手机…计犯规1次，第2次则判负」: a first phone
/// foul is a foul, a second one loses the game, and a result that says otherwise is refused
/// with the result due.
#[test]
fn k12_the_grid_records_phone_fouls_and_the_second_loses() {
    let (s, ev, arb) = round_one();
    let results = format!("/desk/e/{ev}/s/men/results");
    let page = arb.get(&s, &results).text();
    for v in [
        "red:phone",
        "black:phone",
        "red:coaching",
        "black:short_draw",
    ] {
        assert!(page.contains(&format!("<option value=\"{v}\">")), "{page}");
    }
    assert!(
        page.contains("红方 使用手机") && page.contains("name=\"foul3\""),
        "{page}"
    );
    // Board 1: one phone foul of red, red still wins.
    let (ok, msg) = flash(&arb.post(
        &s,
        &results,
        &[
            ("round", "1"),
            ("board", "1"),
            ("result", "1"),
            ("foul1", "red:phone"),
        ],
    ));
    assert!(ok, "{msg}");
    // Board 2: red's second phone foul; 1-0 is refused with the result the rule gives.
    let twice = [
        ("round", "1"),
        ("board", "2"),
        ("foul1", "red:phone"),
        ("foul2", "red:phone"),
    ];
    let mut form = twice.to_vec();
    form.push(("result", "1"));
    let (ok, msg) = flash(&arb.post(&s, &results, &form));
    assert!(!ok && msg.contains("成绩应为 0-1"), "{msg}");
    let mut form = twice.to_vec();
    form.push(("result", "0"));
    let (ok, msg) = flash(&arb.post(&s, &results, &form));
    assert!(ok, "{msg}");
    let phone: Vec<_> = entries_of(&s, &ev, "foul_recorded")
        .into_iter()
        .filter_map(|(_, e)| match e {
            LogEntry::FoulRecorded {
                kind: arbiter_core::FoulKind::Phone,
                board,
                ..
            } => board,
            _ => None,
        })
        .collect();
    assert_eq!(phone, vec![1, 2, 2]);
    // A kind the core does not know is refused in words, nothing recorded.
    let (ok, msg) = flash(&arb.post(
        &s,
        &results,
        &[
            ("round", "1"),
            ("board", "3"),
            ("result", "1"),
            ("foul1", "red:smoking"),
        ],
    ));
    assert!(!ok && msg.contains("未知的犯规类别"), "{msg}");
}

#[test]
fn t6_a_refusal_to_record_is_the_recorders_foul() {
    let (s, ev, arb) = round_one();
    enter(&s, &arb, &ev, "2", "0-1");
    enter(&s, &arb, &ev, "3", "0-1");
    let path = format!("/desk/e/{ev}/s/men/refuse-record");
    let refuse = |board: &str, player: &str| {
        flash(&arb.post(
            &s,
            &path,
            &[
                ("round", "1"),
                ("board", board),
                ("player", player),
                ("reason", "拒绝记录着法"),
            ],
        ))
    };
    // Board 3 need not record; on board 2 black won, so black records.
    let (ok, msg) = refuse("3", "black");
    assert!(!ok && msg.contains("第1–2台"), "{msg}");
    let (ok, msg) = refuse("2", "red");
    assert!(!ok && msg.contains("黑方"), "{msg}");
    let (ok, msg) = refuse("2", "black");
    assert!(
        ok && msg.contains("犯规 (不记录着法, 男子个人赛 第1轮 第2台)"),
        "{msg}"
    );
    let fouls = entries_of(&s, &ev, "foul_recorded");
    assert_eq!(fouls.len(), 1);
    let LogEntry::FoulRecorded { reason, .. } = &fouls[0].1 else {
        panic!("{fouls:?}")
    };
    assert_eq!(reason, "拒绝记录着法");
}

#[test]
fn s6_a_board_played_with_colours_swapped_is_entered_as_played() {
    let (s, ev, arb) = round_one();
    let page = arb.get(&s, &format!("/desk/e/{ev}/s/men/results")).text();
    assert!(page.contains("id=\"swapped\""), "{page}");
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/s/men/results"),
        &[
            ("round", "1"),
            ("board", "4"),
            ("result", "1-0"),
            ("colours_swapped", "1"),
        ],
    ));
    assert!(ok && msg.contains("红黑颠倒"), "{msg}");
    let played = entries_of(&s, &ev, "colours_played");
    assert_eq!(played.len(), 1);
    assert!(matches!(
        played[0].1,
        LogEntry::ColoursPlayed {
            board: 4,
            swapped: true,
            ..
        }
    ));
}

#[test]
fn s11_the_slip_is_signed_as_signed_and_the_winners_signature_is_his_loss() {
    let (s, ev, arb) = round_one();
    enter(&s, &arb, &ev, "5", "1-0");
    enter(&s, &arb, &ev, "6", "=");
    let path = format!("/desk/e/{ev}/s/men/sign");
    let sign = |board: &str, by: &str| {
        flash(&arb.post(
            &s,
            &path,
            &[("round", "1"), ("board", board), ("signed_by", by)],
        ))
    };
    // A draw: both sign.
    let (ok, msg) = sign("6", "black");
    assert!(!ok && msg.contains("双方"), "{msg}");
    let (ok, msg) = sign("6", "both");
    assert!(
        ok && msg.contains("确认 男子个人赛 第1轮 第6台 成绩单, 签字: 棋手07、棋手10"),
        "{msg}"
    );
    // Red won and red signed where black (the loser) signs: his loss.
    let (ok, msg) = sign("5", "red");
    assert!(ok && msg.contains("赢棋签了名，按输棋处理"), "{msg}");
    let fixed = entries_of(&s, &ev, "result_corrected");
    assert_eq!(fixed.len(), 1);
    assert!(matches!(
        fixed[0].1,
        LogEntry::ResultCorrected {
            board: 5,
            result: arbiter_types::GameResult::BlackWin,
            ..
        }
    ));
}

#[test]
fn s11_a_protest_is_recorded_with_its_deposit_and_decision() {
    let (s, ev, arb) = round_one();
    let page = arb.get(&s, &format!("/desk/e/{ev}/s/men/results")).text();
    assert!(page.contains("申诉费 500元"), "{page}");
    let path = format!("/desk/e/{ev}/s/men/protest");
    let protest = |decision: &str| {
        flash(&arb.post(
            &s,
            &path,
            &[
                ("round", "1"),
                ("board", "1"),
                ("by", "一厂 王领队"),
                ("decision", decision),
                ("reason", "裁判判罚无误"),
            ],
        ))
    };
    let (ok, msg) = protest("");
    assert!(!ok && msg.contains("仲裁结果"), "{msg}");
    let (ok, msg) = protest("rejected");
    assert!(
        ok && msg.contains("仲裁 一厂 王领队 对 男子个人赛 第1轮 第1台 的申诉 (申诉费 500元): 申诉不成立, 申诉费不退还"),
        "{msg}"
    );
    let p = entries_of(&s, &ev, "protest_decided");
    assert_eq!(p.len(), 1);
    assert!(matches!(
        p[0].1,
        LogEntry::ProtestDecided {
            deposit_fen: 50000,
            upheld: false,
            deposit_returned: false,
            ..
        }
    ));
}

#[test]
fn s7_an_absence_without_leave_recorded_at_the_desk_withdraws() {
    let (s, ev, arb) = round_one();
    let page = arb.get(&s, &format!("/desk/e/{ev}/p/3")).text();
    assert!(page.contains("name=\"without_leave\""), "{page}");
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/3/absent"),
        &[("round", "2"), ("without_leave", "1")],
    ));
    assert!(ok && msg.contains("第2轮无故缺席已登记"), "{msg}");
    assert!(msg.contains("无故缺席按退赛处理"), "{msg}");
    let w = entries_of(&s, &ev, "player_withdrawn");
    assert_eq!(w.len(), 1, "{w:?}");
    // An excused absence withdraws nobody.
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/4/absent"),
        &[("round", "2"), ("reason", "请假")],
    ));
    assert!(ok && msg.contains("请假已登记"), "{msg}");
    assert_eq!(entries_of(&s, &ev, "player_withdrawn").len(), 1);
}

/// Issue 45 item 11: 「查找」 on a phone answers for a player who has no board this round —
/// excused (本轮请假), withdrawn (已退赛) — instead of 「未找到」; an unknown name still gets
/// 「未找到」, and nothing personal is shown.
#[test]
fn find_my_board_says_excused_or_withdrawn_instead_of_not_found() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = create(&s, &chief);
    register_men(&s, &chief, &ev, 12);
    let arb = login(&s, "arb");
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/3/absent"),
        &[("round", "1"), ("reason", "家中有事")],
    ));
    assert!(ok, "{msg}");
    let (ok, msg) = flash(&arb.post(
        &s,
        &format!("/desk/e/{ev}/p/5/withdraw"),
        &[("reason", "身体不适")],
    ));
    assert!(ok, "{msg}");
    pair_and_publish(&s, &arb, &ev);
    let state = s
        .store()
        .state(&arbiter_store::EventId(ev.clone()))
        .expect("state");
    let name = |pid: u32| {
        state
            .player(arbiter_core::PlayerId(pid))
            .expect("player")
            .person
            .name
            .clone()
    };
    let q = |t: &str| -> String { t.bytes().map(|c| format!("%{c:02X}")).collect() };
    let find = |t: &str, lang: &str| {
        let page = s.get(&format!("/e/{ev}/s/men/r/1?q={}{lang}", q(t)));
        assert_eq!(page.status, 200);
        page.text()
    };
    let html = find(&name(3), "");
    assert!(html.contains("本轮请假"), "{html}");
    assert!(!html.contains("未找到"), "{html}");
    assert!(find(&name(3), "&lang=en").contains("excused from this round"));
    let html = find(&name(5), "");
    assert!(html.contains("已退赛"), "{html}");
    assert!(!html.contains("未找到"), "{html}");
    // A player on a board is found on it, as before; a stranger is not found.
    let html = find(&name(1), "");
    assert!(html.contains("对手"), "{html}");
    assert!(!html.contains("本轮请假"), "{html}");
    assert!(find("查无此人", "").contains("未找到"));
}
