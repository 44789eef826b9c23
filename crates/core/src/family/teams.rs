//! Teams (队伍): `team_entered` (one roster per team: the entry lists every player naming the
//! team, and nobody of another team; the division) and `team_roster_changed` (players added to
//! or removed from the roster after the entry).

use super::player;
use crate::entry::*;
use crate::state::{EventState, TeamRecord};
use crate::validate::Rejection;
use std::collections::BTreeSet;

/// The rules of a teams entry (see the module documentation); any other entry is left to
/// its own family ([`super::Family::of`]).
pub(crate) fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    match entry {
        LogEntry::TeamEntered {
            team,
            unit,
            division,
            members,
            ..
        } => {
            if team.trim().is_empty() {
                return Err(Rejection::Required("队名 team name"));
            }
            if unit.trim().is_empty() {
                return Err(Rejection::Required("单位 unit"));
            }
            if state.teams.contains_key(team) {
                return Err(Rejection::TeamExists(team.clone()));
            }
            // One roster per team: the entry lists every player who named the team at
            // registration, and nobody who belongs to another team.
            let mut seen = BTreeSet::new();
            let mut sections = BTreeSet::new();
            for m in members {
                let pl = player(state, m)?;
                sections.insert(pl.section.as_str());
                if !seen.insert(m) {
                    return Err(Rejection::DuplicatePlayer(*m));
                }
                if let Some(other) = pl.team.as_ref().filter(|o| *o != team) {
                    return Err(Rejection::MemberOfOtherTeam {
                        player: *m,
                        team: team.clone(),
                        other: other.clone(),
                    });
                }
            }
            if let Some(p) = state
                .players
                .values()
                .find(|p| p.team.as_ref() == Some(team) && !seen.contains(&p.id))
            {
                return Err(Rejection::TeamOmitsMember {
                    player: p.id,
                    team: team.clone(),
                });
            }
            if let Some(d) = division {
                // A division of the members' section (K1: 甲组/乙组 inside the men's
                // section), or — as older logs wrote it — a section id.
                let own = match sections.first() {
                    Some(s) if sections.len() == 1 => state
                        .sections
                        .get(*s)
                        .is_some_and(|sec| sec.divisions.iter().any(|x| &x.id == d)),
                    _ => false,
                };
                if !own && !state.sections.contains_key(d) {
                    return Err(Rejection::UnknownDivision {
                        division: d.clone(),
                        section: sections.iter().copied().collect::<Vec<_>>().join(", "),
                    });
                }
            }
            Ok(())
        }
        LogEntry::TeamRosterChanged {
            team,
            added,
            removed,
            ..
        } => {
            let t = state
                .teams
                .get(team)
                .ok_or_else(|| Rejection::UnknownTeam(team.clone()))?;
            if added.is_empty() && removed.is_empty() {
                return Err(Rejection::NoRosterChange);
            }
            let mut seen = BTreeSet::new();
            for m in removed {
                if !seen.insert(m) {
                    return Err(Rejection::DuplicatePlayer(*m));
                }
                if !t.members.contains(m) {
                    return Err(Rejection::NotOnRoster {
                        player: *m,
                        team: team.clone(),
                    });
                }
            }
            for m in added {
                let pl = player(state, m)?;
                if !seen.insert(m) {
                    return Err(Rejection::DuplicatePlayer(*m));
                }
                // One roster per team: a player who belongs to (or names) a team is moved
                // by removing him from it first.
                if let Some(other) = &pl.team {
                    return Err(Rejection::MemberOfOtherTeam {
                        player: *m,
                        team: team.clone(),
                        other: other.clone(),
                    });
                }
                if t.section.as_ref().is_some_and(|s| *s != pl.section) {
                    return Err(Rejection::MemberOfOtherSection {
                        player: *m,
                        team: team.clone(),
                        section: pl.section.clone(),
                    });
                }
            }
            Ok(())
        }
        // Another family's entry (`Family::of`): checked there.
        _ => Ok(()),
    }
}

/// The fold of a valid teams entry; any other entry is left to its own family.
pub(crate) fn apply(state: &mut EventState, _seq: u64, e: &LogEntry) {
    match e {
        LogEntry::TeamEntered {
            team,
            unit,
            division,
            members,
            leader,
            coach,
        } => {
            let section = members
                .first()
                .and_then(|m| state.players.get(m))
                .map(|p| p.section.clone());
            // One roster per team: every listed member belongs to the team.
            for m in members {
                if let Some(p) = state.players.get_mut(m) {
                    p.team = Some(team.clone());
                }
            }
            state.teams.insert(
                team.clone(),
                TeamRecord {
                    team: team.clone(),
                    unit: unit.clone(),
                    section,
                    division: division.clone(),
                    members: members.clone(),
                    leader: leader.clone(),
                    coach: coach.clone(),
                    fouls: Vec::new(),
                },
            );
        }
        LogEntry::TeamRosterChanged {
            team,
            added,
            removed,
            ..
        } => {
            for m in removed {
                if let Some(p) = state.players.get_mut(m) {
                    p.team = None;
                }
            }
            for m in added {
                if let Some(p) = state.players.get_mut(m) {
                    p.team = Some(team.clone());
                }
            }
            let section = added
                .first()
                .and_then(|m| state.players.get(m))
                .map(|p| p.section.clone());
            if let Some(t) = state.teams.get_mut(team) {
                t.members.retain(|m| !removed.contains(m));
                t.members.extend(added.iter().copied());
                if t.section.is_none() {
                    t.section = section;
                }
            }
        }
        // Another family's entry (`Family::of`): folded there.
        _ => {}
    }
}
