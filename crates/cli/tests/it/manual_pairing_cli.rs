//! A live 16-player Tianshui open (the top 8 go to the knockout after round 8, the other
//! players continue the Swiss in rounds 9–11) in which the chief arbiter pairs round 9 by
//! hand, fixing every pair, one of them a rematch: A3b — the pairs are kept as given, the
//! round is recorded, the broken rules are listed as warnings, and the log still verifies.
//!
//! The event is the simulator's up to the end of round 8 (its log exported, cut before the
//! continuing Swiss's first pairing, and imported as a new event), then driven by the CLI.

use crate::common;

use common::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The simulated 16-player open, its log cut before the first stage-2 pairing, imported
/// into a new database: (database, event id, the cut log's entries, the cut pairing).
fn round_8_done(dir: &Path) -> (PathBuf, String, Vec<Value>, Value) {
    let sim = dir.join("sim");
    simulate_into(
        "tianshui-2024",
        1,
        &sim,
        &["--players", "open=16", "--players", "local=0"],
    );
    let log = ok(&[
        "event",
        "export",
        "ev-00000001",
        "--db",
        path(&sim.join("arbiter.db")),
    ]);
    let mut log: Value = serde_json::from_str(&log).expect("log JSON");
    let entries = log["entries"].as_array().expect("entries").clone();
    let cut = entries
        .iter()
        .position(|e| e["entry"]["type"] == "round_paired" && e["entry"]["stage"] == 2)
        .expect("the continuing Swiss was paired");
    let next = entries[cut]["entry"].clone();
    log["entries"] = Value::Array(entries[..cut].to_vec());
    let file = dir.join("round8.json");
    std::fs::write(&file, serde_json::to_string(&log).expect("json")).expect("write");
    let db = dir.join("live.db");
    let out = ok(&["event", "import", path(&file), "--db", path(&db)]);
    let id = out
        .split_whitespace()
        .find(|w| w.starts_with("ev-"))
        .expect("new event id")
        .trim_end_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string();
    (db, id, entries[..cut].to_vec(), next)
}

#[test]
fn the_arbiter_pairs_round_9_by_hand_with_a_rematch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (db, id, entries, engine_round) = round_8_done(dir.path());
    // Pairing numbers of the open section (player id → number).
    let order: Vec<u64> = entries
        .iter()
        .find(|e| e["entry"]["type"] == "pairing_numbers_drawn" && e["entry"]["section"] == "open")
        .and_then(|e| e["entry"]["order"].as_array().cloned())
        .expect("numbers drawn")
        .iter()
        .map(|v| v.as_u64().expect("player id"))
        .collect();
    let no: BTreeMap<u64, usize> = order.iter().enumerate().map(|(i, &p)| (p, i + 1)).collect();
    // The continuing Swiss: the players the engine paired in round 9 (and its bye).
    let mut players: Vec<usize> = Vec::new();
    for b in engine_round["boards"].as_array().expect("boards") {
        for side in ["red", "black"] {
            players.push(no[&b[side].as_u64().expect("id")]);
        }
    }
    players.sort_unstable();
    assert!(players.len() >= 4, "{players:?}");
    // Who met whom in stage 1.
    let mut met: BTreeSet<(usize, usize)> = BTreeSet::new();
    for e in &entries {
        if e["entry"]["type"] == "round_paired" {
            for b in e["entry"]["boards"].as_array().expect("boards") {
                let (r, k) = (
                    no[&b["red"].as_u64().unwrap()],
                    no[&b["black"].as_u64().unwrap()],
                );
                met.insert((r.min(k), r.max(k)));
            }
        }
    }
    // Fix every pair: a rematch first, the others in number order.
    let (a, b) = *met
        .iter()
        .find(|(x, y)| players.contains(x) && players.contains(y))
        .expect("two continuing players met in stage 1");
    let mut rest: Vec<usize> = players
        .iter()
        .copied()
        .filter(|&x| x != a && x != b)
        .collect();
    let mut fixed = vec![(a, b)];
    while rest.len() >= 2 {
        let y = rest.pop().unwrap();
        let x = rest.pop().unwrap();
        fixed.push((x, y));
    }
    let fix_args: Vec<String> = fixed.iter().map(|(x, y)| format!("{x}-{y}")).collect();
    let mut args = vec![
        "round",
        "pair",
        "--event",
        &id,
        "--section",
        "open",
        "--db",
        path(&db),
    ];
    for f in &fix_args {
        args.push("--fix");
        args.push(f);
    }
    let (out, err) = ok_with_stderr(&args);
    assert!(out.contains("第9轮"), "{out}");
    // The broken rule is a warning, naming the rematch.
    assert!(err.contains("警告 warning"), "{err}");
    assert!(
        err.contains(&format!("H1: {a}号 与 {b}号 已相遇"))
            || err.contains(&format!("H1: {b}号 与 {a}号 已相遇")),
        "{err}"
    );
    // The recorded round is the arbiter's pairs, exactly.
    let sheet = ok(&[
        "round",
        "show",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "9",
        "--json",
        "--db",
        path(&db),
    ]);
    let sheet: Value = serde_json::from_str(&sheet).expect("sheet JSON");
    let got: BTreeSet<(u64, u64)> = sheet["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            let (r, k) = (
                b["red"]["no"].as_u64().expect("red"),
                b["black"]["no"].as_u64().expect("black"),
            );
            (r.min(k), r.max(k))
        })
        .collect();
    let want: BTreeSet<(u64, u64)> = fixed
        .iter()
        .map(|&(x, y)| (x.min(y) as u64, x.max(y) as u64))
        .collect();
    assert_eq!(got, want);
    // The log with the manual round verifies.
    let v = ok(&["event", "verify", path(&db)]);
    assert!(v.contains("通过"), "{v}");
}

/// The event: the simulator runs the 16-player open, and 12, 20, 24 players, through
/// every round and the knockout; each log verifies.
#[test]
fn tianshui_open_of_any_small_size_completes() {
    let dir = tempfile::tempdir().expect("tempdir");
    for n in [12, 16, 20, 24] {
        for seed in [1, 2] {
            let out = dir.path().join(format!("t{n}-{seed}"));
            let players = format!("open={n}");
            let text = simulate_into(
                "tianshui-2024",
                seed,
                &out,
                &["--players", &players, "--players", "local=0"],
            );
            assert!(text.contains(&format!("报名 {n} 人")), "{text}");
            let v = ok(&["event", "verify", path(&out.join("arbiter.db"))]);
            assert!(v.contains("通过"), "{n} players, seed {seed}: {v}");
            let c = ok(&["check", "--trf", path(&out.join("open.trf"))]);
            assert!(
                c.contains("11 轮全部通过检查"),
                "{n} players, seed {seed}: {c}"
            );
        }
    }
}
