//! A plain knockout section (`format.kind = "knockout"`): every entry in the bracket, seeded
//! by the numbers drawn (here in the order of registration, `numbering = "given"`), byes to
//! the top seeds when the field is not a power of two, no Swiss round. Run the way an arbiter
//! runs it: `regulation check`, draw, the games of each match entered from the sheet until
//! the bracket is decided, places, prizes, the event closed; and `simulate` of such a file.

use crate::common::*;
use serde_json::Value;

fn regulation(variant: &str) -> String {
    format!(
        r#"
[event]
name = "淘汰赛测试"
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
match_format = "K1"

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

[[sections.prizes]]
rank = 1
amount_yuan = 1000

[[sections.prizes]]
rank = 2
amount_yuan = 600

[[sections.prizes]]
rank = 3
amount_yuan = 300
"#
    )
}

/// Registers `n` players, draws, then plays every due knockout game from `round show`, mostly
/// draws (so matches go through the rapid game to the armageddon, where a draw advances
/// black). Returns the games entered.
fn play(env: &EventDir, id: &str, n: usize) -> usize {
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
    let out = env.ok(&["draw", "--event", id, "--section", "open"]);
    assert!(out.contains("序号"), "{out}");
    let mut games = 0;
    for _ in 0..200 {
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
        // Games of two knockout rounds due at once: one list per round (an array); the
        // earlier round's games are entered first.
        let sheet = match sheet {
            Value::Array(mut all) => all.remove(0),
            one => one,
        };
        let boards = sheet["boards"].as_array().unwrap().clone();
        // The knockout's sheet lists only games still to play; no Swiss round is paired.
        if boards.is_empty() || boards.iter().any(|b| !b["result"].is_null()) {
            break;
        }
        for (j, b) in boards.iter().enumerate() {
            let board = b["board"].to_string();
            // Every third game (first board of a sheet) decisive, the others drawn: a drawn
            // match plays its rapid game, then the armageddon, whose draw ends it.
            let r = if j == 0 && games % 3 == 0 { "1-0" } else { "=" };
            env.ok(&[
                "result",
                "--event",
                id,
                "--section",
                "open",
                "--board",
                &board,
                r,
            ]);
            games += 1;
        }
    }
    games
}

#[test]
fn plain_knockout_of_6_check_draw_play_places_prizes_and_close() {
    let env = EventDir::new(&regulation("third_place"));
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(summary.contains("淘汰赛：全部报名者参加"), "{summary}");
    assert!(summary.contains("单淘汰加三四名决赛"), "{summary}");
    assert!(summary.contains("种子: 序号按报名表顺序"), "{summary}");
    assert!(!summary.contains("积分编排制"), "no Swiss round: {summary}");

    let id = env.create();
    let games = play(&env, &id, 6);
    assert!(
        games >= 5,
        "quarter-finals, semi-finals, final, 3rd place: {games}"
    );
    // No Swiss round was paired: only knockout games in the log.
    assert!(env.entries_of(&id, "round_paired").is_empty());
    let ko = env.entries_of(&id, "knockout_game_recorded");
    assert_eq!(ko.len(), games);
    // Byes to seeds 1 and 2 (6 players in a bracket of 8): neither plays in round 1.
    let kinds: Vec<&str> = ko.iter().filter_map(|g| g["kind"].as_str()).collect();
    assert!(
        kinds.contains(&"armageddon"),
        "drawn matches reach the armageddon: {kinds:?}"
    );

    let o = env.run(&[
        "knockout",
        "show",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let seeds: Vec<u64> = v["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    assert_eq!(
        seeds,
        vec![1, 2, 3, 4, 5, 6],
        "seeds in the order of registration"
    );
    let places = v["places"].as_array().unwrap();
    assert!(places.len() >= 4, "{v}");
    for m in v["matches"].as_array().unwrap() {
        assert_eq!(m["finished"], true, "{m}");
        if m["round"] == 1 {
            let players: Vec<u64> = m["players"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|p| p["no"].as_u64())
                .collect();
            assert!(
                !(players.contains(&1) && players.contains(&2)),
                "the top seeds do not meet in round 1: {m}"
            );
        }
    }
    // The armageddon draw advanced black: some match whose last game is a drawn armageddon
    // was won by that game's black.
    let arm = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            m["games"]
                .as_array()
                .and_then(|g| g.last())
                .is_some_and(|g| g["kind"] == "armageddon" && g["result"] == "draw")
        })
        .expect("a match decided by a drawn armageddon");
    let last = arm["games"].as_array().unwrap().last().unwrap();
    assert_eq!(arm["winner"]["no"], last["black"], "{arm}");

    // Places and prizes, then the event closed with them.
    let prizes = env.ok(&["prizes", "--event", &id]);
    let champion = places[0]["name"].as_str().unwrap();
    assert!(prizes.contains(champion), "{prizes}");
    assert!(prizes.contains("1000"), "{prizes}");
    env.ok(&["event", "close", "--event", &id]);
    let closed = env.entries_of(&id, "event_closed");
    assert_eq!(closed.len(), 1);
    let prize = &closed[0]["prizes"][0];
    assert_eq!(prize["amount"], 1000, "{prize}");
    assert_eq!(prize["rank"], 1, "{prize}");
    assert_eq!(
        closed[0]["standings"][0]["places"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn plain_knockout_of_16_placement_bracket_every_place() {
    let env = EventDir::new(&regulation("placement"));
    let id = env.create();
    let games = play(&env, &id, 16);
    assert!(
        games >= 32,
        "a placement bracket of 16: 32 matches: {games}"
    );
    let o = env.run(&[
        "knockout",
        "show",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let got: Vec<u64> = v["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["place"].as_u64().unwrap())
        .collect();
    assert_eq!(got, (1..=16).collect::<Vec<u64>>());
    let standings = env.ok(&["standings", "--event", &id, "--section", "open"]);
    assert!(
        standings.contains(v["places"][0]["name"].as_str().unwrap()),
        "{standings}"
    );
}

#[test]
fn plain_knockout_refusals_name_the_line() {
    let bad = [
        ("kind = \"knockout\"\nrounds = 3", "淘汰赛不设积分编排轮数"),
        ("kind = \"knockout\"\nrounds = 0", "淘汰赛不设积分编排轮数"),
    ];
    for (format, needle) in bad {
        let text = regulation("single").replace("kind = \"knockout\"", format);
        let env = EventDir::new(&text);
        let reg = env.path("reg.toml");
        let o = run(&["regulation", "check", reg.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{format}");
        let err = stderr(&o);
        assert!(err.contains(needle) && err.contains("reg.toml:"), "{err}");
    }
    // A size with a plain knockout; a cap above the largest bracket.
    let text =
        regulation("single").replace("variant = \"single\"", "variant = \"single\"\nsize = 8");
    let env = EventDir::new(&text);
    let o = run(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("不设淘汰人数"), "{}", stderr(&o));
    let text = regulation("single").replace(
        "pairing = { numbering = \"given\" }",
        "pairing = { numbering = \"given\" }\nentries = { cap = 1025 }",
    );
    let env = EventDir::new(&text);
    let o = run(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("组别「公开组」为淘汰赛，最多 1024 人，但报名上限为 1025 人"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn plain_knockout_simulates_to_the_end() {
    let env = EventDir::new(&regulation("third_place"));
    let out = env.path("sim");
    let o = std::process::Command::new(BIN)
        .arg("simulate")
        .arg("--regulation")
        .arg(env.path("reg.toml"))
        .args(["--seed", "2", "--players", "open=11", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let ex = export_json(&out);
    let s = section_of(&ex, "open");
    assert_eq!(s["system"], "knockout", "{s}");
    let prizes = ex["prizes"].as_array().unwrap();
    assert_eq!(
        prizes.iter().filter(|p| p["kind"] == "place").count(),
        3,
        "{prizes:?}"
    );
}

/// `simulate` of a plain knockout of 100 (cap 100): a bracket of 128 with byes to seeds
/// 1–28, seven rounds (六十四分之一决赛 first), the champion decided and the prizes paid; the
/// summary says how places are decided instead of a tie-break line; `knockout show` prints
/// every round and all 100 places; the log verifies.
#[test]
fn plain_knockout_of_100_simulates_to_the_end() {
    for (variant, seed) in [("single", 4u64), ("placement", 5)] {
        // A single elimination leaves 3rd place shared while only one 3rd prize is paid: the
        // regulation says how the two are told apart (by seed), never the list's order.
        let text = regulation(variant)
            .replace(
                "pairing = { numbering = \"given\" }",
                "pairing = { numbering = \"lots\" }\nentries = { cap = 100 }",
            )
            .replace(
                "variant = \"single\"",
                "variant = \"single\"\nshared_places = \"seed\"",
            );
        let env = EventDir::new(&text);
        let reg = env.path("reg.toml");
        let o = run(&["regulation", "check", reg.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let summary = stdout(&o);
        assert!(
            summary.contains("轮数: 由人数决定（报名上限100人，最多7轮）"),
            "{summary}"
        );
        assert!(summary.contains("名次: 由对阵决出"), "{summary}");
        assert!(!summary.contains("名次区分"), "no tie-breaks: {summary}");

        let out = env.path("sim");
        let o = std::process::Command::new(BIN)
            .arg("simulate")
            .arg("--regulation")
            .arg(&reg)
            .args(["--seed", &seed.to_string(), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("冠军"), "{}", stdout(&o));
        let ex = export_json(&out);
        let s = section_of(&ex, "open");
        assert_eq!(s["system"], "knockout", "{variant}");
        assert_eq!(s["rounds_planned"], 7, "{variant}");
        assert_eq!(s["rounds"].as_array().unwrap().len(), 7, "{variant}");
        let standings = s["standings"].as_array().unwrap();
        assert!(
            standings.len() > 64 && standings.len() <= 100,
            "{variant}: {}",
            standings.len()
        );
        let prizes = ex["prizes"].as_array().unwrap();
        assert_eq!(
            prizes.iter().filter(|p| p["kind"] == "place").count(),
            3,
            "{variant}: {prizes:?}"
        );

        let db = out.join("arbiter.db");
        let store = arbiter_store::SqliteStore::open(&db).unwrap();
        let events = arbiter_store::EventStore::list_events(&store).unwrap();
        let id = events[0].id.to_string();
        let o = run(&[
            "knockout",
            "show",
            "--db",
            db.to_str().unwrap(),
            "--event",
            &id,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let shown = stdout(&o);
        assert!(shown.contains("(128签)"), "{shown}");
        assert!(shown.contains("第七轮"), "{shown}");
        assert!(shown.contains("R128-1   六十四分之一决赛"), "{shown}");
        assert!(shown.contains("轮空晋级"), "{shown}");
        assert!(shown.contains("名次\n"), "{shown}");
        if variant == "placement" {
            assert!(shown.contains("六十五至一百二十八名"), "{shown}");
        }
        let o = run(&["event", "verify", db.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stdout(&o));
    }
}
