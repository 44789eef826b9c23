//! `arbiter event verify DB` and `arbiter event export ID --format json` on a simulated
//! event: verify passes on the fresh database, fails (exit 1, listing the difference) once
//! a result in the database is changed behind the log's back, and the JSON export printed
//! by `event export` is byte-identical to the `export.json` written by `simulate`.

use crate::common;

use common::*;
use std::path::Path;

#[test]
fn verify_passes_then_catches_a_tampered_result() {
    let dir = tempfile::tempdir().unwrap();
    simulate_into("jiujiang-2020", 3, dir.path(), &["--players", "14"]);
    let db = dir.path().join("arbiter.db");
    let db_arg = db.to_str().unwrap();
    let ok = run(&["event", "verify", db_arg]);
    let text = String::from_utf8_lossy(&ok.stdout).to_string();
    assert_eq!(ok.status.code(), Some(0), "{text}");
    assert!(
        text.contains("通过") && text.contains("export.json"),
        "{text}"
    );

    // JSON export of the event equals the published export.json.
    let list = run(&["event", "list", "--json", "--db", db_arg]);
    let events: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let id = events[0]["id"].as_str().unwrap().to_string();
    let ex = run(&["event", "export", &id, "--format", "json", "--db", db_arg]);
    assert!(ex.status.success());
    assert_eq!(
        ex.stdout,
        std::fs::read(dir.path().join("export.json")).unwrap()
    );

    // Change one red win of round 2 into a black win directly in the database.
    let changed = tamper_result(&db);
    assert!(changed, "a round-2 red win to change");
    let bad = run(&["event", "verify", db_arg]);
    let text = String::from_utf8_lossy(&bad.stdout).to_string();
    assert_eq!(bad.status.code(), Some(1), "{text}");
    assert!(text.contains("不一致"), "{text}");
}

/// Edits the stored log with the store's own import/export (no SQL): export the log,
/// change the first round-2 red win, import it as a new database file in place.
fn tamper_result(db: &Path) -> bool {
    use arbiter_store::{EventStore, SqliteStore};
    let store = SqliteStore::open(db).unwrap();
    let id = store.list_events().unwrap()[0].id.clone();
    let mut doc = store.export(&id).unwrap();
    drop(store);
    let mut changed = false;
    for r in doc.entries.iter_mut() {
        if let arbiter_core::LogEntry::ResultEntered {
            round: 2, result, ..
        } = &mut r.entry
        {
            if *result == arbiter_types::GameResult::RedWin {
                *result = arbiter_types::GameResult::BlackWin;
                changed = true;
                break;
            }
        }
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let store = SqliteStore::open(db).unwrap();
    store.import(&serde_json::to_string(&doc).unwrap()).unwrap();
    changed
}
