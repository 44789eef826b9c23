//! One numbering for players (issue 27, "Rounds and documents": 「the pairing number (序号)
//! wherever a person reads a number after the draw」): before the draw a player is his
//! registration id (P12), which is all there is; from the draw on he is his pairing number
//! on every line the arbiter reads — `draw`, `player absent`, `player withdraw`, the event
//! log — and the registration id appears only where it finds his entry, labelled 报名号.

use crate::common::*;

const REGULATION: &str = r#"
[event]
name = "序号测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"
"#;

/// `(pairing number, name, registration id)` of each line of the draw's list.
fn drawn(out: &str) -> Vec<(u32, String, String)> {
    out.lines()
        .filter_map(|l| {
            let (left, reg) = l.split_once("报名号 ")?;
            let mut w = left.split_whitespace();
            let no = w.next()?.parse().ok()?;
            let name = w.next()?.to_string();
            Some((no, name, reg.trim().to_string()))
        })
        .collect()
}

#[test]
fn after_the_draw_a_player_is_read_by_his_pairing_number_and_his_entry_id_is_labelled() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    for i in 1..=8 {
        let out = env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
        // Before the draw the registration id is the player's number.
        assert!(out.contains(&format!("P{i} 棋手{i}")), "{out}");
    }
    let out = env.ok(&["draw", "--event", &id, "--section", "open"]);
    let list = drawn(&out);
    assert_eq!(list.len(), 8, "{out}");
    assert!(out.contains("序号"), "{out}");
    // A player whose pairing number is not his registration id.
    let (no, name, reg) = list
        .iter()
        .find(|(no, _, reg)| *reg != format!("P{no}"))
        .cloned()
        .expect("the lot leaves some player off his registration number");
    let out = env.ok(&[
        "player", "absent", "--event", &id, "--player", &reg, "--round", "2",
    ]);
    assert!(out.contains(&format!("序号 {no} {name}")), "{out}");
    assert!(!out.contains(&format!("{reg} ")), "no bare entry id: {out}");
    let out = env.ok(&[
        "player",
        "withdraw",
        "--event",
        &id,
        "--player",
        &reg,
        "--reason",
        "因病退赛",
    ]);
    assert!(
        out.contains(&format!("已退赛 withdrawn: 序号 {no} {name}")),
        "{out}"
    );
    // The event log: the same number in the sentences after the draw, none before it.
    let log = env.ok(&["event", "log", &id]);
    assert!(
        log.contains(&format!("准许 序号 {no} {name} 第2轮请假")),
        "{log}"
    );
    assert!(
        log.contains(&format!("办理 序号 {no} {name} 退赛")),
        "{log}"
    );
    assert!(!log.contains("号选手"), "{log}");
}
