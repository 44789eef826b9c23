//! Game records (记谱, A13, T6): `game_recorded` (the moves of a board from the standard start
//! position, in ICCS; a later record of the same board replaces the earlier) and
//! `game_record_removed`. Every move must be legal; the fold keeps the moves, their count in
//! full moves (回合) and how the final position decides the game (mate, stalemate 困毙).

use super::board;
use crate::entry::LogEntry;
use crate::state::{EventState, GameRecord, RecordEnd};
use crate::validate::Rejection;
use arbiter_xiangqi::{Game, NotationError, Status};

/// The game of a record: its moves played from the start position; the first that is not a
/// legal move (in any notation) is the error, with its move number.
pub fn replay_record<S: AsRef<str>>(moves: &[S]) -> Result<Game, NotationError> {
    let mut g = Game::new(arbiter_xiangqi::Position::start());
    for m in moves {
        g.play_text(m.as_ref())?;
    }
    Ok(g)
}

/// How a game's final position decides it, if it does.
pub fn record_end(g: &Game) -> Option<RecordEnd> {
    let c = |w: arbiter_xiangqi::Colour| match w {
        arbiter_xiangqi::Colour::Red => arbiter_types::Colour::Red,
        arbiter_xiangqi::Colour::Black => arbiter_types::Colour::Black,
    };
    match g.status() {
        Status::Checkmate { winner } => Some(RecordEnd::Checkmate { winner: c(winner) }),
        Status::Stalemate { winner } => Some(RecordEnd::Stalemate { winner: c(winner) }),
        _ => None,
    }
}

pub(crate) fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    match entry {
        LogEntry::GameRecorded {
            section: s,
            round: r,
            board: b,
            moves,
            ..
        } => {
            board(state, s, *r, *b)?;
            if moves.is_empty() {
                return Err(Rejection::RecordEmpty {
                    round: *r,
                    board: *b,
                });
            }
            if let Some(bad) = moves
                .iter()
                .find(|m| arbiter_xiangqi::notation::parse_iccs(m).is_none())
            {
                return Err(Rejection::RecordMove {
                    round: *r,
                    board: *b,
                    error: format!("「{bad}」不是 ICCS 着法 (not an ICCS move)"),
                });
            }
            replay_record(moves).map_err(|e| Rejection::RecordMove {
                round: *r,
                board: *b,
                error: e.to_string(),
            })?;
            Ok(())
        }
        LogEntry::GameRecordRemoved {
            section: s,
            round: r,
            board: b,
            ..
        } => {
            if board(state, s, *r, *b)?.record.is_none() {
                return Err(Rejection::NoRecord {
                    round: *r,
                    board: *b,
                });
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

pub(crate) fn apply(state: &mut EventState, seq: u64, e: &LogEntry) {
    match e {
        LogEntry::GameRecorded {
            section,
            round,
            board,
            moves,
            source,
            recorded_by,
        } => {
            // Valid entries only reach the fold; a record that does not replay is kept
            // without its reading rather than lost.
            let game = replay_record(moves).ok();
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.record = Some(GameRecord {
                    moves: moves.clone(),
                    full_moves: game.as_ref().map_or(0, |g| g.full_moves()),
                    source: *source,
                    recorded_by: recorded_by.clone(),
                    end: game.as_ref().and_then(record_end),
                    seq,
                });
            }
        }
        LogEntry::GameRecordRemoved {
            section,
            round,
            board,
            ..
        } => {
            if let Some(b) = state.board_mut(section, *round, *board) {
                b.record = None;
            }
        }
        _ => {}
    }
}
