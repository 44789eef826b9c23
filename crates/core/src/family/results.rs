//! Results (成绩): `result_entered` (a second one for the same board before its slip is
//! signed replaces the first — the arbiter's re-entry; the first stays in the log and in the
//! board's history), `result_claimed` (a player's claim on his phone, only while the board
//! has no result), `result_confirmed` (the signed slip: from then on only a
//! correction changes the result, A12), `result_corrected` (the chief arbiter, with the
//! reason), `foul_recorded` (犯规, A11, K12: a player's or a team's, tied to a game or not) and
//! `round_completed` (本轮结束: every board has a result).

use super::{board, player, round, section};
use crate::entry::*;
use crate::state::{EventState, Foul, GameFoulRecord, Protest, ResultChange};
use crate::validate::Rejection;

/// The rules of a results entry (see the module documentation); any other entry is left to
/// its own family ([`super::Family::of`]).
pub(crate) fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    match entry {
        LogEntry::ResultEntered {
            section: s,
            round: r,
            board: b,
            ..
        } => {
            let bd = board(state, s, *r, *b)?;
            if bd.confirmed {
                return Err(Rejection::ResultConfirmed {
                    round: *r,
                    board: *b,
                });
            }
            // A finished round takes a second result for a board only as a replacement
            // (the arbiter's own re-entry before confirmation) and only while the next
            // round is not paired: that pairing was made from these results.
            let replaces = bd.result.is_some();
            let next_paired = section(state, s)?.rounds.contains_key(&(*r + 1));
            if round(state, s, *r)?.completed && (!replaces || next_paired) {
                return Err(Rejection::RoundCompleted {
                    section: s.clone(),
                    round: *r,
                });
            }
            Ok(())
        }
        LogEntry::ResultClaimed {
            section: s,
            round: r,
            board: b,
            ..
        } => {
            let bd = board(state, s, *r, *b)?;
            if bd.confirmed {
                return Err(Rejection::ResultConfirmed {
                    round: *r,
                    board: *b,
                });
            }
            if bd.result.is_some() {
                return Err(Rejection::ClaimAfterResult {
                    round: *r,
                    board: *b,
                });
            }
            Ok(())
        }
        LogEntry::ResultConfirmed {
            section: s,
            round: r,
            board: b,
            signed_by,
        } => {
            let bd = board(state, s, *r, *b)?;
            if bd.result.is_none() {
                return Err(Rejection::NoResult {
                    round: *r,
                    board: *b,
                });
            }
            if bd.confirmed {
                return Err(Rejection::AlreadyConfirmed {
                    round: *r,
                    board: *b,
                });
            }
            if signed_by.iter().all(|n| n.trim().is_empty()) {
                return Err(Rejection::NoSignature);
            }
            Ok(())
        }
        LogEntry::ResultCorrected {
            section: s,
            round: r,
            board: b,
            reason,
            by,
            ..
        } => {
            let bd = board(state, s, *r, *b)?;
            if bd.result.is_none() {
                return Err(Rejection::NoResult {
                    round: *r,
                    board: *b,
                });
            }
            if reason.trim().is_empty() || by.trim().is_empty() {
                return Err(Rejection::CorrectionWithoutReason);
            }
            Ok(())
        }
        LogEntry::FoulRecorded {
            section: s,
            offender,
            round: r,
            board: bd,
            reason,
            ..
        } => {
            section(state, s)?;
            match offender {
                Offender::Player(p) => {
                    if player(state, p)?.section != *s {
                        return Err(Rejection::WrongSection {
                            player: *p,
                            section: s.clone(),
                        });
                    }
                }
                Offender::Team(t) => {
                    if !state.teams.contains_key(t) {
                        return Err(Rejection::UnknownTeam(t.clone()));
                    }
                }
            }
            if let Some(r) = r {
                round(state, s, *r)?;
            }
            if let Some(b) = bd {
                let Some(r) = r else {
                    return Err(Rejection::FoulBoardWithoutRound);
                };
                let Offender::Player(p) = offender else {
                    return Err(Rejection::TeamFoulOnBoard);
                };
                let game = state
                    .section(s)
                    .and_then(|sec| sec.round(*r))
                    .and_then(|rd| rd.board(*b))
                    .ok_or_else(|| Rejection::UnknownBoard {
                        section: s.clone(),
                        round: *r,
                        board: *b,
                    })?;
                if game.red != *p && game.black != *p {
                    return Err(Rejection::FoulNotOnBoard {
                        player: *p,
                        round: *r,
                        board: *b,
                    });
                }
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("犯规理由 reason"));
            }
            Ok(())
        }
        LogEntry::ColoursPlayed {
            section: s,
            round: r,
            board: b,
            ..
        } => {
            let bd = board(state, s, *r, *b)?;
            if bd.confirmed {
                return Err(Rejection::ResultConfirmed {
                    round: *r,
                    board: *b,
                });
            }
            Ok(())
        }
        LogEntry::FoulFlagDecided {
            section: s,
            round: r,
            board: b,
            ..
        } => {
            let bd = board(state, s, *r, *b)?;
            if bd.result.is_none() {
                return Err(Rejection::NoResult {
                    round: *r,
                    board: *b,
                });
            }
            Ok(())
        }
        LogEntry::ProtestDecided {
            section: s,
            round: r,
            board: b,
            by,
            ..
        } => {
            board(state, s, *r, *b)?;
            if by.trim().is_empty() {
                return Err(Rejection::Required("申诉人 who filed the protest"));
            }
            Ok(())
        }
        LogEntry::RoundCompleted {
            section: s,
            round: r,
        } => {
            let rd = round(state, s, *r)?;
            if rd.completed {
                return Err(Rejection::RoundCompleted {
                    section: s.clone(),
                    round: *r,
                });
            }
            if let Some(b) = rd.boards.iter().find(|b| b.result.is_none()) {
                return Err(Rejection::RoundIncomplete {
                    section: s.clone(),
                    round: *r,
                    board: b.board,
                });
            }
            Ok(())
        }
        // Another family's entry (`Family::of`): checked there.
        _ => Ok(()),
    }
}

/// The fold of a valid results entry; any other entry is left to its own family.
pub(crate) fn apply(state: &mut EventState, seq: u64, e: &LogEntry) {
    match e {
        LogEntry::ResultEntered {
            section,
            round,
            board,
            result,
            ending,
            moves,
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.result = Some(*result);
                b.ending = *ending;
                b.moves = *moves;
                b.history.push(ResultChange::Entered {
                    seq,
                    result: *result,
                });
            }
            super::matches::results_changed(state, section, *round, *board);
        }
        LogEntry::ResultClaimed {
            section,
            round,
            board,
            side,
            result,
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.claims.push(crate::state::ResultClaim {
                    side: *side,
                    result: *result,
                    seq,
                });
            }
        }
        LogEntry::ResultConfirmed {
            section,
            round,
            board,
            signed_by,
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.confirmed = true;
                b.history.push(ResultChange::Confirmed {
                    seq,
                    signed_by: signed_by.clone(),
                });
            }
        }
        LogEntry::ResultCorrected {
            section,
            round,
            board,
            result,
            reason,
            by,
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.result = Some(*result);
                b.corrected = true;
                b.history.push(ResultChange::Corrected {
                    seq,
                    result: *result,
                    reason: reason.clone(),
                    by: by.clone(),
                });
            }
            super::matches::results_changed(state, section, *round, *board);
        }
        LogEntry::FoulRecorded {
            section,
            offender,
            round,
            board,
            kind,
            reason,
        } => {
            let f = Foul {
                round: *round,
                board: *board,
                kind: *kind,
                reason: reason.clone(),
                seq,
                knockout: None,
            };
            match offender {
                Offender::Player(p) => {
                    if let (Some(r), Some(b)) = (round, board) {
                        if let Some(rec) = state.board_mut(section, *r, *b) {
                            rec.fouls.push(GameFoulRecord {
                                player: *p,
                                kind: *kind,
                                reason: reason.clone(),
                                seq,
                            });
                        }
                    }
                    if let Some(p) = state.players.get_mut(p) {
                        p.fouls.push(f);
                    }
                }
                Offender::Team(t) => {
                    if let Some(t) = state.teams.get_mut(t) {
                        t.fouls.push(f);
                    }
                }
            }
        }
        LogEntry::ColoursPlayed {
            section,
            round,
            board,
            swapped,
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                if b.colours_swapped != *swapped {
                    std::mem::swap(&mut b.red, &mut b.black);
                    b.colours_swapped = *swapped;
                }
            }
            super::matches::results_changed(state, section, *round, *board);
        }
        LogEntry::FoulFlagDecided {
            section,
            round,
            board,
            kind,
            confirmed,
            ..
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.flags_decided.push((*kind, *confirmed));
            }
        }
        LogEntry::ProtestDecided {
            section,
            round,
            board,
            by,
            deposit_fen,
            upheld,
            deposit_returned,
            reason,
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.protests.push(Protest {
                    by: by.clone(),
                    deposit_fen: *deposit_fen,
                    upheld: *upheld,
                    deposit_returned: *deposit_returned,
                    reason: reason.clone(),
                    seq,
                });
            }
        }
        LogEntry::RoundCompleted { section, round } => {
            if let Some(r) = state
                .sections
                .get_mut(section)
                .and_then(|s| s.rounds.get_mut(round))
            {
                r.completed = true;
            }
        }
        // Another family's entry (`Family::of`): folded there.
        _ => {}
    }
}
