//! The summary states the pairing and game-record rules of each section.

use arbiter_regulation::summary::Lang;
use arbiter_regulation::*;

const TIANSHUI: &str = include_str!("../../../../regulations/tianshui-2024.toml");
const JIUJIANG: &str = include_str!("../../../../regulations/jiujiang-2020.toml");

fn load(src: &str, name: &str) -> Regulation {
    parse(src, name).unwrap_or_else(|e| panic!("{e}"))
}

/// The lines of the block of section `id` (from `[id]` to the next section header).
fn section_block(summary: &str, id: &str) -> Vec<String> {
    let head = format!("[{id}]");
    summary
        .lines()
        .skip_while(|l| !l.starts_with(&head))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

fn line<'a>(block: &'a [String], label: &str) -> &'a str {
    block
        .iter()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in {block:#?}"))
}

#[test]
fn tianshui_pairing_and_record_lines_in_chinese() {
    let r = load(TIANSHUI, "tianshui-2024.toml");
    let zh = r.summary(Lang::Zh);
    for id in ["open", "local"] {
        let b = section_block(&zh, id);
        assert_eq!(
            line(&b, "编排:"),
            "编排: 序号抽签；首轮拦腰配对 (1–N/2+1, 2–N/2+2 …)；首轮单数台小号先行、双数台大号先行；\
             首轮同队回避，其余轮次不回避；先后手差不超过2，不连续三局同色 (末轮可放宽)；\
             先后手相同时奇数轮小号先行、偶数轮大号先行；轮空给未轮空过的排名最后者",
            "{id}"
        );
        assert_eq!(
            line(&b, "记谱:"),
            "记谱: 第4轮起第1–10台须记谱；获胜方录谱，和棋由黑方录谱；25回合内不得提和；自然限着40回合；拒不记谱或和棋不足回合记犯规；和棋不足回合: 记录谱方犯规",
            "{id}"
        );
    }
}

#[test]
fn tianshui_pairing_and_record_lines_in_english() {
    let r = load(TIANSHUI, "tianshui-2024.toml");
    let en = r.summary(Lang::En);
    let b = section_block(&en, "open");
    let p = line(&b, "Pairing:");
    for part in [
        "numbers by lot",
        "round 1 top half v bottom half (1–N/2+1, 2–N/2+2 …)",
        "round 1: odd boards lower number red, even boards higher number red",
        "team-mates avoid each other in round 1 only",
        "colour difference at most 2, never the same colour three times in a row",
    ] {
        assert!(p.contains(part), "`{part}` missing from {p}");
    }
    assert_eq!(
        line(&b, "Records:"),
        "Records: boards 1–10 must record from round 4; the winner records, black on a draw; \
         no draw before move 25; natural move limit 40 moves; refusing to record or a short \
         draw is a foul; short draw: the recorder's foul"
    );
}

#[test]
fn changed_settings_change_the_lines() {
    // Edit the Tianshui file: other round-1 mode and colours, hard same-team avoidance,
    // colour difference 1, records from round 1 on 5 boards.
    let src = TIANSHUI
        .replacen(
            "same_team = \"round1\"",
            "same_team = \"hard\"\nround1 = \"fold\"\nround1_colour = \"lots\"\nmax_colour_diff = 1\nno_three_in_a_row = false",
            1,
        )
        .replacen("boards = 10 ", "boards = 5 ", 1)
        .replacen("from_round = 4 ", "from_round = 1 ", 1);
    let r = load(&src, "edited.toml");
    let zh = r.summary(Lang::Zh);
    let b = section_block(&zh, "open");
    let p = line(&b, "编排:");
    for part in [
        "首轮首尾配对 (1–N, 2–N−1 …)",
        "首轮先后手抽签",
        "同队始终回避",
        "先后手差不超过1 (末轮可放宽)",
    ] {
        assert!(p.contains(part), "`{part}` missing from {p}");
    }
    assert!(!p.contains("不连续三局同色"), "{p}");
    assert!(
        line(&b, "记谱:").starts_with("记谱: 第1–5台须记谱；"),
        "{b:#?}"
    );
    // The other section is unchanged.
    let local = section_block(&zh, "local");
    assert!(line(&local, "记谱:").starts_with("记谱: 第4轮起第1–10台须记谱"));
}

#[test]
fn round_robin_sections_state_only_the_numbering() {
    // Jiujiang's first section made a single round robin; the second stays Swiss.
    let src = JIUJIANG.replacen(
        "format = { kind = \"swiss\", rounds = 7 }",
        "format = { kind = \"round_robin\" }",
        1,
    );
    let r = load(&src, "jiujiang-rr.toml");
    assert_eq!(r.sections[0].format.kind, FormatKind::RoundRobin);
    assert_eq!(r.sections[1].format.kind, FormatKind::Swiss);
    let zh = r.summary(Lang::Zh);
    let rr = section_block(&zh, &r.sections[0].id);
    assert_eq!(line(&rr, "编排:"), "编排: 序号抽签");
    let swiss = section_block(&zh, &r.sections[1].id);
    assert!(line(&swiss, "编排:").contains("首轮拦腰配对"), "{swiss:#?}");
    let en = r.summary(Lang::En);
    let rr = section_block(&en, &r.sections[0].id);
    assert_eq!(line(&rr, "Pairing:"), "Pairing: numbers by lot");
}
