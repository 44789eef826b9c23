//! Helpers the desk's operations share: a player's record and name, a section's record,
//! entries checked in order as the store will check them.

use crate::refusal::{Refusal, Who};
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, PlayerId, PlayerRecord};

pub(in crate::api) fn who(p: PlayerId, rec: &PlayerRecord) -> Who {
    Who {
        id: p,
        name: rec.person.name.clone(),
    }
}

/// The entries an operation decided, once every text people typed in them is allowed
/// ([`crate::text`]): a form with a control character or a 100,000-character name is refused
/// for that, before any rule of the regulation answers it. The log's rules are checked once,
/// by [`crate::command::finish`] (each entry on a scratch fold, as the store will), for every
/// command — not a second time here.
pub(in crate::api) fn checked(entries: Vec<LogEntry>) -> Result<Vec<LogEntry>, DirectorError> {
    crate::text::check_entries(&entries)?;
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
