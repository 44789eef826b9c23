//! The regulation in force: the TOML recorded by `event_created`, parsed once per state and
//! shared by its clones, with the settings changed since (`settings_changed`) applied.

use crate::state::EventState;
use arbiter_regulation::{Regulation, TimeControl};
use arbiter_types::GameKind;
use std::sync::{Arc, OnceLock};

/// Why an event has no regulation to run by.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegulationError {
    #[error("尚未创建赛事 (no event created)")]
    NoEvent,
    /// The recorded regulation no longer parses (the error names file, line and column).
    #[error("{0}")]
    Parse(arbiter_regulation::RegulationError),
}

/// A state's parsed regulation, filled on first use. The fold replaces it with an empty cell
/// whenever the regulation or the settings change, so a cell never outlives what it was made
/// from; clones of a state share it.
#[derive(Clone, Default)]
pub(crate) struct RegulationCell(Arc<OnceLock<Result<Arc<Regulation>, RegulationError>>>);

impl std::fmt::Debug for RegulationCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0.get() {
            Some(Ok(_)) => "RegulationCell(parsed)",
            Some(Err(_)) => "RegulationCell(error)",
            None => "RegulationCell(empty)",
        })
    }
}

/// The cell is derived from the header and the settings, which the state compares itself.
impl PartialEq for RegulationCell {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for RegulationCell {}

impl EventState {
    /// The regulation in force: the recorded one with the settings changed since (name, dates,
    /// venue, Swiss rounds, the slow games' time control). Parsed on the first call and shared
    /// by every clone of this state until an entry changes the regulation or the settings.
    pub fn regulation(&self) -> Result<Arc<Regulation>, RegulationError> {
        self.regulation_cell()
            .0
            .get_or_init(|| self.parse_regulation().map(Arc::new))
            .clone()
    }

    fn parse_regulation(&self) -> Result<Regulation, RegulationError> {
        let h = self.header.as_ref().ok_or(RegulationError::NoEvent)?;
        let mut reg = arbiter_regulation::parse(&h.regulation, &h.file_name)
            .map_err(RegulationError::Parse)?;
        let st = &self.settings;
        let reg_start = reg.event.start;
        if let Some(n) = &st.name {
            // A new name has no English name until one is given.
            if *n != reg.event.name {
                reg.event.name_en = None;
            }
            reg.event.name = n.clone();
        }
        if let Some(d) = st.start {
            // The check-in day keeps its distance to the first day.
            if let Some(c) = reg.registration.check_in {
                reg.registration.check_in = c.checked_add_signed(d - reg.event.start).or(Some(c));
            }
            reg.event.start = d;
        }
        if let Some(d) = st.end {
            reg.event.end = d;
        }
        if let Some(v) = &st.venue {
            reg.event.venue = Some(v.clone());
        }
        // The deadline set for this edition replaces the regulation's, in every section.
        let deadline = st.deadline.as_deref().and_then(crate::time::china_local);
        if let Some(d) = deadline {
            reg.registration.deadline = Some(d);
        }
        for s in &mut reg.sections {
            if let Some(d) = deadline {
                s.entries.deadline = Some(d);
            }
            // Ages counted on the date set for this edition; a section's birth-date range
            // moves with it by whole years (a range written for the regulation's edition).
            if let Some(on) = st.age_on {
                let el = &mut s.eligibility;
                let was = el.age_on.or(s.date).unwrap_or(reg_start);
                shift_births(el, &mut s.categories, on, was);
                if el.min_age.is_some() || el.max_age.is_some() {
                    el.age_on = Some(on);
                }
            }
            if let Some(n) = st.rounds.get(&s.id) {
                s.format.rounds = Some(*n);
            }
            // Last edition's placed units, as this edition was given them.
            for d in s.teams.iter_mut().flat_map(|t| t.divisions.iter_mut()) {
                if let Some(units) = st.placed_units.get(&d.id) {
                    d.units = units.clone();
                }
            }
            // The slow games' time control (比赛用时) replaces the regulation's.
            if let Some(tc) = st.time_controls.get(&s.id) {
                let set = TimeControl {
                    name: None,
                    kind: GameKind::Slow,
                    minutes: tc.minutes,
                    increment_seconds: tc.increment_seconds,
                    black_minutes: None,
                };
                match s
                    .time_controls
                    .iter_mut()
                    .find(|t| t.kind == GameKind::Slow)
                {
                    Some(t) => {
                        *t = TimeControl {
                            name: t.name.take(),
                            ..set
                        }
                    }
                    None => s.time_controls.insert(0, set),
                }
            }
        }
        Ok(reg)
    }
}

/// Move a section's birth-date ranges (its eligibility and its categories) by the whole
/// years between the date ages were counted on (`was`) and the one set (`on`): `born_from =
/// 1956-01-01` for an edition counting on 2025-10-07 is `1957-01-01` counting on 2026-10-07.
fn shift_births(
    el: &mut arbiter_regulation::Eligibility,
    categories: &mut [arbiter_regulation::Category],
    on: chrono::NaiveDate,
    was: chrono::NaiveDate,
) {
    use chrono::{Datelike, Months};
    let years = on.year() - was.year();
    if years == 0 {
        return;
    }
    let months = Months::new(years.unsigned_abs() * 12);
    let shift = |d: &mut Option<chrono::NaiveDate>| {
        if let Some(x) = *d {
            let moved = if years > 0 {
                x.checked_add_months(months)
            } else {
                x.checked_sub_months(months)
            };
            *d = moved.or(Some(x));
        }
    };
    shift(&mut el.born_from);
    shift(&mut el.born_to);
    for c in categories {
        shift(&mut c.born_from);
        shift(&mut c.born_to);
    }
}
