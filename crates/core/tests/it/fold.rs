use arbiter_core::*;
use arbiter_types::{Colour, GameResult, IdNumber, Outcome, PlayerNo, PlayerResult};

fn rec(seq: u64, entry: LogEntry) -> Recorded {
    Recorded {
        seq,
        at: "2026-09-20T08:30:00+08:00".into(),
        actor: "test".into(),
        entry,
    }
}

fn created(limits: EntryLimits) -> LogEntry {
    LogEntry::EventCreated(EventCreated {
        name: "测试赛".into(),
        regulation: "[event]\nname = \"测试赛\"\n".into(),
        file_name: "test.toml".into(),
        seed: 7,
        sections: vec![
            SectionInfo {
                id: "men".into(),
                name: "男子个人赛".into(),
                divisions: Vec::new(),
            },
            SectionInfo {
                id: "women".into(),
                name: "女子个人赛".into(),
                divisions: Vec::new(),
            },
        ],
        limits,
    })
}

fn reg(id: u32, section: &str, name: &str) -> LogEntry {
    LogEntry::PlayerRegistered(PlayerRegistered {
        player: PlayerId(id),
        section: section.into(),
        person: arbiter_types::Person {
            name: name.into(),
            sex: None,
            birth_date: None,
            id_number: None,
            phone: None,
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

/// Appends entries one by one, asserting each is accepted.
struct Log {
    state: EventState,
    log: Vec<Recorded>,
}

impl Log {
    fn new() -> Self {
        Log {
            state: EventState::new(),
            log: vec![],
        }
    }
    fn push(&mut self, e: LogEntry) -> Result<(), FoldError> {
        let r = rec(self.state.last_seq + 1, e);
        self.state.apply(&r)?;
        self.log.push(r);
        Ok(())
    }
}

fn four_players() -> Log {
    let mut l = Log::new();
    l.push(created(EntryLimits::default())).unwrap();
    for (i, n) in ["甲", "乙", "丙", "丁"].iter().enumerate() {
        l.push(reg(i as u32 + 1, "men", n)).unwrap();
    }
    l.push(LogEntry::PairingNumbersDrawn {
        section: "men".into(),
        seed: 1,
        order: vec![PlayerId(3), PlayerId(1), PlayerId(4), PlayerId(2)],
    })
    .unwrap();
    l.push(LogEntry::RoundPaired {
        section: "men".into(),
        round: 1,
        stage: 1,
        boards: vec![
            Board {
                board: 1,
                red: PlayerId(3),
                black: PlayerId(4),
            },
            Board {
                board: 2,
                red: PlayerId(2),
                black: PlayerId(1),
            },
        ],
        byes: vec![],
        seed: None,
        manual: vec![],
    })
    .unwrap();
    l
}

fn result(round: u32, board: u32, r: GameResult) -> LogEntry {
    LogEntry::ResultEntered {
        section: "men".into(),
        round,
        board,
        result: r,
        ending: None,
        moves: None,
    }
}

#[test]
fn outcomes_follow_results_and_pairing_numbers() {
    let mut l = four_players();
    l.push(result(1, 1, GameResult::RedWin)).unwrap();
    l.push(result(1, 2, GameResult::BlackForfeit)).unwrap();
    assert!(
        l.state.outcomes(PlayerId(3)).is_empty(),
        "round not completed yet"
    );
    l.push(LogEntry::RoundCompleted {
        section: "men".into(),
        round: 1,
    })
    .unwrap();
    let no = |n| PlayerNo::new(n).unwrap();
    // Player 3 has number 1, player 4 number 3.
    assert_eq!(
        l.state.outcomes(PlayerId(3)),
        vec![Outcome::Game {
            opponent: no(3),
            colour: Colour::Red,
            result: PlayerResult::Win
        }]
    );
    assert_eq!(
        l.state.outcomes(PlayerId(1)),
        vec![Outcome::ForfeitLoss {
            opponent: no(4),
            colour: Colour::Black
        }]
    );
    let names: Vec<_> = l
        .state
        .players("men")
        .iter()
        .map(|p| p.person.name.clone())
        .collect();
    assert_eq!(names, ["丙", "甲", "丁", "乙"]);
}

#[test]
fn confirmed_result_changes_only_by_correction_with_reason() {
    let mut l = four_players();
    l.push(result(1, 1, GameResult::RedWin)).unwrap();
    l.push(result(1, 1, GameResult::Draw)).unwrap(); // unconfirmed: may be re-entered
    l.push(LogEntry::ResultConfirmed {
        section: "men".into(),
        round: 1,
        board: 1,
        signed_by: vec!["丙".into(), "丁".into()],
    })
    .unwrap();
    let err = l.push(result(1, 1, GameResult::BlackWin)).unwrap_err();
    assert!(
        matches!(
            err,
            FoldError::Rejected {
                rejection: Rejection::ResultConfirmed { round: 1, board: 1 },
                ..
            }
        ),
        "{err}"
    );
    let no_reason = LogEntry::ResultCorrected {
        section: "men".into(),
        round: 1,
        board: 1,
        result: GameResult::BlackWin,
        reason: " ".into(),
        by: "裁判长".into(),
    };
    assert!(matches!(
        l.push(no_reason).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::CorrectionWithoutReason,
            ..
        }
    ));
    l.push(LogEntry::ResultCorrected {
        section: "men".into(),
        round: 1,
        board: 1,
        result: GameResult::BlackWin,
        reason: "记录台号错误".into(),
        by: "裁判长".into(),
    })
    .unwrap();
    let b = l
        .state
        .section("men")
        .unwrap()
        .round(1)
        .unwrap()
        .board(1)
        .unwrap();
    assert_eq!(b.result, Some(GameResult::BlackWin));
    assert!(b.corrected && b.confirmed);
    assert_eq!(b.history.len(), 4);
}

#[test]
fn a_finished_round_takes_a_replacement_until_the_next_round_is_paired() {
    let mut l = four_players();
    l.push(result(1, 1, GameResult::RedWin)).unwrap();
    l.push(result(1, 2, GameResult::Draw)).unwrap();
    l.push(LogEntry::RoundCompleted {
        section: "men".into(),
        round: 1,
    })
    .unwrap();
    // The arbiter's re-entry of board 1 before the slips are signed: the second entry
    // replaces the first, which stays in the board's history.
    l.push(result(1, 1, GameResult::BlackWin)).unwrap();
    let b = |l: &Log| {
        l.state
            .section("men")
            .unwrap()
            .round(1)
            .unwrap()
            .board(1)
            .unwrap()
            .clone()
    };
    assert_eq!(b(&l).result, Some(GameResult::BlackWin));
    assert!(!b(&l).corrected, "a re-entry is not a correction");
    assert_eq!(b(&l).history.len(), 2);
    assert_eq!(
        l.state.outcomes(PlayerId(3))[0],
        Outcome::Game {
            opponent: PlayerNo::new(3).unwrap(),
            colour: Colour::Red,
            result: PlayerResult::Loss
        }
    );
    // Once round 2 is paired from these results, round 1 changes only by correction.
    l.push(LogEntry::RoundPaired {
        section: "men".into(),
        round: 2,
        stage: 1,
        boards: vec![
            Board {
                board: 1,
                red: PlayerId(4),
                black: PlayerId(2),
            },
            Board {
                board: 2,
                red: PlayerId(1),
                black: PlayerId(3),
            },
        ],
        byes: vec![],
        seed: None,
        manual: vec![],
    })
    .unwrap();
    assert!(matches!(
        l.push(result(1, 1, GameResult::Draw)).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::RoundCompleted { round: 1, .. },
            ..
        }
    ));
    assert_eq!(b(&l).result, Some(GameResult::BlackWin));
}

#[test]
fn results_only_for_existing_boards_and_rounds() {
    let mut l = four_players();
    assert!(matches!(
        l.push(result(1, 3, GameResult::Draw)).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::UnknownBoard { board: 3, .. },
            ..
        }
    ));
    assert!(matches!(
        l.push(result(2, 1, GameResult::Draw)).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::UnknownRound { round: 2, .. },
            ..
        }
    ));
    // Round 2 cannot be paired before round 1 is completed, nor can round 1 complete early.
    assert!(l
        .push(LogEntry::RoundCompleted {
            section: "men".into(),
            round: 1
        })
        .is_err());
    let r2 = LogEntry::RoundPaired {
        section: "men".into(),
        round: 2,
        stage: 1,
        boards: vec![],
        byes: vec![],
        seed: None,
        manual: vec![],
    };
    assert!(matches!(
        l.push(r2).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::PreviousRoundOpen { .. },
            ..
        }
    ));
}

#[test]
fn registration_respects_cap_deadline_and_duplicates() {
    let mut l = Log::new();
    l.push(created(EntryLimits {
        max_entries: Some(2),
        deadline: Some("2026-09-20T12:00:00+08:00".into()),
        ..Default::default()
    }))
    .unwrap();
    let id: IdNumber = "11010519491231002X".parse().unwrap();
    let mut with_id = reg(1, "men", "甲");
    if let LogEntry::PlayerRegistered(r) = &mut with_id {
        r.person.id_number = Some(id.clone());
    }
    l.push(with_id.clone()).unwrap();
    if let LogEntry::PlayerRegistered(r) = &mut with_id {
        r.player = PlayerId(2);
    }
    let e = l.push(with_id).unwrap_err();
    assert!(
        e.to_string().contains("110105**********2X"),
        "masked in message: {e}"
    );
    l.push(reg(2, "men", "乙")).unwrap();
    assert!(matches!(
        l.push(reg(3, "men", "丙")).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::EntryCapReached(2),
            ..
        }
    ));
    // Deadline: a registration stamped after it is refused.
    let mut s = EventState::new();
    s.apply(&rec(
        1,
        created(EntryLimits {
            deadline: Some("2026-09-20T08:00:00+08:00".into()),
            ..Default::default()
        }),
    ))
    .unwrap();
    let late = Recorded {
        seq: 2,
        at: "2026-09-20T08:00:01+08:00".into(),
        actor: "t".into(),
        entry: reg(1, "men", "甲"),
    };
    assert!(matches!(
        s.apply(&late).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::AfterDeadline { .. },
            ..
        }
    ));
    assert_eq!(s.last_seq, 1, "a rejected entry changes nothing");
}

#[test]
fn sequence_gaps_and_missing_header_do_not_fold() {
    let mut s = EventState::new();
    assert!(matches!(
        s.apply(&rec(1, reg(1, "men", "甲"))).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::NoEvent,
            ..
        }
    ));
    assert!(matches!(
        s.apply(&rec(2, created(EntryLimits::default())))
            .unwrap_err(),
        FoldError::Sequence {
            expected: 1,
            found: 2
        }
    ));
}

#[test]
fn withdrawn_and_unpaid_statuses() {
    let mut l = Log::new();
    l.push(created(EntryLimits {
        fee_fen: Some(10_000),
        ..Default::default()
    }))
    .unwrap();
    l.push(reg(1, "women", "甲")).unwrap();
    l.push(reg(2, "women", "乙")).unwrap();
    assert_eq!(l.state.status(PlayerId(1)), Some(PlayerStatus::Unpaid));
    l.push(LogEntry::FeePaid {
        player: PlayerId(1),
        amount_fen: 10_000,
        receipt: None,
        item: None,
    })
    .unwrap();
    assert_eq!(l.state.status(PlayerId(1)), Some(PlayerStatus::Active));
    l.push(LogEntry::PlayerWithdrawn {
        player: PlayerId(2),
        reason: "因病".into(),
        after_round: None,
        by_forfeits: false,
    })
    .unwrap();
    assert_eq!(l.state.status(PlayerId(2)), Some(PlayerStatus::Withdrawn));
    assert!(l
        .push(LogEntry::PlayerWithdrawn {
            player: PlayerId(2),
            reason: "x".into(),
            after_round: None,
            by_forfeits: false,
        })
        .is_err());
    l.push(LogEntry::PairingNumbersDrawn {
        section: "women".into(),
        seed: 3,
        order: vec![PlayerId(1), PlayerId(2)],
    })
    .unwrap();
    let r = LogEntry::RoundPaired {
        section: "women".into(),
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
    };
    assert!(matches!(
        l.push(r).unwrap_err(),
        FoldError::Rejected {
            rejection: Rejection::PairingWithdrawn(PlayerId(2)),
            ..
        }
    ));
}

#[test]
fn fouls_per_player_and_team() {
    let mut l = four_players();
    l.push(LogEntry::TeamEntered {
        team: "一队".into(),
        unit: "农商行".into(),
        division: None,
        members: vec![PlayerId(1), PlayerId(2)],
        leader: Some("王领队".into()),
        coach: None,
    })
    .unwrap();
    l.push(LogEntry::FoulRecorded {
        section: "men".into(),
        offender: Offender::Player(PlayerId(1)),
        round: Some(1),
        board: None,
        kind: FoulKind::General,
        reason: "使用手机".into(),
    })
    .unwrap();
    l.push(LogEntry::FoulRecorded {
        section: "men".into(),
        offender: Offender::Team("一队".into()),
        round: None,
        board: None,
        kind: FoulKind::General,
        reason: "领队场内指导".into(),
    })
    .unwrap();
    assert_eq!(l.state.foul_count(PlayerId(1)), 1);
    assert_eq!(l.state.teams["一队"].fouls.len(), 1);
    assert!(l
        .push(LogEntry::FoulRecorded {
            section: "men".into(),
            offender: Offender::Team("二队".into()),
            round: None,
            board: None,
            kind: FoulKind::General,
            reason: "x".into(),
        })
        .is_err());
}

#[test]
fn envelope_is_versioned_and_round_trips() {
    let l = four_players();
    for r in &l.log {
        let j = serde_json::to_string(r).unwrap();
        assert!(j.starts_with("{\"v\":1,"), "{j}");
        assert_eq!(&Recorded::from_json(&j).unwrap(), r);
    }
    let future = r#"{"v":2,"seq":1,"at":"x","actor":"a","entry":{"type":"checked_in","player":1}}"#;
    assert_eq!(
        Recorded::from_json(future).unwrap_err(),
        LogFormatError::UnsupportedVersion(2)
    );
    let bad = r#"{"v":1,"seq":1,"at":"x","actor":"a","entry":{"type":"no_such_thing"}}"#;
    assert!(
        matches!(Recorded::from_json(bad).unwrap_err(), LogFormatError::Malformed(m) if m.contains("no_such_thing"))
    );
    // Replaying the recorded log rebuilds the same state.
    assert_eq!(EventState::replay(&l.log).unwrap(), l.state);
}

#[test]
fn masked_json_hides_personal_data() {
    let mut e = reg(1, "men", "甲");
    if let LogEntry::PlayerRegistered(r) = &mut e {
        r.person.id_number = Some("11010519491231002X".parse().unwrap());
        r.person.phone = Some("13812345678".parse().unwrap());
    }
    let m = e.masked_json().to_string();
    assert!(
        m.contains("110105**********2X") && m.contains("138****5678"),
        "{m}"
    );
    assert!(!m.contains("13812345678") && !m.contains("19491231"), "{m}");
    let c = LogEntry::PlayerCorrected {
        player: PlayerId(1),
        changes: vec![FieldChange::Phone(Some("13912345678".parse().unwrap()))],
        reason: "填错".into(),
    };
    assert!(c.masked_json().to_string().contains("139****5678"));
}

fn game_foul(player: u32, round: Option<u32>, board: Option<u32>, kind: FoulKind) -> LogEntry {
    LogEntry::FoulRecorded {
        section: "men".into(),
        offender: Offender::Player(PlayerId(player)),
        round,
        board,
        kind,
        reason: kind.zh().into(),
    }
}

#[test]
fn game_fouls_are_kept_per_board_in_order() {
    let mut l = four_players();
    // Board 2 of round 1: red = player 2, black = player 1.
    l.push(game_foul(1, Some(1), Some(2), FoulKind::Phone))
        .unwrap();
    l.push(game_foul(2, Some(1), Some(2), FoulKind::Records))
        .unwrap();
    l.push(game_foul(1, Some(1), Some(2), FoulKind::Phone))
        .unwrap();
    // A foul with a round but no board counts for the player but belongs to no game.
    l.push(game_foul(3, Some(1), None, FoulKind::General))
        .unwrap();
    let rd = l.state.section("men").unwrap().round(1).unwrap();
    let b2 = rd.board(2).unwrap();
    let seen: Vec<(PlayerId, FoulKind)> = b2.fouls.iter().map(|f| (f.player, f.kind)).collect();
    assert_eq!(
        seen,
        vec![
            (PlayerId(1), FoulKind::Phone),
            (PlayerId(2), FoulKind::Records),
            (PlayerId(1), FoulKind::Phone)
        ]
    );
    assert!(rd.board(1).unwrap().fouls.is_empty());
    assert_eq!(l.state.foul_count(PlayerId(1)), 2);
    assert_eq!(l.state.foul_count(PlayerId(3)), 1);
    let p1 = l.state.player(PlayerId(1)).unwrap();
    assert_eq!(p1.fouls[0].board, Some(2));
    assert_eq!(p1.fouls[0].kind, FoulKind::Phone);
}

#[test]
fn game_foul_must_name_a_board_of_the_offender() {
    let mut l = four_players();
    let rejected = |l: &mut Log, e| match l.push(e) {
        Err(FoldError::Rejected { rejection, .. }) => rejection,
        other => panic!("expected a rejection, got {other:?}"),
    };
    assert_eq!(
        rejected(&mut l, game_foul(1, None, Some(2), FoulKind::Phone)),
        Rejection::FoulBoardWithoutRound
    );
    assert!(matches!(
        rejected(&mut l, game_foul(1, Some(1), Some(9), FoulKind::Phone)),
        Rejection::UnknownBoard { board: 9, .. }
    ));
    assert_eq!(
        rejected(&mut l, game_foul(3, Some(1), Some(2), FoulKind::Phone)),
        Rejection::FoulNotOnBoard {
            player: PlayerId(3),
            round: 1,
            board: 2
        }
    );
}

#[test]
fn foul_without_board_or_kind_reads_as_general_and_writes_back_unchanged() {
    let old = r#"{"type":"foul_recorded","section":"men","offender":{"kind":"player","id":1},"round":1,"reason":"使用手机"}"#;
    let e: LogEntry = serde_json::from_str(old).unwrap();
    let LogEntry::FoulRecorded { board, kind, .. } = &e else {
        panic!("not a foul: {e:?}");
    };
    assert_eq!((*board, *kind), (None, FoulKind::General));
    let back = serde_json::to_value(&e).unwrap();
    assert!(back.get("board").is_none() && back.get("kind").is_none());
    let new = game_foul(1, Some(1), Some(2), FoulKind::Phone);
    let v = serde_json::to_value(&new).unwrap();
    assert_eq!(v["board"], 2);
    assert_eq!(v["kind"], "phone");
    assert_eq!(serde_json::from_value::<LogEntry>(v).unwrap(), new);
    assert_eq!("手机".parse::<FoulKind>().ok(), None);
    assert_eq!("使用手机".parse::<FoulKind>(), Ok(FoulKind::Phone));
    assert_eq!("short_draw".parse::<FoulKind>(), Ok(FoulKind::ShortDraw));
    assert!("x"
        .parse::<FoulKind>()
        .unwrap_err()
        .contains("unknown foul kind"));
}

fn submitted(n: u32, section: &str, id: Option<&str>) -> LogEntry {
    LogEntry::EntrySubmitted {
        submission: n,
        section: section.into(),
        person: arbiter_types::Person {
            name: format!("网上{n}"),
            sex: None,
            birth_date: None,
            id_number: id.map(|i| IdNumber::parse(i).unwrap()),
            phone: None,
            social_security: None,
            unit: None,
            ..arbiter_types::Person::default()
        },
        flags: Vec::new(),
        evidence: Vec::new(),
        status_key: None,
    }
}

fn rejection(r: Result<(), FoldError>) -> Rejection {
    match r {
        Err(FoldError::Rejected { rejection, .. }) => rejection,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn online_submissions_wait_until_decided() {
    let mut l = Log::new();
    l.push(created(EntryLimits::default())).unwrap();
    let id = "11010519491231002X";
    l.push(submitted(1, "men", Some(id))).unwrap();
    assert_eq!(l.state.next_submission(), 2);
    assert_eq!(l.state.pending(Some("men")).len(), 1);
    assert!(l.state.pending(Some("women")).is_empty());
    assert!(l.state.players.is_empty());
    // The same number: refused. The same ID number pending in the section: recorded all the
    // same (a pending submission never blocks another; the desk sees both and decides).
    assert_eq!(
        rejection(l.push(submitted(1, "men", None))),
        Rejection::SubmissionExists(1)
    );
    let mut twice = Log::new();
    twice.push(created(EntryLimits::default())).unwrap();
    twice.push(submitted(1, "men", Some(id))).unwrap();
    twice
        .push(submitted(2, "men", Some(id)))
        .expect("a second submission, same ID");
    assert_eq!(twice.state.pending(Some("men")).len(), 2);
    // A decision needs exactly one of player and reason, of the submission's section.
    let decide = |player: Option<u32>, reason: Option<&str>| LogEntry::SubmissionDecided {
        submission: 1,
        player: player.map(PlayerId),
        reason: reason.map(str::to_string),
    };
    assert_eq!(
        rejection(l.push(decide(None, None))),
        Rejection::BadDecision
    );
    assert_eq!(
        rejection(l.push(decide(None, Some(" ")))),
        Rejection::BadDecision
    );
    l.push(reg(1, "women", "某")).unwrap();
    assert!(matches!(
        rejection(l.push(decide(Some(1), None))),
        Rejection::WrongSection { .. }
    ));
    l.push(reg(2, "men", "网上1")).unwrap();
    l.push(decide(Some(2), None)).unwrap();
    assert!(l.state.pending(None).is_empty());
    assert_eq!(
        l.state.submissions[&1].decision,
        Some(Decision::Approved(PlayerId(2)))
    );
    assert_eq!(
        rejection(l.push(decide(None, Some("重复")))),
        Rejection::SubmissionDecided(1)
    );
    assert_eq!(
        rejection(l.push(LogEntry::SubmissionDecided {
            submission: 9,
            player: None,
            reason: Some("x".into()),
        })),
        Rejection::UnknownSubmission(9)
    );
    // Replaying the log gives the same state.
    assert_eq!(EventState::replay(&l.log).unwrap(), l.state);
}

#[test]
fn settings_changes_are_folded_and_checked() {
    let mut l = four_players();
    let change =
        |name: Option<&str>, start: Option<&str>, end: Option<&str>, rounds: &[(&str, u32)]| {
            LogEntry::SettingsChanged {
                name: name.map(str::to_string),
                start: start.map(|d| d.parse().unwrap()),
                end: end.map(|d| d.parse().unwrap()),
                venue: None,
                deadline: None,
                age_on: None,
                rounds: rounds.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
                time_controls: Default::default(),
                placed_units: Default::default(),
                reason: String::new(),
            }
        };
    assert_eq!(
        rejection(l.push(change(None, None, None, &[]))),
        Rejection::NoSettings
    );
    assert!(matches!(
        rejection(l.push(change(Some(" "), None, None, &[]))),
        Rejection::Required(_)
    ));
    assert!(matches!(
        rejection(l.push(change(None, Some("2026-10-02"), Some("2026-10-01"), &[]))),
        Rejection::BadDates { .. }
    ));
    assert!(matches!(
        rejection(l.push(change(None, None, None, &[("men", 0)]))),
        Rejection::RoundsBelowPaired { .. }
    ));
    assert!(matches!(
        rejection(l.push(change(None, None, None, &[("juniors", 5)]))),
        Rejection::UnknownSection(_)
    ));
    l.push(change(
        Some("新名称"),
        Some("2026-10-01"),
        None,
        &[("men", 5)],
    ))
    .unwrap();
    assert_eq!(l.state.name(), "新名称");
    assert_eq!(l.state.settings.rounds["men"], 5);
    assert_eq!(l.state.settings.start, "2026-10-01".parse().ok());
    // An end before the start changed earlier is refused too.
    assert!(matches!(
        rejection(l.push(change(None, None, Some("2026-09-30"), &[]))),
        Rejection::BadDates { .. }
    ));
    assert_eq!(EventState::replay(&l.log).unwrap(), l.state);
}
