//! S10: the awards the organiser gives (「最佳组织奖、最佳赛风赛纪奖各一个」): the regulation's
//! `special_awards` name them and how many of each there are; the organiser (or the chief
//! arbiter) names who receives them — a unit, a team or a player of the event.

use super::Ctx;
use crate::permission::{require, Action};
use crate::refusal::{AwardProblem, Refusal};
use crate::{apply_scratch, regulation_of, DirectorError};
use arbiter_core::{EventState, LogEntry, PlayerId};

/// One organiser's award as it stands: the regulation's award and who has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialAwardRow {
    pub award: String,
    pub count: u32,
    pub amount_yuan: Option<u32>,
    /// Empty until given.
    pub recipients: Vec<String>,
}

/// The regulation's organiser's awards, each with its recipients so far.
pub fn special_awards(state: &EventState) -> Result<Vec<SpecialAwardRow>, DirectorError> {
    let reg = regulation_of(state)?;
    Ok(reg
        .special_awards
        .iter()
        .map(|a| SpecialAwardRow {
            award: a.name.clone(),
            count: a.count,
            amount_yuan: a.amount_yuan,
            recipients: state
                .special_awards
                .get(&a.name)
                .cloned()
                .unwrap_or_default(),
        })
        .collect())
}

/// A recipient in the words the prize list prints: a unit, an association (协会) or a team
/// as typed, a player by
/// name (his registration id, 「P12」, is taken too), or `None` when the event has no such
/// unit, team or player.
fn recipient(state: &EventState, given: &str) -> Option<String> {
    let id = given
        .strip_prefix(['P', 'p'])
        .and_then(|n| n.parse::<u32>().ok())
        .map(PlayerId);
    if let Some(p) = id.and_then(|id| state.players.get(&id)) {
        return Some(p.person.name.clone());
    }
    let known = state.players.values().any(|p| {
        p.person.name == given
            || p.person.unit.as_deref() == Some(given)
            || p.person.association.as_deref() == Some(given)
            || p.team.as_deref() == Some(given)
    }) || state
        .teams
        .values()
        .any(|t| t.team == given || t.unit == given);
    known.then(|| given.to_string())
}

fn refused(p: AwardProblem) -> DirectorError {
    Refusal::SpecialAward(p).into()
}

/// `award`: give the regulation's award `award` to `recipients` (replacing whom it was given
/// to before); no recipients takes it back.
pub fn give_special_award(
    state: &EventState,
    ctx: &Ctx,
    award: &str,
    recipients: &[String],
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    require(ctx, Action::GiveSpecialAward)?;
    let reg = regulation_of(state)?;
    let award = award.trim();
    let Some(a) = reg.special_awards.iter().find(|a| a.name == award) else {
        return Err(refused(AwardProblem::UnknownAward {
            given: award.to_string(),
            known: reg.special_awards.iter().map(|a| a.name.clone()).collect(),
        }));
    };
    let mut named: Vec<String> = Vec::new();
    for r in recipients
        .iter()
        .map(|r| r.trim())
        .filter(|r| !r.is_empty())
    {
        let Some(words) = recipient(state, r) else {
            return Err(refused(AwardProblem::UnknownRecipient {
                recipient: r.to_string(),
            }));
        };
        if named.contains(&words) {
            return Err(refused(AwardProblem::Twice { recipient: words }));
        }
        named.push(words);
    }
    if named.len() > a.count as usize {
        return Err(refused(AwardProblem::TooMany {
            award: a.name.clone(),
            count: a.count,
            given: named.len(),
        }));
    }
    if named.is_empty() && !state.special_awards.contains_key(&a.name) {
        return Err(refused(AwardProblem::NotGiven {
            award: a.name.clone(),
        }));
    }
    let out = vec![LogEntry::SpecialAwardGiven {
        award: a.name.clone(),
        recipients: named,
        reason: reason.trim().to_string(),
    }];
    let mut scratch = state.clone();
    let at = ctx.at_rfc3339();
    for e in &out {
        apply_scratch(&mut scratch, e, &at)?;
    }
    Ok(out)
}
