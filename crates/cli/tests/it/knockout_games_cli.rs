//! The rules of a knockout game, the way an arbiter meets them on the command line: a foul
//! entered with a knockout game decides it as in any game (the match goes on from that loss),
//! a decider the regulation states (「若第一局和棋，则后手胜出」), the record duty of the
//! knockout's games by their kind, round and board, the knockout's boards numbered within
//! their round, its rounds counted by `event show`, a shared place printed as shared, and
//! `round show --json` listing every open list while the Swiss and the knockout are played
//! side by side.

use crate::common::*;
use serde_json::Value;

/// A plain knockout of the players registered, K1 (slow game, rapid, armageddon; the higher
/// seed chooses colours and takes red when he says nothing), with `extra` appended (more
/// keys of the section: discipline, records, …) and the knockout table's own keys `knockout`.
fn plain(variant: &str, knockout: &str, extra: &str) -> String {
    format!(
        r#"
[event]
name = "淘汰赛对局规则"
start = 2026-10-01
end = 2026-10-03

[[sections]]
id = "open"
name = "公开组"
pairing = {{ numbering = "given" }}

[sections.format]
kind = "knockout"

[sections.format.knockout]
variant = "{variant}"
{knockout}

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10
increment_seconds = 5

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
black_minutes = 3
{extra}
"#
    )
}

fn register(env: &EventDir, id: &str, n: usize) {
    for i in 1..=n {
        env.ok(&[
            "player",
            "add",
            "--event",
            id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i:02}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    env.ok(&["draw", "--event", id, "--section", "open"]);
}

fn round_show(env: &EventDir, id: &str) -> Value {
    let o = env.run(&[
        "round",
        "show",
        "--event",
        id,
        "--section",
        "open",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn knockout_json(env: &EventDir, id: &str) -> Value {
    let o = env.run(&[
        "knockout",
        "show",
        "--event",
        id,
        "--section",
        "open",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn result(env: &EventDir, id: &str, board: &str, r: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "result",
        "--event",
        id,
        "--section",
        "open",
        "--board",
        board,
        r,
    ];
    args.extend_from_slice(more);
    env.run(&args)
}

/// 天水 九(一): 「所有参赛运动员不得将手机带入赛场，若发现则本轮判负。」 (and 昆山 12:
/// 「运动员在比赛时接打手机或查看短信，一经发现后计犯规1次，第2次则判负。」) — the section's
/// foul rule applies to a knockout game: `result … --foul red:phone` on a knockout board makes
/// the game red's loss (any other result is refused), the foul is kept with the game and
/// counts as the player's foul, and the match state machine goes on from that loss (a
/// decisive slow game ends a K1 match). Three fouls lose a game too (A11).
#[test]
fn a_phone_foul_in_a_knockout_game_loses_it_and_the_match_sees_the_loss() {
    let env = EventDir::new(&plain(
        "single",
        "",
        "\n[sections.discipline]\nphone_fouls_for_loss = 1\n",
    ));
    let id = env.create();
    register(&env, &id, 4);
    let sheet = round_show(&env, &id);
    let b1 = &sheet["boards"][0];
    assert_eq!(b1["board"], 1, "{sheet}");
    let red_no = b1["red"]["no"].as_u64().unwrap();
    let black_no = b1["black"]["no"].as_u64().unwrap();

    // Red used a phone: red's win is refused, the foul rule decides the game.
    let o = result(&env, &id, "1", "1-0", &["--foul", "red:phone"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("判负") && err.contains("0-1"), "{err}");
    assert!(!err.contains("另行记录"), "{err}");
    assert!(env.entries_of(&id, "knockout_game_recorded").is_empty());

    // Entered as red's loss: recorded with the foul.
    let o = result(&env, &id, "1", "0-1", &["--foul", "red:phone"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("红方犯规"), "{out}");
    let games = env.entries_of(&id, "knockout_game_recorded");
    assert_eq!(games.len(), 1);
    let fouls = games[0]["fouls"]
        .as_array()
        .expect("fouls kept with the game");
    assert_eq!(fouls.len(), 1, "{}", games[0]);
    assert_eq!(fouls[0]["colour"], "red");
    assert_eq!(fouls[0]["kind"], "phone");

    // The match saw the loss: black won the semi-final, and the log reads the foul.
    let ko = knockout_json(&env, &id);
    let sf = ko["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["games"].as_array().is_some_and(|g| !g.is_empty()))
        .expect("the match played");
    assert_eq!(sf["finished"], true, "{sf}");
    assert_eq!(sf["winner"]["no"].as_u64(), Some(black_no), "{sf}");
    assert_ne!(sf["winner"]["no"].as_u64(), Some(red_no));
    let log = env.ok(&["event", "log", &id]);
    assert!(log.contains("使用手机"), "{log}");

    // Board 2: three general fouls of black lose black the game (A11, the default).
    let o = result(&env, &id, "2", "=", &["--fouls-black", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("1-0"), "{}", stderr(&o));
    let o = result(&env, &id, "2", "1-0", &["--fouls-black", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = env.entries_of(&id, "knockout_game_recorded");
    assert_eq!(games[1]["fouls"].as_array().map(Vec::len), Some(3));
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));
}

/// 「若第一局和棋，则后手胜出」: a match of one game whose draw sends black through
/// (`ending.rule = "first_game_black"`); the game itself stays a draw, and `regulation check`
/// names the rule and the project's reading of it.
#[test]
fn if_the_first_game_is_drawn_black_goes_through() {
    let reg = r#"
[event]
name = "一局制淘汰赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
pairing = { numbering = "given" }

[sections.format]
kind = "knockout"

[sections.format.knockout]
variant = "single"

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 20
increment_seconds = 5

[[sections.format.knockout.blocks]]
games = 1
time_control = "慢棋"
colours = "lot"

[sections.format.knockout.ending]
rule = "first_game_black"
"#;
    let env = EventDir::new(reg);
    let o = run(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(
        summary.contains("仍平则第一局执黑者(后手)胜出"),
        "{summary}"
    );
    assert!(
        summary.contains("本系统的解读") && summary.contains("若第一局和棋，则后手胜出"),
        "{summary}"
    );
    let id = env.create();
    register(&env, &id, 4);
    let sheet = round_show(&env, &id);
    let black = sheet["boards"][0]["black"]["no"].as_u64().unwrap();
    let o = result(&env, &id, "1", "=", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ko = knockout_json(&env, &id);
    let m = ko["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["games"].as_array().is_some_and(|g| !g.is_empty()))
        .expect("the match played");
    assert_eq!(m["finished"], true, "no second game: {m}");
    assert_eq!(m["games"].as_array().unwrap().len(), 1, "{m}");
    assert_eq!(m["games"][0]["result"], "draw", "{m}");
    assert_eq!(m["winner"]["no"].as_u64(), Some(black), "{m}");
}

/// 「快棋不用记录」 with 天水 八(四) 「从第四轮开始前十台获胜方录谱，和棋由黑方录谱」 written as
/// `records = { boards = 1, … , exempt_kinds = ["rapid", "blitz", "armageddon"] }`: the
/// knockout's list marks the slow game on board 1 (录谱), not board 2; once the match on
/// board 1 goes to its rapid game, that game is not marked.
#[test]
fn the_knockout_list_marks_the_games_that_record_by_kind_and_board() {
    let env = EventDir::new(&plain(
        "single",
        "",
        r#"
[sections.records]
boards = 1
recorder = "winner"
draw_recorder = "black"
exempt_kinds = ["rapid", "blitz", "armageddon"]
"#,
    ));
    let o = run(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("快棋、超快棋、附加赛不用记录"),
        "{}",
        stdout(&o)
    );
    let id = env.create();
    register(&env, &id, 4);
    let sheet = round_show(&env, &id);
    assert_eq!(sheet["boards"][0]["must_record"], true, "{sheet}");
    assert_ne!(sheet["boards"][1]["must_record"], true, "{sheet}");
    assert!(sheet["records"].is_object(), "{sheet}");
    let text = env.ok(&["round", "show", "--event", &id, "--section", "open"]);
    let line1 = text.lines().find(|l| l.starts_with("1\t")).unwrap();
    let line2 = text.lines().find(|l| l.starts_with("2\t")).unwrap();
    assert!(line1.contains("录谱"), "{text}");
    assert!(!line2.contains("录谱"), "{text}");
    // Board 1 drawn: its rapid game is due now, and rapid games keep no record.
    let o = result(&env, &id, "1", "=", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let sheet = round_show(&env, &id);
    let b1 = sheet["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["board"] == 1)
        .expect("board 1 still due");
    assert_ne!(b1["must_record"], true, "{sheet}");
}

/// The knockout's boards are numbered 1…N within their round (the semi-finals of an 8-player
/// bracket on boards 1 and 2, not 5 and 6); `event show` counts the knockout's rounds; the
/// places the bracket does not separate are printed shared (并列第3名).
#[test]
fn knockout_boards_rounds_and_shared_places() {
    let env = EventDir::new(&plain("single", "", ""));
    let id = env.create();
    register(&env, &id, 8);
    let shown = env.ok(&["event", "show", &id]);
    assert!(shown.contains("淘汰赛 3 轮"), "{shown}");
    assert!(shown.contains("已开始 1 轮, 已完成 0 轮"), "{shown}");
    let sheet = round_show(&env, &id);
    let boards: Vec<u64> = sheet["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_u64().unwrap())
        .collect();
    assert_eq!(boards, vec![1, 2, 3, 4], "{sheet}");
    for b in 1..=4 {
        let o = result(&env, &id, &b.to_string(), "1-0", &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let sheet = round_show(&env, &id);
    assert_eq!(sheet["round"], 2, "{sheet}");
    let boards: Vec<u64> = sheet["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_u64().unwrap())
        .collect();
    assert_eq!(
        boards,
        vec![1, 2],
        "the semi-finals on boards 1 and 2: {sheet}"
    );
    let shown = env.ok(&["event", "show", &id]);
    assert!(shown.contains("已开始 2 轮, 已完成 1 轮"), "{shown}");
    for b in ["1", "2"] {
        let o = result(&env, &id, b, "1-0", &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = result(&env, &id, "1", "0-1", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = env.ok(&["knockout", "show", "--event", &id, "--section", "open"]);
    assert!(text.contains("并列第3名"), "{text}");
    assert!(text.contains("并列第5名"), "{text}");
    assert!(!text.contains("  第3名"), "{text}");
    let ko = knockout_json(&env, &id);
    let places = ko["places"].as_array().unwrap();
    assert_eq!(places[0]["shared"], false, "{ko}");
    assert_eq!(places[2]["place"], 3);
    assert_eq!(places[2]["shared"], true, "{ko}");
    let shown = env.ok(&["event", "show", &id]);
    assert!(shown.contains("已开始 3 轮, 已完成 3 轮"), "{shown}");
}

/// A two-stage section whose other players continue the Swiss (T2): after stage 1 the
/// knockout's games are due beside the Swiss round just paired, and `round show --json` lists
/// both, as the text does — the Swiss round first, then the knockout's games.
#[test]
fn round_show_json_lists_the_swiss_round_and_the_knockout_games_due() {
    let reg = r#"
[event]
name = "两阶段测试"
start = 2026-10-01
end = 2026-10-03

[[sections]]
id = "open"
name = "公开组"
pairing = { numbering = "given" }

[sections.format]
kind = "swiss_then_knockout"
rounds = 1

[sections.format.knockout]
size = 4
continue_rounds = 1
variant = "single"
"#;
    let env = EventDir::new(reg);
    let id = env.create();
    register(&env, &id, 8);
    env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
    env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
    for b in 1..=4 {
        let o = result(&env, &id, &b.to_string(), "1-0", &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // Stage 1 is over: the knockout's semi-finals are due; the others play Swiss round 2.
    env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
    env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
    let text = env.ok(&["round", "show", "--event", &id, "--section", "open"]);
    assert!(text.contains("第2轮对阵表"), "{text}");
    assert!(text.contains("淘汰赛 第2轮"), "{text}");
    let v = round_show(&env, &id);
    let sheets = v.as_array().expect("several open lists: an array");
    assert_eq!(sheets.len(), 2, "{v}");
    assert_eq!(sheets[0]["round"], 2);
    assert_eq!(sheets[1]["round"], 2);
    let swiss: Vec<u64> = sheets[0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_u64().unwrap())
        .collect();
    let ko: Vec<u64> = sheets[1]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_u64().unwrap())
        .collect();
    assert_eq!(ko, vec![1, 2], "the knockout on the top boards: {v}");
    assert_eq!(
        swiss,
        vec![3, 4],
        "the Swiss after the knockout's boards: {v}"
    );
}

/// Ties for prizes are never split silently: the two semi-final losers of a single
/// elimination share 3rd place (并列第3名), so a 3rd prize of 300 and a 4th of 200 cannot go by
/// the list's order — `prizes` is refused, naming the shared place — until the regulation
/// says how (`shared_places = "seed"`: §6.3 (b), the better seed takes 3rd).
#[test]
fn a_shared_place_is_not_split_for_prizes_unless_the_regulation_says_how() {
    let prizes = r#"
[[sections.prizes]]
rank = 1
amount_yuan = 1000

[[sections.prizes]]
rank = 2
amount_yuan = 600

[[sections.prizes]]
rank = 3
amount_yuan = 300

[[sections.prizes]]
rank = 4
amount_yuan = 200
"#;
    let play = |env: &EventDir, id: &str| {
        register(env, id, 4);
        for b in ["1", "2", "1"] {
            let o = result(env, id, b, "1-0", &[]);
            assert!(o.status.success(), "{}", stderr(&o));
        }
    };
    let env = EventDir::new(&plain("single", "", prizes));
    let id = env.create();
    play(&env, &id);
    let err = env.refused(&["prizes", "--event", &id]);
    assert!(err.contains("并列第3名共 2 人"), "{err}");

    let env = EventDir::new(&plain("single", "shared_places = \"seed\"", prizes));
    let o = run(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert!(
        stdout(&o).contains("淘汰赛未决出的名次按种子"),
        "{}",
        stdout(&o)
    );
    let id = env.create();
    play(&env, &id);
    let out = env.ok(&["prizes", "--event", &id]);
    assert!(out.contains("300") && out.contains("200"), "{out}");
    // Seeds 1–4 by registration: the semi-finals 1–4 and 2–3 were won by red, the higher
    // seed, so 3 and 4 lost; seed 3 takes 3rd place (300), seed 4 4th (200).
    let line3 = out.lines().find(|l| l.contains("300")).unwrap();
    let line4 = out.lines().find(|l| l.contains("200")).unwrap();
    assert!(line3.contains("棋手03"), "{out}");
    assert!(line4.contains("棋手04"), "{out}");
}

/// `print --doc slips --public-url URL` on the knockout games due: the slip of a game whose
/// colours are set (the rapid game after a drawn slow game, K1) carries each side's claim code
/// of that game — a knockout game's code, not the code of its board — and a QR code of the
/// claim page; the slip of a game whose colours the higher seed chooses at the board carries
/// none and says the arbiter enters it.
#[test]
fn knockout_slips_carry_the_claim_codes_of_their_games() {
    use arbiter_director::claim::{self, KoSeat, Seat};
    use arbiter_store::{AccountStore, EventStore};
    use arbiter_types::Colour;
    let env = EventDir::new(&plain("single", "", ""));
    let id = env.create();
    register(&env, &id, 4);
    let o = result(&env, &id, "1", "=", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = env.path("slips.html");
    env.ok(&[
        "print",
        "--event",
        &id,
        "--doc",
        "slips",
        "--public-url",
        "https://xq.example.org",
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&out).unwrap();
    let store = arbiter_store::SqliteStore::open(env.db().to_str().unwrap()).unwrap();
    let secret = store.claim_secret(&id, "not this one").unwrap();
    let log = store.read(&arbiter_store::EventId(id.clone())).unwrap();
    let state = arbiter_core::EventState::replay(&log).unwrap();
    let due: Vec<_> = claim::knockout_games(&state, "open")
        .into_iter()
        .filter(|g| g.due.is_some())
        .collect();
    assert_eq!(due.len(), 2, "{due:?}");
    let blocks: Vec<&str> = html.split("<div class=\"keep\">").skip(1).collect();
    assert_eq!(blocks.len(), 2, "{html}");
    let url = format!("https://xq.example.org/e/{id}/claim");
    for g in &due {
        let (round, board) = g.due.unwrap();
        let block = blocks
            .iter()
            .find(|b| b.contains(&format!("第{board}台 记录单")))
            .unwrap_or_else(|| panic!("no slip of board {board}: {html}"));
        if g.chooser {
            assert_eq!(g.game, 0);
            assert!(!block.contains("确认码"), "{block}");
            assert!(block.contains("成绩由裁判录入"), "{block}");
            continue;
        }
        assert_eq!(g.game, 1, "the rapid game after the draw");
        for (side, word) in [(Colour::Red, "红方"), (Colour::Black, "黑方")] {
            let c = claim::knockout_code(
                secret.as_bytes(),
                &KoSeat {
                    section: "open".into(),
                    match_id: g.match_id.clone(),
                    game: g.game,
                    side,
                },
            );
            assert!(block.contains(&format!("{word} 确认码 {c}")), "{block}");
            assert!(
                block.contains(&format!("扫码或打开 {url} 输入确认码 {c} 确认本局成绩")),
                "{block}"
            );
            // Not the code a board of that round and number would have.
            let board_code = claim::code(
                secret.as_bytes(),
                &Seat {
                    section: "open".into(),
                    round,
                    board,
                    side,
                },
            );
            assert!(!block.contains(&board_code), "{block}");
        }
    }
}
