//! The registration desk (报名): `player_registered` (one section, no second entry of the same
//! person, the deadline, the entry caps), `player_corrected`, `player_withdrawn` (退赛),
//! `entry_refused`, `fee_paid`, `checked_in`, `fee_cancelled`, `check_in_cancelled`, and the online form's `entry_submitted` and the
//! desk's `submission_decided` (网上报名).

use super::{player, section};
use crate::entry::*;
use crate::state::{
    refusal_key, Decision, EventHeader, EventState, PlayerRecord, RefusedEntry, Submission,
};
use crate::validate::Rejection;
use chrono::DateTime;
use std::collections::{BTreeMap, BTreeSet};

/// The rules of a registration entry (see the module documentation); any other entry is left to
/// its own family ([`super::Family::of`]).
pub(crate) fn validate(
    state: &EventState,
    header: &EventHeader,
    entry: &LogEntry,
    at: Option<&str>,
) -> Result<(), Rejection> {
    match entry {
        LogEntry::PlayerRegistered(r) => {
            open_section(state, &r.section)?;
            if state.players.contains_key(&r.player) {
                return Err(Rejection::PlayerExists(r.player));
            }
            if r.person.name.trim().is_empty() {
                return Err(Rejection::EmptyName);
            }
            if let Some(id) = &r.person.id_number {
                if state.index.has_id_number(&r.section, id.as_str()) {
                    return Err(Rejection::DuplicateIdNumber(id.masked(), r.section.clone()));
                }
            } else if let Some(first) = state.index.same_person(
                &r.section,
                &r.person.name,
                r.person.unit.as_deref(),
                r.person.birth_date,
            ) {
                // Without an ID number, the same name, unit and birth date (both recorded or
                // both unknown) in the same section is the same person entered twice.
                return Err(Rejection::DuplicateEntry {
                    player: first,
                    name: r.person.name.clone(),
                    section: r.section.clone(),
                });
            }
            let late_ok = r.late_reason.as_ref().is_some_and(|x| !x.trim().is_empty());
            // An approved online entry is on time if it was submitted on time.
            let at = match r.submission {
                None => at,
                Some(n) => {
                    let sub = state
                        .submissions
                        .get(&n)
                        .ok_or(Rejection::UnknownSubmission(n))?;
                    if sub.decision.is_some() {
                        return Err(Rejection::SubmissionDecided(n));
                    }
                    if sub.section != r.section || sub.person.id_number != r.person.id_number {
                        return Err(Rejection::SubmissionMismatch(n));
                    }
                    if sub.at.is_empty() {
                        at
                    } else {
                        Some(sub.at.as_str())
                    }
                }
            };
            if let (Some(deadline), Some(at), false) = (&header.limits.deadline, at, late_ok) {
                let d = DateTime::parse_from_rfc3339(deadline)
                    .map_err(|_| Rejection::BadTime(deadline.clone()))?;
                let t = DateTime::parse_from_rfc3339(at)
                    .map_err(|_| Rejection::BadTime(at.to_string()))?;
                if t > d {
                    return Err(Rejection::AfterDeadline {
                        deadline: deadline.clone(),
                        at: at.to_string(),
                    });
                }
            }
            if let Some(cap) = header.limits.max_entries {
                if u64::from(state.index.active()) >= u64::from(cap) {
                    return Err(Rejection::EntryCapReached(cap));
                }
            }
            if let (Some(cap), Some(a)) = (header.limits.max_per_association, &r.person.association)
            {
                let n = state.index.of_association(a);
                if u64::from(n) >= u64::from(cap) {
                    return Err(Rejection::AssociationCapReached {
                        association: a.clone(),
                        cap,
                    });
                }
            }
            Ok(())
        }
        LogEntry::PlayerCorrected {
            player: p,
            changes,
            reason,
        } => {
            player(state, p)?;
            if changes.is_empty() {
                return Err(Rejection::NoChanges);
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("更正理由 reason"));
            }
            for c in changes {
                if let FieldChange::Name(n) = c {
                    if n.trim().is_empty() {
                        return Err(Rejection::EmptyName);
                    }
                }
            }
            Ok(())
        }
        LogEntry::PlayerSectionChanged {
            player: p,
            from,
            to,
            reason,
        } => {
            let rec = player(state, p)?;
            if rec.section != *from {
                return Err(Rejection::WrongSection {
                    player: *p,
                    section: from.clone(),
                });
            }
            if from == to {
                return Err(Rejection::SameSection {
                    player: *p,
                    section: to.clone(),
                });
            }
            open_section(state, to)?;
            if rec.withdrawn.is_some() || rec.disqualified.is_some() {
                return Err(Rejection::SectionChangeNotActive(*p));
            }
            for s in [from, to] {
                if !section(state, s)?.order.is_empty() {
                    return Err(Rejection::SectionChangeAfterDraw { section: s.clone() });
                }
            }
            // A team plays in one section: its member leaves it before he changes section.
            if let Some(team) = rec.team.as_ref().filter(|t| state.teams.contains_key(*t)) {
                return Err(Rejection::TeamNotInSection {
                    team: team.clone(),
                    section: to.clone(),
                });
            }
            if let Some(id) = &rec.person.id_number {
                if state.index.has_id_number(to, id.as_str()) {
                    return Err(Rejection::DuplicateIdNumber(id.masked(), to.clone()));
                }
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("换组理由 reason"));
            }
            Ok(())
        }
        LogEntry::SectionsMerged { from, into, reason } => {
            open_section(state, from)?;
            open_section(state, into)?;
            if from == into {
                return Err(Rejection::MergeIntoItself(from.clone()));
            }
            for s in [from, into] {
                let rec = section(state, s)?;
                if !rec.order.is_empty() || !rec.rounds.is_empty() || !rec.team_order.is_empty() {
                    return Err(Rejection::SectionChangeAfterDraw { section: s.clone() });
                }
                let teams = !rec.divisions.is_empty()
                    || state
                        .teams
                        .values()
                        .any(|t| t.section.as_deref() == Some(s.as_str()));
                if teams {
                    return Err(Rejection::MergeWithTeams(s.clone()));
                }
            }
            // The same person in both sections would be entered twice in one.
            for p in &section(state, from)?.entries {
                let id = player(state, p)?.person.id_number.as_ref();
                if let Some(id) = id.filter(|i| state.index.has_id_number(into, i.as_str())) {
                    return Err(Rejection::DuplicateIdNumber(id.masked(), into.clone()));
                }
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("合并理由 reason"));
            }
            Ok(())
        }
        LogEntry::PlayerWithdrawn {
            player: p, reason, ..
        } => {
            if player(state, p)?.withdrawn.is_some() {
                return Err(Rejection::AlreadyWithdrawn(*p));
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("退赛理由 reason"));
            }
            Ok(())
        }
        LogEntry::PlayerDisqualified {
            player: p, reason, ..
        } => {
            if player(state, p)?.disqualified.is_some() {
                return Err(Rejection::AlreadyDisqualified(*p));
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("取消比赛资格理由 reason"));
            }
            Ok(())
        }
        LogEntry::DisqualificationRevoked { player: p, reason } => {
            if player(state, p)?.disqualified.is_none() {
                return Err(Rejection::NotDisqualified(*p));
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("撤销理由 reason"));
            }
            Ok(())
        }
        LogEntry::PlayerReinstated {
            player: p, reason, ..
        } => {
            if player(state, p)?.withdrawn.is_none() {
                return Err(Rejection::NotWithdrawn(*p));
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("恢复参赛理由 reason"));
            }
            Ok(())
        }
        LogEntry::EntryRefused {
            name,
            section: s,
            reason,
            ..
        } => {
            section(state, s)?;
            if name.trim().is_empty() {
                return Err(Rejection::EmptyName);
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("拒绝理由 reason"));
            }
            Ok(())
        }
        LogEntry::RefusalWithdrawn { refusal, reason } => {
            if !state.refused.iter().any(|r| r.seq == *refusal) {
                return Err(Rejection::NoSuchRefusal(*refusal));
            }
            if reason.trim().is_empty() {
                return Err(Rejection::Required("撤销拒绝的理由 reason"));
            }
            Ok(())
        }
        LogEntry::FeePaid { player: p, .. } | LogEntry::CheckedIn { player: p, .. } => {
            player(state, p).map(|_| ())
        }
        LogEntry::FeeCancelled {
            player: p,
            amount_fen,
            item,
        } => {
            let rec = player(state, p)?;
            let paid_fen = match item {
                None => rec.paid_fen,
                Some(i) => rec.money.get(i).map_or(0, |m| m.held_fen()),
            };
            if *amount_fen == 0 || *amount_fen > paid_fen {
                return Err(Rejection::CancelMoreThanPaid {
                    player: *p,
                    paid_fen,
                    amount_fen: *amount_fen,
                });
            }
            Ok(())
        }
        LogEntry::DepositRefunded {
            player: p,
            item,
            amount_fen,
            ..
        } => {
            let rec = player(state, p)?;
            let is_fee = state.regulation().ok().is_some_and(|reg| {
                reg.charge_names()
                    .iter()
                    .any(|(n, k)| n == item && *k == arbiter_regulation::ChargeKind::Fee)
            });
            if is_fee {
                return Err(Rejection::NotADeposit(item.clone()));
            }
            let held_fen = rec.money.get(item).map_or(0, |m| m.held_fen());
            if *amount_fen == 0 || *amount_fen > held_fen {
                return Err(Rejection::RefundMoreThanHeld {
                    player: *p,
                    item: item.clone(),
                    held_fen,
                    amount_fen: *amount_fen,
                });
            }
            Ok(())
        }
        LogEntry::RefundConditionMarked {
            player: p,
            condition,
            ..
        } => {
            player(state, p)?;
            if condition.trim().is_empty() {
                return Err(Rejection::Required("退还条件 condition"));
            }
            Ok(())
        }
        LogEntry::CheckInCancelled { player: p } => {
            if !player(state, p)?.checked_in {
                return Err(Rejection::NotCheckedIn(*p));
            }
            Ok(())
        }
        LogEntry::EntrySubmitted {
            submission,
            section: s,
            person,
            ..
        } => {
            open_section(state, s)?;
            if person.name.trim().is_empty() {
                return Err(Rejection::EmptyName);
            }
            if state.submissions.contains_key(submission) {
                return Err(Rejection::SubmissionExists(*submission));
            }
            // A submission whose ID number is registered, or pending, is recorded all the same:
            // the form must not tell a stranger whether a number is entered, nor let him block
            // someone's entry by submitting his number first. The desk sees the duplicate and
            // decides (approving it is refused as a registration would be).
            Ok(())
        }
        LogEntry::SubmissionDecided {
            submission,
            player: p,
            reason,
        } => {
            let sub = state
                .submissions
                .get(submission)
                .ok_or(Rejection::UnknownSubmission(*submission))?;
            if sub.decision.is_some() {
                return Err(Rejection::SubmissionDecided(*submission));
            }
            let refused = reason.as_ref().is_some_and(|r| !r.trim().is_empty());
            match (p, refused) {
                (Some(p), false) => {
                    if player(state, p)?.section != sub.section {
                        return Err(Rejection::WrongSection {
                            player: *p,
                            section: sub.section.clone(),
                        });
                    }
                    Ok(())
                }
                (None, true) => Ok(()),
                _ => Err(Rejection::BadDecision),
            }
        }
        // Another family's entry (`Family::of`): checked there.
        _ => Ok(()),
    }
}

/// The fold of a valid registration entry; any other entry is left to its own family.
pub(crate) fn apply(state: &mut EventState, seq: u64, e: &LogEntry) {
    match e {
        LogEntry::PlayerRegistered(r) => {
            if let Some(s) = state.sections.get_mut(&r.section) {
                s.entries.push(r.player);
            }
            state.players.insert(
                r.player,
                PlayerRecord {
                    id: r.player,
                    section: r.section.clone(),
                    person: r.person.clone(),
                    team: r.team.clone(),
                    evidence: r.evidence.clone(),
                    local: r.local,
                    rating: r.rating,
                    grade: r.grade.clone(),
                    flags: r.flags.clone(),
                    paid_fen: 0,
                    money: BTreeMap::new(),
                    conditions: BTreeSet::new(),
                    checked_in: false,
                    pledge_signed: false,
                    withdrawn: None,
                    withdrawal_reason: None,
                    withdrawn_by_forfeits: false,
                    forfeits_count_after: 0,
                    reinstatements: Vec::new(),
                    disqualified: None,
                    corrections: Vec::new(),
                    fouls: Vec::new(),
                    absent: Vec::new(),
                },
            );
            // One roster per team: naming an entered team joins its roster.
            if let Some(t) = r.team.as_ref().and_then(|t| state.teams.get_mut(t)) {
                t.members.push(r.player);
            }
        }
        LogEntry::PlayerCorrected {
            player,
            changes,
            reason,
        } => {
            let old_team = state.players.get(player).and_then(|p| p.team.clone());
            if let Some(p) = state.players.get_mut(player) {
                for c in changes {
                    match c.clone() {
                        FieldChange::Name(v) => p.person.name = v,
                        FieldChange::Sex(v) => p.person.sex = v,
                        FieldChange::BirthDate(v) => p.person.birth_date = v,
                        FieldChange::IdNumber(v) => p.person.id_number = v,
                        FieldChange::Phone(v) => p.person.phone = v,
                        FieldChange::Unit(v) => p.person.unit = v,
                        FieldChange::Association(v) => p.person.association = v,
                        FieldChange::Team(v) => p.team = v,
                        FieldChange::Rating(v) => p.rating = v,
                        FieldChange::Grade(v) => p.grade = v,
                        FieldChange::Local(v) => p.local = v,
                        FieldChange::Evidence(v) => p.evidence = v,
                        FieldChange::Flags(v) => p.flags = v,
                    }
                }
                p.corrections.push((seq, reason.clone()));
            }
            // A corrected team moves the player from one roster to the other.
            let new_team = state.players.get(player).and_then(|p| p.team.clone());
            if new_team != old_team {
                if let Some(t) = old_team.and_then(|t| state.teams.get_mut(&t)) {
                    t.members.retain(|m| m != player);
                }
                if let Some(t) = new_team.and_then(|t| state.teams.get_mut(&t)) {
                    t.members.push(*player);
                }
            }
        }
        LogEntry::PlayerSectionChanged {
            player, from, to, ..
        } => {
            if let Some(p) = state.players.get_mut(player) {
                p.section = to.clone();
            }
            if let Some(s) = state.sections.get_mut(from) {
                s.entries.retain(|e| e != player);
            }
            if let Some(s) = state.sections.get_mut(to) {
                s.entries.push(*player);
            }
        }
        LogEntry::SectionsMerged { from, into, .. } => {
            let moved = state
                .sections
                .get_mut(from)
                .map(|s| {
                    s.merged_into = Some(into.clone());
                    std::mem::take(&mut s.entries)
                })
                .unwrap_or_default();
            for p in &moved {
                if let Some(rec) = state.players.get_mut(p) {
                    rec.section = into.clone();
                }
            }
            if let Some(s) = state.sections.get_mut(into) {
                s.entries.extend(moved);
            }
        }
        LogEntry::PlayerWithdrawn {
            player,
            reason,
            after_round,
            by_forfeits,
        } => {
            if let Some(p) = state.players.get_mut(player) {
                p.withdrawn = Some(*after_round);
                p.withdrawal_reason = Some(reason.clone());
                p.withdrawn_by_forfeits = *by_forfeits;
            }
        }
        LogEntry::PlayerDisqualified {
            player,
            reason,
            after_round,
            void_results,
        } => {
            if let Some(p) = state.players.get_mut(player) {
                p.disqualified = Some(crate::state::Disqualification {
                    reason: reason.clone(),
                    after_round: *after_round,
                    void_results: *void_results,
                });
            }
        }
        LogEntry::DisqualificationRevoked { player, .. } => {
            if let Some(p) = state.players.get_mut(player) {
                p.disqualified = None;
            }
        }
        LogEntry::PlayerReinstated {
            player,
            reason,
            by_correction,
        } => {
            let last = state
                .players
                .get(player)
                .and_then(|p| state.sections.get(&p.section))
                .map_or(0, |s| s.last_round());
            if let Some(p) = state.players.get_mut(player) {
                p.withdrawn = None;
                p.withdrawal_reason = None;
                p.withdrawn_by_forfeits = false;
                if !*by_correction {
                    p.forfeits_count_after = last;
                }
                p.reinstatements.push((seq, reason.clone()));
            }
        }
        LogEntry::EntryRefused {
            name,
            section,
            reason,
            id_number,
            unit,
            ..
        } => {
            state.refusal_keys.insert(refusal_key(
                name,
                section,
                reason,
                id_number.as_ref(),
                unit.as_deref(),
            ));
            state.refused.push_back(RefusedEntry {
                seq,
                name: name.clone(),
                section: section.clone(),
                reason: reason.clone(),
                id_number: id_number.clone(),
                unit: unit.clone(),
            });
        }
        LogEntry::RefusalWithdrawn { refusal, .. } => {
            if let Some(i) = state.refused.iter().position(|r| r.seq == *refusal) {
                let r = state.refused.remove(i);
                state.refusal_keys.remove(&refusal_key(
                    &r.name,
                    &r.section,
                    &r.reason,
                    r.id_number.as_ref(),
                    r.unit.as_deref(),
                ));
            }
        }
        LogEntry::FeePaid {
            player,
            amount_fen,
            item,
            ..
        } => {
            let key = item.clone().unwrap_or_else(|| state.default_item());
            if let Some(p) = state.players.get_mut(player) {
                p.paid_fen += amount_fen;
                p.money.entry(key).or_default().paid_fen += amount_fen;
            }
        }
        LogEntry::DepositRefunded {
            player,
            item,
            amount_fen,
            ..
        } => {
            if let Some(p) = state.players.get_mut(player) {
                p.money.entry(item.clone()).or_default().refunded_fen += amount_fen;
            }
        }
        LogEntry::RefundConditionMarked {
            player,
            condition,
            met,
        } => {
            if let Some(p) = state.players.get_mut(player) {
                if *met {
                    p.conditions.insert(condition.clone());
                } else {
                    p.conditions.remove(condition);
                }
            }
        }
        LogEntry::CheckedIn { player, pledge } => {
            if let Some(p) = state.players.get_mut(player) {
                p.checked_in = true;
                p.pledge_signed = *pledge;
            }
        }
        LogEntry::FeeCancelled {
            player,
            amount_fen,
            item,
        } => {
            let key = item.clone().unwrap_or_else(|| state.default_item());
            if let Some(p) = state.players.get_mut(player) {
                p.paid_fen = p.paid_fen.saturating_sub(*amount_fen);
                let m = p.money.entry(key).or_default();
                m.paid_fen = m.paid_fen.saturating_sub(*amount_fen);
            }
        }
        LogEntry::CheckInCancelled { player } => {
            if let Some(p) = state.players.get_mut(player) {
                p.checked_in = false;
                p.pledge_signed = false;
            }
        }
        LogEntry::EntrySubmitted {
            submission,
            section,
            person,
            flags,
            evidence,
            status_key,
        } => {
            state.submissions.insert(
                *submission,
                Submission {
                    submission: *submission,
                    seq,
                    at: String::new(),
                    section: section.clone(),
                    person: person.clone(),
                    flags: flags.clone(),
                    evidence: evidence.clone(),
                    status_key: status_key.clone(),
                    decision: None,
                },
            );
        }
        LogEntry::SubmissionDecided {
            submission,
            player,
            reason,
        } => {
            if let Some(s) = state.submissions.get_mut(submission) {
                s.decision = Some(match player {
                    Some(p) => Decision::Approved(*p),
                    None => Decision::Refused(reason.clone().unwrap_or_default()),
                });
            }
        }
        // Another family's entry (`Family::of`): folded there.
        _ => {}
    }
}

/// A section that still takes entries: not merged into another (`sections_merged`).
fn open_section<'a>(
    state: &'a EventState,
    id: &str,
) -> Result<&'a crate::state::SectionRecord, Rejection> {
    let s = section(state, id)?;
    match &s.merged_into {
        Some(into) => Err(Rejection::SectionMerged {
            section: id.to_string(),
            into: into.clone(),
        }),
        None => Ok(s),
    }
}
