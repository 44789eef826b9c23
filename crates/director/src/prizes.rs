//! Prizes (录取名次及奖励, K13, S8, J7, T9) from the regulation's prize tables and the final
//! rankings: place prizes and titles, team prizes per division, association prizes, lucky
//! prizes by rank with "one award per person" (不可重复领奖).

use crate::final_standings::{category_ranking, FinalRow};
use crate::{DirectorError, Refusal};
use arbiter_core::EventState;
use arbiter_regulation::{Prize, Regulation};
use arbiter_standings::association::AssociationRow;
use arbiter_standings::prize::{
    allocate_board_prizes, allocate_prizes, BoardRanking, LuckyEntry, LuckyOnAwarded, LuckyTable,
    PrizeEntry, PrizeList, PrizeRules, PrizeTable, Qualification, RankedPlayer, RankedTeam,
    Ranking, Reservation, TeamPrizeTable, TeamRanking,
};
use arbiter_standings::team::DivisionTable;
use arbiter_types::PlayerNo;
use std::collections::BTreeMap;

/// Key of a team table in the prize rules: `section/division`.
pub fn team_key(section: &str, division: Option<&str>) -> String {
    format!("{section}/{}", division.unwrap_or(""))
}

/// Key of the association standings in the prize rules.
pub const ASSOCIATIONS: &str = "associations";

fn entry(p: &Prize) -> PrizeEntry {
    let (first, last) = p.ranks();
    PrizeEntry {
        first,
        last: (last != first).then_some(last),
        amount: p.amount_yuan.map(u64::from),
        title: p.title.clone(),
        item: p.item.clone(),
        trophy: p.trophy,
        medal: p.medal,
        certificate: p.certificate,
    }
}

/// The entries of a prize table cut to the places 1..=`last`: a range that ends below keeps
/// its places up to `last`, one that starts below goes.
fn fewer_places(entries: Vec<PrizeEntry>, last: u32) -> Vec<PrizeEntry> {
    entries
        .into_iter()
        .filter(|e| e.first <= last)
        .map(|mut e| {
            if e.last.is_some_and(|l| l > last) {
                e.last = (last != e.first).then_some(last);
            }
            e
        })
        .collect()
}

/// Everything needed to allocate the prizes of an event.
pub struct PrizeInput<'a> {
    pub finals: &'a BTreeMap<String, Vec<FinalRow>>,
    /// Team tables per section.
    pub teams: &'a BTreeMap<String, Vec<DivisionTable>>,
    pub associations: &'a [AssociationRow],
}

/// Players who share a place (并列) must not be told apart by the order of the list: where
/// the section's place prizes for their positions differ, or a qualification's places end
/// inside them — the section's own, or a category's in the category's ranking — the
/// allocation is refused until the regulation says how to separate them.
fn shared_places_agree(
    reg: &Regulation,
    state: &EventState,
    sec: &arbiter_regulation::Section,
    rows: &[FinalRow],
) -> Result<(), DirectorError> {
    // The prize of position `k` (1-based) in the section's own table.
    let prize_at = |k: u32| {
        sec.prizes
            .iter()
            .filter(|p| p.category.is_none())
            .find(|p| {
                let (a, b) = p.ranks();
                (a..=b).contains(&k)
            })
            .map(|p| (p.amount_yuan, &p.title, &p.item, p.trophy, p.medal))
    };
    // The qualifying places of one ranking (the section's: no category).
    let qualifying = |category: Option<&str>| -> Vec<u32> {
        sec.qualification
            .iter()
            .filter(|q| q.category.as_deref() == category)
            .filter_map(|q| q.places)
            .collect()
    };
    let refused = |category: Option<&str>, place: u32, players: usize, qualification: bool| {
        DirectorError::from(Refusal::SharedPlaceAwards {
            section: crate::refusal::Sec::in_reg(reg, &sec.id),
            category: category.map(|c| {
                sec.categories
                    .iter()
                    .find(|x| x.id == c)
                    .map_or(c.to_string(), |x| x.name.clone())
            }),
            place,
            players,
            qualification,
        })
    };
    let own = qualifying(None);
    for (first, last, place) in shared_runs(rows.iter().map(|r| r.rank)) {
        let n = (last - first + 1) as usize;
        if (first + 1..=last).any(|k| prize_at(k) != prize_at(first)) {
            return Err(refused(None, place, n, false));
        }
        if own.iter().any(|&q| q >= first && q < last) {
            return Err(refused(None, place, n, true));
        }
    }
    for c in &sec.categories {
        let lines = qualifying(Some(&c.id));
        if lines.is_empty() {
            continue;
        }
        let ranking = category_ranking(c, state, rows);
        for (first, last, place) in shared_runs(ranking.iter().map(|(rank, _)| *rank)) {
            if lines.iter().any(|&q| q >= first && q < last) {
                return Err(refused(
                    Some(&c.id),
                    place,
                    (last - first + 1) as usize,
                    true,
                ));
            }
        }
    }
    Ok(())
}

/// The runs of equal ranks in a ranking of two players or more: (first position, last
/// position, the shared rank), positions counted from 1.
fn shared_runs(ranks: impl Iterator<Item = u32>) -> Vec<(u32, u32, u32)> {
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    for (i, rank) in ranks.enumerate() {
        let k = i as u32 + 1;
        match runs.last_mut() {
            Some(run) if run.2 == rank && run.1 + 1 == k => run.1 = k,
            _ => runs.push((k, k, rank)),
        }
    }
    runs.retain(|(a, b, _)| b > a);
    runs
}

/// Allocate every prize of the regulation.
pub fn allocate(
    reg: &Regulation,
    state: &EventState,
    input: &PrizeInput,
) -> Result<PrizeList, DirectorError> {
    let mut rules = PrizeRules::default();
    let mut rankings = Vec::new();
    let mut team_rankings = Vec::new();
    let mut listed_base = 0u32;
    for sec in &reg.sections {
        let Some(rows) = input.finals.get(&sec.id) else {
            continue;
        };
        shared_places_agree(reg, state, sec, rows)?;
        let name = |r: &FinalRow| {
            state
                .player(r.player)
                .map(|p| p.person.name.clone())
                .unwrap_or_default()
        };
        let team = |r: &FinalRow| state.player(r.player).and_then(|p| p.team.clone());
        rankings.push(Ranking {
            section: sec.id.clone(),
            category: None,
            rows: rows
                .iter()
                .map(|r| RankedPlayer {
                    rank: r.rank,
                    no: r.no,
                    name: name(r),
                    team: team(r),
                })
                .collect(),
        });
        for c in &sec.categories {
            rankings.push(Ranking {
                section: sec.id.clone(),
                category: Some(c.id.clone()),
                rows: category_ranking(c, state, rows)
                    .into_iter()
                    .map(|(rank, r)| RankedPlayer {
                        rank,
                        no: r.no,
                        name: name(r),
                        team: team(r),
                    })
                    .collect(),
            });
        }
        // Place prizes, one table per category (the section's own first).
        let mut by_cat: BTreeMap<Option<String>, Vec<PrizeEntry>> = BTreeMap::new();
        for p in &sec.prizes {
            by_cat.entry(p.category.clone()).or_default().push(entry(p));
        }
        for (category, mut entries) in by_cat {
            entries.sort_by_key(|e| e.first);
            // 「不足8人则减1录取」: a table ranking fewer players than `fewer_than` awards
            // places down to one fewer than it ranks.
            if let Some(k) = sec.awards.fewer_than {
                let ranked = rankings
                    .iter()
                    .find(|r| r.section == sec.id && r.category == category)
                    .map_or(0, |r| r.rows.len() as u32);
                if ranked < k {
                    entries = fewer_places(entries, ranked.saturating_sub(1));
                }
            }
            // Where the table is listed: its first line (A14: of equal awards, the first).
            let listed = sec
                .prizes
                .iter()
                .position(|p| p.category == category)
                .map(|i| listed_base + i as u32);
            let reserved = match (&category, &sec.reserved_places) {
                (None, Some(r)) => Some(Reservation {
                    category: r.category.clone(),
                    places: r.places,
                    floor: u64::from(r.floor_yuan),
                }),
                _ => None,
            };
            rules.places.push(PrizeTable {
                section: sec.id.clone(),
                category,
                entries,
                reserved,
                listed,
            });
        }
        listed_base += sec.prizes.len() as u32;
        for l in &sec.lucky {
            let mut ranks = l.ranks.clone();
            ranks.sort_unstable();
            rules.lucky.push(LuckyTable {
                section: sec.id.clone(),
                category: l.category.clone(),
                entries: ranks
                    .into_iter()
                    .map(|rank| LuckyEntry {
                        rank,
                        amount: None,
                        item: Some(l.item.clone()),
                    })
                    .collect(),
            });
        }
        // S8: every qualification whose places are known, in the regulation's order.
        for q in &sec.qualification {
            if let Some(places) = q.places {
                rules.qualification.push(Qualification {
                    section: sec.id.clone(),
                    category: q.category.clone(),
                    places,
                    label: q.to.clone(),
                });
            }
        }
        if sec.awards.one_award_per_person {
            rules.one_award_per_person = true;
            rules.lucky_on_awarded = match sec.awards.lucky_on_awarded {
                arbiter_regulation::LuckyOnAwarded::NextRank => LuckyOnAwarded::NextRank,
                arbiter_regulation::LuckyOnAwarded::Unawarded => LuckyOnAwarded::Unawarded,
            };
        }
        // A team-match section (A15): its teams' places by the team standings.
        if let Some(tm) = sec.team_match.as_ref().filter(|tm| !tm.prizes.is_empty()) {
            let key = team_key(&sec.id, None);
            let table = crate::team_match::standings(reg, state, &sec.id)?;
            team_rankings.push(TeamRanking {
                section: key.clone(),
                rows: table
                    .rows
                    .iter()
                    .map(|r| RankedTeam {
                        rank: r.rank,
                        team: r.name.clone(),
                    })
                    .collect(),
            });
            let mut entries: Vec<PrizeEntry> = tm.prizes.iter().map(entry).collect();
            entries.sort_by_key(|e| e.first);
            rules.teams.push(TeamPrizeTable {
                section: key,
                entries,
            });
        }
        // Team prizes per division.
        if let (Some(tp), Some(tables)) = (&sec.teams, input.teams.get(&sec.id)) {
            for t in tables {
                let div_id = t.division.as_ref().and_then(|n| {
                    tp.divisions
                        .iter()
                        .find(|d| &d.name == n)
                        .map(|d| d.id.clone())
                });
                let key = team_key(&sec.id, t.division.as_deref());
                let mut entries: Vec<PrizeEntry> = tp
                    .prizes
                    .iter()
                    .filter(|p| {
                        p.division.is_none() || p.division == div_id || p.division == t.division
                    })
                    .map(entry)
                    .collect();
                entries.sort_by_key(|e| e.first);
                team_rankings.push(TeamRanking {
                    section: key.clone(),
                    rows: t
                        .rows
                        .iter()
                        .filter_map(|r| {
                            r.rank.map(|rank| RankedTeam {
                                rank,
                                team: r.team.clone(),
                            })
                        })
                        .collect(),
                });
                if !entries.is_empty() {
                    rules.teams.push(TeamPrizeTable {
                        section: key,
                        entries,
                    });
                }
            }
        }
    }
    if let Some(a) = &reg.associations {
        if !a.prizes.is_empty() {
            team_rankings.push(TeamRanking {
                section: ASSOCIATIONS.to_string(),
                rows: input
                    .associations
                    .iter()
                    .filter_map(|r| {
                        r.rank.map(|rank| RankedTeam {
                            rank,
                            team: r.association.clone(),
                        })
                    })
                    .collect(),
            });
            let mut entries: Vec<PrizeEntry> = a.prizes.iter().map(entry).collect();
            entries.sort_by_key(|e| e.first);
            rules.teams.push(TeamPrizeTable {
                section: ASSOCIATIONS.to_string(),
                entries,
            });
        }
    }
    let mut list =
        allocate_prizes(&rules, &rankings, &team_rankings).map_err(DirectorError::Prizes)?;
    // 台次奖 (A15): each board's places of a team-match section, after every other prize.
    for sec in &reg.sections {
        let Some(tm) = sec
            .team_match
            .as_ref()
            .filter(|tm| !tm.board_prizes.is_empty())
        else {
            continue;
        };
        let Some(standings) = crate::team_match::board_prizes(reg, state, &sec.id) else {
            continue;
        };
        let boards: Vec<BoardRanking> = standings
            .boards
            .iter()
            .map(|t| BoardRanking {
                section: sec.id.clone(),
                board: t.board,
                rows: t
                    .rows
                    .iter()
                    .filter_map(|r| {
                        Some(RankedPlayer {
                            rank: r.rank?,
                            no: PlayerNo::new(r.no)?,
                            name: r.name.clone(),
                            team: Some(r.team.clone()),
                        })
                    })
                    .collect(),
            })
            .collect();
        let entries: Vec<PrizeEntry> = tm.board_prizes.iter().map(entry).collect();
        allocate_board_prizes(&mut list, &sec.id, &entries, &boards)
            .map_err(DirectorError::Prizes)?;
    }
    Ok(list)
}
