//! The registration desk (报名处) and the field's changes: entries registered or refused,
//! entries edited, check-in, the draw of pairing numbers, withdrawals and absences, teams and
//! their rosters, the public online form and its decisions, roster files
//! ([`crate::api::entries`], [`crate::api::import`]).

use super::Outcome;
use crate::api::entries::{self, RosterChange, TeamForm};
use crate::api::{import, Ctx};
use crate::permission::Action;
use crate::registration::EntryForm;
use crate::DirectorError;
use arbiter_core::{EventState, FieldChange, LogEntry, PlayerId};

/// A write of the registration desk or of the field.
#[derive(Debug, Clone)]
pub enum RegistrationCommand {
    /// Register one entry (its section by id or name). `record_refusal`: a refusal by the
    /// regulation's rules is recorded (`entry_refused`, the CLI's and a roster's way);
    /// otherwise it is an error and nothing is recorded (the desk's form stays as typed).
    Register {
        form: EntryForm,
        record_refusal: bool,
    },
    /// Several forms, each against the ones before it; a refusal already recorded is skipped.
    RegisterEach { forms: Vec<EntryForm> },
    /// The arbiter refuses an entry by decision, with the reason.
    RefuseEntry { form: EntryForm, reason: String },
    /// Edit an entry (`player_corrected`), with the reason.
    Correct {
        player: PlayerId,
        changes: Vec<FieldChange>,
        reason: String,
    },
    /// The desk's edit form of an entry: every field as it now reads; what differs from the
    /// registration is corrected ([`EditedEntry::changes`]), with the reason.
    Edit {
        player: PlayerId,
        edited: EditedEntry,
        reason: String,
    },
    /// Check a player in; `pledge`: the event's pledge (承诺书) signed, where it asks for one.
    CheckIn {
        player: PlayerId,
        pledge: Option<bool>,
    },
    /// The desk's 批量签到 (`pledge`: each signed the event's pledge, where it asks for
    /// one); those who may not be checked in are left out.
    CheckInEach {
        players: Vec<PlayerId>,
        pledge: bool,
    },
    /// Take back a check-in recorded by mistake.
    CancelCheckIn { player: PlayerId },
    /// Draw the section's pairing numbers by lot (the section by id or name).
    Draw { section: String },
    /// Withdraw a player, with the reason.
    Withdraw { player: PlayerId, reason: String },
    /// Reinstate a player, with the reason (the chief arbiter's): a disqualification revoked
    /// (A17), or a withdrawn player back (恢复参赛, A16).
    Reinstate { player: PlayerId, reason: String },
    /// Disqualify a player (取消比赛资格, A17), with the reason; `void_results`: his results
    /// are void in this case even where the regulation does not say so for every case.
    Disqualify {
        player: PlayerId,
        reason: String,
        void_results: bool,
    },
    /// Withdraw a whole team (整队退赛, A15), with the reason: every member not withdrawn yet;
    /// the team is not paired again, its matches so far stand.
    WithdrawTeam { team: String, reason: String },
    /// An absence from a round: excused (请假), or without leave (无故缺席).
    Absence {
        player: PlayerId,
        round: u32,
        reason: Option<String>,
        without_leave: bool,
    },
    /// Enter a team (K1–K3).
    EnterTeam { form: TeamForm },
    /// Change a team's roster, with the reason.
    ChangeRoster { change: RosterChange },
    /// An entry through the public online form; `status_key` lets the applicant look it up.
    Submit {
        form: EntryForm,
        status_key: Option<String>,
    },
    /// The desk approves an online entry, with the documents seen and a late entry's reason.
    Approve {
        submission: u32,
        evidence: Vec<String>,
        late_reason: Option<String>,
    },
    /// The desk refuses an online entry, with the reason.
    RefuseSubmission { submission: u32, reason: String },
    /// A roster file's rows, each registered by the same rules; rows of no section go to
    /// `default_section`.
    ImportRoster {
        roster: std::sync::Arc<arbiter_import::Roster>,
        default_section: Option<String>,
        /// A row of a player already registered corrects his entry where it differs
        /// (otherwise it is skipped).
        update_registered: bool,
    },
    /// Withdraw a refusal recorded by mistake (the `entry_refused` at seq `refusal`), with
    /// the reason: the chief arbiter's.
    WithdrawRefusal { refusal: u64, reason: String },
    /// Move a player to another section before the draw (换组; the section by id or name),
    /// with the reason: the same entry, its fees and check-in with it.
    ChangeSection {
        player: PlayerId,
        section: String,
        reason: String,
    },
    /// Merge section `from` into `into` before the draw (「对分组可作适当调整」; sections by id
    /// or name), with the reason: the chief arbiter's; every player of `from` moves with his
    /// fees and check-in, and `from` takes no more entries.
    MergeSections {
        from: String,
        into: String,
        reason: String,
    },
}

impl RegistrationCommand {
    pub fn action(&self) -> Action {
        use RegistrationCommand as C;
        match self {
            C::Register { .. } | C::RegisterEach { .. } => Action::Register,
            C::RefuseEntry { .. } => Action::RefuseEntry,
            C::Correct { .. } | C::Edit { .. } | C::ChangeSection { .. } => Action::EditEntry,
            C::CheckIn { .. } | C::CheckInEach { .. } | C::CancelCheckIn { .. } => Action::CheckIn,
            C::Draw { .. } => Action::DrawNumbers,
            C::Withdraw { .. } | C::WithdrawTeam { .. } => Action::Withdraw,
            C::Reinstate { .. } => Action::Reinstate,
            C::Disqualify { .. } => Action::Disqualify,
            C::Absence { .. } => Action::RecordAbsence,
            C::EnterTeam { .. } => Action::EnterTeam,
            C::ChangeRoster { .. } => Action::ChangeRoster,
            C::Submit { .. } => Action::SubmitEntry,
            C::Approve { .. } | C::RefuseSubmission { .. } => Action::DecideSubmission,
            C::ImportRoster { .. } => Action::ImportRoster,
            C::WithdrawRefusal { .. } => Action::WithdrawRefusal,
            C::MergeSections { .. } => Action::MergeSections,
        }
    }
}

/// One entry decided: registered, refused by the rules (recorded), or submitted online;
/// `section` is the section's id, `section_name` its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entered {
    Registered {
        player: PlayerId,
        name: String,
        section: String,
        section_name: String,
    },
    Refused {
        name: String,
        section: String,
        section_name: String,
        reason: String,
    },
    Submitted {
        submission: u32,
        name: String,
        section: String,
        section_name: String,
    },
}

/// The entries of `entries` that register, refuse or submit someone.
pub fn entered(state: &EventState, entries: &[LogEntry]) -> Vec<Entered> {
    let name_of = |id: &str| {
        state
            .section(id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    };
    entries
        .iter()
        .filter_map(|e| match e {
            LogEntry::PlayerRegistered(p) => Some(Entered::Registered {
                player: p.player,
                name: p.person.name.clone(),
                section: p.section.clone(),
                section_name: name_of(&p.section),
            }),
            LogEntry::EntryRefused {
                name,
                section,
                reason,
                ..
            } => Some(Entered::Refused {
                name: name.clone(),
                section: section.clone(),
                section_name: name_of(section),
                reason: reason.clone(),
            }),
            LogEntry::EntrySubmitted {
                submission,
                person: arbiter_types::Person { name, .. },
                section,
                ..
            } => Some(Entered::Submitted {
                submission: *submission,
                name: name.clone(),
                section: section.clone(),
                section_name: name_of(section),
            }),
            _ => None,
        })
        .collect()
}

pub(super) fn decide(
    state: &EventState,
    ctx: &Ctx,
    cmd: &RegistrationCommand,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<LogEntry>, Outcome), DirectorError> {
    use RegistrationCommand as C;
    let mut left_out = Vec::new();
    let entries = match cmd {
        C::Register {
            form,
            record_refusal,
        } => {
            let form = &EntryForm {
                section: import::known_section(state, &form.section)?,
                ..form.clone()
            };
            if *record_refusal {
                entries::register(state, ctx, form)?
            } else {
                entries::register_form(state, ctx, form)?
            }
        }
        C::RegisterEach { forms } => entries::register_batch(state, ctx, forms)?,
        C::RefuseEntry { form, reason } => entries::refuse(state, form, reason)?,
        C::Correct {
            player,
            changes,
            reason,
        } => entries::correct(state, ctx, *player, changes.clone(), reason)?,
        C::Edit {
            player,
            edited,
            reason,
        } => {
            let rec = state
                .player(*player)
                .ok_or(crate::Refusal::UnknownPlayer(*player))?;
            entries::correct(state, ctx, *player, edited.changes(state, rec), reason)?
        }
        C::CheckIn {
            player,
            pledge: None,
        } => entries::check_in(state, *player)?,
        C::CheckIn {
            player,
            pledge: Some(pledge),
        } => entries::check_in_pledged(state, *player, *pledge)?,
        C::CheckInEach { players, pledge } => {
            let (es, out) = entries::for_each(state, ctx, players, |s, _, p| {
                entries::check_in_pledged(s, p, *pledge)
            })?;
            left_out = out;
            es
        }
        C::CancelCheckIn { player } => entries::cancel_check_in(state, *player)?,
        C::Draw { section } => {
            let section = import::section_id(state, section);
            let es = entries::draw(state, &section)?;
            // The numbers drawn with the draw, else (the split alone) the section's.
            let order = es
                .iter()
                .find_map(|e| match e {
                    LogEntry::PairingNumbersDrawn { order, .. } => Some(order.as_slice()),
                    _ => None,
                })
                .or_else(|| state.section(&section).map(|r| r.order.as_slice()))
                .unwrap_or(&[]);
            let groups = es.iter().find_map(|e| match e {
                LogEntry::GroupsDrawn { groups, seed, .. } => Some(crate::groups::split_note(
                    order,
                    groups,
                    *seed,
                    crate::groups::numbered(state, &section),
                )),
                _ => None,
            });
            let drawn = es.iter().find_map(|e| match e {
                LogEntry::PairingNumbersDrawn { seed, order, .. } => Some(Outcome::Drawn {
                    section: state
                        .section(&section)
                        .map_or_else(|| section.clone(), |s| s.name.clone()),
                    seed: *seed,
                    numbering: crate::registration::numbering_words(
                        crate::registration::numbering_of(state, &section),
                    ),
                    players: order
                        .iter()
                        .map(|p| {
                            // The grade beside the name (段位/称号), which numbering by
                            // grade orders by.
                            let who = state.player(*p).map_or_else(String::new, |r| {
                                let name = match &r.grade {
                                    Some(g) => format!("{} {g}", r.person.name),
                                    None => r.person.name.clone(),
                                };
                                match r.person.unit.as_deref() {
                                    Some(u) => format!("{name} ({u})"),
                                    None => name,
                                }
                            });
                            (*p, who)
                        })
                        .collect(),
                    groups: groups.clone(),
                }),
                _ => None,
            });
            return Ok((es, drawn.unwrap_or(Outcome::Recorded)));
        }
        C::Withdraw { player, reason } => entries::withdraw(state, ctx, *player, reason)?,
        C::WithdrawTeam { team, reason } => withdraw_team(state, ctx, team, reason)?,
        C::Reinstate { player, reason } => entries::reinstate(state, ctx, *player, reason)?,
        C::Disqualify {
            player,
            reason,
            void_results,
        } => entries::disqualify(state, ctx, *player, reason, *void_results)?,
        C::Absence {
            player,
            round,
            reason,
            without_leave,
        } => entries::absence(
            state,
            ctx,
            *player,
            *round,
            reason.as_deref(),
            *without_leave,
        )?,
        C::EnterTeam { form } => entries::enter_team(state, ctx, form)?,
        C::ChangeRoster { change } => entries::change_roster(state, ctx, change)?,
        C::Submit { form, status_key } => {
            entries::submit_keyed(state, ctx, form, status_key.clone())?
        }
        C::Approve {
            submission,
            evidence,
            late_reason,
        } => entries::approve(
            state,
            ctx,
            *submission,
            evidence.clone(),
            late_reason.clone(),
        )?,
        C::RefuseSubmission { submission, reason } => {
            entries::refuse_submission(state, *submission, reason)?
        }
        C::WithdrawRefusal { refusal, reason } => withdraw_refusal(state, *refusal, reason)?,
        C::ChangeSection {
            player,
            section,
            reason,
        } => entries::change_section(state, *player, section, reason)?,
        C::MergeSections { from, into, reason } => {
            entries::merge_sections(state, from, into, reason)?
        }
        C::ImportRoster {
            roster,
            default_section,
            update_registered,
        } => {
            let mut report = import::import_roster(
                state,
                ctx,
                roster,
                default_section.as_deref(),
                *update_registered,
                progress,
            )?;
            // A file whose header cannot be read imports nothing.
            let es = std::mem::take(&mut report.entries);
            let es = if report.header_broken { Vec::new() } else { es };
            return Ok((es, Outcome::Imported(report)));
        }
    };
    let named =
        |ps: &[PlayerId]| -> Vec<String> { ps.iter().map(|p| entries::named(state, *p)).collect() };
    let team = entries.iter().find_map(|e| match e {
        LogEntry::TeamEntered {
            team,
            unit,
            members,
            ..
        } => Some(Outcome::Team {
            team: team.clone(),
            unit: unit.clone(),
            added: named(members),
            removed: Vec::new(),
        }),
        LogEntry::TeamRosterChanged {
            team,
            added,
            removed,
            ..
        } => Some(Outcome::Team {
            team: team.clone(),
            unit: String::new(),
            added: named(added),
            removed: named(removed),
        }),
        _ => None,
    });
    let outcome = match cmd {
        C::EnterTeam { .. } | C::ChangeRoster { .. } => team.unwrap_or(Outcome::Recorded),
        C::CheckInEach { .. } => Outcome::LeftOut(left_out),
        C::Correct { player, .. }
        | C::Edit { player, .. }
        | C::CheckIn { player, .. }
        | C::CancelCheckIn { player }
        | C::ChangeSection { player, .. }
        | C::Withdraw { player, .. }
        | C::Reinstate { player, .. }
        | C::Disqualify { player, .. }
        | C::Absence { player, .. } => Outcome::Player {
            who: entries::named(state, *player),
            withdrawn: entries.iter().find_map(|e| match e {
                LogEntry::PlayerWithdrawn { reason, .. } if !matches!(cmd, C::Withdraw { .. }) => {
                    Some(reason.clone())
                }
                _ => None,
            }),
        },
        C::Register { .. }
        | C::RegisterEach { .. }
        | C::RefuseEntry { .. }
        | C::Submit { .. }
        | C::Approve { .. } => Outcome::Entries(entered(state, &entries)),
        _ => Outcome::Recorded,
    };
    Ok((entries, outcome))
}

/// Withdraw the refusal recorded at seq `refusal` (`refusal_withdrawn`), with the reason.
fn withdraw_refusal(
    state: &EventState,
    refusal: u64,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    if !state.refused.iter().any(|r| r.seq == refusal) {
        return Err(crate::Refusal::NoSuchRefusal(refusal).into());
    }
    if reason.trim().is_empty() {
        return Err(crate::Refusal::ReasonMissing(crate::refusal::Needs::WithdrawRefusal).into());
    }
    Ok(vec![LogEntry::RefusalWithdrawn {
        refusal,
        reason: reason.trim().to_string(),
    }])
}

/// Every member of `team` not withdrawn yet, withdrawn with `reason` (each as the desk's
/// withdrawal of one player, on the state the ones before it leave).
fn withdraw_team(
    state: &EventState,
    ctx: &Ctx,
    team: &str,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    crate::permission::require(ctx, Action::Withdraw)?;
    let rec = state
        .teams
        .get(team)
        .ok_or_else(|| crate::Refusal::UnknownTeam {
            team: team.to_string(),
            closest: None,
        })?;
    let playing: Vec<PlayerId> = rec
        .members
        .iter()
        .copied()
        .filter(|p| !state.status(*p).is_some_and(|s| s.is_out()))
        .collect();
    if playing.is_empty() {
        return Err(crate::Refusal::TeamWithdrawn {
            team: team.to_string(),
        }
        .into());
    }
    let at = ctx.at_rfc3339();
    let mut scratch = state.clone();
    let mut out = Vec::new();
    for p in playing {
        for e in entries::withdraw(&scratch, ctx, p, reason)? {
            crate::apply_scratch(&mut scratch, &e, &at)?;
            out.push(e);
        }
    }
    Ok(out)
}

/// An entry as the desk's edit form reads now: `None` in an ID number or phone keeps the one
/// registered; `flags`: the boxes ticked, when the form shows them (the flags it does not
/// offer stay as registered).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditedEntry {
    /// Name, sex, birth date, ID number, phone and unit as the form gives them; the form has
    /// no 社保号 nor association, which stay as registered.
    pub person: arbiter_types::Person,
    pub team: Option<String>,
    pub flags: Option<Vec<String>>,
    /// 段位/称号 when the form shows the grade (the regulation keeps a scale): `Some(None)`
    /// for none.
    pub grade: Option<Option<String>>,
}

/// The flags the entry form of `section` offers as boxes: its conditions and its marks.
pub fn offered_flags(state: &EventState, section: &str) -> Vec<(String, String)> {
    let Ok(reg) = crate::regulation_of(state) else {
        return Vec::new();
    };
    let offer = reg
        .section(section)
        .map(entries::section_offer)
        .unwrap_or_default();
    offer
        .conditions
        .into_iter()
        .map(|(f, zh)| (f, zh.to_string()))
        .chain(offer.marks)
        .collect()
}

impl EditedEntry {
    /// What differs from the registration `rec`, field by field.
    pub fn changes(
        &self,
        state: &EventState,
        rec: &arbiter_core::PlayerRecord,
    ) -> Vec<FieldChange> {
        let (x, was) = (&self.person, &rec.person);
        let mut c = Vec::new();
        if x.name != was.name {
            c.push(FieldChange::Name(x.name.clone()));
        }
        if x.sex != was.sex {
            c.push(FieldChange::Sex(x.sex));
        }
        if x.birth_date != was.birth_date {
            c.push(FieldChange::BirthDate(x.birth_date));
        }
        if let Some(i) = x
            .id_number
            .as_ref()
            .filter(|i| was.id_number.as_ref() != Some(*i))
        {
            c.push(FieldChange::IdNumber(Some(i.clone())));
        }
        if let Some(p) = x.phone.as_ref().filter(|p| was.phone.as_ref() != Some(*p)) {
            c.push(FieldChange::Phone(Some(p.clone())));
        }
        if x.unit != was.unit {
            c.push(FieldChange::Unit(x.unit.clone()));
        }
        if self.team != rec.team {
            c.push(FieldChange::Team(self.team.clone()));
        }
        if let Some(g) = &self.grade {
            if *g != rec.grade {
                c.push(FieldChange::Grade(g.clone()));
            }
        }
        if let Some(ticked) = &self.flags {
            let offered = offered_flags(state, &rec.section);
            let mut flags: Vec<String> = rec
                .flags
                .iter()
                .filter(|f| !offered.iter().any(|(o, _)| o == *f))
                .cloned()
                .collect();
            flags.extend(ticked.iter().cloned());
            let (mut a, mut b) = (flags.clone(), rec.flags.clone());
            a.sort();
            b.sort();
            if a != b {
                c.push(FieldChange::Flags(flags));
            }
        }
        c
    }
}
