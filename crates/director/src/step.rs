//! What the arbiter has to do next in a section ([`next_step`]): draw numbers, pair, enter
//! results, close a round, withdraw by the forfeit rule, play knockout games, or nothing.
//!
//! Built on `plan.rs` (what the section plays) and `knockout_stage.rs` (the bracket).

use crate::knockout_stage;
use crate::plan::{due_withdrawals, playing_entries, section_plan, SectionPlan};
use crate::DirectorError;
use arbiter_core::{EventState, PlayerId, PlayerStatus};
use arbiter_regulation::Regulation;
use std::collections::BTreeSet;

/// The next thing the arbiter does in a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Draw the pairing numbers (A3).
    DrawNumbers,
    /// Pair round `round` of `stage` (1, or 2 for the continuing Swiss of a two-stage section).
    Pair { round: u32, stage: u32 },
    /// Enter the results of these boards of round `round`.
    Results { round: u32, boards: Vec<u32> },
    /// Every result is in: close the round.
    CompleteRound { round: u32 },
    /// Players who are withdrawn by the regulation's forfeit rule (A5), with after-round.
    Withdraw(Vec<(PlayerId, u32, String)>),
    /// Play the next game of these knockout matches.
    Knockout { matches: Vec<String> },
    /// Nothing more to play.
    Done,
}

/// What to do next in `section`.
pub fn next_step(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Step, DirectorError> {
    let (sec, rec) = crate::section_parts(reg, state, section)?;
    if sec.team_match.is_some() {
        return Ok(team_step(sec, state, rec));
    }
    if rec.order.is_empty() {
        if playing_entries(state, section).len() < 2 {
            return Ok(Step::Done);
        }
        return Ok(Step::DrawNumbers);
    }
    // A `groups` section splits its numbered players into groups with the draw.
    if crate::groups::needs_split(sec, rec) {
        return Ok(Step::DrawNumbers);
    }
    let completed = rec.completed_rounds();
    if let Some(step) = open_round(rec) {
        return Ok(step);
    }
    let w = due_withdrawals(sec, state, section);
    if !w.is_empty() {
        return Ok(Step::Withdraw(w));
    }
    match section_plan(sec, state) {
        SectionPlan::GroupsRoundRobin {
            group_rounds,
            final_rounds,
            ..
        } => {
            if completed < group_rounds + final_rounds {
                Ok(Step::Pair {
                    round: completed + 1,
                    stage: 1,
                })
            } else {
                Ok(Step::Done)
            }
        }
        SectionPlan::Swiss { rounds } | SectionPlan::RoundRobin { rounds, .. } => {
            if completed < rounds {
                Ok(Step::Pair {
                    round: completed + 1,
                    stage: 1,
                })
            } else {
                Ok(Step::Done)
            }
        }
        SectionPlan::TwoStage {
            swiss_rounds,
            continue_rounds,
            ..
        } => {
            if completed < swiss_rounds {
                return Ok(Step::Pair {
                    round: completed + 1,
                    stage: 1,
                });
            }
            let bracket = knockout_stage::bracket(reg, state, section)?;
            let j_swiss = completed - swiss_rounds;
            // T2, A9: the knockout and the continuing Swiss run side by side. The Swiss
            // pairs its next round as soon as its own last round is finished, whatever the
            // knockout's games; the knockout's games are due as soon as their match is
            // ready ([`knockout_due`]), whatever the Swiss round. K6: knockout only.
            if j_swiss < continue_rounds && pairable_in_stage2(state, section, &bracket) >= 2 {
                return Ok(Step::Pair {
                    round: completed + 1,
                    stage: 2,
                });
            }
            let ready: Vec<String> = bracket.ready().into_iter().map(str::to_string).collect();
            if !ready.is_empty() {
                return Ok(Step::Knockout { matches: ready });
            }
            Ok(Step::Done)
        }
    }
}

/// The step of a section whose last round is paired and not closed: its boards without a
/// result, or closing it once every result is in. `None` when the last round is closed.
pub(crate) fn open_round(rec: &arbiter_core::SectionRecord) -> Option<Step> {
    let last = rec.last_round();
    if last <= rec.completed_rounds() {
        return None;
    }
    let open: Vec<u32> = rec
        .rounds
        .get(&last)?
        .boards
        .iter()
        .filter(|b| b.result.is_none())
        .map(|b| b.board)
        .collect();
    Some(if open.is_empty() {
        Step::CompleteRound { round: last }
    } else {
        Step::Results {
            round: last,
            boards: open,
        }
    })
}

/// What to do next in a team-match section (A15): pairing a round draws the team numbers
/// and closes the last round itself, so the steps are the results, then the next round.
fn team_step(
    sec: &arbiter_regulation::Section,
    state: &EventState,
    rec: &arbiter_core::SectionRecord,
) -> Step {
    if let Some(step) = open_round(rec) {
        return step;
    }
    let last = rec.last_round();
    let teams = if rec.team_order.is_empty() {
        crate::team_match::teams_in(state, &sec.id)
            .into_iter()
            .filter(|t| crate::team_match::team_plays(state, t))
            .count()
    } else {
        rec.team_order.len()
    };
    if teams < 2 || last >= crate::team_match::planned_rounds(sec, teams as u32) {
        return Step::Done;
    }
    Step::Pair {
        round: last + 1,
        stage: 1,
    }
}

/// The knockout matches of a two-stage section whose next game can be played now: every
/// ready match once stage 1 is complete, side by side with the continuing Swiss (T2, A9) —
/// an open Swiss round does not hold the knockout back, nor the knockout the Swiss. Empty
/// for any other section or before the end of stage 1.
pub fn knockout_due(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Vec<String>, DirectorError> {
    Ok(knockout_stage_due(reg, state, section)?.map_or_else(Vec::new, |(_, due)| due))
}

/// A bracket as [`knockout_stage::bracket`] keeps it.
type SharedBracket = std::sync::Arc<arbiter_knockout::Bracket>;

/// The knockout stage of a two-stage section once its Swiss stage is over: the bracket and
/// the matches ready to play ([`knockout_due`]); `None` before (or in another format).
pub(crate) fn knockout_stage_due(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Option<(SharedBracket, Vec<String>)>, DirectorError> {
    let Some(bracket) = knockout_stage_bracket(reg, state, section)? else {
        return Ok(None);
    };
    let due = bracket.ready().into_iter().map(str::to_string).collect();
    Ok(Some((bracket, due)))
}

/// The bracket of a two-stage section once its Swiss stage is over; `None` before (or in
/// another format). [`knockout_stage_due`] without listing the matches ready.
pub(crate) fn knockout_stage_bracket(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Option<SharedBracket>, DirectorError> {
    let (sec, rec) = crate::section_parts(reg, state, section)?;
    let SectionPlan::TwoStage { swiss_rounds, .. } = section_plan(sec, state) else {
        return Ok(None);
    };
    if rec.order.is_empty() || rec.completed_rounds() < swiss_rounds {
        return Ok(None);
    }
    Ok(Some(knockout_stage::bracket(reg, state, section)?))
}

fn pairable_in_stage2(
    state: &EventState,
    section: &str,
    bracket: &arbiter_knockout::Bracket,
) -> usize {
    let Some(rec) = state.section(section) else {
        return 0;
    };
    let ko: BTreeSet<PlayerId> = bracket
        .ranking()
        .iter()
        .filter_map(|no| rec.order.get(no.index()).copied())
        .collect();
    playing_entries(state, section)
        .into_iter()
        .filter(|p| !ko.contains(p) && state.status(*p) == Some(PlayerStatus::Active))
        .count()
}
