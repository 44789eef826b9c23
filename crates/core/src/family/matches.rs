//! Team matches (团体赛, A15): `team_numbers_drawn` (队号: only extended once a round is
//! paired), `matches_paired` (the next round's matches, or the last round's again while none of
//! its games has a result; every team of the section once at most, named by its team number),
//! `lineup_given` (a team's players board by board, one seat per board of the regulation's
//! matches: members of the team, not withdrawn, each once; only while none of the team's games of that round has a result)
//! and `match_confirmed` (a team's captain confirms its match: once per team, only when every
//! board of the match has a result; a result of the match entered, corrected or played with
//! colours swapped later drops the match's confirmations, [`results_changed`]).
//!
//! The games of a team round are an ordinary `round_paired` of the same round (the director
//! seats them from the matches and the line-ups), so results, slips, corrections, fouls and
//! game records work on them as on any board.

use super::{player, section};
use crate::entry::*;
use crate::state::{EventState, TeamRound};
use crate::validate::Rejection;
use std::collections::{BTreeSet, HashSet};

/// The team `t`, a team of section `s`.
fn team_of<'a>(
    state: &'a EventState,
    s: &str,
    t: &str,
) -> Result<&'a crate::state::TeamRecord, Rejection> {
    let team = state
        .teams
        .get(t)
        .ok_or_else(|| Rejection::UnknownTeam(t.to_string()))?;
    if team.section.as_deref() != Some(s) {
        return Err(Rejection::TeamNotInSection {
            team: t.to_string(),
            section: s.to_string(),
        });
    }
    Ok(team)
}

/// The rules of a team-match entry (see the module documentation); any other entry is left
/// to its own family ([`super::Family::of`]).
pub(crate) fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    match entry {
        LogEntry::TeamNumbersDrawn {
            section: s, order, ..
        } => {
            let sec = section(state, s)?;
            let mut seen = BTreeSet::new();
            for t in order {
                team_of(state, s, t)?;
                if !seen.insert(t) {
                    return Err(Rejection::DuplicateTeam(t.clone()));
                }
            }
            if let Some(&r) = sec.matches.keys().next() {
                if !order.starts_with(&sec.team_order) {
                    return Err(Rejection::RedrawAfterPairing {
                        section: s.clone(),
                        round: r,
                    });
                }
            }
            Ok(())
        }
        LogEntry::MatchesPaired {
            section: s,
            round: r,
            matches,
            bye,
            ..
        } => {
            let sec = section(state, s)?;
            let last = sec.matches.keys().next_back().copied().unwrap_or(0);
            if *r == last && *r >= 1 {
                // Paired again: only while none of its games has a result.
                if let Some(rd) = sec.rounds.get(r) {
                    if rd.completed || rd.boards.iter().any(|b| b.result.is_some()) {
                        return Err(Rejection::RoundHasResults {
                            section: s.clone(),
                            round: *r,
                        });
                    }
                }
            } else if *r != last + 1 {
                return Err(Rejection::WrongRound {
                    section: s.clone(),
                    expected: last + 1,
                    found: *r,
                });
            }
            if *r > 1 && !sec.rounds.get(&(r - 1)).is_some_and(|p| p.completed) {
                return Err(Rejection::PreviousRoundOpen {
                    section: s.clone(),
                    round: r - 1,
                });
            }
            let mut seen = HashSet::with_capacity(2 * matches.len() + 1);
            for m in matches {
                if m.first == m.second {
                    return Err(Rejection::TeamSelfPairing(m.first.clone()));
                }
            }
            // The numbered teams as a set: one lookup per team named, not a scan.
            let numbered: HashSet<&str> = sec.team_order.iter().map(String::as_str).collect();
            for t in matches
                .iter()
                .flat_map(|m| [&m.first, &m.second])
                .chain(bye.iter())
            {
                team_of(state, s, t)?;
                if !seen.insert(t) {
                    return Err(Rejection::DuplicateTeam(t.clone()));
                }
                if !numbered.contains(t.as_str()) {
                    return Err(Rejection::TeamNoNumber(t.clone()));
                }
            }
            Ok(())
        }
        LogEntry::LineupGiven {
            section: s,
            round: r,
            team: t,
            boards,
            ..
        } => {
            let sec = section(state, s)?;
            let team = team_of(state, s, t)?;
            let tr = sec.matches.get(r).ok_or_else(|| Rejection::NoMatches {
                section: s.clone(),
                round: *r,
            })?;
            if tr.match_of(t).is_none() {
                return Err(Rejection::TeamNotInRound {
                    team: t.clone(),
                    section: s.clone(),
                    round: *r,
                });
            }
            // One seat per board of the regulation's matches.
            let per_match = state.regulation().ok().and_then(|reg| {
                reg.section(s)
                    .and_then(|x| x.team_match.as_ref())
                    .map(|tm| tm.boards)
            });
            if let Some(n) = per_match.filter(|n| *n as usize != boards.len()) {
                return Err(Rejection::LineupLength {
                    team: t.clone(),
                    given: boards.len(),
                    boards: n,
                });
            }
            let mut seen = BTreeSet::new();
            for p in boards.iter().flatten() {
                let pl = player(state, p)?;
                if !team.members.contains(p) {
                    return Err(Rejection::NotInTeam {
                        player: *p,
                        team: t.clone(),
                    });
                }
                if !seen.insert(p) {
                    return Err(Rejection::DuplicatePlayer(*p));
                }
                // His status is `Withdrawn` exactly when his record says so.
                if pl.withdrawn.is_some() {
                    return Err(Rejection::PairingWithdrawn(*p));
                }
            }
            // The team's games of that round (seated already): none may have a result.
            if let Some(rd) = sec.rounds.get(r) {
                let played = rd.boards.iter().any(|b| {
                    (team.members.contains(&b.red) || team.members.contains(&b.black))
                        && (b.result.is_some() || b.confirmed)
                });
                if played || rd.completed {
                    return Err(Rejection::LineupAfterResult {
                        team: t.clone(),
                        section: s.clone(),
                        round: *r,
                    });
                }
            }
            Ok(())
        }
        LogEntry::MatchConfirmed {
            section: s,
            round: r,
            team: t,
            ..
        } => {
            let sec = section(state, s)?;
            team_of(state, s, t)?;
            let tr = sec.matches.get(r).ok_or_else(|| Rejection::NoMatches {
                section: s.clone(),
                round: *r,
            })?;
            let Some((m, _)) = tr.match_of(t) else {
                return Err(Rejection::TeamNotInRound {
                    team: t.clone(),
                    section: s.clone(),
                    round: *r,
                });
            };
            if tr.confirmed.contains_key(t) {
                return Err(Rejection::MatchAlreadyConfirmed {
                    team: t.clone(),
                    section: s.clone(),
                    round: *r,
                });
            }
            // Every game of the match has a result (an empty seat is a forfeit already).
            let rd = super::round(state, s, *r)?;
            if let Some(n) = boards_per_match(state, s) {
                let first = (m - 1) * n + 1;
                if let Some(b) = rd
                    .boards
                    .iter()
                    .find(|b| (first..first + n).contains(&b.board) && b.result.is_none())
                {
                    return Err(Rejection::MatchUnfinished {
                        team: t.clone(),
                        section: s.clone(),
                        round: *r,
                        board: b.board,
                    });
                }
            }
            Ok(())
        }
        // Another family's entry (`Family::of`): checked there.
        _ => Ok(()),
    }
}

/// The boards of a match of team section `s` (the regulation's `team_match.boards`); `None`
/// when the regulation cannot be read or the section is not a team match.
fn boards_per_match(state: &EventState, s: &str) -> Option<u32> {
    state
        .regulation()
        .ok()?
        .section(s)?
        .team_match
        .as_ref()
        .map(|tm| tm.boards)
        .filter(|n| *n > 0)
}

/// A result of board `board` of round `round` changed (entered, corrected, its colours
/// swapped): the captains' confirmations of that board's match are dropped — they
/// confirmed other results. Board `b` of match `m` is the round's board `(m − 1) × N + b`.
pub(crate) fn results_changed(state: &mut EventState, s: &str, round: u32, board: u32) {
    let confirmed = state
        .sections
        .get(s)
        .and_then(|sec| sec.matches.get(&round))
        .is_some_and(|tr| !tr.confirmed.is_empty());
    if !confirmed || board == 0 {
        return;
    }
    let Some(n) = boards_per_match(state, s) else {
        return;
    };
    let m = ((board - 1) / n) as usize;
    if let Some(tr) = state
        .sections
        .get_mut(s)
        .and_then(|sec| sec.matches.get_mut(&round))
    {
        if let Some(p) = tr.matches.get(m).cloned() {
            tr.confirmed.remove(&p.first);
            tr.confirmed.remove(&p.second);
        }
    }
}

/// The fold of a valid team-match entry; any other entry is left to its own family.
pub(crate) fn apply(state: &mut EventState, _seq: u64, e: &LogEntry) {
    match e {
        LogEntry::TeamNumbersDrawn {
            section,
            seed,
            order,
        } => {
            if let Some(s) = state.sections.get_mut(section) {
                s.team_order = order.clone();
                s.team_seed = Some(*seed);
            }
        }
        LogEntry::MatchesPaired {
            section,
            round,
            matches,
            bye,
            seed,
            manual,
        } => {
            if let Some(s) = state.sections.get_mut(section) {
                // Paired again: the line-ups given for the round's old matches are kept for
                // the teams that still play it.
                let playing: HashSet<&str> = matches
                    .iter()
                    .flat_map(|m| [m.first.as_str(), m.second.as_str()])
                    .collect();
                let lineups = s
                    .matches
                    .get(round)
                    .map(|old| old.lineups.clone())
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(t, _)| playing.contains(t.as_str()))
                    .collect();
                s.matches.insert(
                    *round,
                    TeamRound::new(
                        *round,
                        matches.clone(),
                        bye.clone(),
                        *seed,
                        manual.clone(),
                        lineups,
                    ),
                );
            }
        }
        LogEntry::LineupGiven {
            section,
            round,
            team,
            boards,
            ..
        } => {
            if let Some(tr) = state
                .sections
                .get_mut(section)
                .and_then(|s| s.matches.get_mut(round))
            {
                tr.lineups.insert(team.clone(), boards.clone());
            }
        }
        LogEntry::MatchConfirmed {
            section,
            round,
            team,
            by,
        } => {
            if let Some(tr) = state
                .sections
                .get_mut(section)
                .and_then(|s| s.matches.get_mut(round))
            {
                tr.confirmed.insert(team.clone(), by.clone());
            }
        }
        // Another family's entry (`Family::of`): folded there.
        _ => {}
    }
}
