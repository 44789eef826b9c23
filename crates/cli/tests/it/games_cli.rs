//! The games as the regulations state them (issue 27, "Games"): how a game ended (J5), the
//! short draw and the game records (T6), colours played swapped (S6), phone fouls (K12), an
//! absence without leave (S7), protests and signed slips (S11) — each through `arbiter …` as
//! an arbiter types it, on a real database. The regulations are small copies of the settings
//! the rule needs, with the regulation's own words quoted beside each test.

use crate::common::*;
use serde_json::Value;

/// A Swiss section of `rounds` rounds; `extra` is appended to the section (its sub-tables).
fn regulation(rounds: u32, scoring: &str, extra: &str) -> String {
    format!(
        r#"
[event]
name = "对局规则测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = {{ kind = "swiss", rounds = {rounds} }}
tiebreaks = "cxa-2011-opp"
{scoring}
{extra}
"#
    )
}

/// An event of `n` players (pairing numbers in registration order), round 1 paired and
/// published.
fn event(dir: &EventDir, n: usize) -> String {
    let id = dir.create();
    for i in 1..=n {
        dir.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--unit",
            &format!("单位{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    pair(dir, &id);
    id
}

fn pair(dir: &EventDir, id: &str) {
    dir.ok(&["round", "pair", "--event", id, "--section", "open"]);
    dir.ok(&["round", "publish", "--event", id, "--section", "open"]);
}

fn sheet(dir: &EventDir, id: &str, round: u32) -> Value {
    let r = round.to_string();
    serde_json::from_str(&dir.ok(&[
        "round",
        "show",
        "--event",
        id,
        "--section",
        "open",
        "--round",
        &r,
        "--json",
    ]))
    .unwrap()
}

fn result(dir: &EventDir, id: &str, board: u32, r: &str, extra: &[&str]) -> String {
    let b = board.to_string();
    let mut args = vec![
        "result",
        "--event",
        id,
        "--section",
        "open",
        "--board",
        &b,
        r,
    ];
    args.extend_from_slice(extra);
    dir.ok(&args)
}

fn export(dir: &EventDir, id: &str) -> Value {
    serde_json::from_str(&dir.ok(&["event", "export", id, "--format", "json"])).unwrap()
}

/// J5 「对局中被将死，被困毙，自杀，超时，三次犯规，迟到超过规定时间，自己认输，长将，违反禁止例不变为负」,
/// 「“自然限着”为40回合」: how a game ended is shown — on the pairing sheet, in the export
/// (`ending`), and in the printed results document.
#[test]
fn j5_how_a_game_ended_is_shown_on_the_sheet_in_the_export_and_the_results_document() {
    let dir = EventDir::new(&regulation(3, "", ""));
    let id = event(&dir, 4);
    result(
        &dir,
        &id,
        1,
        "1-0",
        &["--ending", "stalemate", "--moves", "41"],
    );
    result(
        &dir,
        &id,
        2,
        "=",
        &["--ending", "自然限着", "--moves", "90"],
    );

    let text = dir.ok(&[
        "round",
        "show",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
    ]);
    assert!(text.contains("困毙"), "{text}");
    assert!(text.contains("自然限着"), "{text}");
    let s = sheet(&dir, &id, 1);
    assert_eq!(s["boards"][0]["ending"], "stalemate");
    assert_eq!(s["boards"][1]["ending"], "natural_move_limit");

    let ex = export(&dir, &id);
    let games = &ex["sections"][0]["rounds"][0]["games"];
    assert_eq!(games[0]["ending"], "stalemate", "{games}");
    assert_eq!(games[1]["ending"], "natural_move_limit", "{games}");

    let out = dir.path("results.html");
    dir.ok(&[
        "print",
        "--event",
        &id,
        "--doc",
        "results",
        "--round",
        "1",
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
    ]);
    let h = std::fs::read_to_string(&out).unwrap();
    assert!(
        h.contains("终局方式"),
        "the results document has the column"
    );
    assert!(h.contains("困毙") && h.contains("自然限着"), "{h}");
}

/// The players of a board of a sheet (red's number, black's number).
fn board_nos(s: &Value, board: usize) -> (u64, u64) {
    let b = &s["boards"][board - 1];
    (
        b["red"]["no"].as_u64().unwrap(),
        b["black"]["no"].as_u64().unwrap(),
    )
}

/// The player id of pairing number `no` (the last `pairing_numbers_drawn`: `order[0]` is 1).
fn id_of(dir: &EventDir, id: &str, no: u64) -> u64 {
    let drawn = dir.entries_of(id, "pairing_numbers_drawn");
    let last = drawn.last().expect("numbers drawn");
    last["order"][(no - 1) as usize].as_u64().unwrap()
}

/// The `foul_recorded` entries of the log: (player id, kind, round, board).
fn fouls(dir: &EventDir, id: &str) -> Vec<(u64, String, u64, u64)> {
    dir.entries_of(id, "foul_recorded")
        .iter()
        .map(|e| {
            (
                e["offender"]["id"].as_u64().unwrap_or(0),
                e["kind"].as_str().unwrap_or("general").to_string(),
                e["round"].as_u64().unwrap_or(0),
                e["board"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

const TIANSHUI_RECORDS: &str = r#"
[sections.records]
boards = 1
from_round = 2
min_moves_before_draw = 25
violation_is_foul = true
recorder = "winner"
draw_recorder = "black"
short_draw_foul = "recorder"
"#;

/// T6 (天水 二(四)): 「和棋录谱不足 25 回合者，也记犯规一次」 — a draw entered with 18 moves is
/// entered, and flagged for the arbiter (CLI output, `result flags`) until he confirms it (a
/// foul of the recorder, black on a draw: 「和棋由黑方录谱」) or dismisses it.
#[test]
fn t6_a_draw_recorded_short_of_25_moves_is_flagged_until_the_arbiter_confirms_or_dismisses_it() {
    // Board 1 records from round 1 (the foul is the recorder's only where he records, 八(四)).
    let records = TIANSHUI_RECORDS.replace("from_round = 2", "from_round = 1");
    let dir = EventDir::new(&regulation(3, "", &records));
    let id = event(&dir, 4);
    let s = sheet(&dir, &id, 1);
    let (_, black1) = board_nos(&s, 1);

    let out = result(
        &dir,
        &id,
        1,
        "=",
        &["--moves", "18", "--ending", "agreed_draw"],
    );
    assert!(
        out.contains("录入 第1轮 第1台"),
        "the result is entered: {out}"
    );
    assert!(
        out.contains("待确认") && out.contains("不足25回合"),
        "{out}"
    );
    assert!(
        fouls(&dir, &id).is_empty(),
        "no foul before the arbiter decides"
    );
    let pending = dir.ok(&["result", "flags", "--event", &id, "--section", "open"]);
    assert!(pending.contains("第1轮第1台"), "{pending}");

    // A draw of 30 moves raises no flag; one of 20 does, and the arbiter dismisses it.
    result(&dir, &id, 2, "=", &["--moves", "20"]);
    dir.ok(&[
        "result",
        "flag",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "2",
        "--dismiss",
        "--reason",
        "裁判核实回合数记错",
    ]);
    dir.ok(&[
        "result",
        "flag",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--confirm",
    ]);
    let f = fouls(&dir, &id);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].1.as_str(), f[0].2, f[0].3), ("short_draw", 1, 1));
    // The recorder of a draw is black: the foul is black's.
    assert_eq!(
        f[0].0,
        id_of(&dir, &id, black1),
        "the foul is black's (和棋由黑方录谱)"
    );
    // Board 1 records from round 1: its missing record waits too, and is dismissed.
    dir.ok(&[
        "result",
        "flag",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--dismiss",
        "--reason",
        "棋谱已交纸本",
    ]);
    let pending = dir.ok(&["result", "flags", "--event", &id, "--section", "open"]);
    assert!(pending.contains("没有待确认"), "{pending}");
    // Deciding again is refused: nothing waits.
    let err = dir.refused(&[
        "result",
        "flag",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--confirm",
    ]);
    assert!(err.contains("没有待裁判确认"), "{err}");
}

/// T6: 「从第四轮开始前十台获胜方录谱，和棋由黑方录谱」, 「拒不录谱，每次记犯规一次」 — the pairing
/// list names the boards that must record (here board 1 from round 2), on the CLI and the
/// printed document; a refusal to record is recorded as that foul, only of the recorder.
#[test]
fn t6_the_pairing_list_names_the_boards_that_record_and_a_refusal_to_record_is_a_foul() {
    let dir = EventDir::new(&regulation(3, "", TIANSHUI_RECORDS));
    let id = event(&dir, 4);
    let s1 = sheet(&dir, &id, 1);
    assert!(s1.get("records").is_none(), "round 1: no board records");
    result(&dir, &id, 1, "1-0", &[]);
    result(&dir, &id, 2, "0-1", &[]);
    pair(&dir, &id);
    let s2 = sheet(&dir, &id, 2);
    assert_eq!(s2["records"]["boards"], 1);
    assert_eq!(s2["records"]["recorder"], "获胜方录谱，和棋由黑方录谱");
    assert_eq!(s2["boards"][0]["must_record"], true);
    assert!(s2["boards"][1].get("must_record").is_none());
    let text = dir.ok(&[
        "round",
        "show",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "2",
    ]);
    assert!(
        text.contains("录谱: 第1–1台, 获胜方录谱，和棋由黑方录谱"),
        "{text}"
    );
    let out = dir.path("pairings.html");
    dir.ok(&[
        "print",
        "--event",
        &id,
        "--doc",
        "pairings",
        "--round",
        "2",
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
    ]);
    let h = std::fs::read_to_string(&out).unwrap();
    assert!(h.contains("第1–1台录谱: 获胜方录谱，和棋由黑方录谱"), "{h}");

    result(&dir, &id, 1, "1-0", &[]);
    result(&dir, &id, 2, "1-0", &[]);
    let refuse = |board: &str, player: &str| {
        dir.run(&[
            "result",
            "refuse-record",
            "--event",
            &id,
            "--section",
            "open",
            "--round",
            "2",
            "--board",
            board,
            "--player",
            player,
        ])
    };
    // Board 2 does not record; on board 1 black lost: the winner (red) records.
    let o = refuse("2", "red");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("本台本轮无须录谱"), "{}", stderr(&o));
    let o = refuse("1", "black");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("应由红方录谱"), "{}", stderr(&o));
    let o = refuse("1", "red");
    assert!(o.status.success(), "{}", stderr(&o));
    let (red2, _) = board_nos(&s2, 1);
    let f = fouls(&dir, &id);
    assert_eq!(
        f,
        vec![(id_of(&dir, &id, red2), "records".to_string(), 2, 1)]
    );
}

/// S6 (苏州 补充规定 三): 「如发现先后手颠倒，应及时向裁判员提出，开赛后不予纠正」 — a board
/// played with the colours the other way round stands as played: the draw scores 2 for the
/// player who actually had red and 3 for black (S5: 「先手和2分、后手和3分」), the export's
/// colours (the colour history the next rounds are paired from) and 后走局数 follow the colours
/// played, and the event still verifies.
#[test]
fn s6_wrong_colours_once_the_game_has_started_stand_and_score_as_played() {
    let dir = EventDir::new(&regulation(3, "scoring = \"5-2-3-0\"", ""));
    let id = event(&dir, 4);
    let s = sheet(&dir, &id, 1);
    let (paired_red, paired_black) = board_nos(&s, 1);
    let out = result(&dir, &id, 1, "=", &["--colours-swapped"]);
    assert!(out.contains("红黑颠倒"), "{out}");
    result(&dir, &id, 2, "1-0", &[]);

    let s = sheet(&dir, &id, 1);
    assert_eq!(
        board_nos(&s, 1),
        (paired_black, paired_red),
        "played colours"
    );
    assert_eq!(s["boards"][0]["colours_swapped"], true);

    let ex = export(&dir, &id);
    let sec = &ex["sections"][0];
    let g = &sec["rounds"][0]["games"][0];
    assert_eq!(
        (g["red"].as_u64(), g["black"].as_u64()),
        (Some(paired_black), Some(paired_red))
    );
    let row = |no: u64| {
        sec["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["no"].as_u64() == Some(no))
            .cloned()
            .unwrap()
    };
    // Red as played (paired black) drew with red: 2; black as played: 3.
    assert_eq!(row(paired_black)["points"], 2, "{}", row(paired_black));
    assert_eq!(row(paired_red)["points"], 3, "{}", row(paired_red));
    // 后走局数 (black games) of the paired red player is 1: he played black.
    assert_eq!(
        row(paired_red)["tiebreaks"]["black_games"],
        1,
        "{}",
        row(paired_red)
    );
    assert_eq!(
        row(paired_black)["tiebreaks"]["black_games"],
        0,
        "{}",
        row(paired_black)
    );

    // The next round is paired from the colours played, and the whole event verifies.
    pair(&dir, &id);
    let v = ok(&["event", "verify", dir.db().to_str().unwrap()]);
    assert!(!v.contains("不同"), "{v}");
}

/// K12 (昆山 补充规定): 「运动员在比赛时接打手机或查看短信，一经发现后计犯规1次，第2次则判负」 — the
/// second *phone* foul loses the game; two fouls of another kind do not (three do, A11). The
/// bundled Kunshan regulation says so in its summary.
#[test]
fn k12_the_second_phone_foul_loses_but_two_other_fouls_do_not() {
    let summary = ok(&[
        "regulation",
        "check",
        &crate::common::regulation("kunshan-2026"),
    ]);
    assert!(summary.contains("手机犯规第2次判负"), "{summary}");
    assert!(summary.contains("同局犯规3次判负"), "{summary}");
    assert!(!summary.contains("同局犯规2次判负"), "{summary}");

    let discipline = r#"
[sections.discipline]
fouls_for_loss = 3
phone_fouls_for_loss = 2
"#;
    let dir = EventDir::new(&regulation(3, "", discipline));
    let id = event(&dir, 4);
    // Two general fouls of red: the game goes on, red may still win.
    result(
        &dir,
        &id,
        1,
        "1-0",
        &["--foul", "red", "--foul", "red:general"],
    );
    // Two phone fouls of red: the 2nd loses the game — red's win is refused…
    let err = dir.refused(&[
        "result",
        "--event",
        &id,
        "--section",
        "open",
        "--board",
        "2",
        "1-0",
        "--foul",
        "red:phone",
        "--foul",
        "red:phone",
    ]);
    assert!(err.contains("第2次手机犯规"), "{err}");
    // …black's win is entered.
    result(
        &dir,
        &id,
        2,
        "0-1",
        &["--foul", "red:phone", "--foul", "red:phone"],
    );
    let f = fouls(&dir, &id);
    assert_eq!(f.iter().filter(|x| x.1 == "phone").count(), 2);
    assert_eq!(f.len(), 4);
}

/// S7 (苏州 补充规定 四5): 「累计两轮弃权，或无故缺席按退赛处理」 — a player recorded absent
/// without leave is withdrawn by the director, in the regulation's words; an excused absence
/// (请假) is not, nor an absence without leave where the regulation does not say so.
#[test]
fn s7_an_absence_without_leave_is_a_withdrawal_where_the_regulation_says_so() {
    let summary = ok(&[
        "regulation",
        "check",
        &crate::common::regulation("suzhou-2025"),
    ]);
    assert!(summary.contains("无故缺席按退赛处理"), "{summary}");

    let rule = "[sections.discipline]\nabsence_without_leave_withdraws = true\n";
    for (extra, withdraws) in [(rule, true), ("", false)] {
        let dir = EventDir::new(&regulation(3, "", extra));
        let id = event(&dir, 6);
        for b in 1..=3 {
            result(&dir, &id, b, "1-0", &[]);
        }
        // Excused: never a withdrawal.
        dir.ok(&[
            "player", "absent", "--event", &id, "--player", "2", "--round", "2", "--reason", "请假",
        ]);
        let out = dir.ok(&[
            "player",
            "absent",
            "--event",
            &id,
            "--player",
            "3",
            "--round",
            "2",
            "--without-leave",
        ]);
        assert!(out.contains("无故缺席"), "{out}");
        let w = dir.entries_of(&id, "player_withdrawn");
        if withdraws {
            assert_eq!(w.len(), 1, "{w:?}");
            let e = &w[0];
            assert_eq!(e["player"], 3);
            assert_eq!(e["after_round"], 1);
            assert!(e["reason"].as_str().unwrap().contains("无故缺席按退赛处理"));
            assert!(out.contains("已退赛"), "{out}");
        } else {
            assert!(w.is_empty(), "{w:?}");
        }
        let a = dir.entries_of(&id, "player_absent");
        assert_eq!(a.len(), 2);
        assert_eq!(a[1]["without_leave"], true);
        assert!(a[0].get("without_leave").is_none());
    }
}

/// S11 (苏州 补充规定 二2、五5): 「负方签名，和棋双方签名。（赢棋签了名，按输棋处理。）」 — the
/// signatures are recorded as signed: the loser's confirms the result; a draw needs both; the
/// winner's signature alone makes the game his loss. 「交纳500元申述费，胜述退还，如不胜述则
/// 不退还」 — a protest is recorded with its deposit and decision.
#[test]
fn s11_slips_are_signed_as_signed_and_a_protest_keeps_or_returns_its_500_yuan_deposit() {
    let event_head = "protest_deposit_yuan = 500\nresult_signing = \"loser_signs\"\n";
    let reg = regulation(3, "", "").replacen(
        "end = 2026-10-02\n",
        &format!("end = 2026-10-02\n{event_head}"),
        1,
    );
    let dir = EventDir::new(&reg);
    let id = event(&dir, 6);
    result(&dir, &id, 1, "1-0", &[]);
    result(&dir, &id, 2, "=", &[]);
    result(&dir, &id, 3, "0-1", &[]);
    let sign = |board: &str, who: &str| {
        dir.run(&[
            "result",
            "sign",
            "--event",
            &id,
            "--section",
            "open",
            "--round",
            "1",
            "--board",
            board,
            "--signed-by",
            who,
        ])
    };
    // Board 1, red won: black (the loser) signs — confirmed as it is.
    let o = sign("1", "black");
    assert!(o.status.success(), "{}", stderr(&o));
    // Board 2, a draw: one signature is not enough.
    let o = sign("2", "red");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("须由双方签字"), "{}", stderr(&o));
    assert!(sign("2", "both").status.success());
    // Board 3, black won but black signed: counted as black's loss.
    let o = sign("3", "black");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("赢棋签了名，按输棋处理"),
        "{}",
        stdout(&o)
    );
    let s = sheet(&dir, &id, 1);
    assert_eq!(s["boards"][0]["result"], "1-0");
    assert_eq!(
        s["boards"][2]["result"], "1-0",
        "the winner's signature: his loss"
    );
    let confirmed = dir.entries_of(&id, "result_confirmed");
    assert_eq!(confirmed.len(), 3);
    let (_, black1) = board_nos(&s, 1);
    assert_eq!(
        confirmed[0]["signed_by"],
        serde_json::json!([format!("棋手{}", id_of(&dir, &id, black1))]),
        "the loser's own signature, not a generated one"
    );

    // A protest upheld returns the deposit; one rejected keeps it.
    let out = dir.ok(&[
        "result",
        "protest",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--by",
        "单位1 领队",
        "--rejected",
        "--reason",
        "裁判判决无误",
    ]);
    assert!(
        out.contains("申诉不成立") && out.contains("500") && out.contains("不退还"),
        "{out}"
    );
    dir.ok(&[
        "result",
        "protest",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "3",
        "--by",
        "单位6 教练",
        "--upheld",
    ]);
    // Issue 42, item 6: who filed it and the reason are text under the one rule.
    for (by, reason, why) in [
        (
            "单位1\u{1b}[2J领队",
            "x",
            "签名 (signed by) 第 4 个字符是控制字符 U+001B",
        ),
        (
            "单位1 领队",
            "理\u{202E}由",
            "理由 (reason) 第 2 个字符是文字方向控制符 U+202E",
        ),
    ] {
        let err = dir.refused(&[
            "result",
            "protest",
            "--event",
            &id,
            "--section",
            "open",
            "--round",
            "1",
            "--board",
            "2",
            "--by",
            by,
            "--upheld",
            "--reason",
            reason,
        ]);
        assert!(err.contains(why), "{err}");
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{202E}'),
            "{err}"
        );
    }
    let p = dir.entries_of(&id, "protest_decided");
    assert_eq!(p.len(), 2);
    assert_eq!(p[0]["deposit_fen"], 50000);
    assert_eq!(p[0]["upheld"], false);
    assert_eq!(p[0]["deposit_returned"], false);
    assert_eq!(p[1]["upheld"], true);
    assert_eq!(p[1]["deposit_returned"], true);
    let log = dir.ok(&["event", "log", &id]);
    assert!(
        log.contains("申诉不成立") && log.contains("申诉费不退还"),
        "{log}"
    );
}
