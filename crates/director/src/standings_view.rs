//! The standings of a section as a person reads them (名次表): the final ranking of
//! `final_standings.rs` (A6, A9) with each player's name, withdrawal, the mark of a corrected
//! result (A12), the regulation's categories the player belongs to (S1, T1), the value of the
//! fallback criterion as published, and whether the table is still provisional (第N轮后 ·
//! 暂定). The CLI (`arbiter standings`), the pages and the documents show this one view.

use crate::final_standings::{category_facts, final_ranking};
use crate::publish::fallback_values;
use crate::step::{next_step, Step};
use crate::DirectorError;
use arbiter_core::{EventState, PlayerId};
use arbiter_regulation::Regulation;
use arbiter_standings::{category_of_ranks, CategoryRow, TbValue};
use arbiter_types::{closest, PlayerNo, Score, TiebreakName};
use std::collections::BTreeSet;

/// One row of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingLine {
    pub rank: u32,
    pub no: PlayerNo,
    pub player: PlayerId,
    pub name: String,
    pub points: Score,
    /// The value of every tie-break of the list, in list order.
    pub tiebreaks: Vec<(TiebreakName, TbValue)>,
    /// What separated this row from the one above: `points`, a tie-break or fallback name,
    /// `knockout`, `pairing_no`, or `None` (first row, or a shared rank).
    pub decided_by: Option<String>,
    pub withdrawn: bool,
    /// A confirmed result of this player was corrected by the chief arbiter (A12).
    pub corrected: bool,
    /// Ids of the regulation's categories the player belongs to, in regulation order.
    pub categories: Vec<String>,
    /// The fallback's first-level value as published (e.g. the rank after round N−1 for
    /// `previous_round_rank`): (criterion name, value).
    pub fallback: Option<(&'static str, Score)>,
}

/// A category of the section: id and name, as the regulation lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryName {
    pub id: String,
    pub name: String,
}

/// The standings of one section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingsView {
    pub section: String,
    /// The tie-breaks after points, in order.
    pub criteria: Vec<TiebreakName>,
    pub lines: Vec<StandingLine>,
    pub categories: Vec<CategoryName>,
    /// Rounds whose results are all in and counted.
    pub after_round: u32,
    /// Still provisional: the section has games to play (暂定) — final once nothing is left.
    pub provisional: bool,
    /// The disqualified players (A17), listed apart: (pairing number, name, reason).
    pub disqualified: Vec<(u32, String, String)>,
    /// The group tables of a `groups` section (A first): the group's letter and its rows
    /// (rank in the group, pairing number, name, points); empty for any other section.
    pub groups: Vec<GroupTable>,
}

/// One group's table of a `groups` section: its letter and its rows, each (rank in the
/// group, pairing number, name, points).
pub type GroupTable = (String, Vec<(u32, PlayerNo, String, Score)>);

impl StandingsView {
    /// The category `id`'s table: its players in section order, ranked inside the category
    /// (shared exactly where the section shares), S1 / T1. An unknown id is refused with the
    /// section's categories and the closest one.
    pub fn category(&self, id: &str) -> Result<Vec<(CategoryRow, &StandingLine)>, DirectorError> {
        if !self.categories.iter().any(|c| c.id == id) {
            let known: Vec<&str> = self.categories.iter().map(|c| c.id.as_str()).collect();
            return Err(crate::Refusal::UnknownCategory {
                // The view keeps the section's id only.
                section: crate::refusal::Sec {
                    id: self.section.clone(),
                    name: String::new(),
                },
                category: id.to_string(),
                known: known.iter().map(|s| s.to_string()).collect(),
                closest: closest(id, known.iter().copied()).map(str::to_string),
            }
            .into());
        }
        let members: Vec<&StandingLine> = self
            .lines
            .iter()
            .filter(|l| l.categories.iter().any(|c| c == id))
            .collect();
        Ok(category_of_ranks(members.iter().map(|l| (l.rank, l.no)))
            .into_iter()
            .zip(members)
            .collect())
    }

    /// The name of category `id`, if the section has it.
    pub fn category_name(&self, id: &str) -> Option<&str> {
        self.categories
            .iter()
            .find(|c| c.id == id)
            .map(|c| c.name.as_str())
    }
}

/// The players of `section` with a confirmed result changed by the chief arbiter's
/// correction (A12: the standings show that a correction happened).
pub fn corrected_players(state: &EventState, section: &str) -> BTreeSet<PlayerId> {
    state
        .section(section)
        .map(|rec| {
            rec.rounds
                .values()
                .flat_map(|r| r.boards.iter())
                .filter(|b| b.corrected)
                .flat_map(|b| [b.red, b.black])
                .collect()
        })
        .unwrap_or_default()
}

/// The standings of `section` ranked by `reg` (pass a regulation with a changed tie-break
/// list to rank by that list, as `arbiter standings --tiebreaks` does). A section whose
/// numbers are not drawn yet has no rows.
pub fn standings_view(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<StandingsView, DirectorError> {
    let (sec, rec) = crate::section_parts(reg, state, section)?;
    let rows = if rec.order.is_empty() {
        Vec::new()
    } else {
        final_ranking(reg, state, section)?
    };
    let corrected = corrected_players(state, section);
    let fallback = fallback_values(sec, state);
    let lines = rows
        .into_iter()
        .map(|r| {
            let p = state.player(r.player);
            let facts = p.map(category_facts);
            StandingLine {
                rank: r.rank,
                no: r.no,
                player: r.player,
                name: p.map(|p| p.person.name.clone()).unwrap_or_default(),
                points: r.points,
                tiebreaks: r.tiebreaks,
                decided_by: r.decided_by,
                withdrawn: p.is_some_and(|p| p.withdrawn.is_some()),
                corrected: corrected.contains(&r.player),
                categories: sec
                    .categories
                    .iter()
                    .filter(|c| facts.as_ref().is_some_and(|f| c.matches(f)))
                    .map(|c| c.id.clone())
                    .collect(),
                fallback: fallback.as_ref().map(|(f, values)| {
                    (f.name(), values.get(&r.no).copied().unwrap_or(Score::ZERO))
                }),
            }
        })
        .collect();
    let provisional = next_step(reg, state, section)? != Step::Done;
    Ok(StandingsView {
        section: section.to_string(),
        criteria: crate::plan::played_tiebreaks(sec, state).criteria,
        lines,
        categories: sec
            .categories
            .iter()
            .map(|c| CategoryName {
                id: c.id.clone(),
                name: c.name.clone(),
            })
            .collect(),
        after_round: rec.completed_rounds(),
        provisional,
        disqualified: crate::standings::disqualified(state, section),
        groups: group_lines(sec, state, rec, section)?,
    })
}

/// The group tables of a `groups` section once split ([`StandingsView::groups`]).
fn group_lines(
    sec: &arbiter_regulation::Section,
    state: &EventState,
    rec: &arbiter_core::SectionRecord,
    section: &str,
) -> Result<Vec<GroupTable>, DirectorError> {
    if !crate::groups::is_groups(sec) || rec.groups.is_empty() {
        return Ok(Vec::new());
    }
    let name = |no: PlayerNo| {
        rec.order
            .get(no.index())
            .and_then(|p| state.player(*p))
            .map(|p| p.person.name.clone())
            .unwrap_or_default()
    };
    Ok(crate::groups::tables(sec, state, section)?
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                crate::groups::label(sec, i),
                t.rows
                    .iter()
                    .map(|r| (r.rank, r.no, name(r.no), r.points))
                    .collect(),
            )
        })
        .collect())
}
