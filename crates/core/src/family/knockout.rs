//! Knockout games (淘汰赛): `knockout_game_recorded`, one game of a match between two players
//! of the section, and `knockout_result_claimed`, a player's claim of a game's result on his
//! phone (only while the game is not recorded). The bracket itself is built from these games by the director, which keeps
//! it in the section's knockout memo ([`crate::memo`]; the fold stamps each game it appends).

use super::{player, section};
use crate::entry::*;
use crate::state::{EventState, Foul, KnockoutGame};
use crate::validate::Rejection;

/// The rules of a knockout entry (see the module documentation); any other entry is left to
/// its own family ([`super::Family::of`]).
pub(crate) fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    match entry {
        LogEntry::KnockoutSeeded { section: s, seeds } => {
            let rec = section(state, s)?;
            let bad = |problem| Err(Rejection::BadKnockoutSeeds(s.clone(), problem));
            if !rec.knockout_seeds.is_empty() {
                return bad("已确定 (the seeds are fixed already)");
            }
            if !rec.knockout.is_empty() {
                return bad("须在第一局之前确定 (seeds are fixed before the first game)");
            }
            if seeds.is_empty() {
                return bad("为空 (no seed)");
            }
            if seeds.iter().any(|no| no.index() >= rec.order.len()) {
                return bad("不是本组的序号 (not a pairing number of the section)");
            }
            let mut sorted = seeds.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return bad("有重复的序号 (a pairing number twice)");
            }
            Ok(())
        }
        LogEntry::KnockoutGameRecorded {
            section: s,
            match_id,
            red,
            black,
            fouls,
            ..
        } => {
            section(state, s)?;
            if fouls.iter().any(|f| f.reason.trim().is_empty()) {
                return Err(Rejection::Required("犯规原因 foul reason"));
            }
            if match_id.trim().is_empty() {
                return Err(Rejection::Required("对阵编号 match id"));
            }
            if red == black {
                return Err(Rejection::SelfPairing(*red));
            }
            for p in [red, black] {
                if player(state, p)?.section != *s {
                    return Err(Rejection::WrongSection {
                        player: *p,
                        section: s.clone(),
                    });
                }
            }
            Ok(())
        }
        LogEntry::KnockoutResultClaimed {
            section: s,
            match_id,
            game,
            ..
        } => {
            let rec = section(state, s)?;
            if match_id.trim().is_empty() {
                return Err(Rejection::Required("对阵编号 match id"));
            }
            if rec.knockout_game(match_id, *game).is_some() {
                return Err(Rejection::KnockoutClaimAfterResult {
                    match_id: match_id.clone(),
                    game: *game,
                });
            }
            Ok(())
        }
        // Another family's entry (`Family::of`): checked there.
        _ => Ok(()),
    }
}

/// The fold of a valid knockout entry; any other entry is left to its own family.
pub(crate) fn apply(state: &mut EventState, seq: u64, e: &LogEntry) {
    if let LogEntry::KnockoutSeeded { section, seeds } = e {
        if let Some(s) = state.sections.get_mut(section) {
            s.knockout_seeds = seeds.clone();
        }
        return;
    }
    if let LogEntry::KnockoutResultClaimed {
        section,
        match_id,
        game,
        side,
        result,
    } = e
    {
        if let Some(s) = state.sections.get_mut(section) {
            s.knockout_claims.push_back(crate::state::KnockoutClaim {
                match_id: match_id.clone(),
                game: *game,
                claim: crate::state::ResultClaim {
                    side: *side,
                    result: *result,
                    seq,
                },
            });
        }
        return;
    }
    if let LogEntry::KnockoutGameRecorded {
        section,
        match_id,
        game,
        kind,
        red,
        black,
        result,
        fouls,
    } = e
    {
        if let Some(s) = state.sections.get_mut(section) {
            s.knockout_memo.push();
            s.knockout.push_back(KnockoutGame {
                match_id: match_id.clone(),
                game: *game,
                kind: *kind,
                red: *red,
                black: *black,
                result: *result,
                fouls: fouls.clone(),
            });
        }
        // A knockout game's foul is the player's foul as any other (tie-break 犯规, lists).
        for f in fouls {
            let p = match f.colour {
                arbiter_types::Colour::Red => red,
                arbiter_types::Colour::Black => black,
            };
            if let Some(p) = state.players.get_mut(p) {
                p.fouls.push(Foul {
                    round: None,
                    board: None,
                    kind: f.kind,
                    reason: f.reason.clone(),
                    seq,
                    knockout: Some((match_id.clone(), *game)),
                });
            }
        }
    }
}
