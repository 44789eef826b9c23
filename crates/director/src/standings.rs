//! Individual standings of a section after a number of rounds (A6): the standings engine fed
//! from the log with the regulation's scoring, tie-breaks and tie-break options. The knockout
//! seeding (after stage 1, `knockout_stage.rs`) and the final ranking (`final_standings.rs`)
//! both build on it.

use crate::DirectorError;
use arbiter_core::{EventState, PlayerRecord, PlayerStatus};
use arbiter_regulation::Section;
use arbiter_standings::{PlayerEntry, Standings, StandingsInput, TiebreakOptions};
use arbiter_types::PlayerNo;

pub(crate) fn st_err(section: &str, cause: crate::StandingsFailure) -> DirectorError {
    DirectorError::Standings {
        section: section.to_string(),
        cause,
    }
}

/// Tie-break options of the standings engine from the regulation's settings.
pub fn tiebreak_options(sec: &Section, seed: u64) -> TiebreakOptions {
    let o = &sec.tiebreak_options;
    TiebreakOptions {
        wins_include_forfeit: o.wins_include_forfeits,
        wins_include_bye: o.wins_include_byes,
        black_count_forfeits: o.black_games_include_forfeits,
        direct: match o.direct {
            arbiter_regulation::DirectMode::TwoOnly => arbiter_standings::DirectMode::TwoOnly,
            arbiter_regulation::DirectMode::MiniTable => arbiter_standings::DirectMode::MiniTable,
        },
        bye_opp_value: match o.opp_score_bye {
            arbiter_regulation::ByeOppValue::Zero => arbiter_standings::ByeOppValue::Zero,
            _ => arbiter_standings::ByeOppValue::Lowest,
        },
        lots_seed: crate::derive_seed(seed, &format!("lots/{}", sec.id)),
        ..TiebreakOptions::default()
    }
}

/// Whether a player appears in the standings: everybody but players never paired because
/// they did not pay (T7).
fn ranked(state: &EventState, p: &PlayerRecord, outcomes: &[arbiter_types::Outcome]) -> bool {
    state.status(p.id) != Some(PlayerStatus::Unpaid)
        || outcomes
            .iter()
            .any(|o| !matches!(o, arbiter_types::Outcome::Absent))
}

/// What the individual standings of a section are computed from: the standings engine's
/// input and the disqualified players, listed apart ([`individual_from`]). The same input
/// gives the same standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndividualInput {
    pub input: StandingsInput,
    pub apart: std::collections::BTreeSet<PlayerNo>,
}

/// Individual standings of a section after `upto` rounds (all completed rounds if `None`).
pub fn individual(
    sec: &Section,
    state: &EventState,
    section: &str,
    upto: Option<u32>,
) -> Result<Standings, DirectorError> {
    individual_from(sec, &individual_input(sec, state, section, upto)?)
}

/// What [`individual`] computes the standings of a section after `upto` rounds from.
pub fn individual_input(
    sec: &Section,
    state: &EventState,
    section: &str,
    upto: Option<u32>,
) -> Result<IndividualInput, DirectorError> {
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let seed = state.header.as_ref().map_or(0, |h| h.seed);
    let mut players = Vec::new();
    let mut outcomes = Vec::new();
    let mut all = state.section_outcomes(section);
    let mut apart = std::collections::BTreeSet::new();
    for (i, &pid) in rec.order.iter().enumerate() {
        let Some(p) = state.player(pid) else { continue };
        if p.disqualified.is_some() {
            apart.insert(PlayerNo::from_index(i));
        }
        let mut o = all.remove(&pid).unwrap_or_default();
        if !ranked(state, p, &o) {
            continue;
        }
        if let Some(n) = upto {
            o.truncate(n as usize);
        }
        let mut e = PlayerEntry::new(PlayerNo::from_index(i));
        e.name = Some(p.person.name.clone());
        e.rating = p.rating;
        e.fouls = state.foul_count(pid) as u32;
        e.withdrawn = p.withdrawn.is_some();
        players.push(e);
        outcomes.push(o);
    }
    let list = crate::plan::played_tiebreaks(sec, state);
    let scoring = crate::plan::scoring_table(sec, state);
    let mut options = tiebreak_options(sec, seed);
    // A round robin's 轮空 scores nothing (plan::scoring_table): nor is it a won game.
    if scoring.bye != sec.scoring.table.bye {
        options.wins_include_bye = false;
    }
    let input = StandingsInput {
        players,
        outcomes,
        scoring,
        tiebreaks: list.criteria,
        fallback: list.fallback,
        options,
    };
    Ok(IndividualInput { input, apart })
}

/// The individual standings of `sec` computed from `from` ([`individual_input`]).
pub fn individual_from(sec: &Section, from: &IndividualInput) -> Result<Standings, DirectorError> {
    let mut table = arbiter_standings::compute(&from.input)
        .map_err(|e| st_err(&sec.name, crate::StandingsFailure::Table(e)))?;
    if !from.apart.is_empty() {
        without_disqualified(&mut table, &from.apart);
    }
    Ok(table)
}

/// The standings without the disqualified players (A17: no place, prize or title — the
/// standings list them apart, [`disqualified`]): the rows below a disqualified player move
/// up, a shared place stays shared. His games still count for his opponents' tie-breaks.
fn without_disqualified(table: &mut Standings, apart: &std::collections::BTreeSet<PlayerNo>) {
    let rows = std::mem::take(&mut table.rows);
    let mut prev_old = None;
    let mut prev_new = 0;
    for (i, mut row) in rows
        .into_iter()
        .filter(|r| !apart.contains(&r.no))
        .enumerate()
    {
        let rank = if prev_old == Some(row.rank) {
            prev_new
        } else {
            i as u32 + 1
        };
        prev_old = Some(row.rank);
        prev_new = rank;
        row.rank = rank;
        table.rows.push(row);
    }
}

/// The disqualified players of a section (A17), listed apart from the standings: each with
/// his pairing number, name and the chief arbiter's reason, in pairing-number order.
pub fn disqualified(state: &EventState, section: &str) -> Vec<(u32, String, String)> {
    state
        .players(section)
        .into_iter()
        .filter_map(|p| {
            let d = p.disqualified.as_ref()?;
            let no = state
                .section(section)?
                .pairing_no(p.id)
                .map_or(0, |n| n.get());
            Some((no, p.person.name.clone(), d.reason.clone()))
        })
        .collect()
}
