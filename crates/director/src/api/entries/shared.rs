//! Helpers the desk's operations share: a player's record and name, a section's record,
//! entries checked in order as the store will check them.

use crate::api::Ctx;
use crate::refusal::{Refusal, Who};
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, PlayerId, PlayerRecord};

pub(in crate::api) fn who(p: PlayerId, rec: &PlayerRecord) -> Who {
    Who {
        id: p,
        name: rec.name.clone(),
    }
}

/// The entries an operation decided. Every command is finished by [`crate::command::finish`]
/// — the text rule, then each entry against the log's rules on a scratch fold, as the store
/// will check them — so an operation does not check them a second time on the way.
pub(in crate::api) fn checked(
    state: &EventState,
    ctx: &Ctx,
    entries: Vec<LogEntry>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let _ = (state, ctx);
    Ok(entries)
}

pub(in crate::api) fn player(
    state: &EventState,
    p: PlayerId,
) -> Result<&PlayerRecord, DirectorError> {
    state
        .player(p)
        .ok_or_else(|| Refusal::UnknownPlayer(p).into())
}

pub(super) fn section_of<'a>(
    state: &'a EventState,
    section: &str,
) -> Result<&'a arbiter_core::SectionRecord, DirectorError> {
    state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))
}
