//! The event itself (赛事): `event_created` (the header, the sections and the entry limits),
//! `settings_changed` (name, dates, venue, registration deadline, the date ages are counted
//! on, Swiss rounds and time controls by section),
//! `officials_appointed` (the officials, 裁判长 …, a whole list each time),
//! `event_closed` (闭幕: final standings, team standings and prizes fixed) and
//! `event_reopened` (the chief arbiter's reopening, the only entry a closed event takes).

use super::section;
use crate::entry::*;
use crate::state::{EventHeader, EventState, SectionRecord};
use crate::validate::Rejection;
use chrono::DateTime;
use imbl::OrdMap;
use std::collections::BTreeSet;

/// The first `event_created` (a later one is refused by [`super::open_header`]).
pub(crate) fn validate_created(c: &EventCreated) -> Result<(), Rejection> {
    if c.name.trim().is_empty() {
        return Err(Rejection::Required("赛事名称 event name"));
    }
    let mut seen = BTreeSet::new();
    for s in &c.sections {
        if !seen.insert(&s.id) {
            return Err(Rejection::DuplicateSection(s.id.clone()));
        }
    }
    if let Some(d) = &c.limits.deadline {
        DateTime::parse_from_rfc3339(d).map_err(|_| Rejection::BadTime(d.clone()))?;
    }
    Ok(())
}

/// `event_reopened`: only a closed event is reopened, by the chief arbiter, with the reason.
pub(crate) fn validate_reopened(
    state: &EventState,
    reason: &str,
    by: &str,
) -> Result<(), Rejection> {
    if !state.closed {
        return Err(Rejection::NotClosed);
    }
    if reason.trim().is_empty() {
        return Err(Rejection::Required("重新开启的理由 reason"));
    }
    if by.trim().is_empty() {
        return Err(Rejection::Required("裁判长 by"));
    }
    Ok(())
}

/// The rules of a lifecycle entry (see the module documentation); any other entry is left to
/// its own family ([`super::Family::of`]).
pub(crate) fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    match entry {
        LogEntry::EventCreated(_) => unreachable_ok(),
        // Its content is the standings the log before it calls for: `event verify` checks it.
        LogEntry::EventClosed { .. } | LogEntry::EventReopened { .. } => Ok(()),
        // Which awards the regulation has and who may receive them is the director's rule.
        LogEntry::SpecialAwardGiven { award, .. } => {
            if award.trim().is_empty() {
                return Err(Rejection::Required("奖项 award"));
            }
            Ok(())
        }
        LogEntry::OfficialsAppointed { officials, .. } => {
            let mut seen = BTreeSet::new();
            for o in officials {
                if o.role.trim().is_empty() {
                    return Err(Rejection::Required("职务 role"));
                }
                if o.name.trim().is_empty() {
                    return Err(Rejection::Required("姓名 name"));
                }
                if !seen.insert((o.role.trim(), o.name.trim())) {
                    return Err(Rejection::DuplicateOfficial {
                        role: o.role.trim().to_string(),
                        name: o.name.trim().to_string(),
                    });
                }
            }
            if *officials == state.officials {
                return Err(Rejection::OfficialsUnchanged);
            }
            Ok(())
        }
        LogEntry::SettingsChanged {
            name,
            start,
            end,
            venue,
            deadline,
            age_on,
            rounds,
            time_controls,
            placed_units,
            ..
        } => {
            if name.is_none()
                && start.is_none()
                && end.is_none()
                && venue.is_none()
                && deadline.is_none()
                && age_on.is_none()
                && rounds.is_empty()
                && time_controls.is_empty()
                && placed_units.is_empty()
            {
                return Err(Rejection::NoSettings);
            }
            for (id, tc) in time_controls {
                section(state, id)?;
                if tc.minutes == 0 || tc.minutes > 600 || tc.increment_seconds > 600 {
                    return Err(Rejection::BadTimeControl {
                        section: id.clone(),
                        minutes: tc.minutes,
                        increment_seconds: tc.increment_seconds,
                    });
                }
            }
            if let Some(d) = deadline {
                DateTime::parse_from_rfc3339(d).map_err(|_| Rejection::BadTime(d.clone()))?;
            }
            if name.as_ref().is_some_and(|n| n.trim().is_empty()) {
                return Err(Rejection::Required("赛事名称 event name"));
            }
            let start = start.or(state.settings.start);
            let end = end.or(state.settings.end);
            if let (Some(a), Some(b)) = (start, end) {
                if a > b {
                    return Err(Rejection::BadDates {
                        start: a.to_string(),
                        end: b.to_string(),
                    });
                }
            }
            for (id, n) in rounds {
                let paired = section(state, id)?.last_round();
                if *n == 0 || *n < paired {
                    return Err(Rejection::RoundsBelowPaired {
                        section: id.clone(),
                        rounds: *n,
                        paired,
                    });
                }
            }
            Ok(())
        }
        // Another family's entry (`Family::of`): checked there.
        _ => Ok(()),
    }
}

/// The fold of a valid lifecycle entry; any other entry is left to its own family.
pub(crate) fn apply(state: &mut EventState, seq: u64, e: &LogEntry) {
    match e {
        LogEntry::EventCreated(c) => {
            state.header = Some(EventHeader {
                name: c.name.clone(),
                file_name: c.file_name.clone(),
                regulation: c.regulation.clone(),
                seed: c.seed,
                limits: c.limits.clone(),
            });
            for s in &c.sections {
                state.sections.insert(
                    s.id.clone(),
                    SectionRecord {
                        id: s.id.clone(),
                        name: s.name.clone(),
                        divisions: s.divisions.clone(),
                        entries: Vec::new(),
                        order: Vec::new(),
                        draw_seed: None,
                        groups: Vec::new(),
                        group_seed: None,
                        rounds: OrdMap::new(),
                        knockout: imbl::Vector::new(),
                        knockout_seeds: Vec::new(),
                        knockout_claims: imbl::Vector::new(),
                        team_order: Vec::new(),
                        team_seed: None,
                        merged_into: None,
                        matches: OrdMap::new(),
                        numbers: OrdMap::new(),
                        knockout_memo: Default::default(),
                    },
                );
            }
        }
        LogEntry::EventClosed { .. } => state.closed = true,
        LogEntry::SpecialAwardGiven {
            award, recipients, ..
        } => {
            if recipients.is_empty() {
                state.special_awards.remove(award);
            } else {
                state
                    .special_awards
                    .insert(award.clone(), recipients.clone());
            }
        }
        LogEntry::OfficialsAppointed { officials, .. } => state.officials = officials.clone(),
        LogEntry::EventReopened { .. } => state.closed = false,
        LogEntry::SettingsChanged {
            name,
            start,
            end,
            venue,
            deadline,
            age_on,
            rounds,
            time_controls,
            placed_units,
            ..
        } => {
            for (division, units) in placed_units {
                state
                    .settings
                    .placed_units
                    .insert(division.clone(), units.clone());
            }
            if let Some(d) = deadline {
                // The log's own deadline check reads the header's limits.
                if let Some(h) = state.header.as_mut() {
                    h.limits.deadline = Some(d.clone());
                }
            }
            let st = &mut state.settings;
            if deadline.is_some() {
                st.deadline = deadline.clone();
            }
            if age_on.is_some() {
                st.age_on = *age_on;
            }
            for (sec, tc) in time_controls {
                st.time_controls.insert(sec.clone(), *tc);
            }
            if let Some(n) = name {
                st.name = Some(n.trim().to_string());
                if let Some(h) = state.header.as_mut() {
                    h.name = n.trim().to_string();
                }
            }
            if start.is_some() {
                st.start = *start;
            }
            if end.is_some() {
                st.end = *end;
            }
            if let Some(v) = venue {
                st.venue = Some(v.trim().to_string());
            }
            for (sec, n) in rounds {
                st.rounds.insert(sec.clone(), *n);
            }
            st.changes.push(seq);
        }
        // Another family's entry (`Family::of`): folded there.
        _ => {}
    }
}

/// `EventCreated` with an existing header was answered by [`super::open_header`].
fn unreachable_ok() -> Result<(), Rejection> {
    Err(Rejection::EventExists)
}
