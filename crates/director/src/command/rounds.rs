//! The rounds (轮次): pair (with fixed pairs and a swap), publish, undo, complete
//! ([`crate::api::rounds`]).

use super::Outcome;
use crate::api::rounds::{self, PairRequest};
use crate::api::Ctx;
use crate::permission::Action;
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry};

/// A write of a section's rounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundCommand {
    /// Pair the section's next round (drawing numbers and recording the forfeit rule's
    /// withdrawals on the way).
    Pair {
        section: String,
        request: PairRequest,
    },
    /// Publish the round's pairing (公布对阵表).
    Publish { section: String },
    /// Undo the round's pairing, with the reason.
    Undo { section: String, reason: String },
    /// Close the last round once every result is in, with the withdrawals the forfeit rule
    /// then demands (A5); a closed round: those withdrawals alone. The last result of a round
    /// closes it by itself ([`crate::api::results::enter_result`]); this is for a round left
    /// open (an older log) and for withdrawals still due.
    Complete { section: String },
    /// A team's line-up for a round of a team-match section (出场名单, A15): the players
    /// named board by board (`None`: an empty board); with the registered order kept, they
    /// sit in their registered order. The round's games are seated again with it.
    Lineup {
        section: String,
        round: u32,
        team: String,
        players: Vec<Option<arbiter_core::PlayerId>>,
        /// Who handed it in (领队 / 教练), in words.
        by: String,
    },
}

impl RoundCommand {
    pub fn action(&self) -> Action {
        match self {
            RoundCommand::Pair { .. } => Action::PairRound,
            RoundCommand::Publish { .. } => Action::PublishRound,
            RoundCommand::Undo { .. } => Action::UndoRound,
            RoundCommand::Complete { .. } => Action::CompleteRound,
            RoundCommand::Lineup { .. } => Action::GiveLineup,
        }
    }
}

pub(super) fn decide(
    state: &EventState,
    ctx: &Ctx,
    cmd: &RoundCommand,
) -> Result<(Vec<LogEntry>, Outcome), DirectorError> {
    match cmd {
        RoundCommand::Pair { section, request } => {
            let mut paired = rounds::pair_explained(state, ctx, section, request)?;
            let entries = std::mem::take(&mut paired.entries);
            Ok((entries, Outcome::Paired(paired)))
        }
        RoundCommand::Lineup {
            section,
            round,
            team,
            players,
            by,
        } => {
            let entries =
                crate::team_match::give_lineup(state, ctx, section, *round, team, players, by)?;
            let boards = entries
                .iter()
                .find_map(|e| match e {
                    LogEntry::LineupGiven { boards, .. } => Some(boards.clone()),
                    _ => None,
                })
                .unwrap_or_default()
                .into_iter()
                .map(|p| p.map(|p| crate::api::entries::named(state, p)))
                .collect();
            Ok((
                entries,
                Outcome::Lineup {
                    team: team.clone(),
                    round: *round,
                    boards,
                },
            ))
        }
        RoundCommand::Publish { section }
        | RoundCommand::Undo { section, .. }
        | RoundCommand::Complete { section } => {
            let entries = match cmd {
                RoundCommand::Undo { reason, .. } => rounds::undo(state, ctx, section, reason)?,
                RoundCommand::Complete { .. } => rounds::complete(state, ctx, section)?,
                _ => rounds::publish(state, ctx, section)?,
            };
            let round = entries
                .iter()
                .find_map(|e| match e {
                    LogEntry::RoundUndone { round, .. }
                    | LogEntry::RoundPublished { round, .. }
                    | LogEntry::RoundCompleted { round, .. } => Some(*round),
                    LogEntry::PlayerWithdrawn { after_round, .. } => *after_round,
                    _ => None,
                })
                .unwrap_or(0);
            let section_name = state
                .section(section)
                .map_or_else(|| section.clone(), |s| s.name.clone());
            Ok((
                entries,
                Outcome::Round {
                    section_name,
                    round,
                },
            ))
        }
    }
}
