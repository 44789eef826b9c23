//! The draw of pairing numbers (序号), and a player named by his number.

use super::shared::{checked, section_of};
use crate::refusal::{Refusal, Sec};
use crate::registration::{self};
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, PlayerId};

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
    let name = state.player(p).map_or("", |r| r.person.name.as_str());
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

/// Draw the section's pairing numbers by lot (A3; the seed is derived from the event's and
/// recorded). Unpaid and withdrawn players get no number. Before round 1 a draw may be made
/// again (a new player set); once a round is paired, a draw gives the late entries the next
/// numbers.
pub fn draw(state: &EventState, section: &str) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = section_of(state, section)?;
    let reg = crate::regulation_of(state)?;
    // A `groups` section numbered and not yet split: the split alone (`groups.rs`).
    if let Some(sec) = reg.section(section) {
        if crate::groups::needs_split(sec, rec) {
            if let Some(split) = crate::groups::split_entry(sec, state, section) {
                return checked(vec![split]);
            }
        }
    }
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
    // A `groups` section splits its numbered players with the draw.
    let mut out = Vec::new();
    if let (Some(sec), LogEntry::PairingNumbersDrawn { order, .. }) = (
        reg.section(section).filter(|s| crate::groups::is_groups(s)),
        &e,
    ) {
        if rec.rounds.is_empty() {
            out.push(crate::groups::split_of(sec, state, section, order));
        }
    }
    out.insert(0, e);
    checked(out)
}
