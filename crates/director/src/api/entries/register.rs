//! Registering an entry (one form, a batch), refusing one by decision, correcting one.

use super::shared::{checked, player, section_of};
use crate::api::Ctx;
use crate::permission::{self, Action};
use crate::refusal::{Needs, Refusal, Sec};
use crate::registration::{self, check_team_roster, check_team_unit, EntryForm};
use crate::{regulation_of, DirectorError};
use arbiter_core::{EventState, FieldChange, LogEntry, PlayerId};

/// Register one entry: `player_registered`, or `entry_refused` with the regulation's reason
/// (a refusal is an answer, recorded in the log). `form.late_reason` is the chief arbiter's
/// override for an entry after the deadline, recorded with the entry. An error (nothing to
/// record): no event, unknown section, empty name, or the same refusal already recorded.
pub fn register(
    state: &EventState,
    ctx: &Ctx,
    form: &EntryForm,
) -> Result<Vec<LogEntry>, DirectorError> {
    judged(state, ctx, form).map(|(entries, _)| entries)
}

/// [`register`], with why the rules refused the entry when they did.
fn judged(
    state: &EventState,
    ctx: &Ctx,
    form: &EntryForm,
) -> Result<(Vec<LogEntry>, Option<registration::Ineligible>), DirectorError> {
    let reg = regulation_of(state)?;
    section_of(state, &form.section)?;
    crate::groups::open_to_entries(&reg, state, &form.section)?;
    if form.late_reason.is_some() {
        permission::require(ctx, Action::LateEntry)?;
    }
    if form.name.trim().is_empty() {
        return Err(Refusal::NameEmpty.into());
    }
    form_mistake(&reg, form, ctx.at.date())?;
    let (e, why) =
        registration::register_judged(&reg, state, form, ctx.at, registration::Duplicates::Refuse);
    if registration::already_refused(state, &e) {
        let reason = match &e {
            LogEntry::EntryRefused { reason, .. } => reason.as_str(),
            _ => "",
        };
        return Err(Refusal::RefusalRecorded {
            name: form.name.clone(),
            section: Sec::in_reg(&reg, &form.section),
            reason: reason.to_string(),
        }
        .into());
    }
    Ok((checked(vec![e])?, why))
}

/// The mistakes of a form (not the regulation's refusals): a field the regulation requires
/// left blank, an ID number or phone that is not one, evidence not on the regulation's list.
/// Nothing is recorded for them: the form is corrected.
fn form_mistake(
    reg: &arbiter_regulation::Regulation,
    form: &EntryForm,
    on: chrono::NaiveDate,
) -> Result<(), DirectorError> {
    if let Some(r) = registration::missing_field(reg, form) {
        return Err(Refusal::Required(r).into());
    }
    let id = match registration::given(form.id_number.as_deref()) {
        Some(id) => Some(arbiter_types::IdNumber::parse(&id).map_err(Refusal::BadIdNumber)?),
        None => None,
    };
    registration::person_mistake(id.as_ref(), form.sex, form.birth, on)?;
    if let Some(p) = form.phone.as_deref() {
        // The message does not repeat the number.
        arbiter_types::Phone::parse(p).map_err(|_| Refusal::BadPhone)?;
    }
    if let Some(s) = registration::given(form.social_security.as_deref()) {
        arbiter_types::SocialSecurityNo::parse(&s).map_err(|_| Refusal::BadSocialSecurity)?;
    }
    for e in &form.evidence {
        registration::evidence_name(e).map_err(|_| Refusal::UnknownEvidence {
            given: e.trim().to_string(),
        })?;
    }
    registration::flag_names(reg, &form.flags)?;
    Ok(())
}

/// The desk's entry form (报名表): the registration, or an error with the regulation's
/// reason when the section's rules refuse it — nothing recorded, so the form stays as typed
/// and the arbiter corrects it, or refuses the entry by decision ([`refuse`], the only
/// recorded refusal). A form mistake (ID number, phone, evidence) is an error too.
pub fn register_form(
    state: &EventState,
    ctx: &Ctx,
    form: &EntryForm,
) -> Result<Vec<LogEntry>, DirectorError> {
    match judged(state, ctx, form)? {
        (_, Some(why)) => Err(Refusal::NotEligible { why }.into()),
        (out, None) => Ok(out),
    }
}

/// Register a batch (a roster file), each form checked against the entries before it. One
/// answer per form: the entry to append, or `None` for a refusal already recorded.
pub fn register_each(
    state: &EventState,
    ctx: &Ctx,
    forms: &[EntryForm],
) -> Result<Vec<Option<LogEntry>>, DirectorError> {
    let reg = regulation_of(state)?;
    for f in forms {
        section_of(state, &f.section)?;
        crate::groups::open_to_entries(&reg, state, &f.section)?;
        if let Some(r) = registration::missing_field(&reg, f) {
            return Err(Refusal::Required(r).into());
        }
        let id = registration::given(f.id_number.as_deref())
            .and_then(|i| arbiter_types::IdNumber::parse(&i).ok());
        registration::person_mistake(id.as_ref(), f.sex, f.birth, ctx.at.date())?;
        registration::flag_names(&reg, &f.flags)?;
    }
    let out = registration::register_each(&reg, state, forms, ctx.at)?;
    let entries: Vec<LogEntry> = out.iter().flatten().cloned().collect();
    crate::text::check_entries(&entries)?;
    Ok(out)
}

/// [`register_each`] in the API's shape: the entries to append.
pub fn register_batch(
    state: &EventState,
    ctx: &Ctx,
    forms: &[EntryForm],
) -> Result<Vec<LogEntry>, DirectorError> {
    Ok(register_each(state, ctx, forms)?
        .into_iter()
        .flatten()
        .collect())
}

/// The arbiter refuses an entry by decision (not by an eligibility rule), with the reason.
pub fn refuse(
    state: &EventState,
    form: &EntryForm,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    section_of(state, &form.section)?;
    let form = &form.normalized();
    if reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::RefuseEntry).into());
    }
    let e = LogEntry::EntryRefused {
        name: form.name.trim().to_string(),
        section: form.section.clone(),
        reason: reason.trim().to_string(),
        id_number: form
            .id_number
            .as_deref()
            .and_then(|s| arbiter_types::IdNumber::parse(s).ok()),
        unit: form.unit.clone().or_else(|| form.association.clone()),
        // A decision of the arbiter: no facts for a replay to re-check against the rules.
        facts: None,
    };
    checked(vec![e])
}

/// Edit an entry (`player_corrected`), with the reason. A new team or unit must keep the team
/// rules (K2: one unit per team; one roster per team). A new sex, birth date or ID number is
/// judged by the section's eligibility as at registration (`Section::check_entry`: its sex
/// and age rules): as there, sex and birth date come from the ID number when there is one,
/// so a new ID number brings its sex and birth date into the correction, and a sex or birth
/// date that contradicts the ID number is refused.
pub fn correct(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    mut changes: Vec<FieldChange>,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    let rec = player(state, p)?;
    if changes.is_empty() {
        return Err(Refusal::NothingToCorrect.into());
    }
    if reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::CorrectEntry).into());
    }
    // A blank unit, association or team is none (as at registration).
    for c in &mut changes {
        match c {
            FieldChange::Unit(v) | FieldChange::Association(v) | FieldChange::Team(v) => {
                *v = registration::given(v.as_deref());
            }
            // Flags as the regulation names them; one it does not name is refused.
            FieldChange::Flags(v) => *v = registration::flag_names(&reg, v)?,
            // A grade as the scale names it; one not on the scale is refused.
            FieldChange::Grade(v) => {
                *v = match registration::given(v.as_deref()) {
                    Some(g) => Some(registration::grade_name(&reg, &g)?),
                    None => None,
                }
            }
            _ => {}
        }
    }
    // A new grade is judged by the section's grade rules (`min_grade`, `below_grade`).
    if let Some(g) = changes.iter().rev().find_map(|c| match c {
        FieldChange::Grade(g) => Some(g),
        _ => None,
    }) {
        if *g != rec.grade {
            let grade = g.as_deref().and_then(|g| reg.grades.find(g));
            if let Some(sec) = reg.section(&rec.section) {
                sec.check_grade(grade.as_ref())
                    .map_err(|r| Refusal::CorrectionNotEligible {
                        section: Sec::in_reg(&reg, &rec.section),
                        why: registration::Ineligible::Rule(r),
                    })?;
            }
        }
    }
    // The `local` mark follows the flags.
    let local = changes.iter().find_map(|c| match c {
        FieldChange::Flags(v) => Some(v.iter().any(|f| f == "local")),
        _ => None,
    });
    if let Some(l) = local.filter(|l| *l != rec.local) {
        if !changes.iter().any(|c| matches!(c, FieldChange::Local(_))) {
            changes.push(FieldChange::Local(l));
        }
    }
    let mut team = rec.team.clone();
    let mut unit = rec.person.unit.clone();
    let (mut sex, mut birth, mut id) = (
        rec.person.sex,
        rec.person.birth_date,
        rec.person.id_number.clone(),
    );
    let (mut sex_given, mut birth_given) = (false, false);
    for c in &changes {
        match c {
            FieldChange::Team(t) => team = t.clone(),
            FieldChange::Unit(u) => unit = u.clone(),
            FieldChange::Sex(s) => {
                sex = *s;
                sex_given = true;
            }
            FieldChange::BirthDate(b) => {
                birth = *b;
                birth_given = true;
            }
            FieldChange::IdNumber(i) => id = i.clone(),
            _ => {}
        }
    }
    // As at registration: the ID number gives sex and birth date, never one after today.
    if id != rec.person.id_number {
        registration::person_mistake(id.as_ref(), None, None, ctx.at.date())?;
    }
    if let Some(i) = &id {
        if sex_given && sex != Some(i.sex()) {
            return Err(Refusal::SexContradictsId { id_sex: i.sex() }.into());
        }
        if birth_given && birth != Some(i.birth_date()) {
            return Err(Refusal::BirthContradictsId {
                id_birth: i.birth_date(),
            }
            .into());
        }
        if id != rec.person.id_number {
            if !sex_given && rec.person.sex != Some(i.sex()) {
                changes.push(FieldChange::Sex(Some(i.sex())));
            }
            if !birth_given && rec.person.birth_date != Some(i.birth_date()) {
                changes.push(FieldChange::BirthDate(Some(i.birth_date())));
            }
        }
        sex = Some(i.sex());
        birth = Some(i.birth_date());
    }
    if sex != rec.person.sex || birth != rec.person.birth_date {
        registration::check_person(&reg, &rec.section, sex, birth).map_err(|why| {
            Refusal::CorrectionNotEligible {
                section: Sec::in_reg(&reg, &rec.section),
                why,
            }
        })?;
    }
    if team != rec.team || unit != rec.person.unit {
        // Judge the player's new team and unit against everyone else.
        let mut others = state.clone();
        others.players.remove(&p);
        let teams: Vec<String> = others.teams.keys().cloned().collect();
        for name in teams {
            if let Some(t) = others.teams.get_mut(&name) {
                t.members.retain(|m| *m != p);
            }
        }
        check_team_unit(&others, team.as_deref(), unit.as_deref())
            .and_then(|()| {
                check_team_roster(
                    &reg,
                    &others,
                    &rec.section,
                    team.as_deref(),
                    unit.as_deref(),
                )
            })
            .map_err(|why| Refusal::TeamRule { why })?;
    }
    checked(vec![LogEntry::PlayerCorrected {
        player: p,
        changes,
        reason: reason.trim().to_string(),
    }])
}

/// Move a player to another section before either section's numbers are drawn (换组), with
/// the reason: `player_section_changed`. The same entry moves — fees paid, check-in and
/// corrections go with it, and no entry is left behind to owe a fee on the old section's
/// sheet. The new section's rules judge the entry as at registration (sex, age, flags,
/// evidence, the section's own caps), except the deadline: he entered on time, and A18 (one
/// section at a time) against the sections other than the one he leaves.
pub fn change_section(
    state: &EventState,
    p: PlayerId,
    to: &str,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    use super::shared::who;
    let reg = regulation_of(state)?;
    let rec = player(state, p)?;
    let to = crate::api::import::known_section(state, to)?;
    let sec = |id: &str| Sec::in_reg(&reg, id);
    if rec.section == to {
        return Err(Refusal::SameSection {
            player: who(p, rec),
            section: sec(&to),
        }
        .into());
    }
    if rec.withdrawn.is_some() || rec.disqualified.is_some() {
        return Err(Refusal::SectionChangeNotActive(who(p, rec)).into());
    }
    if let Some(into) = &section_of(state, &to)?.merged_into {
        return Err(Refusal::SectionMerged {
            section: sec(&to),
            into: sec(into),
        }
        .into());
    }
    for s in [rec.section.as_str(), to.as_str()] {
        if section_of(state, s)?.order.is_empty() {
            continue;
        }
        return Err(Refusal::SectionChangeAfterDraw {
            player: who(p, rec),
            section: sec(s),
        }
        .into());
    }
    if let Some(team) = rec.team.as_ref().filter(|t| state.teams.contains_key(*t)) {
        return Err(Refusal::SectionChangeInTeam {
            player: who(p, rec),
            team: team.clone(),
        }
        .into());
    }
    if reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::ChangeSection).into());
    }
    let not_eligible = |why| Refusal::SectionChangeNotEligible {
        player: who(p, rec),
        section: sec(&to),
        why,
    };
    // His entry as the new section's form: judged as at registration, on time.
    let form = EntryForm {
        section: to.clone(),
        name: rec.person.name.clone(),
        sex: rec.person.sex,
        birth: rec.person.birth_date,
        id_number: rec
            .person
            .id_number
            .as_ref()
            .map(|i| i.as_str().to_string()),
        phone: rec.person.phone.as_ref().map(|x| x.as_str().to_string()),
        social_security: None,
        unit: rec.person.unit.clone(),
        association: rec.person.association.clone(),
        team: None,
        evidence: rec.evidence.clone(),
        flags: rec.flags.clone(),
        rating: rec.rating,
        grade: rec.grade.clone(),
        late_reason: Some(reason.trim().to_string()),
    };
    let at = state
        .header
        .as_ref()
        .and_then(|h| h.limits.deadline.as_deref())
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok())
        .map(|d| d.naive_local());
    let at = at.unwrap_or_else(|| reg.event.start.and_time(chrono::NaiveTime::MIN));
    let (_, why) =
        registration::register_judged(&reg, state, &form, at, registration::Duplicates::Ignore);
    match why {
        // The event's caps count him already: moving adds nobody.
        Some(registration::Ineligible::Log(
            arbiter_core::Rejection::EntryCapReached(_)
            | arbiter_core::Rejection::AssociationCapReached { .. },
        ))
        | None => {}
        Some(why) => return Err(not_eligible(why).into()),
    }
    // A18: one section at a time, against the sections he does not leave.
    if let Some(id) = &rec.person.id_number {
        if !reg.registration.allow_overlapping_sections {
            let other = state.sections.keys().find(|s| {
                **s != rec.section
                    && **s != to
                    && state.index.has_id_number(s, id.as_str())
                    && registration::sections_overlap(&reg, &to, s)
            });
            if let Some(other) = other {
                return Err(not_eligible(registration::Ineligible::InOtherSection {
                    section: sec(&to).name,
                    other: sec(other).name,
                })
                .into());
            }
        }
    }
    checked(vec![LogEntry::PlayerSectionChanged {
        player: p,
        from: rec.section.clone(),
        to,
        reason: reason.trim().to_string(),
    }])
}

/// Merge section `from` into section `into` before either is drawn (「对分组可作适当调整」:
/// a group too small to be played on its own), the chief arbiter's decision with the reason:
/// `sections_merged`. Every player of `from` moves to `into` as the same entry — fees paid,
/// check-in and corrections with him — whatever `into`'s sex and age rules say (the decision
/// is to play them together), and `from` takes no more entries. Refused for a team section
/// (its entries are teams on boards), once either section's numbers are drawn, when the same
/// person is entered in both, and above `into`'s own cap.
pub fn merge_sections(
    state: &EventState,
    from: &str,
    into: &str,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    use super::shared::who;
    let reg = regulation_of(state)?;
    let from = crate::api::import::known_section(state, from)?;
    let into = crate::api::import::known_section(state, into)?;
    let sec = |id: &str| Sec::in_reg(&reg, id);
    if from == into {
        return Err(Refusal::MergeIntoItself(sec(&from)).into());
    }
    for s in [&from, &into] {
        if let Some(to) = &section_of(state, s)?.merged_into {
            return Err(Refusal::SectionMerged {
                section: sec(s),
                into: sec(to),
            }
            .into());
        }
    }
    for s in [&from, &into] {
        let teams = reg.section(s).is_some_and(|x| x.team_match.is_some())
            || !section_of(state, s)?.divisions.is_empty()
            || state
                .teams
                .values()
                .any(|t| t.section.as_deref() == Some(s.as_str()));
        if teams {
            return Err(Refusal::MergeTeamSection(sec(s)).into());
        }
    }
    for s in [&from, &into] {
        let rec = section_of(state, s)?;
        if !rec.order.is_empty() || !rec.rounds.is_empty() {
            return Err(Refusal::MergeAfterDraw { section: sec(s) }.into());
        }
    }
    let moving = &section_of(state, &from)?.entries;
    for p in moving {
        let rec = player(state, *p)?;
        if let Some(id) = &rec.person.id_number {
            if state.index.has_id_number(&into, id.as_str()) {
                return Err(Refusal::MergeSamePerson {
                    player: who(*p, rec),
                    into: sec(&into),
                }
                .into());
            }
        }
    }
    if let Some(cap) = reg.section(&into).and_then(|s| s.entries.cap) {
        let total = state.index.in_section(&into) + state.index.in_section(&from);
        if total > cap {
            return Err(Refusal::MergeOverCap {
                into: sec(&into),
                total,
                cap,
            }
            .into());
        }
    }
    if reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::MergeSections).into());
    }
    checked(vec![LogEntry::SectionsMerged {
        from,
        into,
        reason: reason.trim().to_string(),
    }])
}

/// A section below the regulation's minimum (`entries.min`, 「对分组可作适当调整」) before its
/// draw: `entries` active entries where it asks for `min`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BelowMinimum {
    pub section: Sec,
    pub entries: u32,
    pub min: u32,
}

impl std::fmt::Display for BelowMinimum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let BelowMinimum {
            section,
            entries,
            min,
        } = self;
        write!(
            f,
            "{section}报名 {entries} 人, 少于规程规定的最少 {min} 人; 抽签前可由裁判长将其并入其他组别 ({section} has {entries} entries, fewer than its minimum of {min}: the chief arbiter may merge it into another section before the draw)"
        )
    }
}

/// The sections not drawn yet (nor merged) with fewer active entries than the regulation's
/// minimum, in the regulation's order.
pub fn below_minimum(state: &EventState) -> Vec<BelowMinimum> {
    let Ok(reg) = regulation_of(state) else {
        return Vec::new();
    };
    reg.sections
        .iter()
        .filter_map(|s| {
            let min = s.entries.min?;
            let rec = state.section(&s.id)?;
            if rec.merged_into.is_some() || !rec.order.is_empty() {
                return None;
            }
            let entries = state.index.in_section(&s.id);
            (entries < min).then(|| BelowMinimum {
                section: Sec::in_reg(&reg, &s.id),
                entries,
                min,
            })
        })
        .collect()
}
