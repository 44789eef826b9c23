//! A knockout whose match is written as game blocks with the file's own names of its time
//! controls (issue: "two games with colours swapped, then one armageddon, draw = black wins,
//! the armageddon red 5′ / black 3′"), run as an arbiter runs it: check, draw, every game from
//! the sheet, the bracket shown with the file's names; and an ending by lot.

use crate::common::*;
use serde_json::Value;

const INVITATIONAL: &str = include_str!("../fixtures/knockout-invitational.toml");

/// Registers `n` players, draws, then enters every due game from `round show` as `result`
/// gives it (board index, game count). Returns the labels the sheets printed.
fn play(env: &EventDir, id: &str, n: usize, result: &dyn Fn(usize) -> &'static str) -> Vec<String> {
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
    let mut labels = Vec::new();
    let mut games = 0;
    for _ in 0..400 {
        let o = env.run(&[
            "round",
            "show",
            "--event",
            id,
            "--section",
            "open",
            "--json",
        ]);
        if !o.status.success() {
            break;
        }
        let sheet: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let boards = sheet["boards"].as_array().unwrap().clone();
        if boards.is_empty() {
            break;
        }
        // the arbiter's sheet: each board with its match, game number and game
        let text = env.ok(&["round", "show", "--event", id, "--section", "open"]);
        labels.extend(
            text.lines()
                .filter(|l| l.contains("局"))
                .map(str::to_string),
        );
        for b in &boards {
            let board = b["board"].to_string();
            env.ok(&[
                "result",
                "--event",
                id,
                "--section",
                "open",
                "--board",
                &board,
                result(games),
            ]);
            games += 1;
        }
    }
    labels
}

fn bracket(env: &EventDir, id: &str) -> Value {
    let o = env.run(&[
        "knockout",
        "show",
        "--event",
        id,
        "--section",
        "open",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn matches(v: &Value) -> Vec<Value> {
    v["matches"].as_array().unwrap().clone()
}

#[test]
fn two_named_rapid_games_then_an_armageddon_whose_draw_goes_to_black() {
    let env = EventDir::new(INVITATIONAL);
    let o = run(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(
        summary.contains("快棋(6′+3″)2局，猜先；仍平加赛超时快棋(红5′黑3′)一局"),
        "{summary}"
    );
    let id = env.create();
    // every game drawn: each match plays its two 快棋 and the armageddon, where black wins
    let labels = play(&env, &id, 16, &|_| "=");
    assert!(
        labels.iter().any(|l| l.contains("第1局 快棋6′+3″")),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|l| l.contains("第2局 快棋6′+3″")),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|l| l.contains("第3局 超时快棋红5′黑3′")),
        "{labels:?}"
    );
    assert!(
        !labels.iter().any(|l| l.contains("慢棋")),
        "no class name printed: {labels:?}"
    );

    let ko = env.entries_of(&id, "knockout_game_recorded");
    assert_eq!(ko.len(), 15 * 3, "15 matches of three games");
    let kinds: Vec<&str> = ko.iter().filter_map(|g| g["kind"].as_str()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "rapid").count(), 30);
    assert_eq!(kinds.iter().filter(|k| **k == "armageddon").count(), 15);

    let v = bracket(&env, &id);
    let ms = matches(&v);
    assert_eq!(ms.len(), 15);
    for m in &ms {
        let games = m["games"].as_array().unwrap();
        assert_eq!(games.len(), 3, "{m}");
        assert_eq!(games[0]["name"], "快棋6′+3″");
        // the second game swaps the colours of the first
        assert_eq!(games[1]["red"], games[0]["black"]);
        assert_eq!(games[2]["name"], "超时快棋红5′黑3′");
        assert_eq!(
            m["winner"]["no"], games[2]["black"],
            "armageddon draw = black: {m}"
        );
        assert!(m["decided_by"].is_null());
    }
}

#[test]
fn a_best_of_three_then_one_quick_game_then_a_lot() {
    let src = INVITATIONAL
        .replace(
            "[[sections.format.knockout.time_controls]]\nname = \"超时快棋\"\nkind = \"armageddon\"\nminutes = 5\nblack_minutes = 3\n",
            "[[sections.format.knockout.time_controls]]\nname = \"慢棋\"\nkind = \"slow\"\nminutes = 30\n",
        )
        .replace(
            "[[sections.format.knockout.blocks]]\ngames = 2\ntime_control = \"快棋\"\ncolours = \"lot\"\n",
            "[[sections.format.knockout.blocks]]\ngames = 3\ntime_control = \"慢棋\"\n\n[[sections.format.knockout.blocks]]\ngames = 1\ntime_control = \"快棋\"\n",
        )
        .replace(
            "rule = \"armageddon\"\ntime_control = \"超时快棋\"\ndraw = \"black_wins\"",
            "rule = \"lot\"",
        );
    let env = EventDir::new(&src);
    let id = env.create();
    // every game drawn: the three 慢棋 leave the match level, the 快棋 too, the lot decides
    play(&env, &id, 8, &|_| "=");
    let v = bracket(&env, &id);
    let ms = matches(&v);
    assert_eq!(ms.len(), 7);
    for m in &ms {
        let games = m["games"].as_array().unwrap();
        assert_eq!(games.len(), 4, "three 慢棋 and one 快棋: {m}");
        assert_eq!(games[0]["name"], "慢棋30′");
        assert_eq!(games[3]["name"], "快棋6′+3″");
        assert_eq!(m["decided_by"], "lot", "{m}");
        assert!(!m["winner"].is_null());
    }
    // the lot is drawn from the event's seed: both seeds of a match win some
    let top_seed_won = ms
        .iter()
        .filter(|m| m["winner"]["no"] == m["players"][0]["no"])
        .count();
    assert!(top_seed_won > 0 && top_seed_won < 7, "{top_seed_won} of 7");
}

#[test]
fn a_block_naming_a_time_control_the_file_lacks_is_refused_with_its_line() {
    let src = INVITATIONAL.replace(
        "time_control = \"快棋\"\ncolours",
        "time_control = \"慢棋\"\ncolours",
    );
    let env = EventDir::new(&src);
    let o = run(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("reg.toml:33:16: 错误: 用时「慢棋」未定义，已有: 「快棋」、「超时快棋」"),
        "{}",
        stderr(&o)
    );
}
