//! `arbiter xiangqi perft` and `arbiter xiangqi play`: the contract of docs/cli.md — the
//! node count on the last line, the JSON shape `{"fen", "moves": [{"iccs", "wxf",
//! "chinese"}], "status"}`, exit 2 with the move number for an illegal move.
//!
//! rules.md A13: "Moves can be written in Chinese notation (炮二平五), WXF notation (C2=5) or
//! ICCS (h2e2) and are checked for legality." Jiujiang J5 records how a game ended: "mate,
//! stalemate 困毙, …".

use crate::common::*;

#[test]
fn perft_prints_the_count_on_its_last_line() {
    let out = ok(&["xiangqi", "perft", "--depth", "3"]);
    assert_eq!(out.lines().last(), Some("79666"));
    // A published tricky position (chessprogramming.org), with the root split.
    let out = ok(&[
        "xiangqi",
        "perft",
        "--depth",
        "2",
        "--divide",
        "--fen",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"424"));
    assert_eq!(lines.len(), 25 + 1);
    let o = run(&["xiangqi", "perft", "--depth", "2", "--fen", "9/9 w"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn play_mixed_notations_as_json() {
    let o = run(&[
        "xiangqi",
        "play",
        "--json",
        "炮二平五",
        "H8+7",
        "h0g2",
        "车9平8",
    ]);
    let v = json_line(&o);
    assert_eq!(
        v["fen"],
        "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
    );
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(
        moves[0],
        serde_json::json!({"iccs": "h2e2", "wxf": "C2=5", "chinese": "炮二平五"})
    );
    assert_eq!(
        moves[1],
        serde_json::json!({"iccs": "h9g7", "wxf": "H8+7", "chinese": "马８进７"})
    );
    assert_eq!(moves[3]["chinese"], "车９平８");
    assert_eq!(v["status"], "ongoing");
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3);
}

/// J5: a game ends by mate (将死) — the status says so, from the moves as typed at the desk.
#[test]
fn play_text_and_a_mate() {
    let out = ok(&[
        "xiangqi",
        "play",
        "--fen",
        "4k4/9/9/9/9/9/9/9/R8/1R1K5 w",
        "1. 车九进七 将５平６ 2. 车八进九",
    ]);
    assert!(
        out.starts_with("FEN 1R3k3/R8/9/9/9/9/9/9/9/3K5 b - - 3 2"),
        "{out}"
    );
    assert!(out.contains("车八进九"), "{out}");
    let v = json_line(&run(&[
        "xiangqi",
        "play",
        "--json",
        "--fen",
        "4k4/9/9/9/9/9/9/9/R8/1R1K5 w",
        "a1a8",
        "e9f9",
        "b0b9",
    ]));
    assert_eq!(v["status"], "checkmate");
}

#[test]
fn an_illegal_move_exits_2_with_its_number() {
    let o = run(&[
        "xiangqi",
        "play",
        "炮二平五",
        "马８进７",
        "马二进三",
        "车九进三",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("第 2 回合") && e.contains("车九进三"), "{e}");
    assert!(stdout(&o).is_empty());
    let o = run(&["xiangqi", "play", "--json", "hello"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("第 1 回合"), "{}", stderr(&o));
}

/// 自然限着 with the claimant's checks (J5 「提出方将军不计」; 凤岗镇迎春杯 2012 「自然限着40
/// 回合，将军着数算10着」): a rook giving two checks and a quiet move; red claims.
#[test]
fn play_checks_the_natural_move_limit_with_the_claimants_checks_counted_up_to_k() {
    let fen = "9/4k4/9/9/9/9/9/9/R8/3K5 w";
    let moves = ["a1a8", "e8e9", "a8a9", "e9e8", "a9a1"];
    let limit = |extra: &[&str]| -> serde_json::Value {
        let mut a = vec!["xiangqi", "play", "--json", "--fen", fen];
        a.extend_from_slice(extra);
        a.extend_from_slice(&moves);
        serde_json::from_str(&ok(&a)).unwrap()
    };
    // Everything counted: 5 half-moves, 2 moves.
    let v = limit(&["--natural-limit", "2"]);
    assert_eq!(v["natural_limit"]["moves"], 2);
    assert_eq!(v["natural_limit"]["reached"], true);
    // Red's checks not counted: 3 half-moves, 1 move — short of 2.
    let v = limit(&["--natural-limit", "2", "--claimant", "red"]);
    assert_eq!(v["natural_limit"]["moves"], 1);
    assert_eq!(v["natural_limit"]["reached"], false);
    // One of red's checks counted: 4 half-moves, the limit of 2 reached.
    let v = limit(&[
        "--natural-limit",
        "2",
        "--claimant",
        "红",
        "--checks-counted",
        "1",
    ]);
    assert_eq!(v["natural_limit"]["moves"], 2);
    assert_eq!(v["natural_limit"]["reached"], true);
    // Black claims: red's checks count.
    let v = limit(&["--natural-limit", "2", "--claimant", "black"]);
    assert_eq!(v["natural_limit"]["reached"], true);
    // The text form says it in words.
    let mut a = vec!["xiangqi", "play", "--fen", fen, "--natural-limit", "40"];
    a.extend_from_slice(&["--claimant", "红方", "--checks-counted", "10"]);
    a.extend_from_slice(&moves);
    let out = ok(&a);
    assert!(
        out.contains("自上次吃子 2 回合 (提出方红方将军最多计10着), 未到 40 回合"),
        "{out}"
    );
    // A claimant that is no side: exit 2, in words.
    let o = run(&[
        "xiangqi",
        "play",
        "--natural-limit",
        "40",
        "--claimant",
        "green",
        "a1a2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("提出方 「green」 应为 红 或 黑"),
        "{}",
        stderr(&o)
    );
}
