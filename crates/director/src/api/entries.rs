//! The registration desk (报名处): register, refuse, edit, fees, check-in, drawing pairing
//! numbers, withdrawals and absences, team rosters.
//!
//! Eligibility, team and limit rules live in [`crate::registration`] (the same code `verify`
//! runs again on replay); the operations here put them behind the API's shape and check
//! every returned entry against the log's own rules (`arbiter_core::validate_at`).
//!
//! Rules of the desk, as the operations apply them:
//! - A refusal equal to one already recorded (same name, section, reason, ID number and
//!   unit) is not recorded again: [`register`] answers with an error naming it, and
//!   [`register_each`] leaves that form out. Importing the same failing file twice leaves the
//!   log as it was.
//! - An entry without an ID number whose name, unit and birth date (both known or both
//!   unknown) equal an active player's of the same section is the same person entered twice:
//!   refused (the log's own rule, `Rejection::DuplicateEntry`).
//! - One roster per team (issue 18): see `docs/event-log.md` § 队伍名单.

use super::Ctx;
use crate::permission::{self, Action};
use crate::refusal::{Needs, Refusal, Required, Sec, Who};
use crate::registration::{self, check_team_roster, check_team_unit, EntryForm};
use crate::{regulation_of, DirectorError};
use arbiter_core::{validate_at, EventState, FieldChange, LogEntry, PlayerId, PlayerRecord};

pub(super) fn who(p: PlayerId, rec: &PlayerRecord) -> Who {
    Who {
        id: p,
        name: rec.name.clone(),
    }
}

/// Check `entries` in order against a scratch copy of `state`, as the store will.
pub(super) fn checked(
    state: &EventState,
    ctx: &Ctx,
    entries: Vec<LogEntry>,
) -> Result<Vec<LogEntry>, DirectorError> {
    crate::text::check_entries(&entries)?;
    let at = ctx.at_rfc3339();
    if let [one] = entries.as_slice() {
        validate_at(state, one, Some(&at)).map_err(Refusal::Rule)?;
        return Ok(entries);
    }
    let mut scratch = state.clone();
    for e in &entries {
        validate_at(&scratch, e, Some(&at)).map_err(Refusal::Rule)?;
        crate::apply_scratch(&mut scratch, e, &at)?;
    }
    Ok(entries)
}

pub(super) fn player(state: &EventState, p: PlayerId) -> Result<&PlayerRecord, DirectorError> {
    state
        .player(p)
        .ok_or_else(|| Refusal::UnknownPlayer(p).into())
}

fn section_of<'a>(
    state: &'a EventState,
    section: &str,
) -> Result<&'a arbiter_core::SectionRecord, DirectorError> {
    state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))
}

/// Register one entry: `player_registered`, or `entry_refused` with the regulation's reason
/// (a refusal is an answer, recorded in the log). `form.late_reason` is the chief arbiter's
/// override for an entry after the deadline, recorded with the entry. An error (nothing to
/// record): no event, unknown section, empty name, or the same refusal already recorded.
pub fn register(
    state: &EventState,
    ctx: &Ctx,
    form: &EntryForm,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    section_of(state, &form.section)?;
    if form.late_reason.is_some() {
        permission::require(ctx, Action::LateEntry)?;
    }
    if form.name.trim().is_empty() {
        return Err(Refusal::NameEmpty.into());
    }
    form_mistake(&reg, form, ctx.at.date())?;
    let e = registration::register(&reg, state, form, ctx.at);
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
    checked(state, ctx, vec![e])
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
    let out = register(state, ctx, form)?;
    match out.first() {
        Some(LogEntry::EntryRefused { reason, .. }) => Err(Refusal::NotEligible {
            reason: reason.clone(),
        }
        .into()),
        _ => Ok(out),
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
    ctx: &Ctx,
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
    checked(state, ctx, vec![e])
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
            _ => {}
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
    let mut unit = rec.unit.clone();
    let (mut sex, mut birth, mut id) = (rec.sex, rec.birth_date, rec.id_number.clone());
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
    if id != rec.id_number {
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
        if id != rec.id_number {
            if !sex_given && rec.sex != Some(i.sex()) {
                changes.push(FieldChange::Sex(Some(i.sex())));
            }
            if !birth_given && rec.birth_date != Some(i.birth_date()) {
                changes.push(FieldChange::BirthDate(Some(i.birth_date())));
            }
        }
        sex = Some(i.sex());
        birth = Some(i.birth_date());
    }
    if sex != rec.sex || birth != rec.birth_date {
        registration::check_person(&reg, &rec.section, sex, birth).map_err(|reason| {
            Refusal::CorrectionNotEligible {
                section: Sec::in_reg(&reg, &rec.section),
                reason,
            }
        })?;
    }
    if team != rec.team || unit != rec.unit {
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
            .map_err(|reason| Refusal::TeamRule { reason })?;
    }
    checked(
        state,
        ctx,
        vec![LogEntry::PlayerCorrected {
            player: p,
            changes,
            reason: reason.trim().to_string(),
        }],
    )
}

/// The fee due from a player: his section's fee, else the event's (fen).
pub fn fee_due(reg: &arbiter_regulation::Regulation, section: &str) -> Option<u64> {
    reg.section(section)
        .and_then(|s| s.entries.fee)
        .or(reg.registration.fee)
        .map(|f| f.total_fen())
}

/// Mark a fee paid (`fee_paid`): `amount_fen`, or the fee the regulation sets for the
/// player's section, with the receipt number if one was written. Refused when he has
/// already paid it in full.
pub fn pay_fee(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    amount_fen: Option<u64>,
    receipt: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    if !reg.registration.charges.is_empty() {
        return super::money::pay(state, ctx, p, None, amount_fen, receipt);
    }
    let rec = player(state, p)?;
    let due = fee_due(&reg, &rec.section);
    let amount = match (amount_fen, due) {
        (Some(0), _) => return Err(Refusal::AmountNotPositive.into()),
        (Some(a), _) => a,
        // What is still owed: a second payment completes a part paid.
        (None, Some(d)) => d.saturating_sub(rec.paid_fen),
        (None, None) => return Err(Refusal::NoFeeSet.into()),
    };
    if let Some(d) = due.filter(|d| rec.paid_fen >= *d) {
        return Err(Refusal::FeePaid {
            player: who(p, rec),
            paid_fen: rec.paid_fen,
            due_fen: d,
        }
        .into());
    }
    checked(
        state,
        ctx,
        vec![LogEntry::FeePaid {
            player: p,
            amount_fen: amount,
            receipt: receipt
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .map(str::to_string),
            item: None,
        }],
    )
}

/// What a player has paid against the fee due from him (T7: 赛事服务费100元).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeStatus {
    pub paid_fen: u64,
    /// The fee of his section (or the event's), if the regulation sets one.
    pub due_fen: Option<u64>,
}

impl FeeStatus {
    /// What is still owed (0 when paid in full or no fee is set).
    pub fn owed_fen(&self) -> u64 {
        self.due_fen.map_or(0, |d| d.saturating_sub(self.paid_fen))
    }
    /// Whether nothing is owed and something was paid.
    pub fn paid_in_full(&self) -> bool {
        self.paid_fen > 0 && self.owed_fen() == 0
    }
}

impl std::fmt::Display for FeeStatus {
    /// `已缴清 100元`, `已缴 50元, 尚欠 50元`, `未缴费, 应缴 100元`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paid = yuan(self.paid_fen);
        let owed = yuan(self.owed_fen());
        match (self.paid_fen, self.owed_fen(), self.due_fen) {
            (0, _, Some(d)) => write!(f, "未缴费, 应缴 {} (unpaid: {} due)", yuan(d), yuan(d)),
            (0, _, None) => write!(f, "未缴费 (unpaid)"),
            (_, 0, Some(_)) => write!(f, "已缴清 {paid} (paid in full)"),
            (_, 0, None) => write!(f, "已缴 {paid} (paid)"),
            _ => write!(
                f,
                "已缴 {paid}, 尚欠 {owed} (paid {paid}; {owed} still owed)"
            ),
        }
    }
}

/// [`FeeStatus`] of a player.
pub fn fee_status(state: &EventState, p: PlayerId) -> Option<FeeStatus> {
    let rec = state.player(p)?;
    let reg = regulation_of(state).ok();
    if reg
        .as_ref()
        .is_some_and(|r| !r.registration.charges.is_empty())
    {
        // Every item together: what is due of all of them, and paid of them.
        let dues = state.dues(rec);
        let due: u64 = dues.iter().map(|d| d.fen).sum();
        let paid: u64 = dues
            .iter()
            .map(|d| rec.money.get(&d.name).map_or(0, |m| m.paid_fen))
            .sum();
        return Some(FeeStatus {
            paid_fen: paid,
            due_fen: (!dues.is_empty()).then_some(due),
        });
    }
    let due = reg.and_then(|reg| fee_due(&reg, &rec.section));
    Some(FeeStatus {
        paid_fen: rec.paid_fen,
        due_fen: due,
    })
}

/// Fen as yuan, exact (`12050` → `120.50元`).
pub fn yuan(fen: u64) -> String {
    if fen.is_multiple_of(100) {
        format!("{}元", fen / 100)
    } else {
        format!("{}.{:02}元", fen / 100, fen % 100)
    }
}

/// A player's pairing number (序号) once his section has drawn its numbers.
pub fn pairing_no(state: &EventState, p: PlayerId) -> Option<u32> {
    let rec = state.player(p)?;
    state.section(&rec.section)?.pairing_no(p).map(|n| n.get())
}

/// The number a person reads for a player: after his section's draw his pairing number
/// (「序号 3」), before it the registration id, which is all there is then (「报名号 P12」).
pub fn number_of(state: &EventState, p: PlayerId) -> String {
    match pairing_no(state, p) {
        Some(n) => format!("序号 {n}"),
        None => format!("报名号 {p}"),
    }
}

/// A player as a person reads him: 「序号 3 张三」 after the draw, 「P12 张三」 before it.
pub fn named(state: &EventState, p: PlayerId) -> String {
    let name = state.player(p).map_or("", |r| r.name.as_str());
    let num = match pairing_no(state, p) {
        Some(n) => format!("序号 {n}"),
        None => p.to_string(),
    };
    if name.is_empty() {
        num
    } else {
        format!("{num} {name}")
    }
}

/// [`named`] with the registration id labelled after the draw, where it is needed to find
/// the entry (「序号 3 张三 (报名号 P12)」); before the draw [`named`].
pub fn named_with_id(state: &EventState, p: PlayerId) -> String {
    match pairing_no(state, p) {
        Some(_) => format!("{} (报名号 {p})", named(state, p)),
        None => named(state, p),
    }
}

/// Check a player in (`checked_in`, T7) without a signed pledge: [`check_in_pledged`].
pub fn check_in(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
) -> Result<Vec<LogEntry>, DirectorError> {
    check_in_pledged(state, ctx, p, false)
}

/// The pledge the regulation asks every player to sign at check-in (T7: 报到时现场填写个人
/// 安全承诺书), if any.
pub fn pledge_required(state: &EventState) -> Option<String> {
    regulation_of(state)
        .ok()
        .and_then(|r| r.registration.check_in_pledge.clone())
}

/// Check a player in (`checked_in`, T7), `pledge`: he has signed the regulation's pledge
/// (recorded with the check-in). Refused without it when the regulation asks for one.
pub fn check_in_pledged(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    pledge: bool,
) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = player(state, p)?;
    if rec.withdrawn.is_some() {
        return Err(Refusal::Withdrawn(who(p, rec)).into());
    }
    if rec.checked_in {
        return Err(Refusal::CheckedIn(who(p, rec)).into());
    }
    if let Some(name) = pledge_required(state).filter(|_| !pledge) {
        return Err(Refusal::PledgeRequired {
            player: who(p, rec),
            pledge: name,
        }
        .into());
    }
    checked(state, ctx, vec![LogEntry::CheckedIn { player: p, pledge }])
}

/// The first round of his section the player is paired in (on a board or with the bye).
fn first_round_played(state: &EventState, p: PlayerId, section: &str) -> Option<u32> {
    let sec = state.section(section)?;
    sec.rounds
        .iter()
        .find(|(_, r)| r.byes.contains(&p) || r.boards.iter().any(|b| b.red == p || b.black == p))
        .map(|(n, _)| *n)
}

/// Take back a fee recorded by mistake (`fee_cancelled`, 撤销缴费): all he has paid. Refused
/// when nothing is paid or once he has been paired in a round (his games stand on it); after
/// round 1 of his section is paired only the chief arbiter cancels a fee.
pub fn cancel_fee(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = player(state, p)?;
    if rec.paid_fen == 0 {
        return Err(Refusal::FeeNotPaid(who(p, rec)).into());
    }
    if let Some(round) = first_round_played(state, p, &rec.section) {
        return Err(Refusal::FeeCancelAfterPlay {
            player: who(p, rec),
            round,
        }
        .into());
    }
    if section_of(state, &rec.section)?.last_round() > 0 {
        permission::require(ctx, Action::CancelFeeAfterStart)?;
    }
    let charges = state
        .regulation()
        .is_ok_and(|reg| !reg.registration.charges.is_empty());
    if charges {
        // Every item he holds money of, by name.
        let entries: Vec<LogEntry> = rec
            .money
            .iter()
            .filter(|(_, m)| m.held_fen() > 0)
            .map(|(item, m)| LogEntry::FeeCancelled {
                player: p,
                amount_fen: m.held_fen(),
                item: Some(item.clone()),
            })
            .collect();
        if entries.is_empty() {
            return Err(Refusal::FeeNotPaid(who(p, rec)).into());
        }
        return checked(state, ctx, entries);
    }
    checked(
        state,
        ctx,
        vec![LogEntry::FeeCancelled {
            player: p,
            amount_fen: rec.paid_fen,
            item: None,
        }],
    )
}

/// Take back a check-in recorded by mistake (`check_in_cancelled`, 撤销签到).
pub fn cancel_check_in(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = player(state, p)?;
    if !rec.checked_in {
        return Err(Refusal::NotCheckedIn(who(p, rec)).into());
    }
    checked(state, ctx, vec![LogEntry::CheckInCancelled { player: p }])
}

/// What [`for_each`] gives back: the entries to append, and the players left out with their
/// refusal.
pub type ForEach = (Vec<LogEntry>, Vec<(PlayerId, DirectorError)>);

/// One operation for several players at once (the desk's 批量缴费 / 批量签到): the entries of
/// `op` for each player it accepts, in the order given, appended together; the players it
/// refuses (already paid, already checked in, withdrawn …) are left out. Refused when nobody
/// is chosen, or with the first player's refusal when it accepts none. Returns the entries
/// and the players left out with their refusal.
pub fn for_each(
    state: &EventState,
    ctx: &Ctx,
    players: &[PlayerId],
    op: impl Fn(&EventState, &Ctx, PlayerId) -> Result<Vec<LogEntry>, DirectorError>,
) -> Result<ForEach, DirectorError> {
    if players.is_empty() {
        return Err(Refusal::NobodyChosen.into());
    }
    let mut scratch = state.clone();
    let mut entries = Vec::new();
    let mut left_out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for &p in players {
        if !seen.insert(p) {
            continue;
        }
        match op(&scratch, ctx, p) {
            Ok(es) => {
                let at = ctx.at_rfc3339();
                for e in &es {
                    crate::apply_scratch(&mut scratch, e, &at)?;
                }
                entries.extend(es);
            }
            // A permission refusal holds for every player: say it.
            Err(e @ DirectorError::NotAllowed { .. }) => return Err(e),
            Err(e) => left_out.push((p, e)),
        }
    }
    if entries.is_empty() {
        if let Some((_, e)) = left_out.into_iter().next() {
            return Err(e);
        }
        return Err(Refusal::NobodyChosen.into());
    }
    Ok((entries, left_out))
}

/// Players of `section` (every section when `None`) who have paid but are not checked in
/// and have not withdrawn, in list order — the arbiter is warned of them before pairing.
pub fn paid_not_checked_in<'a>(
    state: &'a EventState,
    section: Option<&str>,
) -> Vec<&'a PlayerRecord> {
    let secs: Vec<&str> = match section {
        Some(s) => vec![s],
        None => state.sections.keys().map(String::as_str).collect(),
    };
    secs.into_iter()
        .flat_map(|s| state.players(s))
        .filter(|p| p.paid_fen > 0 && !p.checked_in && p.withdrawn.is_none())
        .collect()
}

/// The warning before pairing a section: 「3人已缴费未签到: 张三 (P3), …」 (the first ten
/// named; by the pairing number once drawn, 「张三 (序号 2)」), or `None` when every player who has paid is checked in.
pub fn not_checked_in_warning(state: &EventState, section: &str) -> Option<String> {
    const NAMED: usize = 10;
    let ps = paid_not_checked_in(state, Some(section));
    if ps.is_empty() {
        return None;
    }
    let mut names: Vec<String> = ps
        .iter()
        .take(NAMED)
        .map(|p| match pairing_no(state, p.id) {
            Some(n) => format!("{} (序号 {n})", p.name),
            None => format!("{} ({})", p.name, p.id),
        })
        .collect();
    if ps.len() > NAMED {
        names.push("…".into());
    }
    Some(format!(
        "{}人已缴费未签到: {} (paid but not checked in: they are paired unless excused)",
        ps.len(),
        names.join(", ")
    ))
}

/// Why a player is not (or may not be) paired in the next round of his section, as the desk's
/// search tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPaired {
    /// 已退赛, with the reason.
    Withdrawn { reason: String },
    /// 未缴费: the regulation's fee not paid in full (unpaid players are not paired).
    Unpaid { due_fen: u64, paid_fen: u64 },
    /// 请假 for this round (excused).
    Absent { round: u32 },
    /// 未签到: paid but not checked in — he is paired, the arbiter is warned.
    NotCheckedIn,
}

impl std::fmt::Display for NotPaired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotPaired::Withdrawn { reason } => {
                write!(f, "已退赛 ({reason}), 不再编排 (withdrawn: not paired)")
            }
            NotPaired::Unpaid { due_fen, paid_fen } => write!(
                f,
                "未缴费 (应缴 {}, 已缴 {}), 缴费前不参加编排 (unpaid: not paired)",
                yuan(*due_fen),
                yuan(*paid_fen)
            ),
            NotPaired::Absent { round } => {
                write!(f, "第{round}轮请假, 该轮不编排 (excused from round {round})")
            }
            NotPaired::NotCheckedIn => write!(
                f,
                "已缴费未签到: 仍会编排, 编排前会提醒裁判长 (not checked in: paired, with a warning)"
            ),
        }
    }
}

/// Why `p` would not be paired in the next round of his section (empty: he is paired).
pub fn why_not_paired(state: &EventState, p: PlayerId) -> Vec<NotPaired> {
    let Some(rec) = state.player(p) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if rec.withdrawn.is_some() {
        out.push(NotPaired::Withdrawn {
            reason: rec.withdrawal_reason.clone().unwrap_or_default(),
        });
        return out;
    }
    if state.status(p) == Some(arbiter_core::PlayerStatus::Unpaid) {
        let charges = state.header.as_ref().is_some_and(|h| h.limits.charges_due);
        out.push(if charges {
            let (owed, paid) = state.owed_before_play(rec);
            NotPaired::Unpaid {
                due_fen: owed + paid,
                paid_fen: paid,
            }
        } else {
            NotPaired::Unpaid {
                due_fen: state
                    .header
                    .as_ref()
                    .and_then(|h| h.limits.fee_fen)
                    .unwrap_or(0),
                paid_fen: rec.paid_fen,
            }
        });
    }
    let last = state.section(&rec.section).map_or(0, |s| s.last_round());
    let round = last + 1;
    if rec.absent.contains(&round) {
        out.push(NotPaired::Absent { round });
    }
    if out.is_empty() && rec.paid_fen > 0 && !rec.checked_in {
        out.push(NotPaired::NotCheckedIn);
    }
    out
}

/// Draw the section's pairing numbers by lot (A3; the seed is derived from the event's and
/// recorded). Unpaid and withdrawn players get no number. Before round 1 a draw may be made
/// again (a new player set); once a round is paired, a draw gives the late entries the next
/// numbers.
pub fn draw(state: &EventState, ctx: &Ctx, section: &str) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = section_of(state, section)?;
    let e = registration::draw_numbers(state, section);
    if let LogEntry::PairingNumbersDrawn { order, .. } = &e {
        if order.is_empty() {
            return Err(Refusal::NobodyToDraw {
                section: Sec::of(state, section),
            }
            .into());
        }
        if *order == rec.order {
            return Err(Refusal::AlreadyDrawn {
                section: Sec::of(state, section),
            }
            .into());
        }
    }
    checked(state, ctx, vec![e])
}

/// Withdraw a player (`player_withdrawn`, A5), with the reason: his results so far stand
/// (up to the last round paired in his section), he is not paired again.
pub fn withdraw(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::Withdraw)?;
    let rec = player(state, p)?;
    let last = section_of(state, &rec.section)?.last_round();
    checked(
        state,
        ctx,
        vec![LogEntry::PlayerWithdrawn {
            player: p,
            reason: reason.trim().to_string(),
            after_round: (last > 0).then_some(last),
        }],
    )
}

/// Mark a player absent (请假) for a round not yet paired (`player_absent`): he is not paired
/// in it, which scores as an absence.
pub fn absent(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    round: u32,
    reason: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    absence(state, ctx, p, round, reason, false)
}

/// The words of the withdrawal an absence without leave brings (S7).
pub const ABSENCE_WITHDRAWS: &str =
    "无故缺席按退赛处理 (absent without leave: withdrawn, as the regulation says)";

/// Mark a player absent for a round not yet paired: excused (请假), or without leave (无故缺席,
/// `without_leave`). An absence without leave where the regulation says it is a withdrawal
/// (S7: 「累计两轮弃权，或无故缺席按退赛处理」, `absence_without_leave_withdraws`) also
/// withdraws the player, after the last round he played.
pub fn absence(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    round: u32,
    reason: Option<&str>,
    without_leave: bool,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::RecordAbsence)?;
    let rec = player(state, p)?;
    let mut out = vec![LogEntry::PlayerAbsent {
        player: p,
        round,
        reason: reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
        without_leave,
    }];
    if without_leave {
        let reg = regulation_of(state)?;
        let withdraws = reg
            .section(&rec.section)
            .is_some_and(|s| s.discipline.absence_without_leave_withdraws);
        if withdraws {
            let last = section_of(state, &rec.section)?.last_round();
            let before = round.saturating_sub(1).min(last);
            out.push(LogEntry::PlayerWithdrawn {
                player: p,
                reason: ABSENCE_WITHDRAWS.to_string(),
                after_round: (before > 0).then_some(before),
            });
        }
    }
    checked(state, ctx, out)
}

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
    let Some(&first) = form.members.first() else {
        return Err(Refusal::RosterEmpty.into());
    };
    let section = player(state, first)?.section.clone();
    let sec = reg
        .section(&section)
        .ok_or_else(|| DirectorError::UnknownSection(section.clone()))?;
    let Some(tp) = sec.teams.as_ref() else {
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
        if p.unit.as_deref() != Some(form.unit.as_str()) {
            return Err(Refusal::CrossUnit {
                player: who(m, p),
                unit: p.unit.clone(),
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
    checked(
        state,
        ctx,
        vec![LogEntry::TeamEntered {
            team: form.team.trim().to_string(),
            unit: form.unit.trim().to_string(),
            division,
            members: form.members.clone(),
            leader: form.leader.clone(),
            coach: form.coach.clone(),
        }],
    )
}

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
}

impl SectionOffer {
    /// Every document named, once, in the regulation's order.
    pub fn all_evidence(&self) -> Vec<arbiter_regulation::Evidence> {
        let mut v: Vec<arbiter_regulation::Evidence> = Vec::new();
        for e in self
            .evidence
            .iter()
            .chain(self.evidence_any.iter().flatten())
        {
            if !v.contains(e) {
                v.push(*e);
            }
        }
        v
    }
}

/// [`SectionOffer`] of a section of the regulation.
pub fn section_offer(sec: &arbiter_regulation::Section) -> SectionOffer {
    let el = &sec.eligibility;
    SectionOffer {
        conditions: el
            .require_flags
            .iter()
            .map(|f| (f.clone(), arbiter_regulation::flag_zh(f)))
            .collect(),
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
    }
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
        .filter(|f| sec.eligibility.require_flags.contains(f))
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
        .map(|e| e.name().to_string())
        .collect();
    judged.late_reason = None;
    judged.flags = flags.clone();
    // A person already registered or pending is judged as anyone else: the answer must not
    // tell a stranger whether an ID number is entered (the desk sees the duplicate), and a
    // pending submission never blocks another.
    match registration::register_as(
        &reg,
        state,
        &judged,
        ctx.at,
        registration::Duplicates::Ignore,
    ) {
        LogEntry::PlayerRegistered(r) => checked(
            state,
            ctx,
            vec![LogEntry::EntrySubmitted {
                submission: state.next_submission(),
                section: r.section,
                name: r.name,
                sex: r.sex,
                birth_date: r.birth_date,
                id_number: r.id_number,
                phone: r.phone,
                social_security: r.social_security,
                unit: r.unit,
                flags,
                evidence: claimed,
                status_key,
            }],
        ),
        LogEntry::EntryRefused { reason, .. } => Err(Refusal::NotEligible { reason }.into()),
        other => Err(Refusal::UnexpectedOutcome { kind: other.kind() }.into()),
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
    let id = s.id_number.as_ref()?;
    if state.index.has_id_number(&s.section, id.as_str()) {
        if let Some(p) = state.players.values().find(|p| {
            p.section == s.section && p.withdrawn.is_none() && p.id_number.as_ref() == Some(id)
        }) {
            return Some(SubmissionDuplicate::Registered {
                player: p.id,
                name: p.name.clone(),
            });
        }
    }
    state
        .pending(Some(&s.section))
        .into_iter()
        .find(|x| x.submission < s.submission && x.id_number.as_ref() == Some(id))
        .map(|x| SubmissionDuplicate::Pending {
            submission: x.submission,
            name: x.name.clone(),
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

/// Approve an online submission: the normal registration ([`register`]) with its facts, the
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
        section: s.section.clone(),
        name: s.name.clone(),
        sex: s.sex,
        birth: s.birth_date,
        id_number: s.id_number.as_ref().map(|i| i.to_string()),
        phone: s.phone.as_ref().map(|p| p.to_string()),
        unit: s.unit.clone(),
        association: None,
        team: None,
        evidence,
        flags: s.flags.clone(),
        rating: None,
        late_reason,
        social_security: s.social_security.as_ref().map(|x| x.to_string()),
    };
    // On time if submitted on time: the deadline is judged at the submission's time (the
    // log's own check reads it from the submission named in the registration).
    let judged_at = arbiter_core::time::china_local(&s.at).unwrap_or(ctx.at);
    match registration::register(&reg, state, &form, judged_at) {
        LogEntry::PlayerRegistered(mut r) => {
            r.submission = Some(submission);
            let player = r.player;
            checked(
                state,
                ctx,
                vec![
                    LogEntry::PlayerRegistered(r),
                    LogEntry::SubmissionDecided {
                        submission,
                        player: Some(player),
                        reason: None,
                    },
                ],
            )
        }
        LogEntry::EntryRefused { reason, .. } => Err(Refusal::CannotApprove {
            submission,
            name: s.name.clone(),
            reason,
        }
        .into()),
        other => Err(Refusal::UnexpectedOutcome { kind: other.kind() }.into()),
    }
}

/// Refuse an online submission, with the reason (`submission_decided`).
pub fn refuse_submission(
    state: &EventState,
    ctx: &Ctx,
    submission: u32,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    pending_submission(state, submission)?;
    if reason.trim().is_empty() {
        return Err(Refusal::ReasonMissing(Needs::RefuseEntry).into());
    }
    checked(
        state,
        ctx,
        vec![LogEntry::SubmissionDecided {
            submission,
            player: None,
            reason: Some(reason.trim().to_string()),
        }],
    )
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
        if p.unit.as_deref() != Some(t.unit.as_str()) {
            return Err(Refusal::CrossUnit {
                player: who(m, p),
                unit: p.unit.clone(),
                team_unit: t.unit.clone(),
            }
            .into());
        }
    }
    let section = t.section.clone().unwrap_or_default();
    if let Some(tp) = reg.section(&section).and_then(|s| s.teams.as_ref()) {
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
    checked(
        state,
        ctx,
        vec![LogEntry::TeamRosterChanged {
            team: name.to_string(),
            added: change.add.clone(),
            removed: change.remove.clone(),
            reason: reason.to_string(),
        }],
    )
}
