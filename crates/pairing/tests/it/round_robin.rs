//! Round robin (A7, Part B §5.1).
//!
//! What is checked, for every N from 2 to 30, single and double round robin:
//! - every round: each of the N players appears exactly once (on a board or as the bye);
//! - within each cycle every pair of players meets exactly once;
//! - within each cycle each player's red and black counts differ by at most 1;
//! - within each cycle no player has three equal colours in consecutive rounds in which
//!   he plays (a bye round is skipped, not a break);
//! - across the double round robin (both cycles joined): odd N → nobody has three equal
//!   colours in a row; even N → at most three, and only across the junction of the cycles
//!   (the last round of cycle 1 and round 1 of cycle 2, which repeats round 1 with colours
//!   swapped, can extend a pair of equal colours) — the Berger table cannot avoid that;
//! - over both cycles every player has exactly as many reds as blacks.
//!
//! And the Part B §5.1 tables for M = 4, 6, 8, 10, 12 are reproduced exactly.

use arbiter_pairing::round_robin::{berger, double_berger, pair_round_robin, RoundRobinRound};
use arbiter_pairing::{Availability, Entrant, SectionState};
use arbiter_types::{Colour, PairingSettings, PlayerNo, ScoringTable};

type Table = (usize, &'static [&'static [&'static str]]);

const TABLES: &[Table] = &[
    // M = 4 (rules.md Part B §5.1, red first)
    (4, &[&["1-4", "2-3"], &["4-3", "1-2"], &["2-4", "3-1"]]),
    // M = 6 (rules.md Part B §5.1, red first)
    (
        6,
        &[
            &["1-6", "2-5", "3-4"],
            &["6-4", "5-3", "1-2"],
            &["2-6", "3-1", "4-5"],
            &["6-5", "1-4", "2-3"],
            &["3-6", "4-2", "5-1"],
        ],
    ),
    // M = 8 (rules.md Part B §5.1, red first)
    (
        8,
        &[
            &["1-8", "2-7", "3-6", "4-5"],
            &["8-5", "6-4", "7-3", "1-2"],
            &["2-8", "3-1", "4-7", "5-6"],
            &["8-6", "7-5", "1-4", "2-3"],
            &["3-8", "4-2", "5-1", "6-7"],
            &["8-7", "1-6", "2-5", "3-4"],
            &["4-8", "5-3", "6-2", "7-1"],
        ],
    ),
    // M = 10 (rules.md Part B §5.1, red first)
    (
        10,
        &[
            &["1-10", "2-9", "3-8", "4-7", "5-6"],
            &["10-6", "7-5", "8-4", "9-3", "1-2"],
            &["2-10", "3-1", "4-9", "5-8", "6-7"],
            &["10-7", "8-6", "9-5", "1-4", "2-3"],
            &["3-10", "4-2", "5-1", "6-9", "7-8"],
            &["10-8", "9-7", "1-6", "2-5", "3-4"],
            &["4-10", "5-3", "6-2", "7-1", "8-9"],
            &["10-9", "1-8", "2-7", "3-6", "4-5"],
            &["5-10", "6-4", "7-3", "8-2", "9-1"],
        ],
    ),
    // M = 12 (rules.md Part B §5.1, red first)
    (
        12,
        &[
            &["1-12", "2-11", "3-10", "4-9", "5-8", "6-7"],
            &["12-7", "8-6", "9-5", "10-4", "11-3", "1-2"],
            &["2-12", "3-1", "4-11", "5-10", "6-9", "7-8"],
            &["12-8", "9-7", "10-6", "11-5", "1-4", "2-3"],
            &["3-12", "4-2", "5-1", "6-11", "7-10", "8-9"],
            &["12-9", "10-8", "11-7", "1-6", "2-5", "3-4"],
            &["4-12", "5-3", "6-2", "7-1", "8-11", "9-10"],
            &["12-10", "11-9", "1-8", "2-7", "3-6", "4-5"],
            &["5-12", "6-4", "7-3", "8-2", "9-1", "10-11"],
            &["12-11", "1-10", "2-9", "3-8", "4-7", "5-6"],
            &["6-12", "7-5", "8-4", "9-3", "10-2", "11-1"],
        ],
    ),
];

fn parse_pair(s: &str) -> (usize, usize) {
    let (a, b) = s.split_once('-').unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

#[test]
fn spec_tables_reproduced_exactly() {
    for &(m, rows) in TABLES {
        let got = berger(m);
        assert_eq!(got.len(), rows.len(), "M = {m}");
        for (r, row) in rows.iter().enumerate() {
            let want: Vec<(usize, usize)> = row.iter().map(|c| parse_pair(c)).collect();
            assert_eq!(got[r].boards, want, "M = {m}, round {}", r + 1);
            assert_eq!(got[r].bye, None);
        }
        // The odd field N = M - 1 uses the same table with M as the dummy.
        let odd = berger(m - 1);
        for (r, row) in rows.iter().enumerate() {
            let want: Vec<(usize, usize)> = row
                .iter()
                .map(|c| parse_pair(c))
                .filter(|&(a, b)| a != m && b != m)
                .collect();
            let bye = row.iter().map(|c| parse_pair(c)).find_map(|(a, b)| {
                if a == m {
                    Some(b)
                } else if b == m {
                    Some(a)
                } else {
                    None
                }
            });
            assert_eq!(odd[r].boards, want, "N = {}, round {}", m - 1, r + 1);
            assert_eq!(odd[r].bye, bye, "N = {}, round {}", m - 1, r + 1);
        }
    }
}

/// Colour sequence of every player (index 1..=n) in the given rounds; `None` = bye.
fn colours(n: usize, rounds: &[RoundRobinRound]) -> Vec<Vec<Option<Colour>>> {
    let mut seq = vec![Vec::new(); n + 1];
    for rr in rounds {
        let mut seen = vec![0u32; n + 1];
        for &(r, b) in &rr.boards {
            seq[r].push(Some(Colour::Red));
            seq[b].push(Some(Colour::Black));
            seen[r] += 1;
            seen[b] += 1;
        }
        if let Some(b) = rr.bye {
            seq[b].push(None);
            seen[b] += 1;
        }
        assert!(
            seen[1..].iter().all(|&c| c == 1),
            "N = {n}: a player missing or twice"
        );
    }
    seq
}

fn longest_run(seq: &[Option<Colour>]) -> usize {
    let played: Vec<Colour> = seq.iter().flatten().copied().collect();
    let mut best = 0;
    let mut run = 0;
    for (i, c) in played.iter().enumerate() {
        run = if i > 0 && played[i - 1] == *c {
            run + 1
        } else {
            1
        };
        best = best.max(run);
    }
    best
}

fn check_cycle(n: usize, cycle: &[RoundRobinRound]) {
    assert_eq!(cycle.len(), n - 1 + n % 2, "N = {n}: rounds");
    let mut met = vec![vec![0u32; n + 1]; n + 1];
    for rr in cycle {
        for &(a, b) in &rr.boards {
            assert!(
                a >= 1 && a <= n && b >= 1 && b <= n && a != b,
                "N = {n}: bad board"
            );
            met[a][b] += 1;
            met[b][a] += 1;
        }
    }
    for (a, row) in met.iter().enumerate().skip(1) {
        for (b, &count) in row.iter().enumerate().skip(1) {
            if a != b {
                assert_eq!(count, 1, "N = {n}: {a} and {b}");
            }
        }
    }
    for (p, seq) in colours(n, cycle).iter().enumerate().skip(1) {
        let reds = seq.iter().filter(|c| **c == Some(Colour::Red)).count();
        let blacks = seq.iter().filter(|c| **c == Some(Colour::Black)).count();
        assert!(
            reds.abs_diff(blacks) <= 1,
            "N = {n}: player {p} {reds}:{blacks}"
        );
        assert!(longest_run(seq) <= 2, "N = {n}: player {p} three in a row");
    }
}

#[test]
fn single_round_robin_properties_2_to_30() {
    for n in 2..=30 {
        check_cycle(n, &berger(n));
    }
}

#[test]
fn double_round_robin_properties_2_to_30() {
    for n in 2..=30 {
        let all = double_berger(n);
        let per = berger(n).len();
        assert_eq!(all.len(), 2 * per);
        check_cycle(n, &all[..per]);
        check_cycle(n, &all[per..]);
        for (a, b) in all[..per].iter().zip(&all[per..]) {
            let swapped: Vec<(usize, usize)> = a.boards.iter().map(|&(r, k)| (k, r)).collect();
            assert_eq!(b.boards, swapped, "N = {n}: second cycle swaps colours");
            assert_eq!(a.bye, b.bye);
        }
        for (p, seq) in colours(n, &all).iter().enumerate().skip(1) {
            let limit = if n % 2 == 1 { 2 } else { 3 };
            assert!(
                longest_run(seq) <= limit,
                "N = {n}: player {p} run over {limit}"
            );
            let reds = seq.iter().filter(|c| **c == Some(Colour::Red)).count();
            let blacks = seq.iter().filter(|c| **c == Some(Colour::Black)).count();
            assert_eq!(reds, blacks, "N = {n}: player {p} balanced over two cycles");
        }
    }
}

fn state(nos: &[u32]) -> SectionState {
    SectionState {
        players: nos
            .iter()
            .map(|&n| Entrant {
                no: PlayerNo::new(n).unwrap(),
                team: None,
                availability: Availability::Active,
                history: Vec::new(),
            })
            .collect(),
        scoring: ScoringTable::default(),
        settings: PairingSettings::default(),
        total_rounds: 5,
    }
}

#[test]
fn section_pairing_follows_the_table() {
    // 5 players → table M = 6; round 2 is 6-4, 5-3, 1-2: 4 has the bye.
    let s = state(&[1, 2, 3, 4, 5]);
    let p = pair_round_robin(&s, 2, 1).unwrap();
    let boards: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|b| (b.red.get(), b.black.get()))
        .collect();
    assert_eq!(boards, vec![(5, 3), (1, 2)]);
    assert_eq!(p.bye.map(|b| b.get()), Some(4));
    assert!(p.bye_why.unwrap().contains("轮空"));
    // Second cycle, round 5 + 2 = 7: colours swapped.
    let p = pair_round_robin(&s, 7, 2).unwrap();
    let boards: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|b| (b.red.get(), b.black.get()))
        .collect();
    assert_eq!(boards, vec![(3, 5), (2, 1)]);
    assert!(p.boards[0].why.group.contains("第二循环"));
    assert!(pair_round_robin(&s, 6, 1).is_err());
    assert!(pair_round_robin(&s, 0, 1).is_err());
}

#[test]
fn section_pairing_maps_table_numbers_to_sorted_players() {
    let s = state(&[12, 3, 7, 5]);
    let p = pair_round_robin(&s, 1, 1).unwrap();
    // Sorted: 3, 5, 7, 12 = table 1..4; round 1 is 1-4, 2-3.
    let boards: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|b| (b.red.get(), b.black.get()))
        .collect();
    assert_eq!(boards, vec![(3, 12), (5, 7)]);
    assert_eq!(p.boards[1].board, 2);
}
