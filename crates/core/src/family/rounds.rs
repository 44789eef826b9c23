//! Drawing and pairing rounds (编排): `pairing_numbers_drawn` (抽签: numbers only extended
//! once a round is paired), `round_paired` (the next round, or the last one again while it has
//! no result), `player_absent` (请假, only for a round not yet paired), `round_published`
//! (公布对阵表) and `round_undone` (撤销编排: the last round, while nothing is recorded on it).

use super::{player, round, section};
use crate::entry::*;
use crate::state::{BoardRecord, EventState, RoundRecord};
use crate::validate::Rejection;
use arbiter_types::PlayerNo;
use std::collections::HashSet;

/// The rules of a rounds entry (see the module documentation); any other entry is left to
/// its own family ([`super::Family::of`]).
pub(crate) fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    match entry {
        LogEntry::PairingNumbersDrawn {
            section: s, order, ..
        } => {
            let sec = section(state, s)?;
            let mut seen = HashSet::with_capacity(order.len());
            for p in order {
                let pl = player(state, p)?;
                if pl.section != *s {
                    return Err(Rejection::WrongSection {
                        player: *p,
                        section: s.clone(),
                    });
                }
                if !seen.insert(p) {
                    return Err(Rejection::DuplicatePlayer(*p));
                }
            }
            if let Some(&r) = sec.rounds.keys().next() {
                if !order.starts_with(&sec.order) {
                    return Err(Rejection::RedrawAfterPairing {
                        section: s.clone(),
                        round: r,
                    });
                }
            }
            Ok(())
        }
        LogEntry::GroupsDrawn {
            section: s, groups, ..
        } => {
            let sec = section(state, s)?;
            if let Some(&r) = sec.rounds.keys().next() {
                if *groups != sec.groups {
                    return Err(Rejection::RegroupAfterPairing {
                        section: s.clone(),
                        round: r,
                    });
                }
            }
            if groups.len() < 2 || groups.iter().any(|g| g.len() < 2) {
                return Err(Rejection::BadGroups { section: s.clone() });
            }
            let mut seen = HashSet::new();
            for p in groups.iter().flatten() {
                if !sec.numbers.contains_key(p) {
                    return Err(Rejection::WrongSection {
                        player: *p,
                        section: s.clone(),
                    });
                }
                if !seen.insert(p) {
                    return Err(Rejection::DuplicatePlayer(*p));
                }
            }
            Ok(())
        }
        LogEntry::RoundPaired {
            section: s,
            round: r,
            boards,
            byes,
            ..
        } => {
            let sec = section(state, s)?;
            let last = sec.last_round();
            // A round may be re-paired while none of its boards has a result.
            let repair = *r == last && *r >= 1;
            if repair {
                let cur = &sec.rounds[r];
                if cur.completed || cur.boards.iter().any(|b| b.result.is_some()) {
                    return Err(Rejection::RoundHasResults {
                        section: s.clone(),
                        round: *r,
                    });
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
            let mut seen = HashSet::with_capacity(2 * boards.len() + byes.len());
            let mut nums = HashSet::with_capacity(boards.len());
            for b in boards {
                if b.board == 0 || !nums.insert(b.board) {
                    return Err(Rejection::BadBoardNumber(b.board));
                }
                if b.red == b.black {
                    return Err(Rejection::SelfPairing(b.red));
                }
            }
            for p in boards
                .iter()
                .flat_map(|b| [b.red, b.black])
                .chain(byes.iter().copied())
            {
                let pl = player(state, &p)?;
                if pl.section != *s {
                    return Err(Rejection::WrongSection {
                        player: p,
                        section: s.clone(),
                    });
                }
                if !seen.insert(p) {
                    return Err(Rejection::DuplicatePlayer(p));
                }
                if sec.pairing_no(p).is_none() {
                    return Err(Rejection::NoPairingNumber(p));
                }
                // His status is `Withdrawn` exactly when his record says so.
                if pl.withdrawn.is_some() {
                    return Err(Rejection::PairingWithdrawn(p));
                }
            }
            Ok(())
        }
        LogEntry::PlayerAbsent {
            player: p,
            round: r,
            ..
        } => {
            let pl = player(state, p)?;
            if pl.withdrawn.is_some() {
                return Err(Rejection::AlreadyWithdrawn(*p));
            }
            if *r == 0 {
                return Err(Rejection::RoundZero);
            }
            if section(state, &pl.section)?.rounds.contains_key(r) {
                return Err(Rejection::AbsentAfterPairing {
                    section: pl.section.clone(),
                    round: *r,
                });
            }
            if pl.absent.contains(r) {
                return Err(Rejection::AlreadyAbsent {
                    player: *p,
                    round: *r,
                });
            }
            Ok(())
        }
        LogEntry::RoundPublished {
            section: s,
            round: r,
        } => {
            if round(state, s, *r)?.published {
                return Err(Rejection::AlreadyPublished {
                    section: s.clone(),
                    round: *r,
                });
            }
            Ok(())
        }
        LogEntry::RoundUndone {
            section: s,
            round: r,
            ..
        } => {
            let rd = round(state, s, *r)?;
            let last = section(state, s)?.last_round();
            if *r != last {
                return Err(Rejection::UndoNotLast {
                    section: s.clone(),
                    round: *r,
                    last,
                });
            }
            if rd.completed {
                return Err(Rejection::RoundCompleted {
                    section: s.clone(),
                    round: *r,
                });
            }
            let touched = rd
                .boards
                .iter()
                .any(|b| b.result.is_some() || !b.fouls.is_empty() || !b.history.is_empty());
            if touched {
                return Err(Rejection::UndoWithResults {
                    section: s.clone(),
                    round: *r,
                });
            }
            Ok(())
        }
        // Another family's entry (`Family::of`): checked there.
        _ => Ok(()),
    }
}

/// The fold of a valid rounds entry; any other entry is left to its own family.
pub(crate) fn apply(state: &mut EventState, _seq: u64, e: &LogEntry) {
    match e {
        LogEntry::PairingNumbersDrawn {
            section,
            seed,
            order,
        } => {
            if let Some(s) = state.sections.get_mut(section) {
                s.order = order.clone();
                s.numbers = order
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (p, PlayerNo::from_index(i)))
                    .collect();
                s.draw_seed = Some(*seed);
                // A new draw before round 1 makes the groups of a `groups` section to split
                // again (its numbers decide them).
                if s.rounds.is_empty() {
                    s.groups.clear();
                    s.group_seed = None;
                }
            }
        }
        LogEntry::GroupsDrawn {
            section,
            groups,
            seed,
        } => {
            if let Some(s) = state.sections.get_mut(section) {
                s.groups = groups.clone();
                s.group_seed = *seed;
            }
        }
        LogEntry::RoundPaired {
            section,
            round,
            stage,
            boards,
            byes,
            seed,
            manual,
        } => {
            if let Some(s) = state.sections.get_mut(section) {
                s.rounds.insert(
                    *round,
                    RoundRecord {
                        round: *round,
                        stage: *stage,
                        boards: boards
                            .iter()
                            .map(|b| BoardRecord {
                                board: b.board,
                                red: b.red,
                                black: b.black,
                                result: None,
                                ending: None,
                                moves: None,
                                confirmed: false,
                                corrected: false,
                                history: Vec::new(),
                                fouls: Vec::new(),
                                colours_swapped: false,
                                flags_decided: Vec::new(),
                                protests: Vec::new(),
                                record: None,
                                claims: Vec::new(),
                            })
                            .collect(),
                        byes: byes.clone(),
                        seed: *seed,
                        manual: manual.clone(),
                        completed: false,
                        published: false,
                    },
                );
            }
        }
        LogEntry::PlayerAbsent { player, round, .. } => {
            if let Some(p) = state.players.get_mut(player) {
                if let Err(i) = p.absent.binary_search(round) {
                    p.absent.insert(i, *round);
                }
            }
        }
        LogEntry::RoundPublished { section, round } => {
            if let Some(r) = state
                .sections
                .get_mut(section)
                .and_then(|s| s.rounds.get_mut(round))
            {
                r.published = true;
            }
        }
        LogEntry::RoundUndone { section, round, .. } => {
            if let Some(s) = state.sections.get_mut(section) {
                s.rounds.remove(round);
                // A team round goes with its games.
                s.matches.remove(round);
            }
        }
        // Another family's entry (`Family::of`): folded there.
        _ => {}
    }
}
