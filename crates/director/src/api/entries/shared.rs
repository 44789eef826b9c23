//! Helpers the desk's operations share: a player's record and name, a section's record,
//! entries checked in order as the store will check them.

use crate::api::Ctx;
use crate::refusal::{Refusal, Who};
use crate::DirectorError;
use arbiter_core::{validate_at, EventState, LogEntry, PlayerId, PlayerRecord};

pub(in crate::api) fn who(p: PlayerId, rec: &PlayerRecord) -> Who {
    Who {
        id: p,
        name: rec.name.clone(),
    }
}

/// Check `entries` in order against a scratch copy of `state`, as the store will.
pub(in crate::api) fn checked(
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
