//! Team matches (团体赛, rules.md A15) simulated to the end and checked from the outside: a
//! team Swiss of 40 teams on 4 boards and a team round robin of 8 teams on 6 boards, and the
//! bundled team regulations. Every event replays and verifies; every team Swiss round from the
//! second is
//! checked at team level by the project's own pairing checker (no rematch, score groups,
//! colours); the team standings' 场分, 局分, 胜局 and 弃权 are counted again here from the games
//! and the line-ups alone, without the standings code; the games sit where A15 puts them.

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::team_match;
use arbiter_regulation::Regulation;
use arbiter_simulate::{Simulator, Sizes};
use arbiter_types::{Colour, GameResult, PlayerNo, Score};
use std::collections::{BTreeMap, BTreeSet};

fn simulate(
    path: &str,
    players: Option<usize>,
    seed: u64,
) -> (Regulation, Vec<Recorded>, EventState) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let src = std::fs::read_to_string(format!("{root}{path}")).expect("regulation file");
    let reg = arbiter_regulation::parse(&src, path).unwrap_or_else(|e| panic!("{e}"));
    let sizes = Sizes {
        all: players,
        by_section: BTreeMap::new(),
    };
    let mut sim = Simulator::new(reg.clone(), &src, path, seed, &sizes);
    let (log, state) = sim
        .run_in_memory()
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    (reg, log, state)
}

/// The event replays, verifies and is closed.
fn verified(log: &[Recorded], state: &EventState) {
    assert!(state.closed, "the event is closed at the end");
    let replayed = EventState::replay(log).expect("replays");
    assert_eq!(&replayed, state);
    let diffs = arbiter_director::verify::verify(log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

/// Every team Swiss round, checked at team level on the state it was paired on.
fn team_rounds_pass_the_checker(reg: &Regulation, log: &[Recorded], section: &str) -> u32 {
    let sec = reg.section(section).expect("section");
    let tm = sec.team_match.as_ref().expect("team match");
    let mut state = EventState::new();
    let mut checked = 0;
    for r in log {
        if let LogEntry::MatchesPaired {
            round,
            matches,
            bye,
            ..
        } = &r.entry
        {
            // Round 1 has its own colour rule (A3): `verify` re-runs it instead.
            if *round == 1 {
                state.apply(r).expect("folds");
                continue;
            }
            let rec = state.section(section).expect("section record");
            let teams = rec.team_order.len() as u32;
            let input =
                team_match::pairing_state(sec, tm, &state, team_match::planned_rounds(sec, teams));
            let no =
                |t: &str| PlayerNo::new(rec.team_no(t).expect("team number")).expect("positive");
            let pairing = arbiter_pairing::Pairing {
                round: *round,
                boards: matches
                    .iter()
                    .enumerate()
                    .map(|(i, m)| arbiter_pairing::Board {
                        board: i as u32 + 1,
                        red: no(&m.first),
                        black: no(&m.second),
                        why: Default::default(),
                    })
                    .collect(),
                bye: bye.as_deref().map(no),
                bye_why: None,
                relaxed: Vec::new(),
            };
            let broken: Vec<_> = arbiter_pairing::checker::check(&input, *round, &pairing)
                .into_iter()
                .filter(|v| v.is_rule())
                .collect();
            assert!(broken.is_empty(), "round {round}: {broken:?}");
            checked += 1;
        }
        state.apply(r).expect("folds");
    }
    checked
}

/// What the games and the line-ups say of every team, counted here: 场分, 局分, boards won,
/// boards lost by forfeit.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counted {
    match_points: Score,
    game_points: Score,
    game_wins: u32,
    forfeits: u32,
}

fn count_from_games(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> BTreeMap<String, Counted> {
    let sec = reg.section(section).expect("section");
    let tm = sec.team_match.as_ref().expect("team match");
    let table = sec.scoring.table;
    let mp = tm.match_points.table();
    let rec = state.section(section).expect("section record");
    let n = tm.boards;
    let team_of = |p| {
        state
            .player(p)
            .and_then(|r| r.team.clone())
            .unwrap_or_default()
    };
    let mut out: BTreeMap<String, Counted> = BTreeMap::new();
    for (round, tr) in rec.matches.iter() {
        let games = &rec.rounds[round];
        for (i, m) in tr.matches.iter().enumerate() {
            let mut pts: BTreeMap<&str, Score> = BTreeMap::new();
            let mut forfeited: BTreeMap<&str, u32> = BTreeMap::new();
            for b in 1..=n {
                let no = i as u32 * n + b;
                match games.board(no) {
                    Some(g) => {
                        // A15: the team named first is red on the odd boards.
                        let first_red = team_of(g.red) == m.first;
                        assert_eq!(
                            first_red,
                            b % 2 == 1 || g.colours_swapped,
                            "round {round} board {no}"
                        );
                        let res = g.result.expect("every game has a result");
                        for (p, colour) in [(g.red, Colour::Red), (g.black, Colour::Black)] {
                            let t = if team_of(p) == m.first {
                                &m.first
                            } else {
                                &m.second
                            };
                            let won = matches!(
                                (res, colour),
                                (GameResult::RedWin | GameResult::BlackForfeit, Colour::Red)
                                    | (
                                        GameResult::BlackWin | GameResult::RedForfeit,
                                        Colour::Black
                                    )
                            );
                            let lost_by_forfeit = matches!(
                                (res, colour),
                                (
                                    GameResult::RedForfeit | GameResult::DoubleForfeit,
                                    Colour::Red
                                ) | (
                                    GameResult::BlackForfeit | GameResult::DoubleForfeit,
                                    Colour::Black
                                )
                            );
                            let p = match res {
                                GameResult::Draw => table.draw(colour),
                                GameResult::DoubleForfeit => table.double_forfeit,
                                _ if won && res.is_forfeit() => table.forfeit_win,
                                _ if won => table.win,
                                _ if res.is_forfeit() => table.forfeit_loss,
                                _ => table.loss,
                            };
                            *pts.entry(t).or_default() += p;
                            let c = out.entry(t.clone()).or_default();
                            c.game_points += p;
                            c.game_wins += u32::from(won);
                            c.forfeits += u32::from(lost_by_forfeit);
                        }
                    }
                    None => {
                        // No game: an empty seat, lost by forfeit (the line-up given says
                        // which side was empty).
                        for t in [&m.first, &m.second] {
                            let empty = tr.lineups.get(t).is_some_and(|l| {
                                l.get((b - 1) as usize).copied().flatten().is_none()
                            });
                            let p = if empty {
                                table.forfeit_loss
                            } else {
                                table.forfeit_win
                            };
                            *pts.entry(t).or_default() += p;
                            *forfeited.entry(t).or_default() += u32::from(empty);
                            let c = out.entry(t.clone()).or_default();
                            c.game_points += p;
                            c.game_wins += u32::from(!empty);
                            c.forfeits += u32::from(empty);
                        }
                    }
                }
            }
            let (f, s) = (pts[m.first.as_str()], pts[m.second.as_str()]);
            let all_out = |t: &str| forfeited.get(t).copied().unwrap_or(0) == n;
            let (fm, sm) = if all_out(&m.first) && all_out(&m.second) {
                (mp.double_forfeit, mp.double_forfeit)
            } else if all_out(&m.first) {
                (mp.forfeit_loss, mp.forfeit_win)
            } else if all_out(&m.second) {
                (mp.forfeit_win, mp.forfeit_loss)
            } else if f > s {
                (mp.win, mp.loss)
            } else if f < s {
                (mp.loss, mp.win)
            } else {
                (mp.draw_red, mp.draw_black)
            };
            out.entry(m.first.clone()).or_default().match_points += fm;
            out.entry(m.second.clone()).or_default().match_points += sm;
        }
        if let Some(b) = &tr.bye {
            let c = out.entry(b.clone()).or_default();
            c.match_points += mp.bye;
            c.game_points += team_match::bye_game_points(sec, tm);
        }
    }
    out
}

/// The closing fixes the team places by 场分 and 局分 as the standings give them, and the
/// published export carries the same table.
fn closed_with_the_team_places(
    reg: &Regulation,
    log: &[Recorded],
    state: &EventState,
    section: &str,
) {
    let table = team_match::standings(reg, state, section).expect("standings");
    let places: Vec<(u32, String)> = table
        .rows
        .iter()
        .map(|r| (r.rank, r.name.clone()))
        .collect();
    let closed = log
        .iter()
        .rev()
        .find_map(|r| match &r.entry {
            LogEntry::EventClosed { teams, .. } => Some(teams.clone()),
            _ => None,
        })
        .expect("event_closed");
    let fixed = closed
        .iter()
        .find(|t| t.section == section)
        .expect("the team-match section's places");
    assert_eq!(fixed.places, places);
    let x = arbiter_director::export(state).expect("export");
    let published = x
        .team_matches
        .iter()
        .find(|t| t.section == section)
        .expect("published team table");
    let ranked: Vec<(u32, String)> = published
        .standings
        .iter()
        .map(|r| (r.rank, r.team.clone()))
        .collect();
    assert_eq!(ranked, places);
}

/// The standings agree with the count from the games, and are ordered by the list's first two
/// criteria when they are 场分 then 局分.
fn standings_agree(reg: &Regulation, state: &EventState, section: &str) {
    let table = team_match::standings(reg, state, section).expect("standings");
    let counted = count_from_games(reg, state, section);
    assert_eq!(table.rows.len(), counted.len());
    for r in &table.rows {
        let c = &counted[&r.name];
        assert_eq!(
            (r.match_points, r.game_points, r.game_wins, r.forfeits),
            (c.match_points, c.game_points, c.game_wins, c.forfeits),
            "{}",
            r.name
        );
    }
    let tm = reg
        .section(section)
        .and_then(|s| s.team_match.as_ref())
        .expect("tm");
    if tm.tiebreaks.starts_with(&[
        arbiter_types::TeamTiebreak::MatchPoints,
        arbiter_types::TeamTiebreak::GamePoints,
    ]) {
        for w in table.rows.windows(2) {
            assert!(
                (w[0].match_points, w[0].game_points) >= (w[1].match_points, w[1].game_points),
                "{} above {}",
                w[0].name,
                w[1].name
            );
        }
    }
}

#[test]
fn a_team_swiss_of_40_teams_on_4_boards_is_played_to_the_end() {
    let (reg, log, state) = simulate(
        "crates/simulate/tests/fixtures/team-swiss.toml",
        Some(200),
        1,
    );
    verified(&log, &state);
    let rec = state.section("teams").expect("section");
    assert_eq!(rec.team_order.len(), 40);
    assert_eq!(rec.matches.len(), 7);
    for tr in rec.matches.values() {
        assert_eq!(tr.matches.len(), 20);
    }
    // The simulated captains handed in line-ups (a reserve playing, a team one short).
    let lineups = log
        .iter()
        .filter(|r| matches!(r.entry, LogEntry::LineupGiven { .. }))
        .count();
    assert!(lineups > 40 * 7, "{lineups} line-ups");
    assert_eq!(team_rounds_pass_the_checker(&reg, &log, "teams"), 6);
    standings_agree(&reg, &state, "teams");
    closed_with_the_team_places(&reg, &log, &state, "teams");
    // The match sheets every shell shows: both line-ups board by board, the running score
    // and the result, the named-first team red on the odd boards.
    for round in 1..=7 {
        let view = team_match::round_view(&reg, &state, "teams", round).expect("paired round");
        assert!(view.published);
        assert_eq!(view.matches.len(), 20);
        for (i, m) in view.matches.iter().enumerate() {
            assert_eq!(m.boards.len(), 4);
            assert!(m.result.is_some(), "round {round} match {}: finished", m.no);
            let sum = |f: fn(&team_match::MatchBoardView) -> Score| {
                m.boards.iter().map(f).fold(Score::ZERO, |a, b| a + b)
            };
            assert_eq!(m.first_points, sum(|b| b.first_points));
            assert_eq!(m.second_points, sum(|b| b.second_points));
            for b in &m.boards {
                assert_eq!(b.round_board, i as u32 * 4 + b.board);
                let red = if b.board % 2 == 1 {
                    Colour::Red
                } else {
                    Colour::Black
                };
                assert_eq!(b.first_colour, red);
            }
        }
    }
    assert!(team_match::round_view(&reg, &state, "teams", 8).is_none());
    // No two teams met twice.
    let mut met = BTreeSet::new();
    for tr in rec.matches.values() {
        for m in &tr.matches {
            let key = if m.first < m.second {
                (m.first.clone(), m.second.clone())
            } else {
                (m.second.clone(), m.first.clone())
            };
            assert!(met.insert(key), "{} and {} met twice", m.first, m.second);
        }
    }
}

#[test]
fn a_team_round_robin_of_8_teams_on_6_boards_meets_every_team_once() {
    let (reg, log, state) = simulate(
        "crates/simulate/tests/fixtures/team-round-robin.toml",
        Some(48),
        2,
    );
    verified(&log, &state);
    let rec = state.section("teams").expect("section");
    assert_eq!(rec.team_order.len(), 8);
    assert_eq!(rec.matches.len(), 7);
    let mut met = BTreeSet::new();
    for tr in rec.matches.values() {
        assert_eq!(tr.matches.len(), 4);
        for m in &tr.matches {
            let mut k = [m.first.clone(), m.second.clone()];
            k.sort();
            assert!(met.insert(k));
        }
    }
    assert_eq!(met.len(), 28, "every two of the eight teams met once");
    standings_agree(&reg, &state, "teams");
    closed_with_the_team_places(&reg, &log, &state, "teams");
}

#[test]
fn the_bundled_team_regulations_run_to_the_end() {
    for (path, section) in [
        ("regulations/yanhe-2018-league.toml", "league"),
        ("regulations/pudong-2014-clubs.toml", "clubs"),
    ] {
        let (reg, log, state) = simulate(path, None, 1);
        verified(&log, &state);
        let rec = state.section(section).expect("section");
        assert!(rec.team_order.len() >= 6, "{path}");
        let planned = team_match::planned_rounds(
            reg.section(section).expect("section"),
            rec.team_order.len() as u32,
        );
        assert_eq!(rec.matches.len() as u32, planned, "{path}");
        standings_agree(&reg, &state, section);
    }
}
