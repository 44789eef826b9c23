//! A reference event run round by round purely through CLI commands — `round pair`,
//! `round publish`, `result import`, `result confirm`, `result correct`, `result` for the
//! knockout games — with the results scripted from what `simulate` decided for the same seed;
//! the resulting `export.json` is byte for byte the one `simulate` wrote, and `event verify`
//! passes.
//!
//! Registration, fees, check-in and team rosters are the registration desk's; this test takes
//! them from the simulated log (`event import` of the log up to the first draw). The script
//! needs nothing beyond results: seeds whose simulation also has a leader's team foul or an
//! illness withdrawal (commands of the registration desk and the discipline desk) are skipped,
//! and the test says which seed it ran.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run arbiter")
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn regulation(stem: &str) -> String {
    format!(
        "{}/../../regulations/{stem}.toml",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn notation(r: &str) -> &'static str {
    match r {
        "red_win" => "1-0",
        "black_win" => "0-1",
        "draw" => "=",
        "black_forfeit" => "+-",
        "red_forfeit" => "-+",
        "double_forfeit" => "--",
        other => panic!("result {other}"),
    }
}

/// Whether the simulated log needs only what this script can do.
fn scriptable(entries: &[Value]) -> bool {
    !entries.iter().any(|e| {
        let x = &e["entry"];
        (x["type"] == "foul_recorded" && x["offender"]["kind"] == "team")
            || (x["type"] == "player_withdrawn"
                && x["reason"].as_str().is_some_and(|r| r.contains("伤病")))
    })
}

/// Simulate, then rerun the event by CLI commands; returns the seed used.
fn rerun(stem: &str, players: &[&str]) -> u64 {
    let dir = tempfile::tempdir().expect("tempdir");
    for seed in 1..=40u64 {
        let sim = dir.path().join(format!("sim-{seed}"));
        let mut args = vec![
            "simulate".to_string(),
            "--regulation".into(),
            regulation(stem),
            "--seed".into(),
            seed.to_string(),
            "--out".into(),
            sim.display().to_string(),
        ];
        for p in players {
            args.push("--players".into());
            args.push(p.to_string());
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&a);
        let simdb = sim.join("arbiter.db");
        let log: Value = serde_json::from_str(&ok(&[
            "event",
            "export",
            "ev-00000001",
            "--db",
            simdb.to_str().expect("p"),
        ]))
        .expect("log");
        let entries = log["entries"].as_array().expect("entries").clone();
        if !scriptable(&entries) {
            continue;
        }
        by_commands(dir.path(), seed, &log, &entries, &sim);
        return seed;
    }
    panic!("no seed in 1..=40 with a results-only script");
}

fn by_commands(dir: &Path, seed: u64, log: &Value, entries: &[Value], sim: &Path) {
    // Registration as the desk recorded it: the log up to the first draw, imported.
    let cut = entries
        .iter()
        .position(|e| e["entry"]["type"] == "pairing_numbers_drawn")
        .expect("a draw");
    let mut prefix = log.clone();
    prefix["entries"] = Value::Array(entries[..cut].to_vec());
    let out = dir.join(format!("cli-{seed}"));
    std::fs::create_dir_all(&out).expect("dir");
    let db = out.join("arbiter.db");
    let dbs = db.to_str().expect("p").to_string();
    let prefix_file = out.join("prefix.json");
    std::fs::write(&prefix_file, prefix.to_string()).expect("write");
    let id = ok(&[
        "event",
        "import",
        prefix_file.to_str().expect("p"),
        "--db",
        &dbs,
    ])
    .trim()
    .to_string();
    let ev = id.as_str();
    // Pairing numbers and boards, to read the script: player id → (section, number).
    let mut order: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut boards: BTreeMap<(String, u64, u64), (u64, u64)> = BTreeMap::new();
    let mut fouls: BTreeMap<(String, u64, u64), (u32, u32)> = BTreeMap::new();
    let mut pending: Vec<(String, u64, String)> = Vec::new();
    let mut confirmed: Vec<(String, u64)> = Vec::new();
    let flush = |pending: &mut Vec<(String, u64, String)>| {
        if pending.is_empty() {
            return;
        }
        let (section, round) = (pending[0].0.clone(), pending[0].1);
        let file = out.join(format!("{section}-{round}.txt"));
        let text: String = pending.iter().map(|(_, _, l)| format!("{l}\n")).collect();
        std::fs::write(&file, text).expect("write");
        let r = round.to_string();
        ok(&[
            "result",
            "import",
            "--event",
            ev,
            "--section",
            &section,
            "--round",
            &r,
            file.to_str().expect("p"),
            "--db",
            &dbs,
            "--actor",
            "裁判长",
        ]);
        pending.clear();
    };
    for e in &entries[cut..] {
        let x = &e["entry"];
        let section = x["section"].as_str().unwrap_or("").to_string();
        let round = x["round"].as_u64().unwrap_or(0);
        match x["type"].as_str().expect("type") {
            "pairing_numbers_drawn" => {
                let o = x["order"].as_array().expect("order");
                order.insert(section, o.iter().filter_map(Value::as_u64).collect());
            }
            "round_paired" => {
                flush(&mut pending);
                for b in x["boards"].as_array().expect("boards") {
                    let key = (section.clone(), round, b["board"].as_u64().expect("b"));
                    boards.insert(
                        key,
                        (
                            b["red"].as_u64().expect("r"),
                            b["black"].as_u64().expect("k"),
                        ),
                    );
                }
                ok(&[
                    "round",
                    "pair",
                    "--event",
                    ev,
                    "--section",
                    &section,
                    "--db",
                    &dbs,
                    "--actor",
                    "裁判长",
                ]);
                // The CLI's pairing is the simulated one.
                let sheet: Value = serde_json::from_str(&ok(&[
                    "round",
                    "show",
                    "--event",
                    ev,
                    "--section",
                    &section,
                    "--json",
                    "--db",
                    &dbs,
                ]))
                .expect("sheet");
                let ord = &order[&section];
                let no = |p: u64| ord.iter().position(|q| *q == p).map(|i| i as u64 + 1);
                for b in x["boards"].as_array().expect("boards") {
                    let n = b["board"].as_u64().expect("b");
                    let s = &sheet["boards"][(n - 1) as usize];
                    assert_eq!(
                        s["red"]["no"].as_u64(),
                        no(b["red"].as_u64().expect("r")),
                        "{section} r{round} b{n}"
                    );
                    assert_eq!(
                        s["black"]["no"].as_u64(),
                        no(b["black"].as_u64().expect("k"))
                    );
                }
            }
            "round_published" => {
                ok(&[
                    "round",
                    "publish",
                    "--event",
                    ev,
                    "--section",
                    &section,
                    "--db",
                    &dbs,
                    "--actor",
                    "裁判长",
                ]);
            }
            "foul_recorded" => {
                let board = x["board"].as_u64().expect("a game foul");
                let key = (section.clone(), round, board);
                let p = x["offender"]["id"].as_u64().expect("player");
                let f = fouls.entry(key.clone()).or_default();
                if boards[&key].0 == p {
                    f.0 += 1;
                } else {
                    f.1 += 1;
                }
            }
            "result_entered" => {
                let board = x["board"].as_u64().expect("board");
                let (fr, fb) = fouls
                    .get(&(section.clone(), round, board))
                    .copied()
                    .unwrap_or((0, 0));
                pending.push((
                    section,
                    round,
                    format!(
                        "{board} {} {fr} {fb}",
                        notation(x["result"].as_str().expect("r"))
                    ),
                ));
            }
            "result_confirmed" => {
                flush(&mut pending);
                if !confirmed.contains(&(section.clone(), round)) {
                    confirmed.push((section.clone(), round));
                    let r = round.to_string();
                    ok(&[
                        "result",
                        "confirm",
                        "--event",
                        ev,
                        "--section",
                        &section,
                        "--round",
                        &r,
                        "--db",
                        &dbs,
                        "--actor",
                        "裁判长",
                    ]);
                }
            }
            "result_corrected" => {
                flush(&mut pending);
                let (r, b) = (
                    round.to_string(),
                    x["board"].as_u64().expect("b").to_string(),
                );
                ok(&[
                    "result",
                    "correct",
                    "--event",
                    ev,
                    "--section",
                    &section,
                    "--round",
                    &r,
                    "--board",
                    &b,
                    notation(x["result"].as_str().expect("r")),
                    "--reason",
                    x["reason"].as_str().expect("reason"),
                    "--db",
                    &dbs,
                    "--actor",
                    x["by"].as_str().expect("by"),
                ]);
            }
            "knockout_game_recorded" => {
                flush(&mut pending);
                let ord = &order[&section];
                let no = |p: u64| ord.iter().position(|q| *q == p).map(|i| i as u64 + 1);
                let (red, black) = (
                    no(x["red"].as_u64().expect("r")),
                    no(x["black"].as_u64().expect("k")),
                );
                let sheet: Value = serde_json::from_str(&ok(&[
                    "round",
                    "show",
                    "--event",
                    ev,
                    "--section",
                    &section,
                    "--json",
                    "--db",
                    &dbs,
                ]))
                .expect("sheet");
                let b = sheet["boards"]
                    .as_array()
                    .expect("boards")
                    .iter()
                    .find(|b| {
                        let (r, k) = (b["red"]["no"].as_u64(), b["black"]["no"].as_u64());
                        (r, k) == (red, black) || (r, k) == (black, red)
                    })
                    .unwrap_or_else(|| {
                        panic!("{section}: knockout game {x} not on the sheet {sheet}")
                    });
                let board = b["board"].as_u64().expect("board").to_string();
                let mut args = vec![
                    "result",
                    "--event",
                    ev,
                    "--section",
                    &section,
                    "--board",
                    &board,
                    notation(x["result"].as_str().expect("r")),
                    "--db",
                    &dbs,
                    "--actor",
                    "裁判长",
                ];
                if b["red"]["no"].as_u64() != red {
                    args.push("--chooser-black");
                }
                ok(&args);
            }
            _ => {}
        }
    }
    flush(&mut pending);
    // The published export, byte for byte, and verify.
    let export = ok(&["event", "export", ev, "--format", "json", "--db", &dbs]);
    let simulated = std::fs::read_to_string(sim.join("export.json")).expect("export.json");
    assert!(
        export == simulated,
        "seed {seed}: the CLI's export differs from simulate's"
    );
    std::fs::write(out.join("export.json"), &export).expect("write");
    let o = run(&["event", "verify", &dbs]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn kunshan_by_commands_equals_simulate() {
    let seed = rerun("kunshan-2026", &["men=12", "women=10"]);
    eprintln!("kunshan-2026: seed {seed}");
}

#[test]
fn tianshui_by_commands_equals_simulate() {
    let seed = rerun("tianshui-2024", &[]);
    eprintln!("tianshui-2024: seed {seed}");
}
