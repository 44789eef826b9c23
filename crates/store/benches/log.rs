//! Fold and append costs on a realistic log: 160 players, 9 Swiss rounds of 80 boards,
//! every result entered and confirmed (≈ 1,600 entries). SQLite and PostgreSQL (a
//! throw-away cluster, default durability: `fsync=on`, `synchronous_commit=on`; or the server
//! `ARBITER_TEST_PG` names) side by side.

use arbiter_core::*;
use arbiter_store::{EventStore, SqliteStore};
use arbiter_types::GameResult;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn log(players: u32, rounds: u32) -> Vec<LogEntry> {
    let mut v = vec![LogEntry::EventCreated(EventCreated {
        name: "bench".into(),
        regulation: String::new(),
        file_name: "b.toml".into(),
        seed: 1,
        sections: vec![SectionInfo {
            id: "open".into(),
            name: "公开组".into(),
            divisions: Vec::new(),
        }],
        limits: EntryLimits::default(),
    })];
    for i in 1..=players {
        v.push(LogEntry::PlayerRegistered(PlayerRegistered {
            player: PlayerId(i),
            section: "open".into(),
            person: arbiter_types::Person {
                name: format!("棋手{i}"),
                sex: None,
                birth_date: None,
                id_number: None,
                phone: None,
                social_security: None,
                unit: Some(format!("单位{}", i % 20)),
                association: None,
            },
            team: None,
            evidence: vec![],
            local: false,
            rating: None,
            grade: None,
            flags: Vec::new(),
            late_reason: None,
            submission: None,
        }));
    }
    v.push(LogEntry::PairingNumbersDrawn {
        section: "open".into(),
        seed: 1,
        order: (1..=players).map(PlayerId).collect(),
    });
    for r in 1..=rounds {
        let boards: Vec<Board> = (0..players / 2)
            .map(|b| Board {
                board: b + 1,
                red: PlayerId(1 + (b + r) % players),
                black: PlayerId(1 + (b + r + players / 2) % players),
            })
            .collect();
        v.push(LogEntry::RoundPaired {
            section: "open".into(),
            round: r,
            stage: 1,
            boards,
            byes: vec![],
            seed: None,
            manual: vec![],
        });
        for b in 1..=players / 2 {
            v.push(LogEntry::ResultEntered {
                section: "open".into(),
                round: r,
                board: b,
                result: GameResult::ALL[(b % 3) as usize],
                ending: None,
                moves: None,
            });
            v.push(LogEntry::ResultConfirmed {
                section: "open".into(),
                round: r,
                board: b,
                signed_by: vec!["x".into()],
            });
        }
        v.push(LogEntry::RoundCompleted {
            section: "open".into(),
            round: r,
        });
    }
    v
}

fn recorded(entries: &[LogEntry]) -> Vec<Recorded> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| Recorded {
            seq: i as u64 + 1,
            at: "2026-09-20T08:30:00+08:00".into(),
            actor: "b".into(),
            entry: e.clone(),
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let entries = log(160, 9);
    let rec = recorded(&entries);
    c.bench_function(&format!("replay {} entries", rec.len()), |b| {
        b.iter(|| EventState::replay(&rec).map(|s| s.last_seq))
    });

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let store = SqliteStore::open(dir.path().join("bench.db")).unwrap_or_else(|e| panic!("{e}"));
    let ev = store
        .create_event("bench")
        .unwrap_or_else(|e| panic!("{e}"));
    store
        .append_recorded(&ev, 0, &rec)
        .unwrap_or_else(|e| panic!("{e}"));
    c.bench_function(&format!("read {} entries from SQLite", rec.len()), |b| {
        b.iter(|| store.read(&ev).map(|l| l.len()))
    });
    c.bench_function(
        &format!("SQLite: read + replay {} entries", rec.len()),
        |b| b.iter(|| store.state(&ev).map(|s| black_box(s).last_seq)),
    );

    let mut seq = rec.len() as u64;
    let fee = LogEntry::FeePaid {
        player: PlayerId(1),
        amount_fen: 1,
        receipt: None,
        item: None,
    };
    c.bench_function("append 1 entry (WAL, synchronous=FULL)", |b| {
        b.iter(|| {
            seq = store
                .append(
                    &ev,
                    seq,
                    std::slice::from_ref(&fee),
                    "b",
                    "2026-09-20T08:30:00+08:00",
                )
                .unwrap_or(seq);
        })
    });
    // Without fsync the cost of the append path itself shows: seq check, validation
    // against the folded state, insert.
    let mem = SqliteStore::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
    let mev = mem.create_event("bench").unwrap_or_else(|e| panic!("{e}"));
    mem.append_recorded(&mev, 0, &rec)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut mseq = rec.len() as u64;
    c.bench_function("append 1 entry (in-memory database, no fsync)", |b| {
        b.iter(|| {
            mseq = mem
                .append(
                    &mev,
                    mseq,
                    std::slice::from_ref(&fee),
                    "b",
                    "2026-09-20T08:30:00+08:00",
                )
                .unwrap_or(mseq);
        })
    });
    c.bench_function(
        "append_checked 1 entry (read + fold + validate + append)",
        |b| {
            b.iter(|| {
                store
                    .append_checked(
                        &ev,
                        std::slice::from_ref(&fee),
                        "b",
                        "2026-09-20T08:30:00+08:00",
                    )
                    .map(|s| s.last_seq)
            })
        },
    );
}

/// The same read, replay and append measurements on PostgreSQL.
fn postgres(c: &mut Criterion) {
    let db = match arbiter_store::pgtest::try_test_db() {
        Ok(db) => db,
        Err(e) => {
            eprintln!("PostgreSQL benchmarks skipped: {e}");
            return;
        }
    };
    let rec = recorded(&log(160, 9));
    let store = arbiter_store::PgStore::connect(&db.url).unwrap_or_else(|e| panic!("{e}"));
    let ev = store
        .create_with_log("bench", &rec)
        .unwrap_or_else(|e| panic!("{e}"));
    c.bench_function(
        &format!("read {} entries from PostgreSQL", rec.len()),
        |b| b.iter(|| store.read(&ev).map(|l| l.len())),
    );
    c.bench_function(
        &format!("PostgreSQL: read + replay {} entries", rec.len()),
        |b| b.iter(|| store.state(&ev).map(|s| black_box(s).last_seq)),
    );
    let mut seq = rec.len() as u64;
    let fee = LogEntry::FeePaid {
        player: PlayerId(1),
        amount_fen: 1,
        receipt: None,
        item: None,
    };
    c.bench_function("PostgreSQL: append 1 entry (fsync on)", |b| {
        b.iter(|| {
            seq = store
                .append(
                    &ev,
                    seq,
                    std::slice::from_ref(&fee),
                    "b",
                    "2026-09-20T08:30:00+08:00",
                )
                .unwrap_or(seq);
        })
    });
    c.bench_function(
        "PostgreSQL: read_after the last seq (a server's refresh)",
        |b| b.iter(|| store.read_after(&ev, seq).map(|l| l.len())),
    );
    drop(store);
    drop(db);
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20);
    targets = benches, postgres
}
criterion_main!(group);
