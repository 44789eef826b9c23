//! Nothing a crash, a second arbiter or a bad file can do breaks an event — run as a real
//! process: a reader closing the pipe early, `simulate` and `event import` killed at random
//! moments, concurrent writers on one database, two creations of a new database at once, a
//! non-UTF-8 roster, logs that `verify` rejects.

use crate::common;

use arbiter_store::{EventStore, SqliteStore};
use common::*;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `simulate` with its stdout discarded and its stderr kept, to be run or killed.
fn simulate_cmd(stem: &str, seed: u64, out: &Path) -> Command {
    let mut c = simulate_command(stem, seed, out);
    c.stdout(Stdio::null()).stderr(Stdio::piped());
    c
}

// ---------------------------------------------------------------------------------------
// Closed stdout.

#[test]
fn a_reader_closing_the_pipe_early_is_handled_quietly_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    simulate_into("jiujiang-2020", 1, &out, &[]);
    let db = out.join("arbiter.db");
    let db = db.to_str().unwrap();
    let trf = out.join("senior.trf");
    let trf = trf.to_str().unwrap();
    let reg = regulation("suzhou-2025");
    let reg = reg.as_str();
    let id = "ev-00000001";
    let commands: Vec<Vec<&str>> = vec![
        vec!["event", "export", id, "--db", db],
        vec!["event", "export", id, "--format", "json", "--db", db],
        vec!["event", "verify", db],
        vec!["event", "list", "--db", db],
        vec!["event", "show", id, "--db", db],
        vec![
            "standings",
            "--db",
            db,
            "--event",
            id,
            "--section",
            "senior",
        ],
        vec!["regulation", "check", reg],
        vec!["check", "--trf", trf],
    ];
    for args in &commands {
        let normal = run(args);
        let expected = normal.status.code();
        assert!(!normal.stdout.is_empty(), "{args:?}: no output to cut");
        // The reader goes away before anything is written, or after 10 bytes.
        for read in [0usize, 10] {
            let mut child = Command::new(BIN)
                .args(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut pipe = child.stdout.take().unwrap();
            if read > 0 {
                let mut buf = vec![0u8; read];
                let _ = pipe.read_exact(&mut buf);
            }
            drop(pipe);
            let o = child.wait_with_output().unwrap();
            let err = text(&o.stderr);
            assert!(
                !err.contains("panicked") && !err.contains("Broken pipe"),
                "{args:?} (closed after {read} bytes): {err}"
            );
            assert_eq!(
                o.status.code(),
                expected,
                "{args:?} (closed after {read} bytes): exit code differs from a normal run; {err}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// `simulate --out DIR` is all or nothing.

/// `dir` holds a complete run that verifies (database and export agree), or is absent.
fn complete_or_absent(dir: &Path) -> Result<bool, String> {
    if !dir.exists() {
        return Ok(false);
    }
    let db = dir.join("arbiter.db");
    if !db.exists() || !dir.join("export.json").exists() {
        let names: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| e.to_string())?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        return Err(format!("incomplete run in {}: {names:?}", dir.display()));
    }
    let o = run(&["event", "verify", db.to_str().unwrap()]);
    if !o.status.success() {
        return Err(format!("verify fails: {}", text(&o.stdout)));
    }
    Ok(true)
}

#[test]
fn simulate_killed_at_random_moments_leaves_the_old_run_or_a_complete_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // A first complete run, timed.
    let t0 = Instant::now();
    simulate_into("jiujiang-2020", 1, &out, &[]);
    let full = t0.elapsed();
    let first_export = std::fs::read(out.join("export.json")).unwrap();
    let mut rng = Lcg(17);
    let mut replaced = 0;
    const KILLS: u64 = 12;
    for i in 0..KILLS {
        let mut c = simulate_cmd("jiujiang-2020", 2 + i, &out);
        c.arg("--force");
        let mut child = c.spawn().unwrap();
        // Moments spread over the whole run, with some jitter; the last ones after the end.
        let span = full.as_micros() as u64 * 5 / 4;
        let at = span * i / KILLS + rng.next() % (span / KILLS + 1);
        std::thread::sleep(Duration::from_micros(at));
        let _ = child.kill();
        let _ = child.wait();
        match complete_or_absent(&out) {
            Ok(true) => {
                if std::fs::read(out.join("export.json")).unwrap() != first_export {
                    replaced += 1;
                }
            }
            Ok(false) => {}
            Err(e) => panic!("kill {i} after {at} µs: {e}"),
        }
    }
    // A killed run over nothing leaves nothing, or a complete run.
    let fresh = dir.path().join("fresh");
    for i in 0..4 {
        let mut child = simulate_cmd("jiujiang-2020", 1, &fresh).spawn().unwrap();
        std::thread::sleep(full * i / 4);
        let _ = child.kill();
        let _ = child.wait();
        if let Err(e) = complete_or_absent(&fresh) {
            panic!("fresh kill {i}: {e}");
        }
    }
    // The next complete run cleans up what the killed ones left beside the folder.
    let o = simulate_cmd("jiujiang-2020", 9, &out)
        .arg("--force")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(complete_or_absent(&out), Ok(true));
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".run."))
        .collect();
    assert!(left.is_empty(), "left beside the folder: {left:?}");
    eprintln!("{replaced} of {KILLS} killed runs had finished (full run {full:?})");
}

#[test]
fn simulate_refuses_to_replace_a_folder_holding_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "裁判长笔记").unwrap();
    let o = simulate_cmd("jiujiang-2020", 1, &out).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("notes.txt"));
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "裁判长笔记"
    );
}

// ---------------------------------------------------------------------------------------
// `event import` replays and verifies before it writes.

fn exported_log(stem: &str, dir: &Path) -> String {
    let out = dir.join(format!("src-{stem}"));
    simulate_into(stem, 1, &out, &[]);
    let db = out.join("arbiter.db");
    let o = run(&[
        "event",
        "export",
        "ev-00000001",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    text(&o.stdout)
}

fn events_in(db: &Path) -> usize {
    if !db.exists() {
        return 0;
    }
    SqliteStore::open(db).unwrap().list_events().unwrap().len()
}

fn import(file: &Path, db: &Path, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args(["event", "import"])
        .arg(file)
        .arg("--db")
        .arg(db)
        .args(extra)
        .output()
        .unwrap()
}

/// Replace the value of the first `key` found in a JSON document (depth first).
fn set_first(v: &mut serde_json::Value, key: &str, to: serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => {
            if let Some(x) = m.get_mut(key) {
                *x = to;
                return true;
            }
            m.values_mut().any(|x| set_first(x, key, to.clone()))
        }
        serde_json::Value::Array(a) => a.iter_mut().any(|x| set_first(x, key, to.clone())),
        _ => false,
    }
}

#[test]
fn import_refuses_what_verify_rejects_and_a_second_copy() {
    let dir = tempfile::tempdir().unwrap();
    let log = exported_log("jiujiang-2020", dir.path());
    let db = dir.path().join("restored.db");
    let good = dir.path().join("log.json");
    std::fs::write(&good, &log).unwrap();

    let refused = |name: &str, doc: &str, needle: &str| {
        let f = dir.path().join(name);
        std::fs::write(&f, doc).unwrap();
        let before = events_in(&db);
        let o = import(&f, &db, &[]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name), "{name}: the file is not named: {err}");
        assert!(err.contains(needle), "{name}: {err}");
        assert_eq!(events_in(&db), before, "{name}: something was written");
    };

    // A log whose regulation text is `x = 1`.
    let mut v: serde_json::Value = serde_json::from_str(&log).unwrap();
    assert!(set_first(
        &mut v["entries"][0],
        "regulation",
        "x = 1".into()
    ));
    refused("bad-regulation.json", &v.to_string(), "规程");
    // A log with no entries.
    refused(
        "empty.json",
        r#"{"format": "arbiter-log/1", "name": "空赛事", "entries": []}"#,
        "no entries",
    );
    // A log whose pairing was changed by hand (verify re-pairs and disagrees).
    let mut v: serde_json::Value = serde_json::from_str(&log).unwrap();
    let entries = v["entries"].as_array_mut().unwrap();
    let paired = entries
        .iter_mut()
        .find(|e| {
            e.to_string().contains("\"round_paired\"") && e.to_string().contains("\"round\":3")
        })
        .expect("round 3 paired");
    let boards = {
        fn find(v: &mut serde_json::Value) -> Option<&mut Vec<serde_json::Value>> {
            match v {
                serde_json::Value::Object(m) => {
                    if m.get("boards").is_some_and(|b| b.is_array()) {
                        return m.get_mut("boards").and_then(|b| b.as_array_mut());
                    }
                    m.values_mut().find_map(find)
                }
                _ => None,
            }
        }
        find(paired).expect("boards")
    };
    let b0 = boards[0]["black"].clone();
    boards[0]["black"] = boards[1]["black"].clone();
    boards[1]["black"] = b0;
    refused("doctored.json", &v.to_string(), "fails verify");

    // The real log imports once; a second import names the existing event; the flag allows it.
    let o = import(&good, &db, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let id = text(&o.stdout).trim().to_string();
    let again = import(&good, &db, &[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains(&id), "{}", text(&again.stderr));
    assert_eq!(events_in(&db), 1);
    let forced = import(&good, &db, &["--allow-duplicate"]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert_eq!(events_in(&db), 2);
}

#[test]
fn import_killed_at_random_moments_leaves_no_event_or_the_whole_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = exported_log("kunshan-2026", dir.path());
    let file = dir.path().join("log.json");
    std::fs::write(&file, &log).unwrap();
    let entries = arbiter_store::parse_export(&log).unwrap().entries;
    let t0 = Instant::now();
    let o = import(&file, &dir.path().join("timed.db"), &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let full = t0.elapsed();
    let mut rng = Lcg(5);
    let mut whole = 0;
    const KILLS: u64 = 10;
    for i in 0..KILLS {
        let db = dir.path().join(format!("k{i}.db"));
        let mut child = Command::new(BIN)
            .args(["event", "import"])
            .arg(&file)
            .arg("--db")
            .arg(&db)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let span = full.as_micros() as u64 * 5 / 4;
        let at = span * i / KILLS + rng.next() % (span / KILLS + 1);
        std::thread::sleep(Duration::from_micros(at));
        let _ = child.kill();
        let _ = child.wait();
        if !db.exists() {
            continue;
        }
        let store = SqliteStore::open(&db).unwrap();
        let events = store.list_events().unwrap();
        assert!(events.len() <= 1, "kill {i}: {} events", events.len());
        if let Some(ev) = events.first() {
            assert_eq!(
                store.read(&ev.id).unwrap(),
                entries,
                "kill {i}: partial log"
            );
            whole += 1;
        }
        // A retry after the kill completes (or names the copy already there).
        let o = import(&file, &db, &[]);
        assert!(
            o.status.success() || text(&o.stderr).contains("ev-00000001"),
            "kill {i}: {}",
            text(&o.stderr)
        );
        assert_eq!(events_in(&db), 1);
    }
    eprintln!("{whole} of {KILLS} killed imports had committed (full import {full:?})");
}

// ---------------------------------------------------------------------------------------
// Concurrent writers.

const OPEN_REGULATION: &str = r#"
[event]
name = "并发测试赛"
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

fn create_event(dir: &Path, db: &Path) -> String {
    let reg = dir.join("reg.toml");
    std::fs::write(&reg, OPEN_REGULATION).unwrap();
    let o = Command::new(BIN)
        .args(["event", "create", "--regulation"])
        .arg(&reg)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout).trim().to_string()
}

#[test]
fn three_concurrent_player_add_loops_see_no_false_refusal_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    let id = create_event(dir.path(), &db);
    const WRITERS: usize = 3;
    const EACH: usize = 15;
    let handles: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (db, id) = (db.clone(), id.clone());
            std::thread::spawn(move || {
                let mut bad = Vec::new();
                for k in 0..EACH {
                    let o = Command::new(BIN)
                        .args(["player", "add", "--event", &id, "--section", "open"])
                        .args(["--name", &format!("棋手{w}-{k}")])
                        .args(["--at", "2026-09-01T10:00:00+08:00"])
                        .arg("--db")
                        .arg(&db)
                        .output()
                        .unwrap();
                    if !o.status.success() {
                        bad.push(format!(
                            "writer {w} #{k}: exit {:?}: {}",
                            o.status.code(),
                            text(&o.stderr)
                        ));
                    }
                }
                bad
            })
        })
        .collect();
    let bad: Vec<String> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let store = SqliteStore::open(&db).unwrap();
    let state = store.state(&arbiter_store::EventId(id.clone())).unwrap();
    assert_eq!(state.players.len(), WRITERS * EACH);
    assert!(state.refused.is_empty(), "{:?}", state.refused);
    let names: std::collections::BTreeSet<&str> = state
        .players
        .values()
        .map(|p| p.person.name.as_str())
        .collect();
    assert_eq!(names.len(), WRITERS * EACH);
}

#[test]
fn two_event_creates_on_a_new_database_both_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let reg = dir.path().join("reg.toml");
    std::fs::write(&reg, OPEN_REGULATION).unwrap();
    for round in 0..40 {
        let db = dir.path().join(format!("new-{round}.db"));
        let spawn = || {
            Command::new(BIN)
                .args(["event", "create", "--regulation"])
                .arg(&reg)
                .arg("--db")
                .arg(&db)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn(), spawn());
        for o in [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()] {
            assert!(o.status.success(), "round {round}: {}", text(&o.stderr));
        }
        assert_eq!(events_in(&db), 2, "round {round}");
    }
}

// ---------------------------------------------------------------------------------------
// Encodings.

#[test]
fn a_gbk_roster_is_read_as_gbk_and_bad_bytes_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    let id = create_event(dir.path(), &db);
    // "姓名,组别\n张三,open\n" as Excel saves it on Chinese Windows (GBK).
    let gbk: Vec<u8> = b"\xd0\xd5\xc3\xfb,\xd7\xe9\xb1\xf0\n\xd5\xc5\xc8\xfd,open\n".to_vec();
    assert!(String::from_utf8(gbk.clone()).is_err());
    let f = dir.path().join("报名表.csv");
    std::fs::write(&f, gbk).unwrap();
    let import = |f: &std::path::Path| {
        Command::new(BIN)
            .args(["player", "import", "--event", &id])
            .arg(f)
            .args(["--at", "2026-09-01T10:00:00+08:00"])
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap()
    };
    let o = import(&f);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let store = SqliteStore::open(&db).unwrap();
    let state = store.state(&arbiter_store::EventId(id.clone())).unwrap();
    let names: Vec<&str> = state
        .players
        .values()
        .map(|p| p.person.name.as_str())
        .collect();
    assert_eq!(names, vec!["张三"]);
    // Bytes that are neither UTF-8 nor GB18030: refused with the file and line, nothing written.
    let bad = dir.path().join("坏.csv");
    std::fs::write(&bad, b"\xd0\xd5\xc3\xfb,\xd7\xe9\xb1\xf0\n\x81\x20,open\n").unwrap();
    let o = import(&bad);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("坏.csv:2") && err.contains("GBK") && err.contains("UTF-8"),
        "{err}"
    );
    assert!(!err.contains("panicked"));
    let state = store.state(&arbiter_store::EventId(id)).unwrap();
    assert_eq!(state.players.len(), 1);
}
