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
    assert!(out.contains("已恢复参赛"), "{out}");
    // Paired again, and not withdrawn again at once for the forfeits before.
    d.ok(&["round", "pair", "--event", &ev, "--section", "open"]);
    assert!(paired_names(&d, &ev).contains(&"乙".to_string()));
    assert_eq!(d.entries_of(&ev, "player_withdrawn").len(), 1);
    let log = d.ok(&["event", "log", &ev]);
    assert!(log.contains("恢复参赛 (裁判长决定)"), "{log}");
}
