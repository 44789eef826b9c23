//! Properties of the team-match standings on random events: the input order does not
//! matter, ranks and `decided_by` agree with the values shown, and no input panics.

use arbiter_standings::team_match::{
    board_standings, team_match_cells, team_match_standings, BoardOutcome, MatchBoard, MatchTeam,
    PlayedMatch, TeamBye, TeamMatchInput, TeamMatchStandings,
};
use arbiter_standings::TbValue;
use arbiter_types::{PlayerNo, Score, ScoringPreset, ScoringTable, TeamTiebreak};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

const OUTCOMES: [BoardOutcome; 6] = [
    BoardOutcome::Win,
    BoardOutcome::Draw,
    BoardOutcome::Loss,
    BoardOutcome::ForfeitWin,
    BoardOutcome::ForfeitLoss,
    BoardOutcome::DoubleForfeit,
];

/// Game points of a board under a colour-dependent table (win 2, red draw 1, black draw
/// 1.5): the first team is red on odd boards.
fn game_points(o: BoardOutcome, board: u32) -> (Score, Score) {
    let h = Score::from_halves;
    match o {
        BoardOutcome::Win | BoardOutcome::ForfeitWin => (h(4), h(0)),
        BoardOutcome::Loss | BoardOutcome::ForfeitLoss => (h(0), h(4)),
        BoardOutcome::Draw if board % 2 == 1 => (h(2), h(3)),
        BoardOutcome::Draw => (h(3), h(2)),
        BoardOutcome::DoubleForfeit => (h(0), h(0)),
    }
}

/// A Swiss-like event of `n` teams with sparse numbers, some byes, some pairs not
/// played, whole-match forfeits, unfinished boards, fouls and a random criteria list.
fn event(n: usize, rounds: u32, boards: u32, seed: u64) -> TeamMatchInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut numbers: Vec<u32> = (1..=3 * n as u32).collect();
    numbers.shuffle(&mut rng);
    numbers.truncate(n);
    let teams: Vec<MatchTeam> = numbers
        .iter()
        .map(|&no| MatchTeam {
            no,
            name: format!("队{no}"),
        })
        .collect();
    let mut matches = Vec::new();
    let mut byes = Vec::new();
    for round in 1..=rounds {
        let mut order = numbers.clone();
        order.shuffle(&mut rng);
        if order.len() % 2 == 1 {
            if let Some(t) = order.pop() {
                if rng.gen_bool(0.7) {
                    byes.push(TeamBye {
                        round,
                        team: t,
                        game_points: Score::from_halves(rng.gen_range(0..=4 * i64::from(boards))),
                    });
                }
            }
        }
        for pair in order.chunks_exact(2) {
            if rng.gen_bool(0.1) {
                continue;
            }
            let whole = rng.gen_range(0..20u32);
            let boards = (1..=boards)
                .map(|b| {
                    let result = match whole {
                        0 => Some(BoardOutcome::ForfeitLoss),
                        1 => Some(BoardOutcome::ForfeitWin),
                        2 => Some(BoardOutcome::DoubleForfeit),
                        _ if rng.gen_bool(0.04) => None,
                        _ => OUTCOMES.choose(&mut rng).copied(),
                    };
                    let (first_points, second_points) =
                        result.map_or((Score::ZERO, Score::ZERO), |o| game_points(o, b));
                    let player = |team: u32, rng: &mut ChaCha8Rng| {
                        rng.gen_bool(0.9)
                            .then(|| PlayerNo::new(team * 100 + rng.gen_range(1..=boards + 1)))
                            .flatten()
                    };
                    MatchBoard {
                        board: b,
                        result,
                        first_points,
                        second_points,
                        first_player: player(pair[0], &mut rng),
                        second_player: player(pair[1], &mut rng),
                    }
                })
                .collect();
            matches.push(PlayedMatch {
                round,
                first: pair[0],
                second: pair[1],
                boards,
            });
        }
    }
    let mut tiebreaks = TeamTiebreak::ALL.to_vec();
    tiebreaks.shuffle(&mut rng);
    tiebreaks.truncate(rng.gen_range(0..=tiebreaks.len()));
    if rng.gen_bool(0.5) {
        tiebreaks.retain(|&t| t != TeamTiebreak::MatchPoints);
        tiebreaks.insert(0, TeamTiebreak::MatchPoints);
    }
    let match_points = match rng.gen_range(0..3u32) {
        0 => arbiter_standings::team_match::default_match_points(),
        1 => ScoringPreset::ThreeOneTwoZero.table(),
        _ => ScoringTable {
            forfeit_loss: Score::points(-1),
            ..ScoringPreset::FiveTwoThreeZero.table()
        },
    };
    let mut fouls = BTreeMap::new();
    for &no in &numbers {
        if rng.gen_bool(0.3) {
            fouls.insert(no, rng.gen_range(1..3));
        }
    }
    TeamMatchInput {
        teams,
        matches,
        byes,
        match_points,
        tiebreaks,
        fouls,
    }
}

/// The same event with every list in another order.
fn shuffled(input: &TeamMatchInput, seed: u64) -> TeamMatchInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = input.clone();
    out.teams.shuffle(&mut rng);
    out.matches.shuffle(&mut rng);
    out.byes.shuffle(&mut rng);
    for m in &mut out.matches {
        m.boards.shuffle(&mut rng);
    }
    out
}

/// Ranks, `decided_by` and the values shown agree.
fn check_consistent(input: &TeamMatchInput, s: &TeamMatchStandings) -> Result<(), TestCaseError> {
    let list = &input.tiebreaks;
    for (pos, row) in s.rows.iter().enumerate() {
        prop_assert_eq!(row.values.len(), list.len());
        if pos == 0 {
            prop_assert_eq!(row.rank, 1);
            prop_assert_eq!(row.decided_by, None);
            continue;
        }
        let prev = &s.rows[pos - 1];
        prop_assert!(row.rank >= prev.rank, "ranks never go down");
        match row.decided_by {
            None => {
                // A shared place: equal on every value, listed by team number.
                prop_assert_eq!(row.rank, prev.rank);
                prop_assert!(prev.no < row.no);
                prop_assert_eq!(&row.values, &prev.values);
            }
            Some(t) => {
                prop_assert_eq!(row.rank, pos as u32 + 1);
                let k = list.iter().position(|&c| c == t);
                prop_assert!(k.is_some(), "decided by a criterion of the list");
                let k = k.unwrap_or(0);
                for (j, &c) in list.iter().enumerate().take(k) {
                    // 直胜's value belongs to the group it was evaluated on.
                    if c != TeamTiebreak::Direct {
                        prop_assert_eq!(row.values[j], prev.values[j], "{:?}", c);
                    }
                }
                let (a, b) = (prev.values[k], row.values[k]);
                match t {
                    TeamTiebreak::Direct => {}
                    // Only board 1 is shown: the rows may be equal there.
                    TeamTiebreak::Boards => prop_assert!(a >= b),
                    t if t.fewer_first() => prop_assert!(a < b),
                    _ => prop_assert!(a > b),
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_input_order_does_not_change_the_standings(
        n in 1usize..10,
        rounds in 0u32..6,
        boards in 1u32..5,
        seed in any::<u64>(),
        order in any::<u64>(),
    ) {
        let input = event(n, rounds, boards, seed);
        let s = team_match_standings(&input);
        prop_assert_eq!(s.rows.len(), n);
        prop_assert!(s.ignored.is_empty());
        check_consistent(&input, &s)?;
        let other = shuffled(&input, order);
        prop_assert_eq!(&team_match_standings(&other), &s);
        let win = Score::points(2);
        prop_assert_eq!(board_standings(&other, 2, win), board_standings(&input, 2, win));
    }

    /// The cells without the ranking are the rows' rounds, team by team.
    #[test]
    fn the_cells_are_the_rows_rounds(
        n in 1usize..10,
        rounds in 0u32..6,
        boards in 1u32..5,
        seed in any::<u64>(),
    ) {
        let input = event(n, rounds, boards, seed);
        let s = team_match_standings(&input);
        let mut rows: Vec<(u32, Vec<_>)> =
            s.rows.iter().map(|r| (r.no, r.rounds.clone())).collect();
        rows.sort_by_key(|r| r.0);
        prop_assert_eq!(team_match_cells(&input), rows);
    }

    #[test]
    fn match_points_add_up_from_the_rounds(
        n in 2usize..10,
        rounds in 1u32..6,
        seed in any::<u64>(),
    ) {
        let input = event(n, rounds, 4, seed);
        let s = team_match_standings(&input);
        for row in &s.rows {
            let mp: i64 = row.rounds.iter().filter_map(|c| c.match_points).map(Score::halves).sum();
            let gp: i64 = row
                .rounds
                .iter()
                .filter(|c| c.match_points.is_some())
                .map(|c| c.game_points.halves())
                .sum();
            prop_assert_eq!(row.match_points.halves(), mp);
            prop_assert_eq!(row.game_points.halves(), gp);
            let counted = row.rounds.iter().filter(|c| c.result.is_some()).count() as u32;
            prop_assert_eq!(row.wins + row.draws + row.losses, counted);
        }
    }

    /// Unknown and repeated numbers, empty and huge boards, extreme scores: no panic, every
    /// distinct team listed once, consistent ranks.
    #[test]
    fn no_input_panics(
        teams in proptest::collection::vec((0u32..6, ".{0,3}"), 0..6),
        matches in proptest::collection::vec(
            (0u32..3, 0u32..7, 0u32..7, proptest::collection::vec(
                (prop_oneof![Just(0u32), Just(1), Just(2), Just(u32::MAX)],
                 proptest::option::of(0usize..6),
                 prop_oneof![Just(i64::MIN), Just(i64::MAX), -3i64..5],
                 prop_oneof![Just(i64::MIN), Just(i64::MAX), -3i64..5],
                 proptest::option::of(1u32..4)),
                0..4)),
            0..8),
        byes in proptest::collection::vec((0u32..3, 0u32..7, prop_oneof![Just(i64::MAX), 0i64..9]), 0..3),
        list in proptest::collection::vec(0usize..9, 0..12),
        fouls in proptest::collection::btree_map(0u32..7, any::<u32>(), 0..4),
        win in prop_oneof![Just(i64::MIN), Just(i64::MAX), -2i64..5],
        min_games in 0u32..3,
    ) {
        let input = TeamMatchInput {
            teams: teams.iter().map(|(no, name)| MatchTeam { no: *no, name: name.clone() }).collect(),
            matches: matches
                .iter()
                .map(|(round, first, second, boards)| PlayedMatch {
                    round: *round,
                    first: *first,
                    second: *second,
                    boards: boards
                        .iter()
                        .map(|&(board, r, f, s, p)| MatchBoard {
                            board,
                            result: r.map(|i| OUTCOMES[i]),
                            first_points: Score::from_halves(f),
                            second_points: Score::from_halves(s),
                            first_player: p.and_then(PlayerNo::new),
                            second_player: p.and_then(|p| PlayerNo::new(p + 1)),
                        })
                        .collect(),
                })
                .collect(),
            byes: byes
                .iter()
                .map(|&(round, team, gp)| TeamBye { round, team, game_points: Score::from_halves(gp) })
                .collect(),
            match_points: ScoringTable {
                win: Score::from_halves(i64::MAX),
                ..ScoringPreset::Cxa.table()
            },
            tiebreaks: list.iter().map(|&i| TeamTiebreak::ALL[i]).collect(),
            fouls,
        };
        let s = team_match_standings(&input);
        let mut distinct: Vec<u32> = input.teams.iter().map(|t| t.no).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let mut listed: Vec<u32> = s.rows.iter().map(|r| r.no).collect();
        listed.sort_unstable();
        prop_assert_eq!(listed, distinct);
        for (pos, row) in s.rows.iter().enumerate() {
            prop_assert!(pos == 0 || row.rank >= s.rows[pos - 1].rank);
            prop_assert!(row.rank as usize <= pos + 1);
        }
        let tables = board_standings(&input, min_games, Score::from_halves(win));
        for t in &tables {
            for r in &t.rows {
                prop_assert!(r.games >= 1);
                if let Some(TbValue::Fraction { den, .. }) = r.rate {
                    prop_assert!(den > 0);
                }
            }
        }
    }
}
