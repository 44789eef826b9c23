//! The store's behaviour, once for SQLite and once for PostgreSQL (see `common`).

use crate::common;

use arbiter_core::*;
use arbiter_store::*;
use arbiter_types::GameResult;
use common::Backend;

const AT: &str = "2026-09-20T08:30:00+08:00";

fn created() -> LogEntry {
    LogEntry::EventCreated(EventCreated {
        name: "昆山职工赛".into(),
        regulation: "[event]\n".into(),
        file_name: "k.toml".into(),
        seed: 1,
        sections: vec![SectionInfo {
            id: "men".into(),
            name: "男子个人赛".into(),
            divisions: Vec::new(),
        }],
        limits: EntryLimits::default(),
    })
}

fn reg(id: u32) -> LogEntry {
    LogEntry::PlayerRegistered(PlayerRegistered {
        player: PlayerId(id),
        section: "men".into(),
        person: arbiter_types::Person {
            name: format!("棋手{id}"),
            sex: None,
            birth_date: None,
            id_number: Some("11010519491231002X".parse().unwrap()).filter(|_| id == 1),
            phone: Some("13812345678".parse().unwrap()),
            social_security: None,
            unit: None,
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
    })
}

fn second_append_with_same_expected_seq_conflicts(b: &impl Backend) {
    let s = b.open();
    let ev = s.create_event("x").unwrap();
    assert_eq!(s.append(&ev, 0, &[created()], "a", AT).unwrap(), 1);
    assert_eq!(s.append(&ev, 1, &[reg(1)], "a", AT).unwrap(), 2);
    match s.append(&ev, 1, &[reg(2)], "b", AT) {
        Err(StoreError::Conflict {
            expected: 1,
            actual: 2,
        }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(s.read(&ev).unwrap().len(), 2);
    assert_eq!(
        s.list_events().unwrap(),
        vec![EventSummary {
            id: ev.clone(),
            name: "昆山职工赛".into()
        }]
    );
}

fn two_connections_racing_cannot_both_append_the_same_seq(b: &impl Backend) {
    let a = b.open();
    let ev = a.create_event("x").unwrap();
    a.append(&ev, 0, &[created()], "a", AT).unwrap();
    let handles: Vec<_> = (0..2)
        .map(|i| {
            let db = b.db();
            let ev = ev.clone();
            std::thread::spawn(move || {
                let s = arbiter_store::open(&db).unwrap();
                s.append(&ev, 1, &[reg(i + 1)], "w", AT).is_ok()
            })
        })
        .collect();
    let ok: usize = handles
        .into_iter()
        .map(|h| usize::from(h.join().unwrap()))
        .sum();
    assert_eq!(ok, 1, "exactly one writer wins");
    assert_eq!(a.read(&ev).unwrap().len(), 2);
}

fn append_checked_refuses_invalid_entries(b: &impl Backend) {
    let s = b.open();
    let ev = s.create_event("x").unwrap();
    s.append_checked(&ev, &[created(), reg(1)], "a", AT)
        .unwrap();
    let bad = LogEntry::ResultEntered {
        section: "men".into(),
        round: 1,
        board: 1,
        result: GameResult::Draw,
        ending: None,
        moves: None,
    };
    let e = s.append_checked(&ev, &[bad], "a", AT).unwrap_err();
    assert!(e.to_string().contains("第 1 轮不存在"), "{e}");
    assert_eq!(s.read(&ev).unwrap().len(), 2);
}

fn export_import_round_trip_and_bad_documents(b: &impl Backend) {
    let s = b.open();
    let ev = s.create_event("x").unwrap();
    s.append_checked(&ev, &[created(), reg(1), reg(2)], "a", AT)
        .unwrap();
    let doc = s.export(&ev).unwrap();
    assert_eq!(doc.format, "arbiter-log/1");
    let json = serde_json::to_string_pretty(&doc).unwrap();
    let other = b.another();
    let t = other.open();
    let ev2 = t.import(&json).unwrap();
    assert_eq!(t.read(&ev2).unwrap(), s.read(&ev).unwrap());
    assert_eq!(t.state(&ev2).unwrap(), s.state(&ev).unwrap());

    // Garbage: line and column named.
    let e = t
        .import("{\n  \"format\": \"arbiter-log/1\",\n  oops\n}")
        .unwrap_err()
        .to_string();
    assert!(e.contains("第3行第3列"), "{e}");
    let e = t
        .import(&json.replace("arbiter-log/1", "arbiter-log/9"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("arbiter-log/9"), "{e}");
    // A log that does not fold (the second registration reuses id 1) is refused.
    let mut bad = doc.clone();
    if let LogEntry::PlayerRegistered(r) = &mut bad.entries[2].entry {
        r.player = PlayerId(1);
    }
    let e = t
        .import(&serde_json::to_string(&bad).unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("第 3 条日志"), "{e}");
    assert_eq!(t.list_events().unwrap().len(), 1, "nothing imported");
    // An entry that does not decode names its index.
    let e = t
        .import(&json.replacen("player_registered", "player_teleported", 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("entries[1]"), "{e}");
}

fn unknown_event_is_an_error(b: &impl Backend) {
    let s = b.open();
    assert!(matches!(
        s.read(&EventId("ev-00000009".into())),
        Err(StoreError::UnknownEvent(_))
    ));
    assert!(matches!(
        s.read(&EventId("nonsense".into())),
        Err(StoreError::UnknownEvent(_))
    ));
}

fn create_checked_is_all_or_nothing(b: &impl Backend) {
    let s = b.open();
    // A registration before event_created does not fold: no event is created.
    assert!(s
        .create_checked("x", &[reg(1), created()], "a", AT)
        .is_err());
    assert!(s.list_events().unwrap().is_empty());
    let ev = s
        .create_checked("x", &[created(), reg(1)], "a", AT)
        .unwrap();
    assert_eq!(s.read(&ev).unwrap().len(), 2);
    assert_eq!(s.list_events().unwrap()[0].name, "昆山职工赛");
}

fn paired_round() -> Vec<LogEntry> {
    vec![
        LogEntry::PairingNumbersDrawn {
            section: "men".into(),
            seed: 1,
            order: vec![PlayerId(1), PlayerId(2)],
        },
        LogEntry::RoundPaired {
            section: "men".into(),
            round: 1,
            stage: 1,
            boards: vec![Board {
                board: 1,
                red: PlayerId(1),
                black: PlayerId(2),
            }],
            byes: vec![],
            seed: None,
            manual: vec![],
        },
    ]
}

fn result(r: GameResult) -> LogEntry {
    LogEntry::ResultEntered {
        section: "men".into(),
        round: 1,
        board: 1,
        result: r,
        ending: None,
        moves: None,
    }
}

fn confirmed() -> LogEntry {
    LogEntry::ResultConfirmed {
        section: "men".into(),
        round: 1,
        board: 1,
        signed_by: vec!["裁判长".into()],
    }
}

fn append_refuses_a_result_after_confirmation_and_leaves_the_log_unchanged(b: &impl Backend) {
    let s = b.open();
    let ev = s.create_event("x").unwrap();
    let mut seq = s
        .append(&ev, 0, &[created(), reg(1), reg(2)], "a", AT)
        .unwrap();
    seq = s.append(&ev, seq, &paired_round(), "a", AT).unwrap();
    seq = s
        .append(
            &ev,
            seq,
            &[result(GameResult::RedWin), confirmed()],
            "a",
            AT,
        )
        .unwrap();
    assert_eq!(seq, 7);
    let before = s.read(&ev).unwrap();

    let err = s
        .append(&ev, seq, &[result(GameResult::BlackWin)], "a", AT)
        .unwrap_err();
    match &err {
        StoreError::Refused {
            event,
            seq: 8,
            kind,
            rejection: Rejection::ResultConfirmed { round: 1, board: 1 },
        } if event == &ev.0 && *kind == "result_entered" => {}
        other => panic!("{other:?}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains("第 8 条日志")
            && msg.contains("已签字确认")
            && msg.contains("日志未改动")
            && msg.contains("nothing was appended"),
        "{msg}"
    );
    assert_eq!(s.read(&ev).unwrap(), before, "log unchanged");
    assert_eq!(EventState::replay(&before).unwrap().last_seq, 7);

    // The raw path refuses it too, and the refusal does not poison the cached state: the
    // same expected seq still takes a valid entry.
    let bad = Recorded {
        seq: 8,
        at: AT.into(),
        actor: "a".into(),
        entry: result(GameResult::Draw),
    };
    assert!(matches!(
        s.append_recorded(&ev, 7, &[bad]),
        Err(StoreError::Refused { seq: 8, .. })
    ));
    assert_eq!(s.read(&ev).unwrap(), before);
    assert_eq!(s.append(&ev, 7, &[reg(3)], "a", AT).unwrap(), 8);
    assert_eq!(
        s.state(&ev).unwrap(),
        EventState::replay(&s.read(&ev).unwrap()).unwrap()
    );
}

fn a_batch_with_one_bad_entry_writes_nothing(b: &impl Backend) {
    let s = b.open();
    let ev = s.create_event("x").unwrap();
    s.append(&ev, 0, &[created(), reg(1)], "a", AT).unwrap();
    // Two good registrations, then one reusing id 1: the whole batch is refused.
    let e = s
        .append(&ev, 2, &[reg(2), reg(3), reg(1)], "a", AT)
        .unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::Refused {
                seq: 5,
                rejection: Rejection::PlayerExists(PlayerId(1)),
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(s.read(&ev).unwrap().len(), 2);
    // A bad time is refused like a bad entry.
    let e = s.append(&ev, 2, &[reg(2)], "a", "yesterday").unwrap_err();
    assert!(e.to_string().contains("RFC 3339"), "{e}");
    assert_eq!(s.read(&ev).unwrap().len(), 2);
    assert_eq!(s.append(&ev, 2, &[reg(2), reg(3)], "a", AT).unwrap(), 4);
    assert_eq!(s.state(&ev).unwrap().players.len(), 3);
}

fn validation_sees_appends_made_through_another_connection(b: &impl Backend) {
    let a = b.open();
    let ev = a.create_event("x").unwrap();
    a.append(&ev, 0, &[created(), reg(1)], "a", AT).unwrap();
    let b = b.open();
    b.append(&ev, 2, &[reg(2)], "b", AT).unwrap();
    // `a` folded the log at seq 2; it must fold again and see player 2.
    let e = a.append(&ev, 3, &[reg(2)], "a", AT).unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::Refused {
                rejection: Rejection::PlayerExists(PlayerId(2)),
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(a.append(&ev, 3, &[reg(3)], "a", AT).unwrap(), 4);
    assert_eq!(b.state(&ev).unwrap().players.len(), 3);
}

fn create_with_log_refuses_a_log_that_does_not_fold(b: &impl Backend) {
    let s = b.open();
    let records: Vec<Recorded> = [created(), reg(1), reg(1)]
        .into_iter()
        .enumerate()
        .map(|(i, entry)| Recorded {
            seq: i as u64 + 1,
            at: AT.into(),
            actor: "a".into(),
            entry,
        })
        .collect();
    let e = s.create_with_log("x", &records).unwrap_err();
    assert!(
        matches!(e, StoreError::Fold(FoldError::Rejected { seq: 3, .. })),
        "{e:?}"
    );
    assert!(s.list_events().unwrap().is_empty(), "nothing created");
    let ev = s.create_with_log("x", &records[..2]).unwrap();
    assert_eq!(s.read(&ev).unwrap(), records[..2]);
}

fn last_seq_and_read_after_see_only_the_new_entries(b: &impl Backend) {
    let st = b.open();
    let ev = st.create_event("x").unwrap();
    assert_eq!(st.last_seq(&ev).unwrap(), 0);
    st.append(&ev, 0, &[created(), reg(1), reg(2)], "t", AT)
        .unwrap();
    assert_eq!(st.last_seq(&ev).unwrap(), 3);
    let after = st.read_after(&ev, 1).unwrap();
    assert_eq!(after.iter().map(|r| r.seq).collect::<Vec<_>>(), vec![2, 3]);
    assert_eq!(after, st.read(&ev).unwrap()[1..].to_vec());
    assert!(st.read_after(&ev, 3).unwrap().is_empty());
    // An unknown event is named, not read as an empty log.
    assert!(matches!(
        st.last_seq(&EventId("ev-000000ff".into())),
        Err(StoreError::UnknownEvent(_))
    ));
}

fn many_writers_with_retries_all_land_without_gaps(b: &impl Backend) {
    let a = b.open();
    let ev = a.create_event("x").unwrap();
    a.append(&ev, 0, &[created()], "a", AT).unwrap();
    const WRITERS: u32 = 4;
    const EACH: u32 = 15;
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(WRITERS as usize));
    let handles: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (db, ev, barrier) = (b.db(), ev.clone(), barrier.clone());
            std::thread::spawn(move || {
                let s = arbiter_store::open(&db).unwrap();
                barrier.wait();
                let mut conflicts = 0u32;
                for k in 0..EACH {
                    let id = 1 + w * EACH + k;
                    loop {
                        let seen = s.last_seq(&ev).unwrap();
                        match s.append(&ev, seen, &[reg(id)], "w", AT) {
                            Ok(_) => break,
                            Err(StoreError::Conflict { .. }) => conflicts += 1,
                            Err(e) => panic!("writer {w}: {e}"),
                        }
                    }
                }
                conflicts
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let log = a.read(&ev).unwrap();
    let seqs: Vec<u64> = log.iter().map(|r| r.seq).collect();
    let n = 1 + u64::from(WRITERS * EACH);
    assert_eq!(seqs, (1..=n).collect::<Vec<_>>(), "every append, no gaps");
    let state = EventState::replay(&log).unwrap();
    assert_eq!(state.players.len(), (WRITERS * EACH) as usize);
    assert_eq!(a.state(&ev).unwrap(), state);
}

fn schema_is_migrated_once_and_reopening_keeps_the_data(b: &impl Backend) {
    let s = b.open();
    let ev = s
        .create_checked("x", &[created(), reg(1)], "a", AT)
        .unwrap();
    drop(s);
    let s = b.open();
    assert_eq!(s.schema_version().unwrap(), SqliteStore::SCHEMA_VERSION);
    assert_eq!(PgStore::SCHEMA_VERSION, SqliteStore::SCHEMA_VERSION);
    assert_eq!(s.read(&ev).unwrap().len(), 2);
}

both!(
    second_append_with_same_expected_seq_conflicts,
    two_connections_racing_cannot_both_append_the_same_seq,
    append_checked_refuses_invalid_entries,
    export_import_round_trip_and_bad_documents,
    unknown_event_is_an_error,
    create_checked_is_all_or_nothing,
    append_refuses_a_result_after_confirmation_and_leaves_the_log_unchanged,
    a_batch_with_one_bad_entry_writes_nothing,
    validation_sees_appends_made_through_another_connection,
    create_with_log_refuses_a_log_that_does_not_fold,
    last_seq_and_read_after_see_only_the_new_entries,
    many_writers_with_retries_all_land_without_gaps,
    schema_is_migrated_once_and_reopening_keeps_the_data,
);
