//! Team entry and rosters (K1–K3).

use super::shared::{checked, player, who};
use crate::api::Ctx;
use crate::permission::{self, Action};
use crate::refusal::{Needs, Refusal, Required, Sec};
use crate::{regulation_of, DirectorError};
use arbiter_core::{EventState, LogEntry, PlayerId};

/// A team entry form (K3): name, unit, division (id or name), members, leader, coach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamForm {
    pub team: String,
    pub unit: String,
    pub division: Option<String>,
    pub members: Vec<PlayerId>,
    pub leader: Option<String>,
    pub coach: Option<String>,
}

/// Enter a team (`team_entered`, K1–K3): members of one section and of the team's unit, as
/// many as the regulation allows, listing every player who named the team at registration
/// (one roster per team).
pub fn enter_team(
    state: &EventState,
    ctx: &Ctx,
    form: &TeamForm,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    // A team comes from a unit: a blank one is none.
    let form = &TeamForm {
        unit: form.unit.trim().to_string(),
        ..form.clone()
    };
    if form.unit.is_empty() {
        return Err(Refusal::Required(Required::Unit).into());
    }
    // K5: the team form's own deadline (八(一)); the chief arbiter's late admission aside.
    let late = crate::permission::require(ctx, crate::permission::Action::LateEntry).is_ok();
    crate::registration::check_team_deadline(&reg, Some(&form.team), ctx.at, late)
        .map_err(|why| Refusal::TeamRule { why })?;
    let Some(&first) = form.members.first() else {
        return Err(Refusal::RosterEmpty.into());
    };
    let section = player(state, first)?.section.clone();
    let sec = reg
        .section(&section)
        .ok_or_else(|| DirectorError::UnknownSection(section.clone()))?;
    let Some(tp) = sec.entry_teams() else {
        return Err(Refusal::NoTeamCompetition {
            section: Sec::in_reg(&reg, &section),
        }
        .into());
    };
    for &m in &form.members {
        let p = player(state, m)?;
        if p.section != section {
            return Err(Refusal::MemberElsewhere {
                player: who(m, p),
                section: Sec::in_reg(&reg, &p.section),
                team_section: Sec::in_reg(&reg, &section),
            }
            .into());
        }
        if p.person.unit.as_deref() != Some(form.unit.as_str()) {
            return Err(Refusal::CrossUnit {
                player: who(m, p),
                unit: p.person.unit.clone(),
                team_unit: form.unit.clone(),
            }
            .into());
        }
    }
    if !tp.multiple_per_unit {
        if let Some(t) = state
            .teams
            .values()
            .find(|t| t.unit == form.unit && t.section.as_deref() == Some(section.as_str()))
        {
            return Err(Refusal::UnitHasTeam {
                unit: form.unit.clone(),
                team: t.team.clone(),
            }
            .into());
        }
    }
    let n = form.members.len() as u64;
    if n < u64::from(tp.min_players) {
        return Err(Refusal::TooFewMembers {
            team: form.team.clone(),
            members: n,
            min: tp.min_players,
            change: false,
        }
        .into());
    }
    if let Some(max) = tp.max_players.filter(|m| n > u64::from(*m)) {
        return Err(Refusal::TooManyMembers {
            team: form.team.clone(),
            members: n,
            max,
            change: false,
        }
        .into());
    }
    let blank = |x: &Option<String>| x.as_deref().is_none_or(|s| s.trim().is_empty());
    if tp.leader_required && blank(&form.leader) {
        return Err(Refusal::LeaderRequired.into());
    }
    if tp.coach_required && blank(&form.coach) {
        return Err(Refusal::CoachRequired.into());
    }
    let known = || -> Vec<(String, String)> {
        tp.divisions
            .iter()
            .map(|x| (x.name.clone(), x.id.clone()))
            .collect()
    };
    let named = match form
        .division
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        None => None,
        Some(d) => Some(
            tp.divisions
                .iter()
                .find(|x| x.id == d || x.name == d)
                .ok_or_else(|| Refusal::UnknownDivision {
                    section: Sec::in_reg(&reg, &section),
                    division: d.to_string(),
                    known: known(),
                })?,
        ),
    };
    // K4: last edition's top units are placed by the regulation's list; every other team
    // names its division when the section has divisions.
    let placed = tp
        .divisions
        .iter()
        .find(|d| d.units.iter().any(|u| u.trim() == form.unit));
    let division = match (placed, named) {
        (Some(p), Some(n)) if p.id != n.id => {
            return Err(Refusal::DivisionPlaced {
                unit: form.unit.clone(),
                placed: p.name.clone(),
                named: n.name.clone(),
            }
            .into())
        }
        (Some(p), _) => Some(p.id.clone()),
        (None, Some(n)) if !n.open_choice => {
            return Err(Refusal::DivisionNotOpen {
                unit: form.unit.clone(),
                division: n.name.clone(),
            }
            .into())
        }
        (None, Some(n)) => Some(n.id.clone()),
        (None, None) if !tp.divisions.is_empty() => {
            return Err(Refusal::DivisionRequired {
                section: Sec::in_reg(&reg, &section),
                known: known(),
            }
            .into())
        }
        (None, None) => None,
    };
    checked(vec![LogEntry::TeamEntered {
        team: form.team.trim().to_string(),
        unit: form.unit.trim().to_string(),
        division,
        members: form.members.clone(),
        leader: form.leader.clone(),
        coach: form.coach.clone(),
    }])
}

/// A change of a team's roster after its entry: players to add, players to remove (a
/// replacement is one of each), and the reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RosterChange {
    pub team: String,
    pub add: Vec<PlayerId>,
    pub remove: Vec<PlayerId>,
    pub reason: String,
}

/// Whether the team's section has paired a round: the team has played its first game.
pub fn team_started(state: &EventState, team: &str) -> bool {
    state
        .teams
        .get(team)
        .and_then(|t| t.section.as_deref())
        .and_then(|s| state.section(s))
        .is_some_and(|s| s.last_round() > 0)
}

/// Change a team's roster (`team_roster_changed`): add players, remove players, or replace
/// one by another. Before the team's first game (round 1 of its section paired) the desk
/// changes it; after that only the chief arbiter ([`Action::ChangeRosterAfterStart`]), and
/// with a reason. The team rules of the entry hold for the new
/// roster: members of the team's unit (K2) and section, not withdrawn, not on another team
/// (one roster per team: a player is moved by removing him from his team first), and the
/// regulation's team size (`min_players`..`max_players`).
pub fn change_roster(
    state: &EventState,
    ctx: &Ctx,
    change: &RosterChange,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    let name = change.team.trim();
    let Some(t) = state.teams.get(name) else {
        return Err(Refusal::UnknownTeam {
            team: name.to_string(),
            closest: None,
        }
        .into());
    };
    if change.add.is_empty() && change.remove.is_empty() {
        return Err(Refusal::NobodyToAddOrRemove.into());
    }
    let started = team_started(state, name);
    if started {
        permission::require(ctx, Action::ChangeRosterAfterStart)?;
    }
    let reason = change.reason.trim();
    if started && reason.is_empty() {
        return Err(Refusal::ReasonMissing(Needs::RosterAfterStart).into());
    }
    for &m in &change.remove {
        player(state, m)?;
        if !t.members.contains(&m) {
            return Err(Refusal::NotOnRoster {
                player: m,
                team: name.to_string(),
            }
            .into());
        }
    }
    for &m in &change.add {
        let p = player(state, m)?;
        if t.members.contains(&m) {
            return Err(Refusal::AlreadyOnRoster {
                player: who(m, p),
                team: name.to_string(),
            }
            .into());
        }
        if let Some(other) = &p.team {
            return Err(Refusal::OnAnotherTeam {
                player: who(m, p),
                team: other.clone(),
            }
            .into());
        }
        if p.withdrawn.is_some() {
            return Err(Refusal::Withdrawn(who(m, p)).into());
        }
        if let Some(sec) = t.section.as_deref().filter(|s| *s != p.section) {
            return Err(Refusal::MemberElsewhere {
                player: who(m, p),
                section: Sec::in_reg(&reg, &p.section),
                team_section: Sec::in_reg(&reg, sec),
            }
            .into());
        }
        if p.person.unit.as_deref() != Some(t.unit.as_str()) {
            return Err(Refusal::CrossUnit {
                player: who(m, p),
                unit: p.person.unit.clone(),
                team_unit: t.unit.clone(),
            }
            .into());
        }
    }
    let section = t.section.clone().unwrap_or_default();
    if let Some(tp) = reg.section(&section).and_then(|s| s.entry_teams()) {
        let n = (t.members.len() + change.add.len()).saturating_sub(change.remove.len()) as u64;
        if let Some(max) = tp.max_players.filter(|m| n > u64::from(*m)) {
            return Err(Refusal::TooManyMembers {
                team: name.to_string(),
                members: n,
                max,
                change: true,
            }
            .into());
        }
        if n < u64::from(tp.min_players) {
            return Err(Refusal::TooFewMembers {
                team: name.to_string(),
                members: n,
                min: tp.min_players,
                change: true,
            }
            .into());
        }
    }
    checked(vec![LogEntry::TeamRosterChanged {
        team: name.to_string(),
        added: change.add.clone(),
        removed: change.remove.clone(),
        reason: reason.to_string(),
    }])
}
