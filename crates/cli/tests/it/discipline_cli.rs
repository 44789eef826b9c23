//! Discipline through the CLI as the chief arbiter uses it: withdrawal after consecutive
//! forfeits only where the regulation states it, undone by a correction, reinstatement
//! (A16); disqualification and its reversal (A17); one person in one section at a time
//! (A18).

use crate::common;

use common::*;
use serde_json::Value;

/// A four-player Swiss of three rounds; `discipline` is the section's discipline table.
fn regulation(discipline: &str) -> String {
    format!(
        r#"
[event]
name = "纪律测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = {{ kind = "swiss", rounds = 3 }}
tiebreaks = "cxa-2011-opp"

[sections.discipline]
{discipline}

[[sections.prizes]]
rank = 1
amount_yuan = 300

[[sections.prizes]]
rank = 2
amount_yuan = 200
"#
    )
}

const NAMES: [&str; 4] = ["甲", "乙", "丙", "丁"];

/// A new event of `reg` with the four players; its id.
fn event(reg: &str) -> (EventDir, String) {
    let d = EventDir::new(reg);
    let ev = d.create();
    for n in NAMES {
        d.ok(&[
            "player",
            "add",
            "--event",
            &ev,
            "--section",
            "open",
            "--name",
            n,
            "--unit",
            &format!("{n}队"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    (d, ev)
}

fn sheet(d: &EventDir, ev: &str) -> Value {
    serde_json::from_str(&d.ok(&[
        "round",
        "show",
        "--event",
        ev,
        "--section",
        "open",
        "--json",
    ]))
    .expect("round show --json")
}

/// Pairs and publishes the next round (the output of `round pair`), then enters every
/// board: a player named in `forfeits` loses by forfeit, every other game is drawn.
fn play_round(d: &EventDir, ev: &str, forfeits: &[&str]) -> String {
    let paired = d.ok(&["round", "pair", "--event", ev, "--section", "open"]);
    d.ok(&["round", "publish", "--event", ev, "--section", "open"]);
    let s = sheet(d, ev);
    for b in s["boards"].as_array().expect("boards") {
        let red = b["red"]["name"].as_str().unwrap_or("");
        let black = b["black"]["name"].as_str().unwrap_or("");
        let r = if forfeits.contains(&red) {
            "-+"
        } else if forfeits.contains(&black) {
            "+-"
        } else {
            "="
        };
        let board = b["board"].to_string();
        d.ok(&[
            "result",
            "--event",
            ev,
            "--section",
            "open",
            "--board",
            &board,
            r,
        ]);
    }
    paired
}

/// The board of round `round` on which `name` played, and his colour's forfeit undone as a
/// win (`1-0` when red, `0-1` when black).
fn board_of(d: &EventDir, ev: &str, round: u32, name: &str) -> (String, &'static str) {
    let s: Value = serde_json::from_str(&d.ok(&[
        "round",
        "show",
        "--event",
        ev,
        "--section",
        "open",
        "--round",
        &round.to_string(),
        "--json",
    ]))
    .expect("json");
    for b in s["boards"].as_array().expect("boards") {
        if b["red"]["name"] == name {
            return (b["board"].to_string(), "1-0");
        }
        if b["black"]["name"] == name {
            return (b["board"].to_string(), "0-1");
        }
    }
    panic!("{name} not in round {round}: {s}")
}

fn paired_names(d: &EventDir, ev: &str) -> Vec<String> {
    let s = sheet(d, ev);
    s["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .flat_map(|b| [b["red"]["name"].clone(), b["black"]["name"].clone()])
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// A16, where the regulation says nothing (九江 二「弃权记0分，对手获胜」, 天水 八): no
/// automatic withdrawal after two forfeits — the desk warns and the chief arbiter decides.
///
/// 「A player is withdrawn automatically after N consecutive forfeits only where the
/// regulation states N; otherwise the desk warns after two and the chief arbiter decides.」
#[test]
fn two_forfeits_warn_but_do_not_withdraw_where_the_regulation_is_silent() {
    let (d, ev) = event(&regulation("late_forfeit_minutes = 15"));
    play_round(&d, &ev, &["甲"]);
    play_round(&d, &ev, &["甲"]);
    assert!(d.entries_of(&ev, "player_withdrawn").is_empty());
    let paired = play_round(&d, &ev, &[]);
    assert!(
        paired.contains("甲 (序号")
            && paired.contains("连续弃权2轮")
            && paired.contains("由裁判长决定"),
        "the warning before round 3: {paired}"
    );
    // 甲 still played round 3.
    let (_, _) = board_of(&d, &ev, 3, "甲");
    // `regulation check` names the reading.
    let reg = d.path("reg.toml");
    let summary = ok(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(summary.contains("连续弃权不自动退赛"), "{summary}");
}

/// K8 「若连续弃权三轮轮，将取消该选手的比赛资格」 (here with 2): the regulation states N, the
/// player is withdrawn by the rule; a correction that removes a forfeit undoes it, and the
/// chief arbiter (only he) can reinstate.
///
/// 「A withdrawal that followed from forfeits is undone when a correction removes them.」
#[test]
fn a_correction_undoes_the_withdrawal_the_forfeits_made_and_the_chief_arbiter_reinstates() {
    let (d, ev) = event(&regulation("withdraw_after_consecutive_forfeits = 2"));
    play_round(&d, &ev, &["甲"]);
    play_round(&d, &ev, &["甲"]);
    let w = d.entries_of(&ev, "player_withdrawn");
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0]["by_forfeits"], true);
    // The chief arbiter corrects round 2: 甲 won that game after all.
    let (board, win) = board_of(&d, &ev, 2, "甲");
    let out = d.ok(&[
        "result",
        "correct",
        "--event",
        &ev,
        "--section",
        "open",
        "--round",
        "2",
        "--board",
        &board,
        win,
        "--reason",
        "对手迟到, 记错",
    ]);
    assert!(out.contains("恢复参赛"), "{out}");
    let r = d.entries_of(&ev, "player_reinstated");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["by_correction"], true);
    d.ok(&["round", "pair", "--event", &ev, "--section", "open"]);
    assert!(paired_names(&d, &ev).contains(&"甲".to_string()));

    // Withdrawn again by the rule in another event, the chief arbiter reinstates him; an
    // arbiter may not.
    let (d, ev) = event(&regulation("withdraw_after_consecutive_forfeits = 2"));
    play_round(&d, &ev, &["乙"]);
    play_round(&d, &ev, &["乙"]);
    let o = run_with_stdin(
        &[
            "user",
            "add",
            "--login",
            "li",
            "--role",
            "arbiter",
            "--db",
            d.db().to_str().unwrap(),
        ],
        "plum-blossom-99\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let p = d.entries_of(&ev, "player_withdrawn")[0]["player"].to_string();
    let err = d.refused(&[
        "player",
        "reinstate",
        "--event",
        &ev,
        "--player",
        &p,
        "--reason",
        "裁判长同意",
        "--as",
        "li",
    ]);
    assert!(err.contains("恢复参赛"), "{err}");
    let err = d.refused(&[
        "player",
        "reinstate",
        "--event",
        &ev,
        "--player",
        &p,
        "--reason",
        " ",
    ]);
    assert!(err.contains("理由") || err.contains("reason"), "{err}");
    let out = d.ok(&[
        "player",
        "reinstate",
        "--event",
        &ev,
        "--player",
        &p,
        "--reason",
        "因交通事故迟到, 裁判长同意",
    ]);
    assert!(out.contains("恢复参赛 (裁判长决定)"), "{out}");
    // Paired again, and not withdrawn again at once for the forfeits before.
    d.ok(&["round", "pair", "--event", &ev, "--section", "open"]);
    assert!(paired_names(&d, &ev).contains(&"乙".to_string()));
    assert_eq!(d.entries_of(&ev, "player_withdrawn").len(), 1);
    let log = d.ok(&["event", "log", &ev]);
    assert!(log.contains("恢复参赛 (裁判长决定)"), "{log}");
}

/// Pairs and publishes the next round and enters every board: `winner` wins his game, the
/// others are drawn.
fn play_round_won_by(d: &EventDir, ev: &str, winner: &str) {
    d.ok(&["round", "pair", "--event", ev, "--section", "open"]);
    d.ok(&["round", "publish", "--event", ev, "--section", "open"]);
    let s = sheet(d, ev);
    for b in s["boards"].as_array().expect("boards") {
        let r = if b["red"]["name"] == winner {
            "1-0"
        } else if b["black"]["name"] == winner {
            "0-1"
        } else {
            "="
        };
        let board = b["board"].to_string();
        d.ok(&[
            "result",
            "--event",
            ev,
            "--section",
            "open",
            "--board",
            &board,
            r,
        ]);
    }
}

fn standings(d: &EventDir, ev: &str) -> Value {
    serde_json::from_str(&d.ok(&["standings", "--event", ev, "--section", "open", "--json"]))
        .expect("standings --json")
}

fn points_of(st: &Value, name: &str) -> Option<String> {
    st["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["name"] == name)
        .map(|r| r["points"].to_string())
}

/// The player 甲 beat in round 1.
fn beaten_by(d: &EventDir, ev: &str, name: &str) -> String {
    let s: Value = serde_json::from_str(&d.ok(&[
        "round",
        "show",
        "--event",
        ev,
        "--section",
        "open",
        "--round",
        "1",
        "--json",
    ]))
    .expect("json");
    for b in s["boards"].as_array().expect("boards") {
        if b["red"]["name"] == name {
            return b["black"]["name"].as_str().expect("name").to_string();
        }
        if b["black"]["name"] == name {
            return b["red"]["name"].as_str().expect("name").to_string();
        }
    }
    panic!("{name} not in round 1")
}

/// 苏州 五6 「如发现使用电子产品作弊，取消比赛资格」, 天水 九(三) 「对使用软件作弊等严重违纪的
/// 棋手，一经查实，立即做出停赛处分，取消其成绩」, 九江 三(10) 「直接判负并取消参赛资格」: the
/// chief arbiter's disqualification with a reason.
///
/// A17: 「By default the player's games already played stand for his opponents, he is not
/// paired again, his remaining games are his forfeits, and he has no place, prize or title
/// (the standings list him apart) … Reversible by the chief arbiter with a reason.」
#[test]
fn a_disqualified_player_has_no_place_nor_prize_and_is_not_paired_again() {
    let (d, ev) = event(&regulation("late_forfeit_minutes = 10"));
    play_round_won_by(&d, &ev, "甲");
    let loser = beaten_by(&d, &ev, "甲");
    let before = standings(&d, &ev);
    assert_eq!(before["standings"][0]["name"], "甲");
    let loser_points = points_of(&before, &loser);
    // Only the chief arbiter, and only with a reason.
    let o = run_with_stdin(
        &[
            "user",
            "add",
            "--login",
            "li",
            "--role",
            "arbiter",
            "--db",
            d.db().to_str().unwrap(),
        ],
        "plum-blossom-99\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = d.refused(&[
        "player",
        "disqualify",
        "--event",
        &ev,
        "--player",
        "1",
        "--reason",
        "作弊",
        "--as",
        "li",
    ]);
    assert!(err.contains("取消比赛资格"), "{err}");
    d.refused(&[
        "player",
        "disqualify",
        "--event",
        &ev,
        "--player",
        "1",
        "--reason",
        "",
    ]);
    let out = d.ok(&[
        "player",
        "disqualify",
        "--event",
        &ev,
        "--player",
        "1",
        "--reason",
        "使用电子产品作弊",
    ]);
    assert!(
        out.contains("的比赛资格") && out.contains("的对局有效, 此后对局判其弃权"),
        "{out}"
    );
    let e = d.entries_of(&ev, "player_disqualified");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0]["after_round"], 1);
    // No place: listed apart; his opponent's loss stands.
    let after = standings(&d, &ev);
    assert_eq!(points_of(&after, "甲"), None, "{after}");
    assert_eq!(after["disqualified"][0]["name"], "甲");
    assert_eq!(after["standings"][0]["rank"], 1);
    assert_eq!(points_of(&after, &loser), loser_points);
    let table = d.ok(&["standings", "--event", &ev, "--section", "open"]);
    assert!(
        table.contains("取消比赛资格") && table.contains("使用电子产品作弊"),
        "{table}"
    );
    // The printed standings list him apart too, with no place (A17: every list follows).
    let tmp = tempfile::tempdir().expect("tmp");
    let pdf = tmp.path().join("standings.pdf");
    let db = d.db();
    let o = crate::common::print_pdf(
        db.to_str().expect("db"),
        &ev,
        "standings",
        &pdf,
        &["--section", "open"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let printed = crate::common::pdftotext(&pdf);
    let apart = printed
        .find("取消比赛资格 (不计名次、奖项)")
        .expect("listed apart");
    assert!(printed[apart..].contains("甲"), "{printed}");
    // Not paired again.
    d.ok(&["round", "pair", "--event", &ev, "--section", "open"]);
    assert!(!paired_names(&d, &ev).contains(&"甲".to_string()));
    // No prize.
    let prizes = d.ok(&["prizes", "--event", &ev]);
    assert!(!prizes.contains("甲"), "{prizes}");
    // In the log, in words.
    let log = d.ok(&["event", "log", &ev]);
    assert!(log.contains("取消 ") && log.contains("的比赛资格"), "{log}");
    // Reversible by the chief arbiter, with a reason.
    let out = d.ok(&[
        "player",
        "reinstate",
        "--event",
        &ev,
        "--player",
        "1",
        "--reason",
        "复查录像, 未作弊",
    ]);
    assert!(out.contains("的取消比赛资格, 理由: 复查录像"), "{out}");
    assert_eq!(
        standings(&d, &ev)["disqualified"].as_array().map(Vec::len),
        Some(0)
    );
    assert!(points_of(&standings(&d, &ev), "甲").is_some());
}

/// 天水 九(三) 「取消其成绩」, 苏州 六1(2) 「将取消其比赛成绩」: where the regulation says his
/// results are void, every game of his counts for his opponents as their forfeit win.
///
/// A17: 「a regulation that says his results are void (成绩作废) makes every game of his
/// count for his opponents as their forfeit wins.」
#[test]
fn void_results_give_his_opponents_forfeit_wins() {
    let (d, ev) = event(&regulation("disqualification_voids_results = true"));
    play_round_won_by(&d, &ev, "甲");
    let loser = beaten_by(&d, &ev, "甲");
    let lost = points_of(&standings(&d, &ev), &loser).expect("row");
    let out = d.ok(&[
        "player",
        "disqualify",
        "--event",
        &ev,
        "--player",
        "1",
        "--reason",
        "使用软件作弊",
    ]);
    assert!(out.contains("成绩作废"), "{out}");
    assert_eq!(
        d.entries_of(&ev, "player_disqualified")[0]["void_results"],
        true
    );
    let st = standings(&d, &ev);
    let won = points_of(&st, &loser).expect("row");
    assert_ne!(won, lost, "his opponent's loss became a forfeit win: {st}");
    assert_eq!(
        st["standings"][0]["name"].as_str(),
        Some(loser.as_str()),
        "{st}"
    );
    let reg = d.path("reg.toml");
    let summary = ok(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(summary.contains("成绩作废"), "{summary}");

    // Without the regulation's clause the chief arbiter says so for the one case
    // (苏州 六1(2) 资格不符).
    let (d, ev) = event(&regulation("late_forfeit_minutes = 10"));
    play_round_won_by(&d, &ev, "甲");
    let loser = beaten_by(&d, &ev, "甲");
    d.ok(&[
        "player",
        "disqualify",
        "--event",
        &ev,
        "--player",
        "1",
        "--reason",
        "资格不符",
        "--void-results",
    ]);
    let st = standings(&d, &ev);
    assert_eq!(
        st["standings"][0]["name"].as_str(),
        Some(loser.as_str()),
        "{st}"
    );
}

/// Two sections of one event, each with `schedule` lines (empty: no schedule), and the
/// registration table's extra lines.
fn two_sections(registration: &str, open_schedule: &str, local_schedule: &str) -> String {
    format!(
        r#"
[event]
name = "双组测试赛"
start = 2026-10-01
end = 2026-10-03

[registration]
deadline = 2026-09-30T18:00:00
{registration}

[[sections]]
id = "open"
name = "公开组"
format = {{ kind = "swiss", rounds = 2 }}
tiebreaks = "cxa-2011-opp"
{open_schedule}

[[sections]]
id = "local"
name = "本地组"
format = {{ kind = "swiss", rounds = 2 }}
tiebreaks = "cxa-2011-opp"
{local_schedule}
"#
    )
}

fn add(d: &EventDir, ev: &str, section: &str, id: &str) -> std::process::Output {
    d.run(&[
        "player",
        "add",
        "--event",
        ev,
        "--section",
        section,
        "--name",
        "王五",
        "--id-number",
        id,
        "--at",
        "2026-09-01T10:00:00+08:00",
    ])
}

/// 天水 (公开组 + 本地组) and 苏州 (企业家组 + 公开组) play their sections at the same time:
/// one person cannot sit at two boards.
///
/// A18: 「the same ID number is refused in a second section whose rounds overlap the
/// first's, unless the regulation allows it.」
#[test]
fn one_id_number_in_two_overlapping_sections_is_refused() {
    let id = id_number("62050219800101001");
    // No schedule: the sections of one event count as overlapping.
    let d = EventDir::new(&two_sections("", "", ""));
    let ev = d.create();
    assert!(add(&d, &ev, "open", &id).status.success());
    let o = add(&d, &ev, "local", &id);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("公开组") && err.contains("时间重叠"), "{err}");
    assert!(!err.contains(&id), "no ID number in the message: {err}");
    let refused = d.entries_of(&ev, "entry_refused");
    assert_eq!(refused.len(), 1);
    assert!(refused[0]["reason"].as_str().unwrap().contains("公开组"));

    // The regulation allows it.
    let d = EventDir::new(&two_sections("allow_overlapping_sections = true", "", ""));
    let ev = d.create();
    assert!(add(&d, &ev, "open", &id).status.success());
    assert!(add(&d, &ev, "local", &id).status.success());

    // Schedules on days of their own do not overlap; on a common day they do.
    let d = EventDir::new(&two_sections(
        "",
        "schedule = [2026-10-01T09:00:00, 2026-10-01T14:00:00]",
        "schedule = [2026-10-02T09:00:00, 2026-10-02T14:00:00]",
    ));
    let ev = d.create();
    assert!(add(&d, &ev, "open", &id).status.success());
    assert!(add(&d, &ev, "local", &id).status.success());
    let d = EventDir::new(&two_sections(
        "",
        "schedule = [2026-10-01T09:00:00, 2026-10-02T09:00:00]",
        "schedule = [2026-10-02T14:00:00, 2026-10-03T09:00:00]",
    ));
    let ev = d.create();
    assert!(add(&d, &ev, "open", &id).status.success());
    assert_eq!(add(&d, &ev, "local", &id).status.code(), Some(2));
}
