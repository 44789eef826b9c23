//! The online form (网上报名): what it offers, submissions, their duplicates, approving and
//! refusing them.

use super::shared::{checked, section_of};
use crate::api::Ctx;
use crate::permission::{self, Action};
use crate::refusal::{Needs, Refusal, Required};
use crate::registration::{self, EntryForm};
use crate::{regulation_of, DirectorError};
use arbiter_core::{EventState, LogEntry, PlayerId};

/// The facts an online form (网上报名) gives: the registration form without rating; the
/// conditions (`flags`) and the documents named (`evidence`) are set on it by the shell.
pub fn online_form(
    section: &str,
    name: &str,
    sex: Option<arbiter_types::Sex>,
    id_number: Option<&str>,
    phone: Option<&str>,
    unit: Option<&str>,
) -> EntryForm {
    let t = |s: Option<&str>| {
        s.map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    EntryForm {
        section: section.to_string(),
        name: name.trim().to_string(),
        sex,
        birth: None,
        id_number: t(id_number),
        phone: t(phone),
        unit: t(unit),
        association: None,
        team: None,
        evidence: Vec::new(),
        flags: Vec::new(),
        rating: None,
        grade: None,
        late_reason: None,
        social_security: None,
    }
}

/// Whether the online form takes entries at `at` (China time): not after the registration
/// deadline, not once the event is closed or round 1 of a section is paired.
pub fn online_open(state: &EventState, at: chrono::NaiveDateTime) -> Result<(), DirectorError> {
    use crate::refusal::Closed;
    let reg = regulation_of(state)?;
    if state.closed {
        return Err(Refusal::EntryClosed(Closed::EventClosed).into());
    }
    if state.sections.values().any(|s| s.last_round() > 0) {
        return Err(Refusal::EntryClosed(Closed::Started).into());
    }
    if let Some(d) = reg.registration.deadline.filter(|d| at > *d) {
        return Err(Refusal::EntryClosed(Closed::DeadlinePassed { deadline: d }).into());
    }
    Ok(())
}

/// What the entry form offers for a section: the conditions a player may claim (the
/// section's required flags, with their Chinese labels) and the documents the regulation
/// asks him to show (every one of `evidence`, one of each `evidence_any` list).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SectionOffer {
    /// `(flag, 中文)`.
    pub conditions: Vec<(String, &'static str)>,
    /// The section's other flags the desk may set: its categories' flags (本地棋手, …) and
    /// the flags that bar an entry, `(flag, 中文)` — a category's name for a flag without
    /// a label of its own.
    pub marks: Vec<(String, String)>,
    /// Every one of these.
    pub evidence: Vec<arbiter_regulation::Evidence>,
    /// One of each list.
    pub evidence_any: Vec<Vec<arbiter_regulation::Evidence>>,
    /// The evidence of the section's ways to qualify (`any_of`, 九江 十二: 九江户籍), any one way.
    pub any_of_evidence: Vec<arbiter_regulation::Evidence>,
}

impl SectionOffer {
    /// Every document named, once, in the regulation's order.
    pub fn all_evidence(&self) -> Vec<arbiter_regulation::Evidence> {
        let mut v: Vec<arbiter_regulation::Evidence> = Vec::new();
        for e in self
            .evidence
            .iter()
            .chain(self.evidence_any.iter().flatten())
            .chain(&self.any_of_evidence)
        {
            if !v.contains(e) {
                v.push(*e);
            }
        }
        v
    }
}

/// What an applicant brings to the registration desk, as the online form's answer lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToBring {
    /// The fee of his section (or the event's), in fen.
    Fee { fen: u64 },
    /// Evidence the section asks for (shown at the desk).
    Evidence(arbiter_regulation::Evidence),
    /// One of these pieces of evidence.
    OneOf(Vec<arbiter_regulation::Evidence>),
    /// The check-in day, and the time it opens when the regulation says.
    CheckIn {
        date: chrono::NaiveDate,
        from: Option<chrono::NaiveTime>,
    },
}

/// What an applicant to `section` brings to the desk: the fee the regulation sets for the
/// section (or the event), the evidence it asks for, the check-in day.
pub fn to_bring(reg: &arbiter_regulation::Regulation, section: &str) -> Vec<ToBring> {
    let mut v = Vec::new();
    let Some(sec) = reg.section(section) else {
        return v;
    };
    if let Some(fen) = super::fees::fee_due(reg, section) {
        v.push(ToBring::Fee { fen });
    }
    let offer = section_offer(sec);
    v.extend(offer.evidence.into_iter().map(ToBring::Evidence));
    v.extend(offer.evidence_any.into_iter().map(ToBring::OneOf));
    if !offer.any_of_evidence.is_empty() {
        v.push(ToBring::OneOf(offer.any_of_evidence));
    }
    if let Some(date) = reg.registration.check_in {
        v.push(ToBring::CheckIn {
            date,
            from: reg.registration.check_in_time,
        });
    }
    v
}

/// [`SectionOffer`] of a section of the regulation.
pub fn section_offer(sec: &arbiter_regulation::Section) -> SectionOffer {
    let el = &sec.eligibility;
    SectionOffer {
        conditions: {
            let mut c: Vec<(String, &'static str)> = Vec::new();
            for f in el
                .require_flags
                .iter()
                .chain(el.any_of.iter().flat_map(|c| &c.flags))
            {
                if !c.iter().any(|(x, _)| x == f) {
                    c.push((f.clone(), arbiter_regulation::flag_zh(f)));
                }
            }
            c
        },
        marks: {
            let mut m: Vec<(String, String)> = Vec::new();
            let cats = sec
                .categories
                .iter()
                .filter_map(|c| c.flag.as_ref().map(|f| (f, c.name.as_str())));
            let barred = el.forbid_flags.iter().map(|f| (f, ""));
            for (f, name) in cats.chain(barred) {
                if !el.require_flags.contains(f) && !m.iter().any(|(x, _)| x == f) {
                    let zh = match arbiter_regulation::flag_zh(f) {
                        "其他条件" if !name.is_empty() => name.to_string(),
                        "其他条件" => f.clone(),
                        zh => zh.to_string(),
                    };
                    m.push((f.clone(), zh));
                }
            }
            m
        },
        evidence: el.evidence.clone(),
        evidence_any: el.evidence_any.clone(),
        any_of_evidence: {
            let mut v: Vec<arbiter_regulation::Evidence> = Vec::new();
            for e in el.any_of.iter().flat_map(|c| &c.evidence) {
                if !v.contains(e) {
                    v.push(*e);
                }
            }
            v
        },
    }
}

/// [`section_offer`], with what playing up (越级) into the section asks when it is an age
/// group and the regulation says (`[registration.play_up]`): its documents among the
/// evidence any one of which may be shown, its conditions among the marks.
pub fn section_offer_in(
    reg: &arbiter_regulation::Regulation,
    sec: &arbiter_regulation::Section,
) -> SectionOffer {
    let mut offer = section_offer(sec);
    let Some(p) = reg
        .registration
        .play_up
        .as_ref()
        .filter(|_| sec.oldest_birth().is_some())
    else {
        return offer;
    };
    for e in &p.evidence {
        if !offer.all_evidence().contains(e) {
            offer.any_of_evidence.push(*e);
        }
    }
    for f in &p.flags {
        if !offer.conditions.iter().any(|(x, _)| x == f) && !offer.marks.iter().any(|(x, _)| x == f)
        {
            offer.marks.push((f.clone(), reg.flag_label(f)));
        }
    }
    offer
}

/// An entry through the public online form (`entry_submitted`): checked at once against the
/// section's rules exactly as a registration at this moment would be (deadline, sex, age,
/// unit and section limits, duplicates), except the documents the regulation asks for, which
/// the desk sees when it approves the entry. Name, ID number and phone are required; sex and
/// birth date come from the ID number (a sex that contradicts it is refused). A refusal is an
/// error with the reason, and nothing is recorded: the applicant corrects the form.
pub fn submit(
    state: &EventState,
    ctx: &Ctx,
    form: &EntryForm,
) -> Result<Vec<LogEntry>, DirectorError> {
    submit_keyed(state, ctx, form, None)
}

/// [`submit`], with the key of the player's status page (the SHA-256 of a token only the
/// player is given), recorded with the submission. The form's conditions (flags) must be
/// the section's; the documents named must be on the regulation's list.
pub fn submit_keyed(
    state: &EventState,
    ctx: &Ctx,
    form: &EntryForm,
    status_key: Option<String>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    online_open(state, ctx.at)?;
    section_of(state, &form.section)?;
    let sec = reg
        .section(&form.section)
        .ok_or_else(|| DirectorError::UnknownSection(form.section.clone()))?;
    if form.name.trim().is_empty() {
        return Err(Refusal::Required(Required::Name).into());
    }
    let Some(id) = form.id_number.as_deref() else {
        return Err(Refusal::Required(Required::IdNumber).into());
    };
    let id = arbiter_types::IdNumber::parse(id).map_err(Refusal::BadIdNumber)?;
    let Some(phone) = form.phone.as_deref() else {
        return Err(Refusal::Required(Required::Phone).into());
    };
    // The message does not repeat the number.
    arbiter_types::Phone::parse(phone).map_err(|_| Refusal::BadPhone)?;
    if let Some(s) = registration::given(form.social_security.as_deref()) {
        arbiter_types::SocialSecurityNo::parse(&s).map_err(|_| Refusal::BadSocialSecurity)?;
    }
    registration::person_mistake(Some(&id), form.sex, form.birth, ctx.at.date())?;
    if let Some(r) = registration::missing_field(&reg, form) {
        return Err(Refusal::Required(r).into());
    }
    let mut claimed = Vec::new();
    for e in &form.evidence {
        let n = registration::evidence_name(e).map_err(|_| Refusal::UnknownEvidence {
            given: e.trim().to_string(),
        })?;
        if !claimed.iter().any(|c: &String| c == n) {
            claimed.push(n.to_string());
        }
    }
    let flags: Vec<String> = form
        .flags
        .iter()
        .filter(|f| {
            sec.eligibility.require_flags.contains(f)
                || sec.eligibility.any_of.iter().any(|c| c.flags.contains(f))
        })
        .cloned()
        .collect();
    // Judge everything but the documents: assume those the section asks for are shown.
    let mut judged = form.clone();
    judged.evidence = sec
        .eligibility
        .evidence
        .iter()
        .chain(
            sec.eligibility
                .evidence_any
                .iter()
                .filter_map(|a| a.first()),
        )
        .chain(sec.eligibility.any_of.iter().flat_map(|c| &c.evidence))
        .map(|e| e.name().to_string())
        .collect();
    judged.late_reason = None;
    judged.flags = flags.clone();
    // A person already registered or pending is judged as anyone else: the answer must not
    // tell a stranger whether an ID number is entered (the desk sees the duplicate), and a
    // pending submission never blocks another.
    match registration::register_judged(
        &reg,
        state,
        &judged,
        ctx.at,
        registration::Duplicates::Ignore,
    ) {
        (_, Some(why)) => Err(Refusal::NotEligible { why }.into()),
        (LogEntry::PlayerRegistered(r), None) => checked(vec![LogEntry::EntrySubmitted {
            submission: state.next_submission(),
            section: r.section,
            // The online form asks no association (an association event's unit fills it
            // at approval).
            person: arbiter_types::Person {
                association: None,
                ..r.person
            },
            flags,
            evidence: claimed,
            status_key,
        }]),
        (other, None) => Err(Refusal::UnexpectedOutcome { kind: other.kind() }.into()),
    }
}

/// The same person already entered, as the desk should see it beside a pending online
/// submission (the form itself never says: issue 42).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmissionDuplicate {
    /// An active entry of the section has the same ID number.
    Registered { player: PlayerId, name: String },
    /// An earlier submission, still pending in the section, has the same ID number.
    Pending { submission: u32, name: String },
}

/// The entry or earlier pending submission of the section with the same ID number as the
/// pending submission `s`, if any.
pub fn submission_duplicate(
    state: &EventState,
    s: &arbiter_core::Submission,
) -> Option<SubmissionDuplicate> {
    let id = s.person.id_number.as_ref()?;
    if state.index.has_id_number(&s.section, id.as_str()) {
        if let Some(p) = state.players.values().find(|p| {
            p.section == s.section
                && p.withdrawn.is_none()
                && p.person.id_number.as_ref() == Some(id)
        }) {
            return Some(SubmissionDuplicate::Registered {
                player: p.id,
                name: p.person.name.clone(),
            });
        }
    }
    state
        .pending(Some(&s.section))
        .into_iter()
        .find(|x| x.submission < s.submission && x.person.id_number.as_ref() == Some(id))
        .map(|x| SubmissionDuplicate::Pending {
            submission: x.submission,
            name: x.person.name.clone(),
        })
}

fn pending_submission(
    state: &EventState,
    n: u32,
) -> Result<&arbiter_core::Submission, DirectorError> {
    let s = state
        .submissions
        .get(&n)
        .ok_or(Refusal::UnknownSubmission(n))?;
    if s.decision.is_some() {
        return Err(Refusal::SubmissionDecided(n).into());
    }
    Ok(s)
}

/// Approve an online submission: the normal registration ([`register`](super::register)) with its facts, the
/// documents the desk has seen (`evidence`) and, for a submission made after the deadline,
/// the chief arbiter's `late_reason` (a submission made before the deadline is on time
/// whenever it is approved: the registration names it, `submission`); then `submission_decided` naming the new player. When the registration is
/// refused (documents missing, the section full by now …) nothing is recorded and the
/// reason is the error: the desk may then refuse the submission with a reason.
pub fn approve(
    state: &EventState,
    ctx: &Ctx,
    submission: u32,
    evidence: Vec<String>,
    late_reason: Option<String>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    if late_reason.is_some() {
        permission::require(ctx, Action::LateEntry)?;
    }
    let s = pending_submission(state, submission)?;
    let form = EntryForm {
        // The online form asks no association.
        association: None,
        evidence,
        flags: s.flags.clone(),
        late_reason,
        ..EntryForm::of_person(s.section.clone(), &s.person)
    };
    // On time if submitted on time: the deadline is judged at the submission's time (the
    // log's own check reads it from the submission named in the registration).
    let judged_at = arbiter_core::time::china_local(&s.at).unwrap_or(ctx.at);
    match registration::register(&reg, state, &form, judged_at) {
        LogEntry::PlayerRegistered(mut r) => {
            r.submission = Some(submission);
            let player = r.player;
            checked(vec![
                LogEntry::PlayerRegistered(r),
                LogEntry::SubmissionDecided {
                    submission,
                    player: Some(player),
                    reason: None,
                },
            ])
        }
        LogEntry::EntryRefused { reason, .. } => Err(Refusal::CannotApprove {
            submission,
            name: s.person.name.clone(),
            reason,
        }
        .into()),
        other => Err(Refusal::UnexpectedOutcome { kind: other.kind() }.into()),
    }
}

/// Refuse an online submission, with the reason (`submission_decided`).
pub fn refuse_submission(
    state: &EventState,
    submission: u32,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    pending_submission(state, submission)?;
    if reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::RefuseEntry).into());
    }
    checked(vec![LogEntry::SubmissionDecided {
        submission,
        player: None,
        reason: Some(reason.trim().to_string()),
    }])
}
