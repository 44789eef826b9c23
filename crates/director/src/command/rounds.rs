//! The rounds (轮次): pair (with fixed pairs and a swap), publish, undo, complete
//! ([`crate::api::rounds`]).

use super::Outcome;
use crate::api::rounds::{self, PairRequest};
use crate::api::Ctx;
use crate::permission::Action;
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry};
use arbiter_types::PlayerNo;

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
    /// Exchange two players (pairing numbers) on the sheet of the unpublished open round,
    /// every other board kept: the pairing undone and paired again in one command
    /// ([`crate::api::rounds::repair`], which the desk's preview shows first).
    Repair {
        section: String,
        swap: (PlayerNo, PlayerNo),
    },
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
            RoundCommand::Repair { .. } => Action::PairRound,
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
        RoundCommand::Repair { section, swap } => {
            let r = rounds::repair(state, ctx, section, *swap)?;
            let section_name = state
                .section(section)
                .map_or_else(|| section.clone(), |s| s.name.clone());
            Ok((
                r.entries,
                Outcome::Round {
                    section_name,
                    round: r.round,
                },
            ))
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

/// What may be done now with a section's rounds as `ctx`'s account: the permission table's
/// roles and the state together, so that a page offers a button only where the command
/// would be taken (the command still decides; this only tells).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundsNow {
    /// Pair the next round (the section is not waiting for results, knockout games or the
    /// end of the event).
    pub pair: bool,
    /// Publish the open round's pairing.
    pub publish: bool,
    /// Undo the open round's pairing (no board has a result or a foul yet).
    pub undo: bool,
    /// Close the last round, or record the withdrawals the forfeit rule demands.
    pub complete: bool,
    /// What the section waits for before its next round can be paired.
    pub waiting: Waiting,
}

/// What a section waits for before its next round (whoever looks).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Waiting {
    /// Nothing: the next round can be paired.
    #[default]
    Nothing,
    /// Results of these boards of round `round`.
    Results { round: u32, boards: Vec<u32> },
    /// The next games of these knockout matches.
    Knockout { matches: Vec<String> },
    /// Every round has been played (or fewer than two players can be paired).
    Done,
}

/// [`RoundsNow`] for `section` as `ctx`'s account.
pub fn available(state: &EventState, ctx: &Ctx, section: &str) -> RoundsNow {
    use crate::step::Step;
    let may = |a: Action| a.allowed().contains(&ctx.role);
    let step = crate::regulation_of(state)
        .and_then(|reg| crate::step::next_step(&reg, state, section))
        .unwrap_or(Step::Done);
    let waiting = match step {
        Step::Results { round, boards } => Waiting::Results { round, boards },
        Step::Knockout { matches } => Waiting::Knockout { matches },
        Step::Done => Waiting::Done,
        Step::DrawNumbers | Step::Pair { .. } | Step::CompleteRound { .. } | Step::Withdraw(_) => {
            Waiting::Nothing
        }
    };
    RoundsNow {
        pair: may(Action::PairRound) && waiting == Waiting::Nothing,
        waiting,
        publish: may(Action::PublishRound) && rounds::publish(state, ctx, section).is_ok(),
        undo: may(Action::UndoRound) && rounds::undo(state, ctx, section, "").is_ok(),
        complete: may(Action::CompleteRound) && rounds::complete(state, ctx, section).is_ok(),
    }
}
