//! The games: results (with fouls; knockout games through the same command), a round's
//! confirmation, corrections, a results file, game records, the arbiter's decisions on
//! flagged games, refused records, protests, signatures, a team's fouls and a captain's
//! confirmation of his team's match
//! ([`crate::api::results`], [`crate::api::records`], [`crate::api::games`]).

use super::Outcome;
use crate::api::results::{ImportLine, ResultInput};
use crate::api::{games, records, results, Ctx};
use crate::permission::Action;
use crate::DirectorError;
use arbiter_core::{EventState, FoulKind, LogEntry, RecordSource};
use arbiter_types::{Colour, GameResult};

/// A game record as given: text to read (a notation or a PGN's moves), or a game already read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordInput {
    Text(String),
    Game(Box<arbiter_xiangqi::Game>),
}

/// A write about the games of a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameCommand {
    /// A board's result, with its fouls (knockout games too).
    EnterResult { section: String, input: ResultInput },
    /// A team that does not appear (整队弃权, A15): every game of its match is its forfeit.
    TeamAbsent {
        section: String,
        round: Option<u32>,
        team: String,
    },
    /// A team's captain confirms its match (队长确认, A15), in `round` (the last paired when
    /// `None`); `by`: the captain's name (may be empty).
    ConfirmMatch {
        section: String,
        round: Option<u32>,
        team: String,
        by: String,
    },
    /// A player's claim of his board's result on his phone (选手确认成绩): `seat` as his code
    /// names it ([`crate::claim::seat_of`]).
    ClaimResult {
        seat: crate::claim::Seat,
        result: GameResult,
    },
    /// A player's claim of a knockout game's result on his phone: `seat` as his code names
    /// it ([`crate::claim::knockout_seat_of`]).
    ClaimKnockout {
        seat: crate::claim::KoSeat,
        result: GameResult,
    },
    /// A results file's lines, all or nothing.
    ImportResults {
        section: String,
        round: Option<u32>,
        lines: Vec<ImportLine>,
    },
    /// Confirm a round's results (the last paired round when `None`).
    Confirm { section: String, round: Option<u32> },
    /// Correct a result (after confirmation the chief arbiter alone), with the reason.
    CorrectResult {
        section: String,
        round: u32,
        board: u32,
        result: GameResult,
        reason: String,
        /// The correction overrides a result the regulation makes final once signed (九江 补充五).
        override_signed: bool,
    },
    /// A board's game record.
    Record {
        section: String,
        round: u32,
        board: u32,
        record: RecordInput,
        source: RecordSource,
        recorded_by: Option<String>,
    },
    /// A board's record taken away, with the reason.
    RemoveRecord {
        section: String,
        round: u32,
        board: u32,
        reason: String,
    },
    /// The arbiter confirms or dismisses a flagged game's foul, with the reason.
    DecideFlag {
        section: String,
        round: u32,
        board: u32,
        kind: Option<FoulKind>,
        confirm: bool,
        reason: String,
    },
    /// A player refused to record his game (拒不录谱).
    RefuseRecord {
        section: String,
        round: u32,
        board: u32,
        colour: Colour,
        reason: String,
    },
    /// A protest about a board, upheld or not, by whom and why.
    Protest {
        section: String,
        round: u32,
        board: u32,
        by: String,
        upheld: bool,
        reason: String,
    },
    /// Who signed a board's slip.
    Sign {
        section: String,
        round: u32,
        board: u32,
        signed: Vec<Colour>,
    },
    /// A team's foul (K12), in a round or for the event (the section by id or name).
    TeamFoul {
        section: String,
        team: String,
        round: Option<u32>,
        kind: FoulKind,
        reason: String,
    },
}

impl GameCommand {
    pub fn action(&self) -> Action {
        use GameCommand as C;
        match self {
            C::EnterResult { .. } | C::ImportResults { .. } | C::TeamAbsent { .. } => {
                Action::EnterResult
            }
            C::ClaimResult { .. } | C::ClaimKnockout { .. } => Action::ClaimResult,
            C::Confirm { .. } => Action::ConfirmResults,
            C::ConfirmMatch { .. } => Action::ConfirmMatch,
            C::CorrectResult { .. } => Action::CorrectResult,
            C::Record { .. } | C::RemoveRecord { .. } => Action::RecordGame,
            C::DecideFlag { .. } => Action::DecideFlag,
            C::RefuseRecord { .. } => Action::RefuseRecord,
            C::Protest { .. } => Action::DecideProtest,
            C::Sign { .. } => Action::RecordSignatures,
            C::TeamFoul { .. } => Action::TeamFoul,
        }
    }
}

pub(super) fn decide(
    state: &EventState,
    ctx: &Ctx,
    cmd: &GameCommand,
) -> Result<(Vec<LogEntry>, Outcome), DirectorError> {
    use GameCommand as C;
    let entries = match cmd {
        C::EnterResult { section, input } => results::enter_result(state, ctx, section, input)?,
        C::ClaimResult { seat, result } => {
            let (es, claimed) = crate::claim::claim_result(state, ctx, seat, *result)?;
            return Ok((es, Outcome::Claimed(claimed)));
        }
        C::ClaimKnockout { seat, result } => {
            let (es, claimed) = crate::claim::claim_knockout(state, ctx, seat, *result)?;
            return Ok((es, Outcome::KnockoutClaimed(claimed)));
        }
        C::ImportResults {
            section,
            round,
            lines,
        } => results::import_results(state, ctx, section, *round, lines)?,
        C::Confirm { section, round } => results::confirm(state, ctx, section, *round)?,
        C::CorrectResult {
            section,
            round,
            board,
            result,
            reason,
            override_signed,
        } => results::correct(
            state,
            ctx,
            section,
            *round,
            *board,
            *result,
            reason,
            *override_signed,
        )?,
        C::Record {
            section,
            round,
            board,
            record,
            source,
            recorded_by,
        } => match record {
            RecordInput::Text(text) => records::record(
                state,
                ctx,
                section,
                *round,
                *board,
                text,
                *source,
                recorded_by.as_deref(),
            )?,
            RecordInput::Game(game) => records::record_game(
                state,
                ctx,
                section,
                *round,
                *board,
                game,
                *source,
                recorded_by.as_deref(),
            )?,
        },
        C::RemoveRecord {
            section,
            round,
            board,
            reason,
        } => records::remove_record(state, ctx, section, *round, *board, reason)?,
        C::DecideFlag {
            section,
            round,
            board,
            kind,
            confirm,
            reason,
        } => games::decide_flag(state, ctx, section, *round, *board, *kind, *confirm, reason)?,
        C::RefuseRecord {
            section,
            round,
            board,
            colour,
            reason,
        } => games::refuse_record(state, ctx, section, *round, *board, *colour, reason)?,
        C::Protest {
            section,
            round,
            board,
            by,
            upheld,
            reason,
        } => games::protest(state, ctx, section, *round, *board, by, *upheld, reason)?,
        C::Sign {
            section,
            round,
            board,
            signed,
        } => games::sign(state, ctx, section, *round, *board, signed)?,
        C::TeamAbsent {
            section,
            round,
            team,
        } => {
            let (es, round, boards) =
                crate::team_match::team_absent(state, ctx, section, *round, team)?;
            return Ok((
                es,
                Outcome::TeamAbsent {
                    team: team.clone(),
                    round,
                    boards,
                },
            ));
        }
        C::ConfirmMatch {
            section,
            round,
            team,
            by,
        } => {
            let (es, c) = crate::team_match::confirm_match(state, ctx, section, *round, team, by)?;
            return Ok((
                es,
                Outcome::MatchConfirmed {
                    team: team.trim().to_string(),
                    by: by.trim().to_string(),
                    round: c.round,
                    match_no: c.match_no,
                    opponent: c.opponent,
                    opponent_by: c.opponent_by,
                },
            ));
        }
        C::TeamFoul {
            section,
            team,
            round,
            kind,
            reason,
        } => {
            let section = crate::api::import::section_id(state, section);
            let es = results::team_foul(state, ctx, &section, team, *round, *kind, reason)?;
            let foul = es.iter().find_map(|e| match e {
                LogEntry::FoulRecorded {
                    offender: arbiter_core::Offender::Team(t),
                    round,
                    kind,
                    ..
                } => Some(Outcome::TeamFoul {
                    team: t.clone(),
                    round: *round,
                    kind: *kind,
                }),
                _ => None,
            });
            return Ok((es, foul.unwrap_or(Outcome::Recorded)));
        }
    };
    let entries = crate::api::entries::with_reinstatements(state, ctx, entries)?;
    let recorded = entries.iter().find_map(|e| match e {
        LogEntry::GameRecorded { moves, .. } => Some(Outcome::GameRecorded {
            moves: moves.len().div_ceil(2),
        }),
        _ => None,
    });
    Ok((entries, recorded.unwrap_or(Outcome::Recorded)))
}
