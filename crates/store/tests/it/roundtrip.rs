//! Property: any sequence of valid log entries → SQLite → export → import into a fresh
//! database gives identical entries and an identical state.

use arbiter_core::*;
use arbiter_store::*;
use arbiter_types::{id_number::id_check_char, GameKind, GameResult, IdNumber, Phone, Sex};
use proptest::prelude::*;

const SECTIONS: [&str; 2] = ["open", "local"];

fn id_number(n: u32) -> IdNumber {
    let body = format!(
        "320583{}{:02}{:02}{:03}",
        1950 + n % 60,
        1 + n % 12,
        1 + n % 28,
        n % 1000
    );
    let c = id_check_char(&body).unwrap();
    format!("{body}{c}").parse().unwrap()
}

/// Turn an abstract operation into a candidate entry for the current state (may be invalid;
/// the caller keeps only entries that validate).
fn candidate(s: &EventState, op: u8, x: u32, y: u32) -> Option<LogEntry> {
    let sec = SECTIONS[(x % 2) as usize].to_string();
    let players: Vec<PlayerId> = s.players.keys().copied().collect();
    let pick = |v: &[PlayerId], k: u32| (!v.is_empty()).then(|| v[(k as usize) % v.len()]);
    let section = s.section(&sec)?;
    let last = section.last_round();
    let some_board = || {
        let r = section.round(last)?;
        (!r.boards.is_empty()).then(|| r.boards[(y as usize) % r.boards.len()].board)
    };
    Some(match op % 14 {
        0 | 1 => LogEntry::PlayerRegistered(PlayerRegistered {
            player: s.next_player_id(),
            section: sec,
            person: arbiter_types::Person {
                name: format!("棋手{y}"),
                sex: [None, Some(Sex::Male), Some(Sex::Female)][(y % 3) as usize],
                birth_date: None,
                id_number: y.is_multiple_of(2).then(|| id_number(y)),
                phone: y
                    .is_multiple_of(3)
                    .then(|| Phone::parse(&format!("139{:08}", y % 100_000_000)).unwrap()),
                social_security: y.is_multiple_of(5).then(|| {
                    arbiter_types::SocialSecurityNo::parse(&format!("3205{y:06}")).unwrap()
                }),
                unit: x.is_multiple_of(3).then(|| format!("单位{}", y % 4)),
                association: None,
            },
            team: x.is_multiple_of(5).then(|| format!("队{}", y % 3)),
            evidence: if y.is_multiple_of(4) {
                vec!["社保证明".into()]
            } else {
                vec![]
            },
            local: x % 2 == 1,
            rating: y.is_multiple_of(7).then_some(1500 + y % 500),
            grade: None,
            flags: Vec::new(),
            late_reason: None,
            submission: None,
        }),
        2 => {
            let mut order: Vec<PlayerId> = section.order.clone();
            let mut rest: Vec<PlayerId> = section
                .entries
                .iter()
                .filter(|p| !order.contains(p))
                .copied()
                .collect();
            if !rest.is_empty() {
                let k = (y as usize) % rest.len();
                rest.rotate_left(k);
            }
            order.extend(rest);
            LogEntry::PairingNumbersDrawn {
                section: sec,
                seed: u64::from(y),
                order,
            }
        }
        3 => {
            let mut ps: Vec<PlayerId> = section
                .order
                .iter()
                .copied()
                .filter(|p| s.status(*p) != Some(PlayerStatus::Withdrawn))
                .collect();
            if !ps.is_empty() {
                let k = (y as usize) % ps.len();
                ps.rotate_left(k);
            }
            let byes = if ps.len() % 2 == 1 {
                ps.pop().into_iter().collect()
            } else {
                vec![]
            };
            let boards = ps
                .chunks(2)
                .enumerate()
                .map(|(i, c)| Board {
                    board: i as u32 + 1,
                    red: c[0],
                    black: c[1],
                })
                .collect();
            let round = if last > 0 && !section.rounds[&last].completed {
                last
            } else {
                last + 1
            };
            LogEntry::RoundPaired {
                section: sec,
                round,
                stage: 1,
                boards,
                byes,
                seed: Some(u64::from(x)),
                manual: vec![],
            }
        }
        4 | 5 => LogEntry::ResultEntered {
            section: sec,
            round: last,
            board: some_board()?,
            result: GameResult::ALL[(y % 6) as usize],
            ending: [
                None,
                Some(Ending::Checkmate),
                Some(Ending::Stalemate),
                Some(Ending::AgreedDraw),
            ][(y % 4) as usize],
            moves: y.is_multiple_of(2).then_some(y % 120),
        },
        6 => LogEntry::ResultConfirmed {
            section: sec,
            round: last,
            board: some_board()?,
            signed_by: vec!["甲".into()],
        },
        7 => LogEntry::ResultCorrected {
            section: sec,
            round: last,
            board: some_board()?,
            result: GameResult::ALL[(y % 6) as usize],
            reason: "记录错误".into(),
            by: "裁判长".into(),
        },
        8 => LogEntry::RoundCompleted {
            section: sec,
            round: last,
        },
        9 => LogEntry::PlayerWithdrawn {
            player: pick(&players, y)?,
            reason: "因故退赛".into(),
            after_round: Some(last),
            by_forfeits: false,
        },
        10 => LogEntry::FoulRecorded {
            section: s.player(pick(&players, y)?)?.section.clone(),
            offender: Offender::Player(pick(&players, y)?),
            round: None,
            reason: "使用手机".into(),
            board: None,
            kind: if y.is_multiple_of(2) {
                arbiter_core::FoulKind::Phone
            } else {
                arbiter_core::FoulKind::General
            },
        },
        11 => match y % 3 {
            0 => LogEntry::PlayerCorrected {
                player: pick(&players, x)?,
                changes: vec![
                    FieldChange::Name(format!("更正{y}")),
                    FieldChange::Phone(None),
                ],
                reason: "笔误".into(),
            },
            1 => LogEntry::FeePaid {
                player: pick(&players, x)?,
                amount_fen: 10_000,
                receipt: None,
                item: None,
            },
            _ => LogEntry::CheckedIn {
                player: pick(&players, x)?,
                pledge: y % 4 == 2,
            },
        },
        12 => match y % 2 {
            0 => LogEntry::EntryRefused {
                name: format!("超龄{y}"),
                section: sec,
                reason: "年龄不符".into(),
                id_number: Some(id_number(y)),
                unit: None,
                facts: None,
            },
            _ => LogEntry::TeamEntered {
                team: format!("队{x}"),
                unit: "单位".into(),
                division: None,
                members: players
                    .iter()
                    .copied()
                    .filter(|p| p.0 % 2 == x % 2)
                    .take(4)
                    .collect(),
                leader: Some("领队".into()),
                coach: None,
            },
        },
        _ => {
            let ps = section.entries.clone();
            LogEntry::KnockoutGameRecorded {
                section: sec,
                match_id: format!("QF{}", y % 4),
                game: 1 + y % 3,
                kind: [GameKind::Slow, GameKind::Rapid, GameKind::Armageddon][(y % 3) as usize],
                red: pick(&ps, y)?,
                black: pick(&ps, y + 1)?,
                result: GameResult::ALL[(x % 6) as usize],
                fouls: Vec::new(),
            }
        }
    })
}

fn build(ops: &[(u8, u32, u32)]) -> Vec<Recorded> {
    let mut state = EventState::new();
    let mut log = Vec::new();
    let mut push = |state: &mut EventState, e: LogEntry| {
        let seq = state.last_seq + 1;
        let r = Recorded {
            seq,
            at: format!("2026-09-20T08:{:02}:00+08:00", seq % 60),
            actor: format!("裁判{}", seq % 3),
            entry: e,
        };
        if state.apply(&r).is_ok() {
            log.push(r);
        }
    };
    push(
        &mut state,
        LogEntry::EventCreated(EventCreated {
            name: "天水公开赛".into(),
            regulation: "[event]\nname = \"天水公开赛\"\n".into(),
            file_name: "tianshui.toml".into(),
            seed: 42,
            sections: SECTIONS
                .iter()
                .map(|s| SectionInfo {
                    id: s.to_string(),
                    name: format!("{s}组"),
                    divisions: Vec::new(),
                })
                .collect(),
            limits: EntryLimits {
                fee_fen: Some(10_000),
                ..Default::default()
            },
        }),
    );
    for &(op, x, y) in ops {
        if let Some(e) = candidate(&state, op, x, y) {
            push(&mut state, e);
        }
    }
    log
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn export_import_gives_identical_state(ops in proptest::collection::vec((0u8..14, 0u32..1000, 0u32..1000), 0..120), chunk in 1usize..8) {
        let log = build(&ops);
        let expected = EventState::replay(&log).unwrap();
        let a = SqliteStore::open_in_memory().unwrap();
        let ev = a.create_event("tmp").unwrap();
        let mut seq = 0;
        for c in log.chunks(chunk) {
            seq = a.append_recorded(&ev, seq, c).unwrap();
        }
        let json = serde_json::to_string(&a.export(&ev).unwrap()).unwrap();
        let b = SqliteStore::open_in_memory().unwrap();
        b.create_event("occupies the first id").unwrap();
        let ev2 = b.import(&json).unwrap();
        prop_assert_ne!(&ev2, &ev);
        prop_assert_eq!(b.read(&ev2).unwrap(), log);
        prop_assert_eq!(b.state(&ev2).unwrap(), expected);
        prop_assert_eq!(&b.list_events().unwrap()[1].name, "天水公开赛");
    }
}

#[test]
fn generator_reaches_results_and_corrections() {
    // Guard against a generator that only ever produces registrations.
    let mut x: u64 = 99;
    let ops: Vec<(u8, u32, u32)> = (0..600)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let h = x >> 33;
            (
                (h % 14) as u8,
                ((h >> 4) % 1000) as u32,
                ((h >> 14) % 1000) as u32,
            )
        })
        .collect();
    let log = build(&ops);
    let completed = log
        .iter()
        .filter(|r| r.entry.kind() == "round_completed")
        .count();
    assert!(
        completed >= 2,
        "only {completed} rounds completed in {} entries",
        log.len()
    );
    let kinds: std::collections::BTreeSet<&str> = log.iter().map(|r| r.entry.kind()).collect();
    for k in [
        "player_registered",
        "pairing_numbers_drawn",
        "round_paired",
        "result_entered",
        "result_confirmed",
        "result_corrected",
        "round_completed",
        "player_withdrawn",
        "foul_recorded",
    ] {
        assert!(kinds.contains(k), "{k} missing from {kinds:?}");
    }
}

/// The database of the SQLite ⇄ PostgreSQL property, shared by its cases.
fn pg() -> &'static str {
    static DB: std::sync::OnceLock<arbiter_store::pgtest::TestDb> = std::sync::OnceLock::new();
    &DB.get_or_init(arbiter_store::pgtest::test_db).url
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// SQLite → export → import into PostgreSQL → export → import into a new SQLite →
    /// export: the first and last documents are byte-identical, and PostgreSQL's differs
    /// only in its event id.
    #[test]
    fn sqlite_to_postgres_and_back_is_lossless(ops in proptest::collection::vec((0u8..14, 0u32..1000, 0u32..1000), 0..120)) {
        let log = build(&ops);
        let dir = tempfile::tempdir().unwrap();
        let a = open(dir.path().join("a.db").to_str().unwrap()).unwrap();
        let ev = a.create_with_log("tmp", &log).unwrap();
        let first = serde_json::to_string_pretty(&a.export(&ev).unwrap()).unwrap();
        let p = open(pg()).unwrap();
        prop_assert_eq!(p.backend(), "postgres");
        let pev = p.import(&first).unwrap();
        prop_assert_eq!(p.read(&pev).unwrap(), log.clone());
        let mut doc = p.export(&pev).unwrap();
        let via_pg = serde_json::to_string_pretty(&doc).unwrap();
        doc.event = ev.clone();
        prop_assert_eq!(serde_json::to_string_pretty(&doc).unwrap(), first.clone());
        let c = open(dir.path().join("c.db").to_str().unwrap()).unwrap();
        let cev = c.import(&via_pg).unwrap();
        prop_assert_eq!(&cev, &ev);
        let last = serde_json::to_string_pretty(&c.export(&cev).unwrap()).unwrap();
        prop_assert_eq!(last, first);
    }
}

/// The events list shows the name as last set by the settings (赛事设置), on both stores:
/// this edition's name, not the regulation's (issue 45 item 13), also through an import.
#[test]
fn the_events_list_shows_the_name_last_set() {
    let mut log = build(&[]);
    let settings = |name: Option<&str>, venue: Option<&str>| LogEntry::SettingsChanged {
        name: name.map(str::to_string),
        start: None,
        end: None,
        venue: venue.map(str::to_string),
        deadline: None,
        age_on: None,
        rounds: Default::default(),
        time_controls: Default::default(),
        placed_units: Default::default(),
        reason: String::new(),
    };
    for e in [
        settings(Some("2026年天水公开赛"), None),
        settings(None, Some("文化宫")),
    ] {
        let seq = log.len() as u64 + 1;
        log.push(Recorded {
            seq,
            at: "2026-09-20T09:00:00+08:00".into(),
            actor: "裁判长".into(),
            entry: e,
        });
    }
    let dir = tempfile::tempdir().unwrap();
    for url in [
        dir.path().join("a.db").to_str().unwrap().to_string(),
        pg().to_string(),
    ] {
        let s = open(&url).unwrap();
        let ev = s.create_with_log("天水公开赛", &log).unwrap();
        let listed = s.list_events().unwrap();
        let me = listed.iter().find(|e| e.id == ev).expect("listed");
        assert_eq!(me.name, "2026年天水公开赛", "{}", s.backend());
    }
}
