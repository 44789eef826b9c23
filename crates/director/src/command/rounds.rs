//! The rounds (轮次): pair (with fixed pairs and a swap), publish, undo
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
}

impl RoundCommand {
    pub fn action(&self) -> Action {
        match self {
            RoundCommand::Pair { .. } => Action::PairRound,
            RoundCommand::Publish { .. } => Action::PublishRound,
            RoundCommand::Undo { .. } => Action::UndoRound,
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
        RoundCommand::Publish { section } | RoundCommand::Undo { section, .. } => {
            let entries = match cmd {
                RoundCommand::Undo { reason, .. } => rounds::undo(state, ctx, section, reason)?,
                _ => rounds::publish(state, ctx, section)?,
            };
            let round = entries
                .iter()
                .find_map(|e| match e {
                    LogEntry::RoundUndone { round, .. }
                    | LogEntry::RoundPublished { round, .. } => Some(*round),
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
