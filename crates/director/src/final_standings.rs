//! The final ranking of a section (the individual standings of `standings.rs`, or for a
//! two-stage section the knockout places 1..k then the continuing Swiss from k+1, A9), its
//! categories (S1, T1), team standings per division (A10, K11, T5) and association standings
//! across sections (S9).

use crate::knockout_stage;
use crate::plan::{section_plan, SectionPlan};
use crate::standings::{individual, st_err};
use crate::DirectorError;
use arbiter_core::{EventState, PlayerId, PlayerRecord};
use arbiter_regulation::{
    Category, EntryFacts, Regulation, SharedPlaces, TeamRanking as RegTeamRanking,
};
use arbiter_standings::association::{
    association_standings, AssociationEntry, AssociationInput, AssociationRow,
};
use arbiter_standings::team::{team_standings, DivisionTable, PlayerRank, Team, TeamRule};
use arbiter_standings::TbValue;
use arbiter_types::{PlayerNo, Score, TiebreakName};
use std::collections::{BTreeMap, BTreeSet};

/// One row of the final ranking of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalRow {
    pub rank: u32,
    pub no: PlayerNo,
    pub player: PlayerId,
    pub points: Score,
    pub tiebreaks: Vec<(TiebreakName, TbValue)>,
    /// `points`, a tie-break / fallback name, `knockout`, or `None` (first row / shared).
    pub decided_by: Option<String>,
}

/// The final ranking of a section: the individual standings, or for a two-stage section the
/// knockout places 1..k followed by everyone else in Swiss order from k+1. Before the
/// knockout is decided (interim standings of stage 2) its players are still listed apart,
/// 1..k in seed order, and the continuing Swiss from k+1.
pub fn final_ranking(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<Vec<FinalRow>, DirectorError> {
    let (sec, rec) = crate::section_parts(reg, state, section)?;
    let st = individual(sec, state, section, None)?;
    let pid = |no: PlayerNo| rec.order.get(no.index()).copied().unwrap_or(PlayerId(0));
    let mut rows: Vec<FinalRow> = Vec::new();
    let mut ko: BTreeSet<PlayerNo> = BTreeSet::new();
    if let SectionPlan::TwoStage { swiss_rounds, .. } = section_plan(sec, state) {
        if rec.completed_rounds() >= swiss_rounds {
            let b = knockout_stage::bracket(reg, state, section)?;
            // While the knockout is played (interim standings of stage 2, A9) its players
            // are listed apart, first, in the order of their seeds (the Swiss after stage
            // 1); the continuing Swiss follows from k+1 by its own standings.
            let shared_places = sec
                .format
                .knockout
                .as_ref()
                .map(|k| k.shared_places)
                .unwrap_or_default();
            let bracket_places = b.places();
            let places = bracket_places.clone().unwrap_or_else(|| {
                (1..)
                    .zip(b.ranking().iter().copied())
                    .collect::<Vec<(u32, PlayerNo)>>()
            });
            // The places the bracket leaves shared, separated as the regulation says
            // (`shared_places`): by seed (the order `places` lists them in), or by a lot
            // from the event's recorded seed; otherwise they stay shared.
            let (places, split_by) = match (shared_places, &bracket_places) {
                (SharedPlaces::Seed, Some(_)) => (split_places(places, None), "seed"),
                (SharedPlaces::Lot, Some(_)) => {
                    let seed = state.header.as_ref().map_or(0, |h| h.seed);
                    let lot = crate::derive_seed(seed, &format!("knockout-places/{section}"));
                    (split_places(places, Some(lot)), "lots")
                }
                _ => (places, "knockout"),
            };
            let bracket_place = |no: PlayerNo| {
                bracket_places
                    .as_ref()
                    .and_then(|ps| ps.iter().find(|(_, p)| *p == no).map(|(q, _)| *q))
            };
            // A17: a disqualified player has no place; the places below his move up.
            let out = |no: PlayerNo| {
                state
                    .player(pid(no))
                    .is_some_and(|p| p.disqualified.is_some())
            };
            let gone: Vec<u32> = places
                .iter()
                .filter(|(_, no)| out(*no))
                .map(|(place, _)| *place)
                .collect();
            let mut prev: Option<(u32, PlayerNo)> = None;
            for (place, no) in places.into_iter().filter(|(_, no)| !out(*no)) {
                let place = place - gone.iter().filter(|g| **g < place).count() as u32;
                let row = st.rows.iter().find(|r| r.no == no);
                // A place split from a shared one says how (`seed`, `lots`); the others, a
                // shared place too (its equal rank shows it), were decided by the knockout.
                let decided_by = match prev {
                    None => None,
                    Some((q, _)) if q == place => Some("knockout".to_string()),
                    Some((_, p))
                        if bracket_place(p).is_some() && bracket_place(p) == bracket_place(no) =>
                    {
                        Some(split_by.to_string())
                    }
                    Some(_) => Some("knockout".to_string()),
                };
                rows.push(FinalRow {
                    rank: place,
                    no,
                    player: pid(no),
                    points: row.map_or(Score::ZERO, |r| r.points),
                    tiebreaks: row.map(|r| r.tiebreaks.clone()).unwrap_or_default(),
                    decided_by,
                });
                prev = Some((place, no));
                ko.insert(no);
            }
        }
    }
    // A final played as round robins (`groups.rs`): once its field is fixed, the finalists
    // first by the final's points and the section's tie-breaks (its shared places shared),
    // pool after pool (same-place finals: the winners' pool for the first places).
    for fin in crate::groups::final_tables(sec, state, section)?.unwrap_or_default() {
        let before = rows.len() as u32;
        for (i, r) in fin.rows.iter().enumerate() {
            // A later pool's first row is below the pool before by the final itself.
            let decided_by = match r.decided_by {
                None if i == 0 && before > 0 => Some("final".to_string()),
                d => d.map(|d| d.name().to_string()),
            };
            rows.push(FinalRow {
                rank: before + r.rank,
                no: r.no,
                player: pid(r.no),
                points: r.points,
                tiebreaks: r.tiebreaks.clone(),
                decided_by,
            });
            ko.insert(r.no);
        }
    }
    // A disqualified finalist has no place (A17): listed apart, like the others'.
    if crate::groups::final_round_robin(sec) {
        ko.extend(rec.knockout_seeds.iter().copied());
    }
    let base = rows.len() as u32;
    let after = if crate::groups::final_round_robin(sec) {
        "final"
    } else {
        "knockout"
    };
    // A `groups` section: the others by their group place (A9, `groups.rs`), equal group
    // places shared, each in its group's order.
    if crate::groups::is_groups(sec) && !rec.groups.is_empty() {
        let tables = crate::groups::tables(sec, state, section)?;
        let mut rest: Vec<(u32, usize, usize, PlayerNo)> = crate::groups::places(&tables)
            .into_iter()
            .enumerate()
            .filter(|(_, (_, _, no))| !ko.contains(no))
            .filter(|(_, (_, _, no))| {
                state
                    .player(pid(*no))
                    .is_none_or(|p| p.disqualified.is_none())
            })
            .map(|(i, (g, place, no))| (place, g, i, no))
            .collect();
        rest.sort_unstable();
        let mut prev: Option<u32> = None;
        for &(place, _, _, no) in &rest {
            let better = rest.iter().filter(|r| r.0 < place).count() as u32;
            let decided_by = match prev {
                None if base > 0 => Some(after.to_string()),
                None => None,
                Some(q) if q == place => None,
                Some(_) => Some("group_place".to_string()),
            };
            let row = st.rows.iter().find(|r| r.no == no);
            rows.push(FinalRow {
                rank: base + better + 1,
                no,
                player: pid(no),
                points: row.map_or(Score::ZERO, |r| r.points),
                tiebreaks: row.map(|r| r.tiebreaks.clone()).unwrap_or_default(),
                decided_by,
            });
            prev = Some(place);
        }
        return Ok(rows);
    }
    let mut first_rest = true;
    let mut last_rank = 0;
    let mut pos = 0;
    for r in st.rows.iter().filter(|r| !ko.contains(&r.no)) {
        pos += 1;
        // Keep shared places shared; otherwise count on from k+1.
        let rank = if r.decided_by.is_none() && !first_rest {
            last_rank
        } else {
            base + pos
        };
        let decided_by = if first_rest && base > 0 {
            Some("knockout".to_string())
        } else {
            r.decided_by.map(|d| d.name().to_string())
        };
        rows.push(FinalRow {
            rank,
            no: r.no,
            player: pid(r.no),
            points: r.points,
            tiebreaks: r.tiebreaks.clone(),
            decided_by,
        });
        first_rest = false;
        last_rank = rank;
    }
    Ok(rows)
}

/// Places 1..=n from a bracket's places in their order (shared places by seed), or with
/// each shared place's players in the order of a lot drawn from `lot`.
fn split_places(places: Vec<(u32, PlayerNo)>, lot: Option<u64>) -> Vec<(u32, PlayerNo)> {
    let mut places = places;
    if let Some(seed) = lot {
        // Each player's lot: a number drawn from the seed and his pairing number; within a
        // shared place the smaller number takes the better place.
        places.sort_by_key(|&(q, p)| (q, crate::derive_seed(seed, &p.get().to_string())));
    }
    places
        .into_iter()
        .enumerate()
        .map(|(i, (_, p))| (i as u32 + 1, p))
        .collect()
}

/// Whether a player belongs to a category (S1, T1).
pub fn in_category(c: &Category, p: &PlayerRecord) -> bool {
    c.matches(&category_facts(p))
}

/// What a category can test about a registered player (S1, T1): birth date, sex, and the
/// flags of the entry — the form's flags, the evidence given, and `local`.
pub fn category_facts(p: &PlayerRecord) -> EntryFacts {
    let mut flags: BTreeSet<String> = p.flags.iter().chain(&p.evidence).cloned().collect();
    if p.local {
        flags.insert("local".into());
    }
    EntryFacts {
        birth_date: p.person.birth_date,
        sex: p.person.sex,
        flags,
        ..EntryFacts::default()
    }
}

/// A category ranking: (category rank, final row) in section order.
pub fn category_ranking<'a>(
    c: &Category,
    state: &EventState,
    rows: &'a [FinalRow],
) -> Vec<(u32, &'a FinalRow)> {
    let mut out: Vec<(u32, &FinalRow)> = Vec::new();
    for r in rows {
        let Some(p) = state.player(r.player) else {
            continue;
        };
        if !in_category(c, p) {
            continue;
        }
        let rank = match out.last() {
            Some((prev_rank, prev)) if prev.rank == r.rank => *prev_rank,
            _ => out.len() as u32 + 1,
        };
        out.push((rank, r));
    }
    out
}

/// Team standings of a section, one table per division (display names), from final ranks.
pub fn team_tables(
    reg: &Regulation,
    state: &EventState,
    section: &str,
    rows: &[FinalRow],
) -> Result<Vec<DivisionTable>, DirectorError> {
    let sec = reg
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let Some(tp) = &sec.teams else {
        return Ok(Vec::new());
    };
    let rec = state
        .section(section)
        .ok_or_else(|| DirectorError::UnknownSection(section.to_string()))?;
    let division_name = |t: &arbiter_core::TeamRecord| -> Option<String> {
        let d = team_division(t, &tp.divisions)?;
        Some(
            tp.divisions
                .iter()
                .find(|x| x.id == d || x.name == d)
                .map_or(d, |x| x.name.clone()),
        )
    };
    let mut teams: Vec<Team> = state
        .teams
        .values()
        .filter(|t| {
            t.members
                .iter()
                .any(|m| state.player(*m).is_some_and(|p| p.section == section))
        })
        .map(|t| Team {
            name: t.team.clone(),
            unit: t.unit.clone(),
            division: division_name(t),
            members: t
                .members
                .iter()
                .filter_map(|m| rec.pairing_no(*m))
                .collect(),
        })
        .collect();
    // Divisions in regulation order.
    let order: Vec<String> = tp.divisions.iter().map(|d| d.name.clone()).collect();
    teams.sort_by_key(|t| {
        (
            t.division
                .as_ref()
                .and_then(|d| order.iter().position(|x| x == d)),
            t.name.clone(),
        )
    });
    let ranks: Vec<PlayerRank> = rows
        .iter()
        .map(|r| PlayerRank {
            no: r.no,
            rank: r.rank,
            score: r.points,
        })
        .collect();
    let rule = match tp.ranking {
        RegTeamRanking::SumOfRanks => TeamRule::rank_sum(tp.counted),
        RegTeamRanking::SumOfScores => TeamRule::points_sum(tp.counted),
    };
    team_standings(&teams, &ranks, &rule)
        .map_err(|e| st_err(&sec.name, crate::StandingsFailure::Teams(e)))
}

/// The division id of a team: the recorded one when it is one of the section's divisions
/// (an older log may name a section id there, which is no division of the section).
pub fn team_division(
    t: &arbiter_core::TeamRecord,
    divisions: &[arbiter_regulation::Division],
) -> Option<String> {
    let d = t.division.as_ref()?;
    divisions
        .iter()
        .find(|x| &x.id == d || &x.name == d)
        .map(|x| x.id.clone())
}

/// Association standings (S9) from the final rankings of the listed sections.
pub fn association_table(
    reg: &Regulation,
    state: &EventState,
    finals: &BTreeMap<String, Vec<FinalRow>>,
) -> Result<Vec<AssociationRow>, DirectorError> {
    let Some(a) = &reg.associations else {
        return Ok(Vec::new());
    };
    let mut entries = Vec::new();
    for sid in &a.sections {
        let Some(rows) = finals.get(sid) else {
            continue;
        };
        // 苏州 六2: a section that ranks one category (老年组: 男子录取成绩) counts the place in it.
        let category = a
            .rank_in_category
            .get(sid)
            .and_then(|c| reg.section(sid).and_then(|s| s.category(c)));
        let ranked: Vec<(u32, &FinalRow)> = match category {
            Some(c) => category_ranking(c, state, rows),
            None => rows.iter().map(|r| (r.rank, r)).collect(),
        };
        for (rank, r) in ranked {
            let assoc = state
                .player(r.player)
                .and_then(|p| crate::registration::association_of(reg, p));
            if let Some(assoc) = assoc {
                entries.push(AssociationEntry {
                    association: assoc,
                    section: sid.clone(),
                    no: r.no,
                    rank,
                });
            }
        }
    }
    let associations: BTreeSet<String> = state
        .players
        .values()
        .filter_map(|p| crate::registration::association_of(reg, p))
        .collect();
    let input = AssociationInput {
        sections: a.sections.clone(),
        associations: associations.into_iter().collect(),
        entries,
    };
    association_standings(&input)
        .map_err(|e| st_err("协会", crate::StandingsFailure::Associations(e)))
}

/// A tie-break value as an exact score for the export (a non-half fraction, possible only for
/// Sonneborn-Berger with a colour-dependent draw score, is given to the half-point below).
pub fn tb_score(v: TbValue) -> Score {
    match v {
        TbValue::Int(i) => Score::points(i),
        other => other.as_score().unwrap_or_else(|| {
            let (n, d) = other.ratio();
            Score::from_halves((2 * n).div_euclid(d))
        }),
    }
}
