//! Knockout matches written as game blocks with named time controls: what a file may say, its
//! summary, and every refusal with its line.

use arbiter_regulation::match_blocks::{ArmageddonDraw, BlockColours, EndingRule};
use arbiter_regulation::summary::Lang;
use arbiter_types::GameKind;

/// A 16-player invitational: two games of 6′+3″ (called 快棋) with colours swapped, then one
/// armageddon red 5′ / black 3′, a draw = black wins.
const INVITATIONAL: &str = include_str!("../fixtures/knockout-invitational.toml");

fn parse(src: &str) -> Result<arbiter_regulation::Regulation, String> {
    arbiter_regulation::parse(src, "t.toml").map_err(|e| e.to_string())
}

fn edit(from: &str, to: &str) -> String {
    assert!(INVITATIONAL.contains(from), "{from}");
    INVITATIONAL.replacen(from, to, 1)
}

#[test]
fn an_invitational_of_two_games_then_an_armageddon_is_written_as_blocks() {
    let reg = parse(INVITATIONAL).unwrap();
    let k = reg
        .section("open")
        .unwrap()
        .format
        .knockout
        .clone()
        .unwrap();
    assert!(k.has_blocks());
    assert_eq!(k.blocks[0].games, 2);
    assert_eq!(k.block_colours(0), BlockColours::Lot);
    let e = k.ending.as_ref().unwrap();
    assert_eq!(
        (e.rule, e.draw),
        (EndingRule::Armageddon, Some(ArmageddonDraw::BlackWins))
    );
    assert!(k.armageddon_draw_black_wins());
    // the file's name, its class kept for the log
    let tc = k.time_control_named("快棋").unwrap();
    assert_eq!((tc.kind, tc.short().as_str()), (GameKind::Slow, "6′+3″"));
    let zh = reg.summary(Lang::Zh);
    assert!(
        zh.contains(
            "快棋(6′+3″)2局，猜先；仍平加赛超时快棋(红5′黑3′)一局，首局未选者选先后手，和棋黑胜"
        ),
        "{zh}"
    );
    assert!(zh.contains("快棋 每方6分 +3秒"), "{zh}");
    let en = reg.summary(Lang::En);
    assert!(
        en.contains("2 × 快棋(6′+3″), colours by lot; still level: armageddon"),
        "{en}"
    );
}

#[test]
fn the_other_endings_and_a_block_that_plays_every_game() {
    let src = edit(
        "[sections.format.knockout.ending]\nrule = \"armageddon\"\ntime_control = \"超时快棋\"\ndraw = \"black_wins\"\n",
        "[sections.format.knockout.ending]\nrule = \"lot\"\n",
    )
    .replace(
        "[[sections.format.knockout.time_controls]]\nname = \"超时快棋\"\nkind = \"armageddon\"\nminutes = 5\nblack_minutes = 3\n",
        "",
    )
    .replace("colours = \"lot\"", "colours = \"lot\"\nstop_when_decided = false");
    let reg = parse(&src).unwrap();
    let k = reg
        .section("open")
        .unwrap()
        .format
        .knockout
        .clone()
        .unwrap();
    assert_eq!(k.ending.as_ref().unwrap().rule, EndingRule::Lot);
    assert!(!k.blocks[0].stop_when_decided);
    assert!(!k.armageddon_draw_black_wins());
    let zh = reg.summary(Lang::Zh);
    assert!(
        zh.contains("快棋(6′+3″)2局，猜先，局数下满；仍平则抽签决定胜负"),
        "{zh}"
    );
    for (rule, text) in [
        ("higher_seed", "仍平则种子在前者胜出"),
        ("draw_black_wins", "仍平则末局执黑者胜出"),
        ("repeat", "仍平则重复最后一段直至分出胜负"),
    ] {
        let reg = parse(&src.replace("rule = \"lot\"", &format!("rule = \"{rule}\""))).unwrap();
        assert!(reg.summary(Lang::Zh).contains(text), "{rule}");
    }
}

#[test]
fn an_unnamed_time_control_answers_to_its_class_name() {
    let src = edit("name = \"快棋\"\nkind = \"slow\"", "kind = \"rapid\"");
    let reg = parse(&src).unwrap();
    let k = reg
        .section("open")
        .unwrap()
        .format
        .knockout
        .clone()
        .unwrap();
    assert_eq!(k.time_control_named("快棋").unwrap().kind, GameKind::Rapid);
    assert_eq!(k.time_control_named("rapid").unwrap().kind, GameKind::Rapid);
}

#[test]
fn every_mistake_in_a_match_written_as_blocks_is_refused_with_its_line() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "a block names a time control the file does not give",
            edit("time_control = \"快棋\"\ncolours", "time_control = \"慢棋\"\ncolours"),
            "t.toml:28:16: 错误: 用时「慢棋」未定义，已有: 「快棋」、「超时快棋」 (time control 「慢棋」 is not defined)",
        ),
        (
            "blocks without an ending",
            edit("[sections.format.knockout.ending]\nrule = \"armageddon\"\ntime_control = \"超时快棋\"\ndraw = \"black_wins\"\n", ""),
            "t.toml:26:1: 错误: 按段写出的赛制须给出 `ending`：仍平时如何决出胜负 (blocks need an `ending`: what settles a level match)",
        ),
        (
            "blocks and a preset together",
            edit("kind = \"knockout\"\n", "kind = \"knockout\"\n\n[sections.format.knockout]\nmatch_format = \"K1\"\n"),
            "t.toml:15:16: 错误: 已按段写出赛制 `blocks`，`match_format` 只用于预设赛制 K1–K6；先后手写在各段的 `colours`，附加赛和棋写在 `ending.draw` (with `blocks`, `match_format` does not apply: colours go in each block's `colours`, an armageddon draw in `ending.draw`)",
        ),
        (
            "an armageddon time control in a block",
            edit("time_control = \"快棋\"\ncolours", "time_control = \"超时快棋\"\ncolours"),
            "t.toml:28:16: 错误: 「超时快棋」是附加赛用时，只能用于 `ending` (an armageddon time control belongs to the ending)",
        ),
        (
            "an armageddon ending without its time control",
            edit("time_control = \"超时快棋\"\ndraw", "draw"),
            "t.toml:32:8: 错误: 附加赛须给出用时 `time_control` (an armageddon needs its `time_control`)",
        ),
        (
            "a draw rule on an ending that plays no game",
            edit("rule = \"armageddon\"\ntime_control = \"超时快棋\"", "rule = \"higher_seed\""),
            "t.toml:33:8: 错误: `draw` 只用于 `rule = \"armageddon\"` (`draw` applies to an armageddon ending only)",
        ),
        (
            "a time control no block plays",
            edit("rule = \"armageddon\"\ntime_control = \"超时快棋\"\ndraw = \"black_wins\"", "rule = \"lot\""),
            "t.toml:21:8: 错误: 用时「超时快棋」没有任何一段用到 (time control 「超时快棋」 is used by no block)",
        ),
        (
            "a block of no games",
            edit("games = 2", "games = 0"),
            "t.toml:27:9: 错误: 每段 1–9 局，此处为 0 (a block has 1 to 9 games, not 0)",
        ),
        (
            "two time controls of one name",
            edit("name = \"超时快棋\"", "name = \"快棋\""),
            "t.toml:21:8: 错误: 用时「快棋」重复，各段无法区分 (time control 「快棋」 given twice)",
        ),
    ];
    for (what, src, want) in cases {
        let got = parse(&src).expect_err(what);
        assert_eq!(got.lines().next().unwrap(), want, "{what}");
    }
}

/// A preset with its time controls: each kind it plays needs one, and none it does not play
/// may be given.
#[test]
fn a_preset_with_time_controls_gives_one_for_every_kind_it_plays() {
    let base = r#"[event]
name = "邀请赛"
start = 2026-05-01
end = 2026-05-02

[[sections]]
id = "open"
name = "邀请赛"

[sections.format]
kind = "knockout"

[sections.format.knockout]
match_format = "K1"
time_controls = [
    { kind = "slow", minutes = 25, increment_seconds = 5 },
    { kind = "rapid", minutes = 10, increment_seconds = 5 },
    { kind = "armageddon", minutes = 6, black_minutes = 4 },
]
"#;
    parse(base).unwrap();
    let missing = base.replace(
        "    { kind = \"rapid\", minutes = 10, increment_seconds = 5 },\n",
        "",
    );
    assert_eq!(
        parse(&missing).unwrap_err().lines().next().unwrap(),
        "t.toml:15:17: 错误: 赛制 K1 要下快棋，但没有快棋的用时 (format K1 plays rapid games but gives no time control for them)"
    );
    let extra = base.replace("{ kind = \"rapid\"", "{ kind = \"blitz\"");
    assert_eq!(
        parse(&extra).unwrap_err().lines().next().unwrap(),
        "t.toml:17:14: 错误: 赛制 K1 不下超快棋，此用时不会用到 (format K1 plays no blitz game; this time control would never apply)"
    );
    let ending = format!("{base}ending = {{ rule = \"lot\" }}\n");
    assert!(parse(&ending)
        .unwrap_err()
        .contains("`ending` 只用于按段写出的赛制 `blocks`"));
    // a plain knockout must give them all: its games need their time
    let none = base.replace(&base[base.find("time_controls").unwrap()..], "");
    assert_eq!(
        parse(&none).unwrap_err().lines().next().unwrap(),
        "t.toml:13:18: 错误: 赛制 K1 要下慢棋，但没有慢棋的用时 (format K1 plays slow games but gives no time control for them)"
    );
    let no_table = base.replace(
        &base[base.find("[sections.format.knockout]").unwrap()..],
        "",
    );
    assert!(
        parse(&no_table)
            .unwrap_err()
            .starts_with("t.toml:11:8: 错误: 淘汰赛须有 [sections.format.knockout]"),
        "{}",
        parse(&no_table).unwrap_err()
    );
    // a two-stage section that gives none keeps the meaning it had (no time printed)
    let two_stage = no_table.replace(
        "kind = \"knockout\"",
        "kind = \"swiss_then_knockout\"\nrounds = 5\nknockout = { size = 8 }",
    );
    parse(&two_stage).unwrap();
}
