//! Kill a writer process with SIGKILL at random (seeded) moments: every acknowledged append
//! must survive, the database must open clean, and appending must continue. Once for SQLite,
//! once for PostgreSQL (see `common`).

use crate::common;

use arbiter_core::EventState;
use arbiter_store::{AnyStore, EventStore};
use common::Backend;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

const WRITER: &str = env!("CARGO_BIN_EXE_arbiter-crash-writer");

fn acknowledged(stdout: &str) -> Vec<u64> {
    // Only complete lines count: a line without its newline was not acknowledged.
    let complete = match stdout.rfind('\n') {
        Some(i) => &stdout[..=i],
        None => "",
    };
    complete
        .lines()
        .map(|l| l.trim().parse::<u64>().expect("writer prints numbers"))
        .collect()
}

/// SQLite's own check of the file; PostgreSQL's server outlives the killed writer, so
/// what it can show is that the log reads back whole (checked below for both).
fn integrity(store: &AnyStore) -> String {
    match store {
        AnyStore::Sqlite(s) => s.integrity_check().unwrap(),
        AnyStore::Postgres(_) => "ok".into(),
    }
}

fn sigkill_never_loses_an_acknowledged_append(b: &impl Backend) {
    let db = b.db();
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_c4a5);
    let mut max_acked = 0u64;
    for iteration in 0..6 {
        let mut child = Command::new(WRITER)
            .arg(&db)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(rng.gen_range(30..300)));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let acked = acknowledged(&out);
        if let Some(&last) = acked.last() {
            max_acked = max_acked.max(last);
        }
        let store = b.open();
        assert_eq!(integrity(&store), "ok", "iteration {iteration}");
        let events = store.list_events().unwrap();
        if events.is_empty() {
            assert!(acked.is_empty());
            continue;
        }
        let log = store.read(&events[0].id).unwrap();
        let seqs: Vec<u64> = log.iter().map(|r| r.seq).collect();
        assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>(), "no gaps");
        for s in &acked {
            assert!(
                seqs.contains(s),
                "iteration {iteration}: acknowledged seq {s} lost"
            );
        }
        assert!(seqs.len() as u64 >= max_acked);
        EventState::replay(&log).unwrap();
    }
    assert!(max_acked > 0, "the writer acknowledged nothing in six runs");
    // Appending continues after the crashes.
    let before = {
        let s = b.open();
        let ev = s.list_events().unwrap()[0].id.clone();
        s.read(&ev).unwrap().len() as u64
    };
    let out = Command::new(WRITER).arg(&db).arg("5").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let acked = acknowledged(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(acked, (before + 1..=before + 5).collect::<Vec<_>>());
    let s = b.open();
    assert_eq!(integrity(&s), "ok");
    let ev = s.list_events().unwrap()[0].id.clone();
    EventState::replay(&s.read(&ev).unwrap()).unwrap();
}

both!(sigkill_never_loses_an_acknowledged_append);
