//! Team matches in the log (A15): team numbers, a round's matches and the line-ups, each
//! refused when it breaks the rules of `family/matches.rs`.

use arbiter_core::*;

const REGULATION: &str = "[event]\nname = \"团体赛\"\nstart = 2026-05-01\nend = 2026-05-02\n\
    [[sections]]\nid = \"t\"\nname = \"团体赛\"\nformat = { kind = \"swiss\", rounds = 3 }\n\
    [sections.team_match]\nboards = 2\nreserves = 1\n";

fn rec(seq: u64, entry: LogEntry) -> Recorded {
    Recorded {
        seq,
        at: "2026-05-01T08:30:00+08:00".into(),
        actor: "test".into(),
        entry,
    }
}

fn player(id: u32, team: &str) -> LogEntry {
    serde_json::from_value(serde_json::json!({
        "type": "player_registered", "player": id, "section": "t",
        "name": format!("选手{id}"), "unit": team, "team": team
    }))
    .unwrap()
}

fn team(name: &str, members: &[u32]) -> LogEntry {
    LogEntry::TeamEntered {
        team: name.into(),
        unit: name.into(),
        division: None,
        members: members.iter().map(|&m| PlayerId(m)).collect(),
        leader: None,
        coach: None,
    }
}

fn pairing(first: &str, second: &str) -> TeamPairing {
    TeamPairing {
        first: first.into(),
        second: second.into(),
    }
}

fn matches(round: u32, m: Vec<TeamPairing>, bye: Option<&str>) -> LogEntry {
    LogEntry::MatchesPaired {
        section: "t".into(),
        round,
        matches: m,
        bye: bye.map(str::to_string),
        seed: None,
        manual: Vec::new(),
    }
}

fn lineup(team: &str, seats: &[Option<u32>]) -> LogEntry {
    LogEntry::LineupGiven {
        section: "t".into(),
        round: 1,
        team: team.into(),
        boards: seats.iter().map(|s| s.map(PlayerId)).collect(),
        by: String::new(),
    }
}

/// Three teams (甲 1–3, 乙 4–5, 丙 6–7) entered and numbered.
fn numbered() -> EventState {
    let mut s = EventState::new();
    let mut entries = vec![LogEntry::EventCreated(EventCreated {
        name: "团体赛".into(),
        regulation: REGULATION.into(),
        file_name: "t.toml".into(),
        seed: 1,
        sections: vec![SectionInfo {
            id: "t".into(),
            name: "团体赛".into(),
            divisions: vec![],
        }],
        limits: EntryLimits::default(),
    })];
    for (t, ids) in [
        ("甲队", &[1, 2, 3][..]),
        ("乙队", &[4, 5]),
        ("丙队", &[6, 7]),
    ] {
        for &i in ids {
            entries.push(player(i, t));
        }
        entries.push(team(t, ids));
    }
    entries.push(LogEntry::TeamNumbersDrawn {
        section: "t".into(),
        seed: 9,
        order: vec!["乙队".into(), "甲队".into(), "丙队".into()],
    });
    for (i, e) in entries.into_iter().enumerate() {
        s.apply(&rec(i as u64 + 1, e))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    s
}

fn refused(s: &EventState, e: LogEntry) -> Rejection {
    let mut s = s.clone();
    match s.apply(&rec(s.last_seq + 1, e)) {
        Err(FoldError::Rejected { rejection, .. }) => rejection,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn numbers_matches_and_line_ups_fold_into_the_section() {
    let mut s = numbered();
    assert_eq!(s.sections["t"].team_no("甲队"), Some(2));
    let seq = s.last_seq;
    s.apply(&rec(
        seq + 1,
        matches(1, vec![pairing("乙队", "甲队")], Some("丙队")),
    ))
    .unwrap();
    // The reserve plays board 2; the registered order is the director's rule, not the log's.
    s.apply(&rec(seq + 2, lineup("甲队", &[Some(1), Some(3)])))
        .unwrap();
    let tr = &s.sections["t"].matches[&1];
    assert_eq!(tr.match_of("甲队"), Some((1, false)));
    assert_eq!(tr.bye.as_deref(), Some("丙队"));
    assert_eq!(
        tr.lineups["甲队"],
        vec![Some(PlayerId(1)), Some(PlayerId(3))]
    );
}

#[test]
fn what_the_log_refuses_of_team_matches() {
    let s = numbered();
    assert_eq!(
        refused(&s, matches(1, vec![pairing("甲队", "甲队")], None)),
        Rejection::TeamSelfPairing("甲队".into())
    );
    assert_eq!(
        refused(&s, matches(1, vec![pairing("甲队", "乙队")], Some("甲队"))),
        Rejection::DuplicateTeam("甲队".into())
    );
    assert_eq!(
        refused(&s, matches(1, vec![pairing("甲队", "丁队")], None)),
        Rejection::UnknownTeam("丁队".into())
    );
    assert!(matches!(
        refused(&s, matches(2, vec![pairing("甲队", "乙队")], None)),
        Rejection::WrongRound {
            expected: 1,
            found: 2,
            ..
        }
    ));
    assert_eq!(
        refused(&s, lineup("甲队", &[Some(1), Some(2)])),
        Rejection::NoMatches {
            section: "t".into(),
            round: 1
        }
    );
    let mut s = s;
    let seq = s.last_seq;
    s.apply(&rec(
        seq + 1,
        matches(1, vec![pairing("乙队", "甲队")], Some("丙队")),
    ))
    .unwrap();
    assert_eq!(
        refused(&s, lineup("甲队", &[Some(1), Some(2), Some(3)])),
        Rejection::LineupLength {
            team: "甲队".into(),
            given: 3,
            boards: 2
        }
    );
    assert_eq!(
        refused(&s, lineup("甲队", &[Some(1), Some(4)])),
        Rejection::NotInTeam {
            player: PlayerId(4),
            team: "甲队".into()
        }
    );
    assert_eq!(
        refused(&s, lineup("甲队", &[Some(1), Some(1)])),
        Rejection::DuplicatePlayer(PlayerId(1))
    );
    assert!(matches!(
        refused(&s, lineup("丙队", &[Some(6), Some(7)])),
        Rejection::TeamNotInRound { .. }
    ));
    // A new draw once a round is paired may only extend the numbers.
    assert!(matches!(
        refused(
            &s,
            LogEntry::TeamNumbersDrawn {
                section: "t".into(),
                seed: 9,
                order: vec!["甲队".into(), "乙队".into(), "丙队".into()],
            }
        ),
        Rejection::RedrawAfterPairing { .. }
    ));
}

fn confirmed(team: &str, by: &str) -> LogEntry {
    LogEntry::MatchConfirmed {
        section: "t".into(),
        round: 1,
        team: team.into(),
        by: by.into(),
    }
}

fn result(board: u32, result: arbiter_types::GameResult) -> LogEntry {
    LogEntry::ResultEntered {
        section: "t".into(),
        round: 1,
        board,
        result,
        ending: None,
        moves: None,
    }
}

/// Round 1: 乙队 v 甲队 (two boards seated), 丙队 the bye.
fn round_one() -> EventState {
    let mut s = numbered();
    let entries = vec![
        LogEntry::PairingNumbersDrawn {
            section: "t".into(),
            seed: 1,
            order: (1..=7).map(PlayerId).collect(),
        },
        matches(1, vec![pairing("乙队", "甲队")], Some("丙队")),
        LogEntry::RoundPaired {
            section: "t".into(),
            round: 1,
            stage: 1,
            boards: vec![
                Board {
                    board: 1,
                    red: PlayerId(4),
                    black: PlayerId(1),
                },
                Board {
                    board: 2,
                    red: PlayerId(2),
                    black: PlayerId(5),
                },
            ],
            byes: Vec::new(),
            seed: None,
            manual: Vec::new(),
        },
    ];
    for e in entries {
        let seq = s.last_seq + 1;
        s.apply(&rec(seq, e)).unwrap_or_else(|e| panic!("{e}"));
    }
    s
}

fn add(s: &mut EventState, e: LogEntry) {
    let seq = s.last_seq + 1;
    s.apply(&rec(seq, e)).unwrap_or_else(|e| panic!("{e}"));
}

/// A captain confirms his match once every board has a result, once; a result of the match
/// entered or corrected later drops both teams' confirmations.
#[test]
fn captains_confirm_a_finished_match_and_a_later_correction_drops_it() {
    use arbiter_types::GameResult;
    let mut s = round_one();
    assert_eq!(
        refused(&s, confirmed("甲队", "张三")),
        Rejection::MatchUnfinished {
            team: "甲队".into(),
            section: "t".into(),
            round: 1,
            board: 1
        }
    );
    add(&mut s, result(1, GameResult::RedWin));
    assert!(matches!(
        refused(&s, confirmed("甲队", "张三")),
        Rejection::MatchUnfinished { board: 2, .. }
    ));
    add(&mut s, result(2, GameResult::Draw));
    assert!(matches!(
        refused(&s, confirmed("丙队", "王五")),
        Rejection::TeamNotInRound { .. }
    ));
    assert_eq!(
        refused(&s, confirmed("丁队", "王五")),
        Rejection::UnknownTeam("丁队".into())
    );
    add(&mut s, confirmed("甲队", "张三"));
    let tr = &s.sections["t"].matches[&1];
    assert_eq!(tr.confirmations(1), Some((None, Some("张三"))));
    assert!(!tr.both_confirmed(1));
    assert_eq!(tr.confirmations(2), None);
    assert!(matches!(
        refused(&s, confirmed("甲队", "李四")),
        Rejection::MatchAlreadyConfirmed { .. }
    ));
    add(&mut s, confirmed("乙队", ""));
    let tr = &s.sections["t"].matches[&1];
    assert_eq!(tr.confirmations(1), Some((Some(""), Some("张三"))));
    assert!(tr.both_confirmed(1));

    // The chief arbiter corrects board 2: the captains confirmed another result.
    add(
        &mut s,
        LogEntry::ResultCorrected {
            section: "t".into(),
            round: 1,
            board: 2,
            result: GameResult::RedWin,
            reason: "成绩单误填".into(),
            by: "裁判长".into(),
        },
    );
    let tr = &s.sections["t"].matches[&1];
    assert_eq!(tr.confirmations(1), Some((None, None)));
    // And they confirm it again.
    add(&mut s, confirmed("甲队", "张三"));
    assert_eq!(
        s.sections["t"].matches[&1].confirmations(1),
        Some((None, Some("张三")))
    );
    // The entry's name in the log.
    let v = serde_json::to_value(confirmed("甲队", "张三")).unwrap();
    assert_eq!(v["type"], "match_confirmed");
    assert_eq!(confirmed("甲队", "").kind(), "match_confirmed");
}
