//! The event itself (赛事): its creation from a regulation, closing and reopening, settings,
//! the organisers' awards, the officials ([`crate::api::event`], [`crate::api::awards`],
//! [`crate::api::officials`]).

use super::Outcome;
use crate::api::event::{self, SettingsForm};
use crate::api::{awards, officials, Ctx};
use crate::permission::Action;
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, Official};

/// A write of the event as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventCommand {
    /// Create the event from a regulation's text (checked, copied into the log): the lots'
    /// seed is `seed` or a hash of the text; `settings` are this edition's (dates, deadline …),
    /// recorded when they differ from the regulation's. Decided on an empty log.
    Create {
        source: String,
        file_name: String,
        seed: Option<u64>,
        settings: Option<SettingsForm>,
    },
    /// Close the event once every section is finished.
    Close,
    /// The chief arbiter reopens a closed event, with the reason.
    Reopen { reason: String },
    /// Change the event's settings.
    ChangeSettings { form: SettingsForm },
    /// Give an organiser's award to its recipients (none: taken back), with the reason.
    GiveSpecialAward {
        award: String,
        recipients: Vec<String>,
        reason: String,
    },
    /// Record the event's officials (裁判长, 编排长 …) in order, replacing the list in force
    /// (none: taken back).
    AppointOfficials {
        officials: Vec<Official>,
        reason: String,
    },
}

impl EventCommand {
    pub fn action(&self) -> Action {
        match self {
            EventCommand::Create { .. } => Action::CreateEvent,
            EventCommand::Close => Action::CloseEvent,
            EventCommand::Reopen { .. } => Action::Reopen,
            EventCommand::ChangeSettings { .. } => Action::ChangeSettings,
            EventCommand::GiveSpecialAward { .. } => Action::GiveSpecialAward,
            EventCommand::AppointOfficials { .. } => Action::AppointOfficials,
        }
    }
}

pub(super) fn decide(
    state: &EventState,
    ctx: &Ctx,
    cmd: &EventCommand,
) -> Result<(Vec<LogEntry>, Outcome), DirectorError> {
    let entries = match cmd {
        EventCommand::Create {
            source,
            file_name,
            seed,
            settings,
        } => {
            if state.header.is_some() || state.last_seq > 0 {
                return Err(DirectorError::Rejected(
                    arbiter_core::Rejection::EventExists,
                ));
            }
            let (name, entries) = match settings {
                Some(form) => event::create_edition(source, file_name, *seed, ctx, form)?,
                None => event::create(source, file_name, *seed)?,
            };
            return Ok((entries, Outcome::Created { name }));
        }
        EventCommand::Close => event::close(state, ctx)?,
        EventCommand::Reopen { reason } => event::reopen(state, ctx, reason)?,
        EventCommand::ChangeSettings { form } => event::change_settings(state, ctx, form)?,
        EventCommand::AppointOfficials {
            officials: list,
            reason,
        } => officials::appoint(ctx, list, reason)?,
        EventCommand::GiveSpecialAward {
            award,
            recipients,
            reason,
        } => {
            let entries = awards::give_special_award(state, ctx, award, recipients, reason)?;
            let given = entries.iter().find_map(|e| match e {
                LogEntry::SpecialAwardGiven {
                    award, recipients, ..
                } => Some(Outcome::Awarded {
                    award: award.clone(),
                    recipients: recipients.clone(),
                }),
                _ => None,
            });
            return Ok((entries, given.unwrap_or(Outcome::Recorded)));
        }
    };
    Ok((entries, Outcome::Recorded))
}
