//! Closing the event (闭幕): the chief arbiter fixes the final standings, team standings and
//! prizes in the log (`event_closed`); after it the log takes no result, correction, pairing
//! or entry until he reopens the event with a reason (`event_reopened`), and closes it again.
//!
//! The closing entry is what was announced: `event verify` recomputes it from the log before
//! it and reports any difference.

use super::Ctx;
use crate::permission::{self, Action};
use crate::publish::{export, publish_numbers};
use crate::refusal::{Left, Needs, Refusal, Sec, TimeControlProblem};
use crate::step::{next_step, Step};
use crate::{regulation_of, DirectorError};
use arbiter_core::{ClosedPrize, ClosedSection, ClosedTeams, EventState, LogEntry, PlayerId};
use std::collections::BTreeMap;

/// The `event_closed` entry the log before it calls for: final places, team standings and
/// prizes as they stand (the published export's, by player id).
pub fn closing_entry(state: &EventState) -> Result<LogEntry, DirectorError> {
    let x = export(state)?;
    let ids = |section: &str| -> BTreeMap<u32, PlayerId> {
        publish_numbers(state, section)
            .into_iter()
            .map(|(p, n)| (n, p))
            .collect()
    };
    let mut by_section: BTreeMap<String, BTreeMap<u32, PlayerId>> = BTreeMap::new();
    for s in &x.sections {
        by_section.insert(s.id.clone(), ids(&s.id));
    }
    let player = |section: &str, no: u32| by_section.get(section).and_then(|m| m.get(&no)).copied();
    let standings = x
        .sections
        .iter()
        .map(|s| ClosedSection {
            section: s.id.clone(),
            places: s
                .standings
                .iter()
                .filter_map(|r| player(&s.id, r.no).map(|p| (r.rank, p)))
                .collect(),
        })
        .collect();
    let teams = x
        .teams
        .iter()
        .map(|t| ClosedTeams {
            section: t.section.clone(),
            division: t.division.clone(),
            places: t
                .standings
                .iter()
                .map(|r| (r.rank, r.team.clone()))
                .collect(),
        })
        // A team-match section's teams by 场分 and 局分 (A15).
        .chain(x.team_matches.iter().map(|t| {
            ClosedTeams {
                section: t.section.clone(),
                division: None,
                places: t
                    .standings
                    .iter()
                    .map(|r| (r.rank, r.team.clone()))
                    .collect(),
            }
        }))
        .collect();
    let prizes = x
        .prizes
        .iter()
        .map(|p| ClosedPrize {
            section: p.section.clone(),
            category: p.category.clone(),
            rank: p.rank,
            player: p.no.and_then(|n| player(&p.section, n)),
            team: p.team.clone(),
            amount: p.amount,
        })
        .collect();
    Ok(LogEntry::EventClosed {
        standings,
        teams,
        prizes,
    })
}

/// `event close`: close the event once every section is finished (every round played, every
/// knockout match decided). Refused while a section still has something to play, naming it.
pub fn close(state: &EventState, ctx: &Ctx) -> Result<Vec<LogEntry>, DirectorError> {
    let _ = ctx;
    let reg = regulation_of(state)?;
    if state.closed {
        return Err(Refusal::AlreadyClosed.into());
    }
    let played = state
        .sections
        .values()
        .any(|s| s.completed_rounds() > 0 || !s.knockout.is_empty());
    if !played {
        return Err(Refusal::NothingPlayed.into());
    }
    for sec in &reg.sections {
        if state.section(&sec.id).is_none() {
            continue;
        }
        let left = match next_step(&reg, state, &sec.id)? {
            Step::Done => continue,
            Step::DrawNumbers => Left::NotDrawn,
            Step::Pair { round, .. } => Left::NotPaired(round),
            Step::Results { round, boards } => Left::ResultsMissing {
                round,
                boards: boards.len(),
            },
            Step::CompleteRound { round } => Left::NotCompleted(round),
            Step::Withdraw(_) => Left::WithdrawalsDue,
            Step::Knockout { matches } => Left::Knockout(matches.len()),
        };
        return Err(Refusal::SectionUnfinished {
            section: Sec::in_reg(&reg, &sec.id),
            left,
        }
        .into());
    }
    Ok(vec![closing_entry(state)?])
}

/// `event reopen`: the chief arbiter (the actor) reopens a closed event, with the reason.
pub fn reopen(state: &EventState, ctx: &Ctx, reason: &str) -> Result<Vec<LogEntry>, DirectorError> {
    if !state.closed {
        return Err(Refusal::NotClosed.into());
    }
    permission::require(ctx, Action::Reopen)?;
    if reason.trim().is_empty() {
        return Err(DirectorError::ReasonMissing(Action::Reopen));
    }
    super::text_checked(vec![LogEntry::EventReopened {
        reason: reason.trim().to_string(),
        by: ctx.actor.clone(),
    }])
}

/// A change of the event's settings (赛事设置) as the arbiter asks for it: every field the
/// form shows; only those that differ from the settings in force are recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsForm {
    pub name: Option<String>,
    pub start: Option<chrono::NaiveDate>,
    pub end: Option<chrono::NaiveDate>,
    pub venue: Option<String>,
    /// The registration deadline (报名截止), China time.
    pub deadline: Option<chrono::NaiveDateTime>,
    /// The date ages are counted on (年龄计算日期).
    pub age_on: Option<chrono::NaiveDate>,
    /// Swiss rounds by section id.
    pub rounds: BTreeMap<String, u32>,
    /// The slow games' time control (比赛用时) by section id, as written: `60+30` (minutes
    /// per side + seconds a move), `60`, `60分+30秒`, `60′+30″`.
    pub time_controls: BTreeMap<String, String>,
    /// Last edition's units placed in a team division (昆山 五(一)), by division id, as typed:
    /// names separated by 、 , ， ; or new lines (an empty text: none).
    pub placed_units: BTreeMap<String, String>,
    pub reason: String,
}

/// Unit names as typed in one field: separated by 、 , ， ; ； or new lines, each trimmed.
pub fn unit_list(text: &str) -> Vec<String> {
    text.split(['、', ',', '，', ';', '；', '\n', '\r'])
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(str::to_string)
        .collect()
}

/// The date ages are counted on, as the settings page shows it: the one set for this
/// edition, else the regulation's `age_on` of its first section with an age rule, else the
/// event's first day.
pub fn age_on_in_force(
    reg: &arbiter_regulation::Regulation,
    state: &EventState,
) -> Option<chrono::NaiveDate> {
    state
        .settings
        .age_on
        .or_else(|| reg.sections.iter().find_map(|s| s.eligibility.age_on))
}

/// The time control of a section's slow games (its first slow one), if the regulation (with
/// the settings) gives one.
pub fn slow_time_control(
    s: &arbiter_regulation::Section,
) -> Option<&arbiter_regulation::TimeControl> {
    s.time_controls
        .iter()
        .find(|t| t.kind == arbiter_types::GameKind::Slow)
}

/// Read a time control as the settings page writes it: `60+30`, `60`, `60分+30秒`,
/// `60分钟+30秒`, `60′+30″`, `60'+30"`. Err says what is wrong.
pub fn parse_time_control(
    text: &str,
) -> Result<arbiter_core::TimeControlSetting, TimeControlProblem> {
    let t = text.trim();
    let bad = || TimeControlProblem::Unreadable;
    let (m, inc) = match t.split_once(['+', '＋']) {
        Some((m, i)) => (m, Some(i)),
        None => (t, None),
    };
    let num = |s: &str, units: &[&str]| -> Result<u32, TimeControlProblem> {
        let mut s = s.trim();
        for u in units {
            if let Some(x) = s.strip_suffix(u) {
                s = x.trim();
                break;
            }
        }
        s.parse::<u32>().map_err(|_| bad())
    };
    let minutes = num(m, &["分钟", "分", "′", "'", "min"])?;
    let increment_seconds = match inc {
        Some(i) => num(i, &["秒", "″", "\"", "s"])?,
        None => 0,
    };
    if minutes == 0 || minutes > 600 || increment_seconds > 600 {
        return Err(TimeControlProblem::OutOfRange);
    }
    Ok(arbiter_core::TimeControlSetting {
        minutes,
        increment_seconds,
    })
}

/// Change the event's settings (`settings_changed`): name, dates and venue shown on every
/// page, and the Swiss rounds of a section (not fewer than already paired). Issue 14: once
/// round 1 of any section is paired only the chief arbiter changes settings
/// ([`Action::ChangeSettingsAfterStart`]), and then with a reason.
pub fn change_settings(
    state: &EventState,
    ctx: &Ctx,
    form: &SettingsForm,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::ChangeSettings)?;
    settings_changed(state, ctx, form)
}

/// [`change_settings`] once the role may change settings at all (a new event's own first
/// settings, [`create_edition`], are its creator's).
fn settings_changed(
    state: &EventState,
    ctx: &Ctx,
    form: &SettingsForm,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    let started = state.sections.values().any(|s| s.last_round() > 0);
    if started {
        permission::require(ctx, Action::ChangeSettingsAfterStart)?;
    }
    if started && form.reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::SettingsAfterStart).into());
    }
    let trimmed = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let name = trimmed(&form.name).filter(|n| *n != reg.event.name);
    let start = form.start.filter(|d| *d != reg.event.start);
    let end = form.end.filter(|d| *d != reg.event.end);
    let venue = trimmed(&form.venue).filter(|v| Some(v) != reg.event.venue.as_ref());
    let (a, b) = (
        start.unwrap_or(reg.event.start),
        end.unwrap_or(reg.event.end),
    );
    if a > b {
        return Err(Refusal::StartAfterEnd { start: a, end: b }.into());
    }
    let deadline = form
        .deadline
        .filter(|d| Some(*d) != reg.registration.deadline);
    if let Some(d) = form.deadline.or(reg.registration.deadline) {
        if d.date() > b && (deadline.is_some() || end.is_some()) {
            return Err(Refusal::DeadlineAfterEnd {
                deadline: d,
                end: b,
            }
            .into());
        }
    }
    let age_on = form
        .age_on
        .filter(|d| Some(*d) != age_on_in_force(&reg, state));
    let mut rounds = BTreeMap::new();
    for (id, &n) in &form.rounds {
        let sec = reg
            .section(id)
            .ok_or_else(|| DirectorError::UnknownSection(id.clone()))?;
        if sec.format.rounds == Some(n) {
            continue;
        }
        if sec.format.rounds.is_none() {
            return Err(Refusal::NoSwissRounds {
                section: Sec::in_reg(&reg, id),
            }
            .into());
        }
        let paired = state.section(id).map_or(0, |s| s.last_round());
        if n == 0 || n < paired {
            return Err(Refusal::RoundsBelowPaired {
                section: Sec::in_reg(&reg, id),
                paired,
                rounds: n,
            }
            .into());
        }
        rounds.insert(id.clone(), n);
    }
    let mut time_controls = BTreeMap::new();
    for (id, text) in &form.time_controls {
        let sec = reg
            .section(id)
            .ok_or_else(|| DirectorError::UnknownSection(id.clone()))?;
        let tc = parse_time_control(text).map_err(|problem| Refusal::BadTimeControl {
            section: Sec::in_reg(&reg, id),
            text: text.trim().to_string(),
            problem,
        })?;
        let same = slow_time_control(sec).is_some_and(|t| {
            t.minutes == tc.minutes
                && t.increment_seconds == tc.increment_seconds
                && t.black_minutes.is_none()
        });
        if !same {
            time_controls.insert(id.clone(), tc);
        }
    }
    let mut placed_units = BTreeMap::new();
    let placed = reg.placed_divisions();
    for (id, text) in &form.placed_units {
        let Some(d) = placed
            .iter()
            .find(|d| d.id == id.trim() || d.name == id.trim())
        else {
            return Err(Refusal::NotPlacedDivision {
                division: id.trim().to_string(),
                placed: placed.iter().map(|d| d.name.clone()).collect(),
            }
            .into());
        };
        let units = unit_list(text);
        if units != d.units {
            placed_units.insert(d.id.clone(), units);
        }
    }
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
        return Err(Refusal::NoSettingChanged.into());
    }
    let e = LogEntry::SettingsChanged {
        name,
        start,
        end,
        venue,
        deadline: deadline.map(crate::registration::rfc3339),
        age_on,
        rounds,
        time_controls,
        placed_units,
        reason: form.reason.trim().to_string(),
    };
    arbiter_core::validate(state, &e).map_err(Refusal::Rule)?;
    super::text_checked(vec![e])
}

/// A new event's first entry (`event_created`), from the regulation file's text: the text is
/// checked (errors name the file, line and column) and copied into the log, so the event
/// never depends on the file again. The seed of every lot is `seed`, or by default a hash of
/// the regulation text (the same file, the same lots). Returns the event's name and the entry.
pub fn create(
    source: &str,
    file_name: &str,
    seed: Option<u64>,
) -> Result<(String, Vec<LogEntry>), DirectorError> {
    let reg = arbiter_regulation::parse(source, file_name).map_err(Refusal::BadRegulation)?;
    let seed = seed.unwrap_or_else(|| default_seed(source));
    let entry = crate::registration::event_created(&reg, source, file_name, seed);
    Ok((reg.event.name.clone(), vec![entry]))
}

/// A new event for this year's edition of a regulation: its `event_created`, then the
/// settings of this edition (dates, registration deadline, the date ages are counted on —
/// `settings_changed`, judged as a change of the new event's settings by `ctx`). A form that
/// changes nothing gives the `event_created` alone.
pub fn create_edition(
    source: &str,
    file_name: &str,
    seed: Option<u64>,
    ctx: &Ctx,
    form: &SettingsForm,
) -> Result<(String, Vec<LogEntry>), DirectorError> {
    let (name, mut entries) = create(source, file_name, seed)?;
    let mut scratch = EventState::new();
    for e in &entries {
        crate::apply_scratch(&mut scratch, e, &ctx.at_rfc3339())?;
    }
    match settings_changed(&scratch, ctx, form) {
        Ok(more) => entries.extend(more),
        Err(DirectorError::Refused(r)) if matches!(*r, Refusal::NoSettingChanged) => {}
        Err(e) => return Err(e),
    }
    Ok((name, entries))
}

/// This year's edition of a regulation as the form to create it suggests it: the
/// regulation's dates moved by whole years to the first edition that has not started by
/// `today` (the deadline and the date ages are counted on moved by the same years). The
/// date ages are counted on only where a section has an age or birth-date rule.
pub fn edition_dates(
    reg: &arbiter_regulation::Regulation,
    today: chrono::NaiveDate,
) -> SettingsForm {
    use chrono::Months;
    let mut years = 0u32;
    let moved =
        |d: chrono::NaiveDate, y: u32| d.checked_add_months(Months::new(12 * y)).unwrap_or(d);
    while moved(reg.event.start, years) < today && years < 200 {
        years += 1;
    }
    let y = years;
    let ages = reg.sections.iter().any(|s| {
        let el = &s.eligibility;
        el.min_age.is_some()
            || el.max_age.is_some()
            || el.born_from.is_some()
            || el.born_to.is_some()
    });
    let age_on = reg
        .sections
        .iter()
        .find_map(|s| s.eligibility.age_on)
        .unwrap_or(reg.event.start);
    // The name's year, where it names the regulation's, is this edition's.
    let (was, now) = (
        reg.event.start.format("%Y").to_string(),
        moved(reg.event.start, y).format("%Y").to_string(),
    );
    let name =
        (y > 0 && reg.event.name.contains(&was)).then(|| reg.event.name.replacen(&was, &now, 1));
    SettingsForm {
        name,
        start: Some(moved(reg.event.start, y)),
        end: Some(moved(reg.event.end, y)),
        deadline: reg
            .registration
            .deadline
            .map(|d| d.checked_add_months(Months::new(12 * y)).unwrap_or(d)),
        age_on: ages.then(|| moved(age_on, y)),
        ..SettingsForm::default()
    }
}

/// The default seed of an event: FNV-1a over its regulation text.
pub fn default_seed(source: &str) -> u64 {
    source.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
