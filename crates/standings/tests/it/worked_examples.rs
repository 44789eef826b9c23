//! Worked examples of rules.md (§5.3 小分, §4.5 the two 2011 schemes) and constructed cases
//! for the fallbacks, 直胜 restart, byes, categories and input errors.

use arbiter_standings::{
    category, category_by_tag, compute, ByeOppValue, DecidedBy, DirectMode, PlayerEntry, Standings,
    StandingsError, StandingsInput, TbValue, TiebreakOptions,
};
use arbiter_types::{
    Colour, Fallback, GameResult, Outcome, PlayerNo, Score, ScoringPreset, ScoringTable,
    TiebreakName,
};
use TiebreakName::*;

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).expect("test numbers start at 1")
}

/// Builds the outcomes of `n` players from rounds of (red, black, result); players not on a
/// board get `Outcome::Bye` when `bye` names them, else `Absent`.
fn event(n: u32, rounds: &[&[(u32, u32, GameResult)]], byes: &[(usize, u32)]) -> Vec<Vec<Outcome>> {
    let mut out = vec![Vec::new(); n as usize];
    for (k, boards) in rounds.iter().enumerate() {
        let mut row: Vec<Option<Outcome>> = vec![None; n as usize];
        for &(red, black, res) in boards.iter() {
            row[p(red).index()] = Some(res.outcome_for(Colour::Red, p(black)));
            row[p(black).index()] = Some(res.outcome_for(Colour::Black, p(red)));
        }
        for (i, o) in row.into_iter().enumerate() {
            let bye = byes.contains(&(k + 1, i as u32 + 1));
            out[i].push(o.unwrap_or(if bye { Outcome::Bye } else { Outcome::Absent }));
        }
    }
    out
}

fn input(
    n: u32,
    outcomes: Vec<Vec<Outcome>>,
    scoring: ScoringTable,
    tiebreaks: Vec<TiebreakName>,
    fallback: Option<Fallback>,
) -> StandingsInput {
    StandingsInput {
        players: (1..=n).map(|i| PlayerEntry::new(p(i))).collect(),
        outcomes,
        scoring,
        tiebreaks,
        fallback,
        options: TiebreakOptions::default(),
    }
}

fn order(s: &Standings) -> Vec<u32> {
    s.rows.iter().map(|r| r.no.get()).collect()
}

fn value(s: &Standings, no: u32, tb: TiebreakName) -> String {
    let row = s
        .rows
        .iter()
        .find(|r| r.no.get() == no)
        .expect("player in table");
    row.tiebreak(tb).expect("tie-break in list").to_string()
}

fn decided(s: &Standings, no: u32) -> Option<DecidedBy> {
    s.rows
        .iter()
        .find(|r| r.no.get() == no)
        .and_then(|r| r.decided_by)
}

use GameResult::{BlackWin as B, Draw as D, RedWin as R};

/// rules.md §5.3: 4 players, 2/1/0, 小分 5, 4, 4.5, 1.5.
#[test]
fn sonneborn_berger_worked_example_5_3() {
    let o = event(
        4,
        &[
            &[(1, 4, R), (2, 3, D)],
            &[(4, 3, R), (1, 2, B)],
            &[(2, 4, B), (3, 1, B)],
        ],
        &[],
    );
    let s = compute(&input(
        4,
        o,
        ScoringPreset::Cxa.table(),
        vec![Sb, Direct],
        None,
    ))
    .unwrap();
    assert_eq!(order(&s), vec![1, 4, 2, 3]);
    let pts: Vec<String> = s.rows.iter().map(|r| r.points.to_string()).collect();
    assert_eq!(pts, vec!["4", "4", "3", "1"]);
    assert_eq!(value(&s, 1, Sb), "5");
    assert_eq!(value(&s, 4, Sb), "4");
    assert_eq!(value(&s, 2, Sb), "4.5");
    assert_eq!(value(&s, 3, Sb), "1.5");
    assert_eq!(decided(&s, 4), Some(DecidedBy::Tiebreak(Sb)));
    // 直胜 alone agrees: 1 beat 4.
    let o = event(
        4,
        &[
            &[(1, 4, R), (2, 3, D)],
            &[(4, 3, R), (1, 2, B)],
            &[(2, 4, B), (3, 1, B)],
        ],
        &[],
    );
    let s = compute(&input(4, o, ScoringPreset::Cxa.table(), vec![Direct], None)).unwrap();
    assert_eq!(order(&s)[..2], [1, 4]);
    assert_eq!(decided(&s, 4), Some(DecidedBy::Tiebreak(Direct)));
    assert_eq!(value(&s, 1, Direct), "2");
    assert_eq!(value(&s, 4, Direct), "0");
}

/// With a colour-dependent table (5-2-3-0) a drawn opponent still counts ½ (2011 14.1:
/// "所胜对手积分之和 + 所和对手积分之和的一半"), whatever the colour of the draw.
#[test]
fn sonneborn_berger_colour_dependent_draws_count_half() {
    let o = event(3, &[&[(1, 2, D)], &[(2, 3, D)], &[(3, 1, R)]], &[]);
    let s = compute(&input(
        3,
        o,
        ScoringPreset::FiveTwoThreeZero.table(),
        vec![Sb],
        None,
    ))
    .unwrap();
    // Scores: 1 = 2 + 0 = 2 (red draw, then loss as black); 2 = 3 + 2 = 5; 3 = 3 + 5 = 8.
    assert_eq!(value(&s, 3, Sb), "4.5"); // 2's 5 × ½ (draw) + 1's 2 (win)
    assert_eq!(value(&s, 2, Sb), "5"); // 1's 2 × ½ + 3's 8 × ½
    assert_eq!(value(&s, 1, Sb), "2.5"); // 2's 5 × ½
    let row = s.rows.iter().find(|r| r.no.get() == 3).unwrap();
    assert_eq!(
        row.tiebreak(Sb),
        Some(TbValue::Score(Score::from_halves(9)))
    );
}

const A: u32 = 1;
const BB: u32 = 2;
const C: u32 = 3;
const DD: u32 = 4;
const E: u32 = 5;
const F: u32 = 6;

fn example_4_5() -> Vec<Vec<Outcome>> {
    event(
        6,
        &[
            &[(A, DD, R), (E, BB, D), (C, F, B)],
            &[(F, A, B), (BB, C, R), (DD, E, D)],
            &[(A, BB, D), (E, F, B), (C, DD, R)],
            &[(BB, F, R), (DD, A, B), (C, E, D)],
        ],
        &[],
    )
}

/// rules.md §4.5: every value of the table, and C/E ordered oppositely by the two schemes.
#[test]
fn worked_example_4_5_both_2011_schemes() {
    let all = vec![Progressive, OppScore, Wins, BlackGames, BlackWins];
    let s = compute(&input(
        6,
        example_4_5(),
        ScoringPreset::Cxa.table(),
        all,
        None,
    ))
    .unwrap();
    let table = [
        (A, "7", ["18", "12", "3", "2", "2"]),
        (BB, "6", ["14", "17", "2", "2", "0"]),
        (F, "4", ["12", "19", "2", "3", "2"]),
        (C, "3", ["5", "14", "1", "1", "0"]),
        (E, "3", ["8", "14", "0", "2", "0"]),
        (DD, "1", ["3", "20", "0", "2", "0"]),
    ];
    for (no, pts, vals) in table {
        let row = s.rows.iter().find(|r| r.no.get() == no).unwrap();
        assert_eq!(row.points.to_string(), pts, "points of {no}");
        let got: Vec<String> = row.tiebreaks.iter().map(|(_, v)| v.to_string()).collect();
        assert_eq!(got, vals, "tie-breaks of {no}");
    }

    // 14.3.1: 对手分 14 = 14 → 胜局 1 > 0 → C above E.
    let list = vec![OppScore, Wins, Fouls, BlackGames];
    let inp = input(
        6,
        example_4_5(),
        ScoringPreset::Cxa.table(),
        list,
        Some(Fallback::PreviousRoundScore),
    );
    let s = compute(&inp).unwrap();
    assert_eq!(order(&s), vec![A, BB, F, C, E, DD]);
    assert_eq!(decided(&s, E), Some(DecidedBy::Tiebreak(Wins)));

    // 14.3.2: 累进分 5 < 8 → E above C.
    let list = vec![Progressive, Wins, Fouls, BlackGames];
    let inp = input(
        6,
        example_4_5(),
        ScoringPreset::Cxa.table(),
        list,
        Some(Fallback::DropFirstRounds),
    );
    let s = compute(&inp).unwrap();
    assert_eq!(order(&s), vec![A, BB, F, E, C, DD]);
    assert_eq!(decided(&s, C), Some(DecidedBy::Tiebreak(Progressive)));
}

/// §4.5 fallback illustration: X scores 2,0,2,0, Y 0,2,0,2, equal on everything else.
/// previous_round_score puts X ahead (4 > 2 after round 3); drop_first_rounds puts Y ahead.
#[test]
fn fallback_illustration_previous_score_vs_drop_first_rounds() {
    // X=1, Y=2; 3..6 are their opponents. X beats 3 and 5, loses to 4 and 6; Y the reverse
    // order, with the same opponents so that every other criterion is equal.
    let rounds: &[&[(u32, u32, GameResult)]] = &[
        &[(1, 3, R), (4, 2, R), (5, 6, D)],
        &[(4, 1, R), (2, 3, R), (5, 6, D)],
        &[(1, 5, R), (6, 2, R), (3, 4, D)],
        &[(6, 1, R), (2, 5, R), (3, 4, D)],
    ];
    let list = vec![OppScore, Wins, BlackGames];
    let mk = |f| {
        input(
            6,
            event(6, rounds, &[]),
            ScoringPreset::Cxa.table(),
            list.clone(),
            Some(f),
        )
    };
    let a = compute(&mk(Fallback::PreviousRoundScore)).unwrap();
    let b = compute(&mk(Fallback::DropFirstRounds)).unwrap();
    let pos = |s: &Standings, no: u32| s.rows.iter().position(|r| r.no.get() == no).unwrap();
    assert_eq!(value(&a, 1, OppScore), value(&a, 2, OppScore));
    assert!(pos(&a, 1) < pos(&a, 2));
    assert_eq!(
        decided(&a, 2),
        Some(DecidedBy::Fallback(Fallback::PreviousRoundScore))
    );
    assert!(pos(&b, 2) < pos(&b, 1));
    assert_eq!(
        decided(&b, 1),
        Some(DecidedBy::Fallback(Fallback::DropFirstRounds))
    );
}

/// Constructed: 2 and 4 end equal on points (4) and 对手分 (16) and on points after round 3.
/// After round 3, 2 ranks above 4 (对手分 7 > 4): previous_round_rank puts 2 first.
/// previous_round_score looks further back: after round 2, 4 had 3 and 2 had 2: 4 first.
#[test]
fn previous_round_rank_and_previous_round_score_differ() {
    let rounds: &[&[(u32, u32, GameResult)]] = &[
        &[(1, 6, R), (2, 5, R), (3, 4, D)],
        &[(6, 4, B), (5, 3, B), (1, 2, R)],
        &[(2, 6, R), (3, 1, B), (4, 5, D)],
        &[(6, 5, B), (1, 4, R), (2, 3, B)],
    ];
    let mk = |f| {
        input(
            6,
            event(6, rounds, &[]),
            ScoringPreset::Cxa.table(),
            vec![OppScore],
            Some(f),
        )
    };
    let rank = compute(&mk(Fallback::PreviousRoundRank)).unwrap();
    let score = compute(&mk(Fallback::PreviousRoundScore)).unwrap();
    assert_eq!(value(&rank, 2, OppScore), "16");
    assert_eq!(value(&rank, 4, OppScore), "16");
    assert_eq!(order(&rank), vec![1, 3, 2, 4, 5, 6]);
    assert_eq!(
        decided(&rank, 4),
        Some(DecidedBy::Fallback(Fallback::PreviousRoundRank))
    );
    assert_eq!(order(&score), vec![1, 3, 4, 2, 5, 6]);
    assert_eq!(
        decided(&score, 2),
        Some(DecidedBy::Fallback(Fallback::PreviousRoundScore))
    );
    // Ranks are unique without `shared`.
    let ranks: Vec<u32> = rank.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4, 5, 6]);
}

/// 直胜 restarts for a pair split off a larger tied group (§4.3): three players tied on
/// points, 胜局 separates one, then 直胜 (listed before 胜局) decides the remaining two.
#[test]
fn direct_encounter_restarts_for_a_split_subgroup() {
    // 1, 2, 3 each end on 4 points. 1: W W L L... build: 1 beats 2, 2 draws 3 twice, etc.
    let rounds: &[&[(u32, u32, GameResult)]] = &[
        &[(1, 2, B), (3, 4, R)], // 2 beats 1, 3 beats 4
        &[(1, 3, D), (2, 4, B)], // 4 beats 2
        &[(1, 4, D), (2, 3, D)],
    ];
    // Points: 1 = 0+1+1 = 2, 2 = 2+0+1 = 3, 3 = 2+1+1 = 4, 4 = 0+2+1 = 3.
    let inp = input(
        4,
        event(4, rounds, &[]),
        ScoringPreset::Cxa.table(),
        vec![Direct, Wins],
        None,
    );
    let s = compute(&inp).unwrap();
    // 2 and 4 tie on 3 points, met in round 2 (4 won) → 直胜 4 above 2.
    assert_eq!(order(&s), vec![3, 4, 2, 1]);
    assert_eq!(decided(&s, 2), Some(DecidedBy::Tiebreak(Direct)));

    // Three-way tie 1, 2, 3 on 4 points: 直胜 does not apply to three; 胜局 separates 3
    // (2 wins) from 1 and 2 (1 win each); the pair restarts the list and 直胜 (2 beat 1)
    // decides it. Continuing after 胜局 instead would leave them tied (pairing order 1, 2).
    let rounds: &[&[(u32, u32, GameResult)]] = &[
        &[(2, 1, R), (3, 4, R), (5, 6, R)],
        &[(1, 5, R), (3, 6, R), (2, 4, B)],
        &[(1, 4, D), (3, 5, B), (2, 6, D)],
        &[(1, 6, D), (4, 3, R), (2, 5, D)],
    ];
    let o = event(6, rounds, &[]);
    let s = compute(&input(
        6,
        o,
        ScoringPreset::Cxa.table(),
        vec![Direct, Wins],
        None,
    ))
    .unwrap();
    assert_eq!(order(&s), vec![4, 5, 3, 2, 1, 6]);
    assert_eq!(decided(&s, 5), Some(DecidedBy::PairingNo));
    assert_eq!(decided(&s, 3), Some(DecidedBy::Points));
    assert_eq!(decided(&s, 2), Some(DecidedBy::Tiebreak(Wins)));
    assert_eq!(decided(&s, 1), Some(DecidedBy::Tiebreak(Direct)));
    assert_eq!(value(&s, 2, Direct), "2");
    assert_eq!(value(&s, 3, Direct), "0");
}

/// Mini-table option: three tied players who all met are ranked by the points among them.
#[test]
fn direct_mini_table_for_three() {
    // Cycle 1>2, 2>3, 1>3 among 1..3; each also plays 4 so the totals tie.
    let rounds: &[&[(u32, u32, GameResult)]] = &[
        &[(1, 2, R), (3, 4, R)],
        &[(2, 3, R), (4, 1, R)],
        &[(3, 1, B), (2, 4, B)],
    ];
    // 1: 2+0+2 = 4; 2: 0+2+0 = 2; 3: 2+0+0 = 2; 4: 0+2+2 = 4.
    let mut inp = input(
        4,
        event(4, rounds, &[]),
        ScoringPreset::Cxa.table(),
        vec![Direct],
        None,
    );
    inp.options.direct = DirectMode::MiniTable;
    let s = compute(&inp).unwrap();
    // 1 and 4 tie on 4 and met (4 won round 2): 4 first. 2 and 3 tie on 2: 2 beat 3.
    assert_eq!(order(&s), vec![4, 1, 2, 3]);
    assert_eq!(value(&s, 4, Direct), "2");
    assert_eq!(value(&s, 1, Direct), "0");
}

/// A bye is an opponent with the lowest final score (default) or 0 in 对手分, and counts as a
/// win by default; `shared` gives equal ranks and no reason.
#[test]
fn bye_in_opp_score_wins_and_shared_places() {
    let rounds: &[&[(u32, u32, GameResult)]] = &[&[(1, 2, R)], &[(2, 3, D)]];
    let o = event(3, rounds, &[(1, 3), (2, 1)]);
    // Points: 1 = 2 + 2 (bye) = 4; 2 = 0 + 1 = 1; 3 = 2 (bye) + 1 = 3. Lowest = 1.
    let mut inp = input(
        3,
        o,
        ScoringPreset::Cxa.table(),
        vec![OppScore, Wins],
        Some(Fallback::Shared),
    );
    let s = compute(&inp).unwrap();
    assert_eq!(value(&s, 1, OppScore), "2"); // 2's 1 + bye 1
    assert_eq!(value(&s, 3, OppScore), "2"); // bye 1 + 2's 1
    assert_eq!(value(&s, 1, Wins), "2");
    inp.options.bye_opp_value = ByeOppValue::Zero;
    inp.options.wins_include_bye = false;
    let s = compute(&inp).unwrap();
    assert_eq!(value(&s, 1, OppScore), "1");
    assert_eq!(value(&s, 1, Wins), "1");

    // Two players equal on everything share the place with `shared`.
    let rounds: &[&[(u32, u32, GameResult)]] = &[&[(1, 2, D), (3, 4, D)]];
    let s = compute(&input(
        4,
        event(4, rounds, &[]),
        ScoringPreset::Cxa.table(),
        vec![OppScore],
        Some(Fallback::Shared),
    ))
    .unwrap();
    let ranks: Vec<u32> = s.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, vec![1, 1, 1, 1]);
    assert!(s.rows.iter().all(|r| r.decided_by.is_none()));
    // Without `shared`: unique ranks in pairing-number order, reason `pairing_no`.
    let s = compute(&input(
        4,
        event(4, rounds, &[]),
        ScoringPreset::Cxa.table(),
        vec![OppScore],
        None,
    ))
    .unwrap();
    let ranks: Vec<u32> = s.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4]);
    assert_eq!(order(&s), vec![1, 2, 3, 4]);
    assert_eq!(decided(&s, 2), Some(DecidedBy::PairingNo));
}

/// Lots: reproducible from the seed, and a different seed can give another order.
#[test]
fn lots_are_seeded() {
    let rounds: &[&[(u32, u32, GameResult)]] = &[&[(1, 2, D), (3, 4, D), (5, 6, D), (7, 8, D)]];
    let mk = |seed| {
        let mut i = input(
            8,
            event(8, rounds, &[]),
            ScoringPreset::Cxa.table(),
            vec![],
            Some(Fallback::Lots),
        );
        i.options.lots_seed = seed;
        compute(&i).unwrap()
    };
    assert_eq!(order(&mk(7)), order(&mk(7)));
    let orders: std::collections::BTreeSet<Vec<u32>> = (0..5).map(|s| order(&mk(s))).collect();
    assert!(orders.len() > 1, "five seeds gave one order");
    assert!(mk(7)
        .rows
        .iter()
        .skip(1)
        .all(|r| r.decided_by == Some(DecidedBy::Fallback(Fallback::Lots))));
}

/// Fouls: fewer ranks higher. Withdrawn players stay in the table, flagged.
#[test]
fn fouls_fewer_first_and_withdrawn_flagged() {
    let rounds: &[&[(u32, u32, GameResult)]] = &[&[(1, 2, D), (3, 4, R)], &[(1, 2, D), (4, 3, R)]];
    let mut inp = input(
        4,
        event(4, rounds, &[]),
        ScoringPreset::Cxa.table(),
        vec![Fouls],
        None,
    );
    inp.players[0].fouls = 2;
    inp.players[1].fouls = 1;
    inp.players[3].withdrawn = true;
    let s = compute(&inp).unwrap();
    // All four on 2 points: 3 and 4 (no fouls), then 2 (one), then 1 (two).
    assert_eq!(order(&s), vec![3, 4, 2, 1]);
    assert_eq!(decided(&s, 1), Some(DecidedBy::Tiebreak(Fouls)));
    assert!(s.rows.iter().find(|r| r.no.get() == 4).unwrap().withdrawn);
    assert_eq!(s.rows.len(), 4);
}

/// Categories keep the section order and number 1..m; shared only with shared section ranks.
#[test]
fn categories_rank_a_subset() {
    let rounds: &[&[(u32, u32, GameResult)]] = &[&[(1, 2, R), (3, 4, R)], &[(1, 3, R), (2, 4, R)]];
    let mut inp = input(
        4,
        event(4, rounds, &[]),
        ScoringPreset::Cxa.table(),
        vec![OppScore],
        None,
    );
    inp.players[1].categories.insert("women".into());
    inp.players[3].categories.insert("women".into());
    let s = compute(&inp).unwrap();
    let w = category_by_tag(&s, &inp.players, "women");
    let got: Vec<(u32, u32, u32)> = w
        .iter()
        .map(|c| (c.rank, c.section_rank, c.no.get()))
        .collect();
    assert_eq!(got, vec![(1, 2, 2), (2, 4, 4)]);
    let odd = category(&s, |r| r.no.get() % 2 == 1);
    assert_eq!(odd.iter().map(|c| c.rank).collect::<Vec<_>>(), vec![1, 2]);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let mut inp = input(
        2,
        event(2, &[&[(1, 2, R)]], &[]),
        ScoringPreset::Cxa.table(),
        vec![],
        None,
    );
    inp.outcomes[0][0] = Outcome::Game {
        opponent: p(9),
        colour: Colour::Red,
        result: arbiter_types::PlayerResult::Win,
    };
    let e = compute(&inp).unwrap_err();
    assert_eq!(
        e,
        StandingsError::UnknownOpponent {
            no: p(1),
            round: 1,
            opponent: p(9)
        }
    );
    assert!(e.to_string().starts_with("序号1第1轮"));
    inp.outcomes.pop();
    assert!(matches!(
        compute(&inp),
        Err(StandingsError::RowCount { .. })
    ));
}
